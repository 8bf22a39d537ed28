package serverbench.live

import java.util.concurrent.TimeUnit

/**
 * The settings of a live measurement ([LiveMeasurement]). The defaults are for a comparison's answer within 10 minutes
 * on a 2-core machine; docs/compare.md says how each was chosen.
 */
data class LivePlan(
    /**
     * Fresh server processes a side over the run: the units that carry a process's own JIT luck, so the interval's
     * degrees of freedom for it (one fewer than the pairs). 6: why, measured, in docs/compare.md.
     */
    val pairs: Int = 6,
    /**
     * How many of those pairs are live at once: a generation. Each generation's servers start, warm and are measured
     * together, then stop before the next one's start; the interval pools the pairs of every generation (each pair's
     * two sides measured in the same minutes, so the drift between generations cancels as within one). 2: on 2 cores
     * more servers at once did not warm within the warmup's cap (each compiles while the others have the load; the
     * runs on docs/measurements.md). A plan with fewer pairs than this is one generation.
     */
    val atOnce: Int = 2,
    /** One measured window; 1 s: the noise is white at that length, and a switch costs only the settling time. */
    val windowNanos: Long = TimeUnit.SECONDS.toNanos(1),
    /** Dropped after each switch of process. */
    val settleNanos: Long = TimeUnit.MILLISECONDS.toNanos(250),
    /** The longest warmup: interleaved full-load windows, with pauses, until every server is steady. */
    val warmupSeconds: Double = 180.0,
    /** The pause after each warmup round, no process loaded: the compilers' time. */
    val pauseMillis: Long = 500,
    /** The first blocks (two rounds each), whose spread gives the forecast; they count as any other. */
    val calibrationBlocks: Int = 3,
    /**
     * Blocks a pair before the precision may stop a run, and the fewest a generation must have room for: fewer spread
     * too little to judge by. 6, not more: six blocks already pin a pair's mean closer than a process's own luck
     * spreads, so more blocks buy less than room for another generation's pairs (docs/compare.md).
     */
    val minBlocks: Int = 6,
    val maxBlocks: Int = 400,
    /** The req/s interval's half-width (a share) that ends a run. */
    val precision: Double = 0.01,
    /**
     * A configuration whose req/s interval lies wholly beyond this factor (or its inverse) is done, however wide
     * ([Interleaving.done]); null: only the precision ends one. The main job's findings set it: a 15× lead needs no
     * more windows, and the CPU configurations beside it get them.
     */
    val decidedBeyond: Double? = null,
    /** The whole run's time, servers' start included, that no further block may pass. */
    val budgetSeconds: Double = 540.0,
    /** How long a server may take to listen. */
    val startSeconds: Long = 180,
) {
    init {
        require(pairs >= 1) { "--pairs must be 1 or more, was $pairs" }
        require(atOnce >= 1) { "--at-once must be 1 or more, was $atOnce" }
        require(windowNanos > 0) { "--window must be above 0" }
    }

    /** Generations of [atOnce] pairs (the last may hold fewer) that make up [pairs]. */
    val generations: Int get() = (pairs + atOnce - 1) / atOnce

    /** The pairs of [generation] (from 0): their indices over the run. */
    fun pairsOf(generation: Int): IntRange = generation * atOnce until minOf(pairs, (generation + 1) * atOnce)
}
