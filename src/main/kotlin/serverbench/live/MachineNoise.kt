package serverbench.live

import kotlin.math.sqrt

/**
 * How steady the machine itself is right now: one thread runs a fixed loop, and the loop's rounds per window spread
 * by this much (sd ÷ mean). No server, socket or allocation is in it, so where it spreads as a run's windows do, the
 * noise is the machine's (its neighbours on the host, a shared core), not the servers' (what it read on quiet and busy
 * hours: docs/measurements.md). Measured before the servers start, so that nothing of ours runs beside it.
 */
object MachineNoise {
    /** The spread of [windows] windows of [windowMillis] ms, after one window that lets the JIT compile the loop. */
    fun spread(windows: Int = WINDOWS, windowMillis: Long = WINDOW_MILLIS): Double {
        require(windows >= 2) { "a spread needs 2 or more windows, was $windows" }
        val nanos = windowMillis * NANOS_PER_MILLI
        rounds(nanos)
        val counts = DoubleArray(windows) { rounds(nanos).toDouble() }
        val mean = counts.average()
        val sd = sqrt(counts.sumOf { (it - mean) * (it - mean) } / (windows - 1))
        return sd / mean
    }

    /** One line for a run's log: "a plain loop's 0.25 s windows spread 3.1 % (sd) on this machine now". */
    fun describe(spread: Double, windowMillis: Long = WINDOW_MILLIS): String =
        "a plain loop's ${windowMillis / 1000.0} s windows spread ${LiveMeasurement.percent(spread)} (sd) " +
            "on this machine now"

    @Volatile
    private var sink = 0L

    /** Rounds of a fixed piece of arithmetic that fit in [nanos]. */
    private fun rounds(nanos: Long): Long {
        val start = System.nanoTime()
        var n = 0L
        var x = sink or 1L
        while (System.nanoTime() - start < nanos) {
            repeat(ROUND) { x = x * LCG_MULTIPLIER + LCG_INCREMENT }
            n++
        }
        sink = x
        return n
    }

    const val WINDOWS = 12
    const val WINDOW_MILLIS = 250L
    private const val NANOS_PER_MILLI = 1_000_000L
    private const val ROUND = 2_000
    private const val LCG_MULTIPLIER = 6364136223846793005L
    private const val LCG_INCREMENT = 1442695040888963407L
}
