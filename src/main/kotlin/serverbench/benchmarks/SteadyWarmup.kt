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
 * its compiler threads' time on or waiting for a CPU over the last [Steadiness.WINDOWS] windows below [JIT_SHARE] of
 * their time ([JitMeter]: a starved compiler, which runs little while its queue waits, reads busy, not quiet).
 *
 * While the compiler is busy (over [JIT_SHARE] of a window), each window is followed by a pause of the load ([pause]):
 * between windows no client thread sends, so the server drains its requests in flight and the compiler has the cores
 * until its queue runs dry (at most [MAX_PAUSE]). Under full load on 2 cores the compiler threads share them with the
 * client and every busy server thread (Tomcat's 64 workers at 64 connections), and the quick suite's CPU rows reached
 * their 25 s limit still compiling (docs/warmup.md); paused, the compiler finishes first and the load is then measured
 * on compiled code. Only loaded windows are figures, and only their JIT counts towards quiet.
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
        /** Time the load was paused for the compiler ([pause]), part of [seconds]. */
        val pausedSeconds: Double = 0.0,
    ) {
        private val paused = if (pausedSeconds > 0) "; load paused %.1f s for the JIT".format(pausedSeconds) else ""

        fun describe(): String {
            val last = figures.takeLast(Steadiness.WINDOWS).joinToString(", ") { "%,.0f".format(it) }
            return if (steady) {
                "warmed up until steady in %.0f s (windows of %.1f s; last req/s: %s; JIT %d ms in them, %s%s)"
                    .format(seconds, windowSeconds, last, jitMillis, jitLabel, paused)
            } else {
                (
                    "NOT steady after the %.0f s warmup limit (-D%s; last req/s: %s; JIT %d ms in them, %s; " +
                        "steady needs < %.0f %% of their time%s): measuring anyway, see the notSteady guard"
                    ).format(seconds, MAX_PROPERTY, last, jitMillis, jitLabel, JIT_SHARE * 100, paused)
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
        var pausedNanos = 0L
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
            if (!steady && elapsed < limit && jitNanos.last() > JIT_SHARE * report.wallNanos) {
                pausedNanos += pause(limit - elapsed)
            }
            val now = System.nanoTime() - begun
            if (steady || now >= limit) {
                return Outcome(
                    now / 1e9,
                    steady,
                    figures,
                    window.toMillis() / 1000.0,
                    recentJit,
                    jit.label,
                    pausedNanos / 1e9,
                )
            }
            window = meanLatency.coerceIn(MIN_WINDOW, MAX_WINDOW)
        }
    }

    /**
     * No load, in steps of [PAUSE_STEP], until a step in which the compiler threads were busy under [PAUSE_QUIET] of it
     * (its queue is done, or nearly), [MAX_PAUSE], or [remainingNanos]; returns the nanoseconds paused.
     */
    private fun pause(remainingNanos: Long): Long {
        val start = System.nanoTime()
        val most = minOf(MAX_PAUSE.toNanos(), remainingNanos)
        while (System.nanoTime() - start < most) {
            val before = jit.sample()
            val stepStart = System.nanoTime()
            Thread.sleep(PAUSE_STEP.toMillis())
            val step = System.nanoTime() - stepStart
            if (jit.sample().nanosSince(before) < PAUSE_QUIET * step) break
        }
        return System.nanoTime() - start
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
        private val PAUSE_STEP: Duration = Duration.ofMillis(100)

        /** A pause ends after a step in which the compiler threads were busy (or waiting) under this share of it. */
        private const val PAUSE_QUIET = 0.2
        private val MAX_PAUSE: Duration = Duration.ofSeconds(3)

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
