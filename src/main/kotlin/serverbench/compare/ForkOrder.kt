package serverbench.compare

/**
 * The order of a comparison's forks: the two sides alternate, one fork at a time, in pairs whose order flips
 * (base head, head base, base head, …), so both sides see the same machine, and a steady drift over the sitting
 * (temperature, a neighbour, the page cache) adds as much to one side as to the other; plain A B A B would give
 * the side that always goes second half a step more of it.
 */
object ForkOrder {
    enum class Side { BASE, HEAD }

    /** [forks] of each side: 2 × [forks] entries. */
    fun of(forks: Int): List<Side> {
        require(forks >= 1) { "forks must be at least 1" }
        return (0 until forks).flatMap { pair ->
            if (pair % 2 == 0) listOf(Side.BASE, Side.HEAD) else listOf(Side.HEAD, Side.BASE)
        }
    }
}
