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
     * How many of the plan's generations the budget holds, measured from [now] (when the first generation began to
     * measure, its calibration blocks among its own): each later one's start and warmup ([overhead]) and
     * [LivePlan.minBlocks] blocks of [blockSeconds] for each. At least 1: a slow warmup (a noisy hour, or servers
     * that compile long) then costs pairs, not the budget.
     */
    fun generationsThatFit(plan: LivePlan, now: Double, overhead: Double, blockSeconds: Double): Int =
        (plan.generations downTo 1).firstOrNull { g ->
            now + (g - 1) * overhead + g * plan.minBlocks * blockSeconds <= plan.budgetSeconds
        } ?: 1

    /**
     * Why a generation's measuring stops after [block] blocks a pair, or null to go on: the req/s interval (over
     * every pair so far) done ([done]), its deadline (which another block, ending at [nextEnds], would pass: [share]
     * for a generation before the last, the budget for the last), or the cap. The precision rule reads the interval's
     * width, never where it lies, so it cannot steer the verdict; WindowStatisticsTest simulates the level it keeps
     * (the findings' [LivePlan.decidedBeyond] reads where it lies, but only so far from 1 that no verdict turns on it).
     * Only the last generation's stop ends the run: an earlier one's moves on to the
     * next generation's fresh pairs, which the process luck needs.
     */
    fun stopReason(
        plan: LivePlan,
        block: Int,
        ratio: WindowStatistics.Ratio?,
        nextEnds: Double,
        share: Double? = null,
    ): String? = when {
        done(plan, block, ratio) != null -> "${done(plan, block, ratio)} after $block blocks a pair"

        share != null && nextEnds > share ->
            "this generation's share of the --budget is spent, after $block blocks a pair"

        nextEnds > plan.budgetSeconds ->
            "the --budget (${plan.budgetSeconds.toLong()} s) would pass with another block, after $block blocks a pair"

        block >= plan.maxBlocks -> "$block blocks a pair, the most a run takes"

        else -> null
    }

    /**
     * Why a configuration's req/s interval ([ratio], after [block] blocks a pair) needs no more windows, or null: from
     * [LivePlan.minBlocks], its half-width within the precision, or, where the plan has [LivePlan.decidedBeyond], the
     * whole interval beyond that factor either way (a 15× lead need not be pinned to ± 1 % to be told). Either reads
     * the interval only after minBlocks, when its spread is itself estimated well enough to judge by.
     */
    fun done(plan: LivePlan, block: Int, ratio: WindowStatistics.Ratio?): String? {
        if (block < plan.minBlocks || ratio == null) return null
        val beyond = plan.decidedBeyond
        return when {
            ratio.halfWidth <= plan.precision -> "req/s within ± ${LiveMeasurement.percent(
                plan.precision,
            )} (--precision)"

            beyond != null && (ratio.low > beyond || ratio.high < 1 / beyond) ->
                "req/s interval wholly beyond ×${LiveMeasurement.fmt(beyond)} either way"

            else -> null
        }
    }

    /**
     * The deadline [stopReason] takes as its share for [generation], begun at [now] (seconds into the run), of
     * [generations] in all: an even share of the budget left among the generations still to run, after each later
     * one's start and warmup ([overhead], as the first one's took), so that the generations' pairs measure alike and
     * the last one still gets its share. Null for the last, whose deadline is the budget.
     */
    fun share(plan: LivePlan, generations: Int, generation: Int, now: Double, overhead: Double): Double? {
        val left = generations - generation
        return if (left <= 1) null else now + (plan.budgetSeconds - now - (left - 1) * overhead) / left
    }
}
