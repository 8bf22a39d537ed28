package serverbench.live

import kotlin.random.Random

/**
 * The order of a live measurement's windows and the rule that ends it, apart from the servers, so that a simulation
 * runs them as a measurement does (WindowStatisticsTest).
 */
object Interleaving {
    /**
     * One unit of the order: a side of a couple (a process pair and a configuration on it), driven in one window.
     */
    interface Slot {
        val side: Side
        val pair: Int

        /** Its couple: the two sides that are compared with each other; the pair when there is one configuration. */
        val couple: Int get() = pair
    }

    /**
     * [units] (each a side of a pair) in the order of [round]: an even round draws a random order of the pairs, each
     * couple's two sides next to each other in a random order; an odd round runs the even one's order ([previous])
     * reversed, so that a block of two rounds reads base head · head base (or the mirror) for every pair.
     */
    fun <T : Slot> order(units: List<T>, round: Int, previous: List<T>, random: Random): List<T> =
        if (round % 2 == 1 && previous.isNotEmpty()) {
            previous.reversed()
        } else {
            units.groupBy { it.couple }.values.shuffled(random).flatMap { two ->
                if (random.nextBoolean()) two.sortedBy { it.side } else two.sortedByDescending { it.side }
            }
        }

    /**
     * Why a run stops after [block] blocks a pair, or null to go on: the req/s interval within the precision (from
     * [LivePlan.minBlocks]), the budget, or the cap. The rule reads the interval's width, never where it lies, so it
     * cannot steer the verdict; WindowStatisticsTest simulates the level it keeps.
     */
    fun stopReason(plan: LivePlan, block: Int, ratio: WindowStatistics.Ratio?, now: Double, blockSeconds: Double) =
        when {
            block >= plan.minBlocks && ratio != null && ratio.halfWidth <= plan.precision ->
                "req/s within ± ${LiveMeasurement.percent(plan.precision)} (--precision) after $block blocks a pair"

            now + blockSeconds > plan.budgetSeconds ->
                "the --budget (${plan.budgetSeconds.toLong()} s) would pass with another block, " +
                    "after $block blocks a pair"

            block >= plan.maxBlocks -> "$block blocks a pair, the most a run takes"

            else -> null
        }
}
