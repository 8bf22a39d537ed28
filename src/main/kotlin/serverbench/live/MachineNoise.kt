package serverbench.live

import kotlin.math.sqrt

/**
 * How steady the machine itself is right now: one thread reads a 16 MB array at random places, and its rounds per
 * window spread by this much (sd ÷ mean). No server, socket or allocation is in it, so where it spreads as a run's
 * windows do, the noise is the machine's (its neighbours on the host, in the caches and memory it shares), not the
 * servers'. Reads, not arithmetic: on a busy hour here a loop of multiplications spread 1–4 % while this one spread
 * 9–23 % (docs/measurements.md), as the servers' windows did. Measured before the servers start, so that nothing of
 * ours runs beside it.
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

    /** One line for a run's log: "a memory-bound loop's 0.25 s windows spread 3.1 % (sd) on this machine now". */
    fun describe(spread: Double, windowMillis: Long = WINDOW_MILLIS): String =
        "a memory-bound loop's ${windowMillis / 1000.0} s windows spread ${LiveMeasurement.percent(spread)} (sd) " +
            "on this machine now"

    @Volatile
    private var sink = 0L

    private val array = IntArray(ARRAY_INTS)

    /** Rounds of [ROUND] reads at pseudo-random places of [array] that fit in [nanos]. */
    private fun rounds(nanos: Long): Long {
        val start = System.nanoTime()
        var n = 0L
        var at = 1
        var sum = sink
        while (System.nanoTime() - start < nanos) {
            repeat(ROUND) {
                at = (at * LCG_MULTIPLIER + LCG_INCREMENT) and (ARRAY_INTS - 1)
                sum += array[at]++
            }
            n++
        }
        sink = sum
        return n
    }

    const val WINDOWS = 20
    const val WINDOW_MILLIS = 250L
    private const val NANOS_PER_MILLI = 1_000_000L
    private const val ROUND = 2_000

    /** 16 MB of ints: more than a core's own caches, so the reads go where the host's neighbours also go. */
    private const val ARRAY_INTS = 1 shl 22
    private const val LCG_MULTIPLIER = 1103515245
    private const val LCG_INCREMENT = 12345
}
