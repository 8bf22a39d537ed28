package serverbench.benchmarks

import serverbench.client.ClientReport
import serverbench.client.LoadGroup
import serverbench.client.Properties
import serverbench.metrics.JitMeter
import serverbench.metrics.Steadiness
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Warmup until the server is steady, measured instead of assumed: load in windows, each window's successful req/s a
 * figure, until the last [Steadiness.WINDOWS] agree with each other and with the ones before them
 * ([Steadiness.warmedUp]), at least 2 × [Steadiness.WINDOWS] windows and at most [maxSeconds]. JMH's warmup is a
 * fixed count of iterations that it cannot end early, and no count suits every benchmark: how long the hot paths take
 * to compile differs several-fold between them (docs/warmup.md).
 *
 * Throughput alone can plateau while the JIT is still at work (docs/warmup.md), so the JIT must also be quiet:
 * its compiler threads' CPU over the last [Steadiness.WINDOWS] windows below [JIT_SHARE] of their time ([JitMeter]:
 * CPU, not elapsed compile time, which grows while a compiler waits for a CPU).
 *
 * Windows last max(1 s, 10 mean latencies), at most 5 s: a window must hold many round trips of every connection, or
 * whole bursts of responses (handlers that wait in step answer `concurrency` at a time) make its count jump. Where even
 * a 5 s window cannot be more precise than that, the tolerance widens to half a burst of all connections per window.
 */
class SteadyWarmup(private val maxSeconds: Long, private val jit: JitMeter = JitMeter()) {

    class Outcome(
        val seconds: Double,
        val steady: Boolean,
        val figures: List<Double>,
        val windowSeconds: Double,
        val jitMillis: Long,
        /** What [jitMillis] is ([JitMeter.label]). */
        val jitLabel: String,
    ) {
        fun describe(): String {
            val last = figures.takeLast(Steadiness.WINDOWS).joinToString(", ") { "%,.0f".format(it) }
            return if (steady) {
                "warmed up until steady in %.0f s (windows of %.1f s; last req/s: %s; JIT %d ms in them, %s)"
                    .format(seconds, windowSeconds, last, jitMillis, jitLabel)
            } else {
                (
                    "NOT steady after the %.0f s warmup limit (-D%s; last req/s: %s; JIT %d ms in them, %s; " +
                        "steady needs < %.0f %% of their time): measuring anyway, see the notSteady guard"
                    ).format(seconds, MAX_PROPERTY, last, jitMillis, jitLabel, JIT_SHARE * 100)
            }
        }
    }

    /**
     * Runs windows of load on [client]; [started] and [ended] run at each window's start and end, as the benchmark's
     * own per-iteration checks run around a measurement iteration.
     */
    fun run(client: LoadGroup, started: () -> Unit, ended: () -> Unit): Outcome {
        val begun = System.nanoTime()
        val limit = TimeUnit.SECONDS.toNanos(maxSeconds)
        val figures = ArrayList<Double>()
        val jitNanos = ArrayList<Long>()
        val wall = ArrayList<Long>()
        var window = MIN_WINDOW
        while (true) {
            val jitBefore = jit.sample()
            val report = loadWindow(client, window, started, ended)
            val seconds = report.wallNanos / 1e9
            val rate = if (seconds > 0) report.successes / seconds else 0.0
            figures += rate
            jitNanos += jit.sample().nanosSince(jitBefore)
            wall += report.wallNanos / 1_000_000
            val meanLatency = Duration.ofNanos((report.latencyMicros.mean * 1000 * LATENCIES_PER_WINDOW).toLong())
            val tolerance = maxOf(Steadiness.TOLERANCE, client.connections / (2.0 * report.successes.coerceAtLeast(1)))
            val elapsed = System.nanoTime() - begun
            val recentJit = jitNanos.takeLast(Steadiness.WINDOWS).sum() / 1_000_000
            val jitQuiet = recentJit <= JIT_SHARE * wall.takeLast(Steadiness.WINDOWS).sum()
            val steady = jitQuiet && Steadiness.warmedUp(figures, tolerance)
            if (steady || elapsed >= limit) {
                return Outcome(elapsed / 1e9, steady, figures, window.toMillis() / 1000.0, recentJit, jit.label)
            }
            window = meanLatency.coerceIn(MIN_WINDOW, MAX_WINDOW)
        }
    }

    private fun loadWindow(client: LoadGroup, length: Duration, started: () -> Unit, ended: () -> Unit): ClientReport {
        client.beginIteration(length)
        started()
        val start = System.nanoTime()
        val nanos = length.toNanos()
        do client.next() while (System.nanoTime() - start < nanos)
        return client.endIteration().also { ended() }
    }

    companion object {
        /** Share of the windows' time the JIT may still spend compiling once steady. */
        const val JIT_SHARE = 0.05
        const val PROPERTY = "serverbench.warmup"
        const val MAX_PROPERTY = "serverbench.warmupMaxSeconds"
        const val DEFAULT_MAX_SECONDS = 120L
        private val MIN_WINDOW: Duration = Duration.ofSeconds(1)
        private val MAX_WINDOW: Duration = Duration.ofSeconds(5)
        private const val LATENCIES_PER_WINDOW = 10

        /**
         * From `-Dserverbench.warmup=auto|off` (default auto) and `-Dserverbench.warmupMaxSeconds=N` (default 120),
         * which `-Dserverbench.warmupMaxSeconds.<BenchmarkClass>=N` overrides for one class (a suite whose families
         * need different limits, e.g. CPU work still compiling where a blocking wait is flat at once): null when off
         * (JMH's `-wi`/`-w` warm up alone). Throws [IllegalArgumentException] naming the property on bad input.
         */
        fun fromSystemProperties(benchmarkClass: String? = null): SteadyWarmup? {
            val mode = System.getProperty(PROPERTY, "auto").trim()
            require(mode == "auto" || mode == "off") { "-D$PROPERTY must be auto or off, was '$mode'" }
            return if (mode == "off") null else SteadyWarmup(maxSeconds(benchmarkClass))
        }

        /** The warmup limit for a benchmark class (its simple or full name), from the properties above. */
        fun maxSeconds(benchmarkClass: String?): Long {
            val own = benchmarkClass?.let { "$MAX_PROPERTY.${it.substringAfterLast('.')}" }
            val name = own?.takeIf { System.getProperty(it) != null } ?: MAX_PROPERTY
            return Properties.long(name, min = 1, unit = "seconds") ?: DEFAULT_MAX_SECONDS
        }
    }
}
