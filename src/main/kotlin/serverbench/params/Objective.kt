package serverbench.params

/**
 * A latency objective, `-p objective=p99:100ms`: the percentile of the latency (corrected for coordinated omission)
 * that must stay within the limit. `none` (the default) is an ordinary run; any other value makes the run a capacity
 * search for the highest open-loop rate that meets it (docs/capacity.md). Written without `<` or `=` so that a shell
 * needs no quotes around it.
 */
data class Objective(
    /** 99.0 for p99, 99.9 for p99.9, 50.0 for p50. */
    val percentile: Double,
    val limitMillis: Double,
) {
    /** `p99 ≤ 100 ms`. */
    fun describe(): String = "p${percentileText(percentile)} ≤ ${number(limitMillis)} ms"

    /** `p99:100ms`, as the parameter is written. */
    val text: String get() = "p${percentileText(percentile)}:${number(limitMillis)}ms"

    companion object {
        const val NONE = "none"

        /** What the parameter accepts, for the one line bad input gets. */
        const val ALLOWED = "'none' or a percentile and a limit, like p99:100ms, p99.9:250ms or p50:2s " +
            "(percentile above 0 and below 100, limit in ms or s)"

        private val FORM = Regex("""p(\d{1,2}(?:\.\d+)?):(\d+(?:\.\d+)?)(ms|s)""")

        /** Null for `none`; throws [IllegalArgumentException] saying what is allowed. */
        fun parse(value: String): Objective? {
            if (value == NONE) return null
            val m = FORM.matchEntire(value.trim())
            val percentile = m?.groupValues?.get(1)?.toDouble()
            val limit = m?.groupValues?.get(2)?.toDouble()?.times(if (m.groupValues[3] == "s") 1000.0 else 1.0)
            require(percentile != null && limit != null && percentile > 0 && percentile < 100 && limit > 0) {
                "objective must be $ALLOWED, was '$value'"
            }
            return Objective(percentile, limit)
        }

        fun accepts(value: String): Boolean = runCatching { parse(value) }.isSuccess

        private fun percentileText(p: Double) = number(p)

        private fun number(v: Double) = if (v == Math.floor(v)) v.toLong().toString() else v.toString()
    }
}
