package serverbench.metrics

import kotlin.math.ceil

/**
 * What to do about a row that was not steady, with the command that does it: still warming (a trend) needs a longer
 * warmup, noisy (a wide interval) a quieter machine; the user's action differs, so the text does. The command is the
 * suite's own when `scripts/bench` ran it (it sets `-Dserverbench.suite`, and passes `-D` options after the suite to
 * every fork, replacing the suite's own warmup limits); else the option to add to the `java -jar` command line.
 */
object SteadinessAdvice {
    const val SUITE_PROPERTY = "serverbench.suite"
    private const val MAX_PROPERTY = "serverbench.warmupMaxSeconds"

    /** The limit to suggest after a warmup of [seconds]: twice as long, rounded up to 10 s. */
    fun longerLimit(seconds: Double): Long = maxOf(30L, (ceil(2 * seconds / 10) * 10).toLong())

    /** "warm up longer: `scripts/bench quick -Dserverbench.warmupMaxSeconds=60`" for a warmup of [warmedSeconds]. */
    fun warming(warmedSeconds: Double, suite: String? = System.getProperty(SUITE_PROPERTY)): String {
        val option = "-D$MAX_PROPERTY=${longerLimit(warmedSeconds)}"
        return if (suite.isNullOrBlank()) {
            "warm up longer: add `$option` before `-jar`"
        } else {
            "warm up longer: `scripts/bench $suite $option`"
        }
    }

    /** "this machine was too noisy: …" */
    fun noisy(suite: String? = System.getProperty(SUITE_PROPERTY)): String =
        "this machine was too noisy: run it again with nothing else busy" +
            if (suite.isNullOrBlank()) ", or measure more iterations (`-i`)" else " (`scripts/bench $suite`)"

    /** The advice for a `warning.notSteady` [flag] ([Steadiness.WARMING_FLAG] or [Steadiness.NOISY_FLAG]). */
    fun of(flag: Double, warmedSeconds: Double, suite: String? = System.getProperty(SUITE_PROPERTY)): String =
        if (flag == Steadiness.NOISY_FLAG) noisy(suite) else warming(warmedSeconds, suite)
}
