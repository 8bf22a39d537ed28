package serverbench.live

import serverbench.benchmarks.CapacityRun
import serverbench.benchmarks.OpenLoopStep
import serverbench.benchmarks.SteadyWarmup
import serverbench.client.ClientSettings
import serverbench.client.LoadGroup
import serverbench.client.Properties
import serverbench.metrics.CapacitySearch
import serverbench.params.Objective
import java.io.PrintStream
import java.time.Duration
import java.util.Locale
import kotlin.math.ceil
import kotlin.math.log2
import kotlin.random.Random

/**
 * Capacity searches on live servers (docs/capacity.md): what [LiveMeasurement] runs on its warm servers instead of
 * windows. Every (server, configuration) is a side of one [InterleavedCapacity], so all of them take each round's
 * steps in the same minutes; a step is [OpenLoopStep] (the fork's rule for met and missed) on a load group of its
 * own to that server, at the configuration's connections and requests. The load client is this JVM, outside every
 * server's CPU budget; one server has load at a time.
 */
class LiveCapacity(
    private val objective: Objective,
    /** The step length, and the plan from the ladder's first rate (the slowest side's warmup rate ÷ 4, as a fork's). */
    private val settings: Settings,
    /** A side's name in the progress lines. */
    private val name: (LiveMeasurement.Warm) -> String,
    private val err: PrintStream,
    private val random: Random = Random.Default,
) : LiveMeasurement.Warmed {
    /**
     * The search's settings: `-Dserverbench.capacity.stepSeconds`, `.repeats`, `.confirmations`, `.maxSteps` (a side),
     * the fork's `.startRate`, `.maxRate`, `.precisionPercent`; `-Dserverbench.warmupMaxSeconds`. Null: the plan's.
     */
    class Settings(
        val step: Duration,
        val repeats: Int?,
        val confirmations: Int?,
        val maxSteps: Int?,
        val warmupSeconds: Double,
    ) {
        fun plan(start: Double): InterleavedCapacity.Plan {
            val limits = CapacityRun.limitsFromProperties(start)
            val d = InterleavedCapacity.Plan(limits)
            return InterleavedCapacity.Plan(
                limits,
                repeats ?: d.repeats,
                d.spread,
                confirmations ?: d.confirmations,
                d.retreats,
                d.unstable,
                maxSteps ?: d.maxSteps,
            )
        }

        /**
         * Seconds about (each of [searches] sides' expected steps, from a ladder of a fork's) and at most (each
         * side's step limit), the servers' start and warmup in both.
         */
        fun estimate(searches: Int): Pair<Double, Double> {
            val plan = plan(1.0)
            val expected = InterleavedCapacity.expectedSteps(plan, ladderSteps(CapacityRun.START_DIVISOR, 1.0))
            val step = stepSeconds(this.step)
            val before = START_SECONDS + warmupSeconds
            return (before + searches * expected * step) to (before + searches * plan.maxSteps * step)
        }

        companion object {
            /** Throws [IllegalArgumentException] naming a bad property. */
            fun fromProperties() = Settings(
                Duration.ofSeconds(Properties.long(CapacityRun.STEP_PROPERTY, min = 1, unit = "seconds") ?: STEP),
                Properties.long(REPEATS_PROPERTY, min = 2)?.toInt(),
                Properties.long(CONFIRMATIONS_PROPERTY, min = 1)?.toInt(),
                Properties.long(CapacityRun.MAX_STEPS_PROPERTY, min = 3)?.toInt(),
                Properties.long(SteadyWarmup.MAX_PROPERTY, min = 1, unit = "seconds")?.toDouble() ?: WARMUP_SECONDS,
            ).also { CapacityRun.limitsFromProperties() }

            const val REPEATS_PROPERTY = "serverbench.capacity.repeats"
            const val CONFIRMATIONS_PROPERTY = "serverbench.capacity.confirmations"

            /**
             * 8 s steps: the CPU family's four searches of five repeats take about 31 steps a side, which 8 s keeps
             * within 25 minutes; the confirmation's 3 steps in a row (24 s) are what catches a rate that tips.
             */
            const val STEP = 8L

            /**
             * The live warmup's cap without the property. 90 s, longer than a fork's 40: every server is warmed in
             * turn (four configurations on two servers have a quarter of the rounds each), and a search begun on a
             * server still compiling reads low (a smoke run's first searches found half the second's capacity).
             */
            const val WARMUP_SECONDS = 90.0

            /** Servers start in about this long (JVMs at once on 2 cores), before their warmup. */
            const val START_SECONDS = 15.0
        }
    }

    /** One side's search, on its server. */
    class Row(val warm: LiveMeasurement.Warm, val search: InterleavedCapacity.Side)

    /** Each side's search once [run] has ended (an interrupt's too: the steps so far), in the servers' order. */
    var rows: List<Row> = emptyList()
        private set

    /** The plan the search ran (its start set from the warmup), once [run] has begun. */
    var ran: InterleavedCapacity.Plan? = null
        private set

    private val stepLength = settings.step

    override fun run(servers: List<LiveMeasurement.Warm>, stopped: () -> Boolean): String {
        val warmest = servers.minOf { it.rate }.takeIf { it > 0 } ?: 1.0
        val plan = settings.plan(warmest / CapacityRun.START_DIVISOR)
        ran = plan
        val start = plan.limits.start
        val expected = servers.sumOf { InterleavedCapacity.expectedSteps(plan, ladderSteps(it.rate, start)) }
        err.println(
            "capacity: ${plural(servers.size, "search", "searches")} for ${objective.describe()}, round by round, " +
                "from " +
                "${CapacitySearch.rateText(CapacitySearch.round(start))} req/s; about $expected steps of " +
                "${stepLength.seconds} s in all (${minutes(expected * stepSeconds(stepLength))} min), at most " +
                "${plan.maxSteps} a side",
        )
        val settings = ClientSettings.fromSystemProperties()
        val steps = servers.map { w ->
            OpenLoopStep(objective, OpenLoopStep.StepMeter.None, { rate ->
                LoadGroup(w.server.address, w.target.concurrency, w.target.mix, settings, rate, w.target.clientThreads)
                    .also { it.start() }
            }, stepLength)
        }
        val taken = IntArray(servers.size)
        val searches = InterleavedCapacity(servers.size, plan, random, stopped) { side, rate ->
            steps[side].run(rate).also {
                taken[side]++
                err.println("capacity: ${name(servers[side])} step ${taken[side]}: ${it.describe()}")
            }
        }.run()
        rows = servers.zip(searches) { w, s -> Row(w, s) }
        return if (stopped()) "interrupted" else "every search ended"
    }

    companion object {
        /** A step's seconds with what it costs around its window: its group's connections, the late answers' wait. */
        fun stepSeconds(length: Duration): Double = length.toMillis() / 1e3 + STEP_OVERHEAD_SECONDS

        /** Around a step's window: opening its connections, the drain, closing; measured on the smoke runs. */
        const val STEP_OVERHEAD_SECONDS = 0.5

        /** The ladder's steps from [start] to the first above a side's closed-loop [rate] (where it misses). */
        fun ladderSteps(rate: Double, start: Double): Int =
            if (rate <= start) 2 else ceil(log2(rate / start)).toInt() + 1

        fun plural(n: Int, one: String, many: String) = "$n ${if (n == 1) one else many}"

        fun minutes(seconds: Double): String = String.format(Locale.ROOT, "%.1f", seconds / 60)
    }
}
