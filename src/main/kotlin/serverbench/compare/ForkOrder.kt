package serverbench.compare

/**
 * The order of a comparison's forks: the two sides alternate, one fork at a time, in pairs whose order flips
 * (base head, head base, base head, …), so both sides see the same machine, and a steady drift over the sitting
 * (temperature, a neighbour, the page cache) adds as much to one side as to the other; plain A B A B would give
 * the side that always goes second half a step more of it. That holds for an even number of forks a side, where the
 * pairs make whole base-head-head-base blocks: with an odd number the positions of one side cannot add up to the
 * other's (their total, n(2n - 1), is odd), so no order of 2n forks cancels a drift, and odd counts are not run.
 */
object ForkOrder {
    enum class Side { BASE, HEAD }

    /** The fork counts a comparison runs: even, and enough for the test to mark a row ([ForkStatistics]). */
    fun allowed(forks: Int) = forks % 2 == 0 && forks >= ForkStatistics.minimumForks

    /** The allowed counts, for a refusal line: "4, 6, 8, …". */
    fun allowedList(): String = generateSequence(ForkStatistics.minimumForks) { it + 1 }.filter(::allowed).take(3)
        .joinToString(", ", postfix = ", …")

    /** [forks] of each side, an even number: 2 × [forks] entries. */
    fun of(forks: Int): List<Side> {
        require(forks >= 2 && forks % 2 == 0) { "forks must be even, so that a steady drift cancels: $forks" }
        return (0 until forks).flatMap { pair ->
            if (pair % 2 == 0) listOf(Side.BASE, Side.HEAD) else listOf(Side.HEAD, Side.BASE)
        }
    }
}
