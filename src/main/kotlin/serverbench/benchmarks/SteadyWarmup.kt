package serverbench.benchmarks

import serverbench.client.ClientReport
import serverbench.client.LoadClient
import serverbench.jmh.Steadiness
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Warmup until the server is steady, measured instead of assumed: load in windows, each window's successful req/s a
 * figure, until the last [Steadiness.WINDOWS] agree ([Steadiness.warmedUp]), at least [Steadiness.WINDOWS] windows
 * and at most [maxSeconds]. JMH's warmup is a fixed count of iterations that it cannot end early, and no count suits
 * every benchmark: a server whose hot paths compile in 10 s would waste most of a 50 s warmup, and one that climbs for
 * 40 s would be measured climbing (README, "Warmup").
 *
 * Windows last max(1 s, 10 mean latencies), at most 5 s: a window must hold many round trips of every connection, or
 * whole bursts of responses (handlers that wait in step answer `concurrency` at a time) make its count jump. Where even
 * a 5 s window cannot be more precise than that, the tolerance widens to half a burst of all connections per window.
 */
class SteadyWarmup(private val maxSeconds: Long) {

    class Outcome(val seconds: Double, val steady: Boolean, val figures: List<Double>, val windowSeconds: Double) {
        fun describe(): String {
            val last = figures.takeLast(Steadiness.WINDOWS).joinToString(", ") { "%,.0f".format(it) }
            return if (steady) "warmed up until steady in %.0f s (windows of %.1f s; last req/s: %s)".format(seconds, windowSeconds, last)
            else "NOT steady after the %.0f s warmup limit (-D%s; last req/s: %s): measuring anyway, see the notSteady guard"
                .format(seconds, MAX_PROPERTY, last)
        }
    }

    /**
     * Runs windows of load on [client]; [started] and [ended] run at each window's start and end, as the benchmark's
     * own per-iteration checks run around a measurement iteration.
     */
    fun run(client: LoadClient, started: () -> Unit, ended: () -> Unit): Outcome {
        val begun = System.nanoTime()
        val limit = TimeUnit.SECONDS.toNanos(maxSeconds)
        val figures = ArrayList<Double>()
        var window = MIN_WINDOW
        while (true) {
            val report = loadWindow(client, window, started, ended)
            val seconds = report.wallNanos / 1e9
            val rate = if (seconds > 0) report.successes / seconds else 0.0
            figures += rate
            val meanLatency = Duration.ofNanos((report.latencyMicros.mean * 1000 * LATENCIES_PER_WINDOW).toLong())
            val tolerance = maxOf(Steadiness.TOLERANCE, client.connections / (2.0 * report.successes.coerceAtLeast(1)))
            val elapsed = System.nanoTime() - begun
            val steady = Steadiness.warmedUp(figures, tolerance)
            if (steady || elapsed >= limit) return Outcome(elapsed / 1e9, steady, figures, window.toMillis() / 1000.0)
            window = meanLatency.coerceIn(MIN_WINDOW, MAX_WINDOW)
        }
    }

    private fun loadWindow(client: LoadClient, length: Duration, started: () -> Unit, ended: () -> Unit): ClientReport {
        client.beginIteration(length)
        started()
        val start = System.nanoTime()
        val nanos = length.toNanos()
        do client.next() while (System.nanoTime() - start < nanos)
        return client.endIteration().also { ended() }
    }

    companion object {
        const val PROPERTY = "serverbench.warmup"
        const val MAX_PROPERTY = "serverbench.warmupMaxSeconds"
        const val DEFAULT_MAX_SECONDS = 90L
        private val MIN_WINDOW: Duration = Duration.ofSeconds(1)
        private val MAX_WINDOW: Duration = Duration.ofSeconds(5)
        private const val LATENCIES_PER_WINDOW = 10

        /**
         * From `-Dserverbench.warmup=auto|off` (default auto) and `-Dserverbench.warmupMaxSeconds=N` (default 90): null
         * when off (JMH's `-wi`/`-w` warm up alone). Throws [IllegalArgumentException] naming the property on bad input.
         */
        fun fromSystemProperties(): SteadyWarmup? {
            val mode = System.getProperty(PROPERTY, "auto").trim()
            require(mode == "auto" || mode == "off") { "-D$PROPERTY must be auto or off, was '$mode'" }
            val rawMax = System.getProperty(MAX_PROPERTY)
            val max = rawMax?.trim()?.toLongOrNull() ?: DEFAULT_MAX_SECONDS
            require(rawMax == null || (rawMax.trim().toLongOrNull() ?: 0) >= 1) { "-D$MAX_PROPERTY must be an integer >= 1 (seconds), was '$rawMax'" }
            return if (mode == "off") null else SteadyWarmup(max)
        }
    }
}
