@file:JvmName("LiveCapacityMain")

package serverbench.compare

import serverbench.live.InterleavedCapacity
import serverbench.live.LiveCapacity
import serverbench.live.LiveMeasurement
import serverbench.live.LivePlan
import serverbench.live.MachineNoise
import serverbench.live.Side
import serverbench.metrics.CapacitySearch
import serverbench.params.Objective
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ObjectNode
import java.io.File
import java.io.PrintStream
import java.time.Instant
import java.util.Locale
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

/**
 * A suite's capacities measured live (`capacity: server=tomcat,netty` in its file; scripts/bench runs this instead of
 * the JMH rows, whose searches run one after another): every configuration of the suite on each value's server, all
 * servers live at once ([LiveMeasurement]: each in a process and CPU budget of its own, warmed together), then one
 * capacity search per (configuration, value), all advanced round by round ([LiveCapacity], [InterleavedCapacity]), so
 * the machine's drift lands on every side alike. One value (`server=tomcat`) searches without a ratio.
 *
 * Usage: `LiveCapacityMain --sides server=tomcat,netty --out run-capacity.json <regex> [-p …]`; the search's settings
 * are `-Dserverbench.capacity.*` (docs/capacity.md). Prints the estimate first, then one line per row and per ratio;
 * writes the JSON (objective, plan, rows with their steps, ratios); exit 2 on bad input, 1 when nothing held.
 */
fun main(args: Array<String>) {
    exitProcess(LiveCapacityFindings(System.out, System.err).run(args.toList()))
}

class LiveCapacityFindings(private val out: PrintStream, private val err: PrintStream) {
    private class Args(val name: String, val values: List<String>, val out: File, val jmh: List<String>)

    private fun parse(args: List<String>): Args {
        val sides = requireNotNull(args.ownValue("--sides")) { "--sides name=a,b is missing" }
        val out = requireNotNull(args.ownValue("--out")?.let(::File)) { "--out file is missing" }
        val name = sides.substringBefore('=')
        var values = sides.substringAfter('=', "").split(',').filter { it.isNotEmpty() }
        var jmh = args.withoutOwn(OWN)
        // A -p of the sides' parameter narrows the sides to its values (`scripts/bench capacity -p server=tomcat`).
        val narrowed = jmh.indices.filter { jmh[it] == "-p" && jmh.getOrNull(it + 1)?.startsWith("$name=") == true }
        if (narrowed.isNotEmpty()) {
            values = narrowed.flatMap { jmh[it + 1].substringAfter('=').split(',') }.filter { it.isNotEmpty() }
            jmh = jmh.filterIndexed { i, _ -> i !in narrowed && i - 1 !in narrowed }
        }
        require(name.isNotEmpty() && values.size in 1..2 && values.distinct() == values) {
            "--sides $sides: one parameter and one or two values, a,b"
        }
        require(jmh.isNotEmpty()) { "the benchmark regex is missing" }
        return Args(name, values, out, jmh)
    }

    fun run(args: List<String>): Int {
        val (parsed, settings, pairings) = try {
            val parsed = parse(args)
            val settings = LiveCapacity.Settings.fromProperties()
            val say = { line: String -> err.println("capacity: $line") }
            val pairings = SuitePairings.of(parsed.jmh, parsed.name, parsed.values, say) {
                it + (OBJECTIVE to Objective.NONE)
            }
            Triple(parsed, settings, pairings)
        } catch (e: IllegalArgumentException) {
            return usage(e.message ?: "bad options")
        }
        if (pairings.isEmpty()) return usage("no configuration of '${parsed.jmh.first()}' can be measured live")
        val objectives = pairings.map { it.key[OBJECTIVE] }.distinct()
        val objective = objectives.singleOrNull()?.let { Objective.parse(it) }
            ?: return usage("a capacity needs one objective (-p objective=p99:100ms), was ${objectives.joinToString()}")
        val values = parsed.values
        val warmup = settings.warmupSeconds
        val capacity = LiveCapacity(objective, settings, { w ->
            "${values[SIDES.indexOf(w.side)]} ${pairings[w.config].label}"
        }, err)
        val dir = File(parsed.out.absoluteFile.parentFile, parsed.out.nameWithoutExtension)
        val measurement = measurement(pairings, values, warmup, capacity, dir)
        val estimate = settings.estimate(pairings.size * values.size)
        err.println(
            "capacity: ${LiveCapacity.plural(pairings.size, "configuration", "configurations")} × " +
                "${values.joinToString(" and ")}, ${objective.describe()}: every server live at once, " +
                "${LiveCapacity.plural(pairings.size * values.size, "search", "searches")} round by round; about " +
                "${LiveCapacity.minutes(estimate.first)} min, at most ${LiveCapacity.minutes(estimate.second)} min " +
                "(start and warmup ≤ ${Math.round(LiveCapacity.Settings.START_SECONDS + warmup)} s, steps of " +
                "${settings.step.seconds} s)",
        )
        val across = across(parsed)
        val written = CountDownLatch(1)
        try {
            val outcome = measurement.withInterruptHook(
                err,
                "capacity: interrupted: stopping after the running step; every step measured is kept",
                written,
            ) { measurement.run() }
            outcome.failure?.let { err.println("capacity: the live measurement failed: $it (logs in ${dir.path}/)") }
            val result = Result(pairings, values, capacity, objective, settings, outcome, estimate.first)
            result.across = across
            result.lines().forEach(out::println)
            ComparisonOutput.write(parsed.out, result.json())
            err.println("capacity: ${parsed.out.path} (${Math.round(outcome.seconds)} s, stopped: ${outcome.stop})")
            return if (capacity.rows.any { it.search.capacity != null }) 0 else 1
        } finally {
            written.countDown()
        }
    }

    /**
     * This run's identity and the last run of it beside [Args.out]; says which run the rows are compared with.
     */
    private fun across(parsed: Args): Result.Across {
        val mapper = JsonMapper.builder().build()
        val command = listOf("${parsed.name}=${parsed.values.joinToString(",")}") + parsed.jmh
        val identity = CapacityRerun.identity(mapper, command)
        val rerun = CapacityRerun.find(parsed.out, identity, mapper)
        val compared = rerun?.let {
            "each row is compared with the last run of this jar and command, ${it.file.name} (${it.ended})"
        }
            ?: (
                "no earlier run of this jar and command in ${parsed.out.absoluteFile.parentFile.name}/: a rerun says " +
                    "whether these capacities hold across sittings"
                )
        err.println("capacity: $compared")
        return Result.Across(identity, rerun)
    }

    /** Every value's server (its first configuration's), each configuration on each, warmed, then [capacity]. */
    private fun measurement(
        pairings: List<Pairing>,
        values: List<String>,
        warmup: Double,
        capacity: LiveCapacity,
        dir: File,
    ): LiveMeasurement {
        val plan = LivePlan(
            pairs = 1,
            windowNanos = TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS),
            settleNanos = TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS),
            warmupSeconds = warmup,
        )
        return LiveMeasurement(
            values.indices.associate { SIDES[it] to SuitePairings.spec(pairings.first().targets[it]) },
            pairings.map { p ->
                LiveMeasurement.Config(p.label, values.indices.associate { SIDES[it] to p.targets[it] })
            },
            plan,
            dir,
            err,
            instead = capacity,
        )
    }

    /** What the run measured, as lines and as JSON. */
    private class Result(
        val pairings: List<Pairing>,
        val values: List<String>,
        val capacity: LiveCapacity,
        val objective: Objective,
        val settings: LiveCapacity.Settings,
        val outcome: LiveMeasurement.Outcome,
        val estimateSeconds: Double,
    ) {
        /** The run's identity, the last run of it (null if none) and the machine's noise now: [CapacityRerun]. */
        class Across(val identity: ObjectNode, val rerun: CapacityRerun?)

        var across = Across(JsonMapper.builder().build().createObjectNode(), null)

        /** [config]'s row of [value] against the last run's, or null where there is none to compare. */
        fun compared(config: Int, value: Int): CapacityRerun.Comparison? {
            val rerun = across.rerun ?: return null
            val p = pairings[config]
            val s = row(config, value)?.search ?: return null
            return rerun.compare(CapacityRerun.rowKey(p.family, p.a.method, p.key, values[value]), s.capacity)
        }

        /** Stable in this run's searches and, where there was a last run, within [CapacityRerun.LIMIT] of it. */
        fun stable(config: Int, value: Int): Boolean {
            val s = row(config, value)?.search ?: return false
            return s.stable && compared(config, value)?.unstable != true
        }

        fun label(config: Int, value: Int): String {
            val s = row(config, value)?.search ?: return ""
            val c = compared(config, value) ?: return s.label
            return "${s.label}; ${across.rerun!!.said(c, outcome.machineNoise)}"
        }

        fun row(config: Int, value: Int): LiveCapacity.Row? =
            capacity.rows.firstOrNull { it.warm.config == config && it.warm.side == SIDES[value] }

        /** a ÷ b of [config]'s capacities, and its verdict ("~" and why where there is none). */
        fun ratio(config: Int): Triple<InterleavedCapacity.Side, InterleavedCapacity.Side, String>? {
            if (values.size < 2) return null
            val a = row(config, 0)?.search ?: return null
            val b = row(config, 1)?.search ?: return null
            return Triple(a, b, verdict(config, a, b))
        }

        private fun verdict(config: Int, a: InterleavedCapacity.Side, b: InterleavedCapacity.Side): String =
            if (noVerdict(config, a, b) != null) {
                "~"
            } else if (InterleavedCapacity.ratio(a, b)!!.low > 1) {
                "higher"
            } else {
                "lower"
            }

        /** Why a ratio has no verdict, or null where it has one. */
        private fun noVerdict(config: Int, a: InterleavedCapacity.Side, b: InterleavedCapacity.Side): String? {
            val r = InterleavedCapacity.ratio(a, b) ?: return "fewer than 2 searches a side"
            val held = listOf(a to values[0], b to values[1]).filter { (s, _) -> s.capacity == null || !s.stable }
            val limit = LiveMeasurement.percent(CapacityRerun.LIMIT)
            val moved = values.indices.mapNotNull { v ->
                compared(config, v)?.takeIf { it.unstable }?.let {
                    val why = if (it.previous == null) "held no capacity in" else "moved more than $limit since"
                    "${values[v]} $why the last run"
                }
            }
            return when {
                held.isNotEmpty() -> "no verdict: ${held.joinToString(" and ") { it.second }} did not hold a stable " +
                    "capacity"

                moved.isNotEmpty() -> "no verdict across sittings: ${moved.joinToString("; ")}"

                r.low <= 1 && r.high >= 1 -> "no difference this run can tell"

                else -> null
            }
        }

        fun lines(): List<String> = pairings.indices.flatMap { c ->
            val p = pairings[c]
            val rows = values.indices.mapNotNull { v ->
                row(c, v)?.let { "- ${p.label}, ${values[v]}: ${said(it.search, label(c, v))}" }
            }
            val ratio = ratio(c)?.let { (a, b, verdict) ->
                val r = InterleavedCapacity.ratio(a, b)
                val figure = r?.let { String.format(Locale.ROOT, " %.3f [%.3f, %.3f]", it.ratio, it.low, it.high) }
                    ?: ""
                "- ${p.label}: ${values[0]} ÷ ${values[1]} capacity$figure (" +
                    (noVerdict(c, a, b) ?: "${values[0]} $verdict") + ")"
            }
            rows + listOfNotNull(ratio)
        }

        private fun said(s: InterleavedCapacity.Side, label: String): String =
            (s.capacity?.let { "${CapacitySearch.rateText(it)} req/s" } ?: "no capacity") + " ($label)"

        /** What "holds" was tested as, and how the ratio is read: the JSON's and the report's one sentence. */
        fun test(): String {
            val plan = capacity.ran ?: settings.plan(1.0)
            val precision = Math.round(100 * plan.limits.precision)
            return "${plan.repeats} searches a side (a ladder, then bisection to $precision %; each later one from ± " +
                "${Math.round(100 * plan.spread)} % around the estimates so far), every side's steps in " +
                "the same rounds in balanced random order, open-loop steps of ${settings.step.seconds} s; holds: " +
                "${plan.confirmations} steps in a row at the searches' median met rate, each within " +
                "${objective.describe()} with no error (a miss steps down $precision % and confirms again); a " +
                "ratio is the geometric mean of the searches' ratios with Student's t 95 % interval, a verdict " +
                "only where it excludes 1 and both sides held; a row more than " +
                "${LiveMeasurement.percent(CapacityRerun.LIMIT)} apart from the last run of the same jar and " +
                "command beside it is unstable across sittings, and its ratio has no verdict"
        }

        fun json(): String {
            val mapper = JsonMapper.builder().build()
            val root = mapper.createObjectNode()
            root.put("objective", objective.text)
            values.getOrNull(0)?.let { root.put("a", it) }
            values.getOrNull(1)?.let { root.put("b", it) }
            root.put("stepSeconds", settings.step.seconds)
            root.put("test", test())
            root.put("stopped", outcome.stop)
            outcome.failure?.let { root.put("failure", it) }
            root.put("seconds", outcome.seconds)
            root.put("estimateSeconds", estimateSeconds)
            root.put("ended", Instant.now().toString())
            root.set("identity", across.identity)
            outcome.machineNoise?.let {
                root.put("machineNoise", it)
                root.put("machineNoiseWindowSeconds", MachineNoise.WINDOW_MILLIS / 1000.0)
            }
            across.rerun?.let { r ->
                val o = root.putObject("rerun")
                o.put("file", r.file.name)
                o.put("ended", r.ended)
                r.noise?.let { o.put("machineNoise", it) }
                o.put("limit", CapacityRerun.LIMIT)
            }
            val rows = root.putArray("rows")
            val ratios = root.putArray("ratios")
            for ((c, p) in pairings.withIndex()) {
                for (v in values.indices) row(c, v)?.let { rowJson(rows.addObject(), c, v, it.search, mapper) }
                ratio(c)?.let { (a, b, verdict) -> ratioJson(ratios.addObject(), c, a, b, verdict) }
            }
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n"
        }

        private fun rowJson(o: ObjectNode, c: Int, v: Int, s: InterleavedCapacity.Side, mapper: JsonMapper) {
            val p = pairings[c]
            o.put("family", p.family)
            o.put("variant", p.a.method)
            val params = o.putObject("params")
            p.key.forEach { (k, value) -> params.put(k, value) }
            o.put("side", values[v])
            s.capacity?.let { o.put("capacity", it) } ?: o.putNull("capacity")
            o.put("stable", stable(c, v))
            o.put("label", label(c, v))
            compared(c, v)?.let { cmp ->
                val previous = o.putObject("previous")
                cmp.previous?.let { previous.put("capacity", it) } ?: previous.putNull("capacity")
                cmp.apart?.let { previous.put("apart", it) } ?: previous.putNull("apart")
            }
            val estimates = o.putArray("estimates")
            s.estimates.forEach { estimates.add(it) }
            o.set("steps", mapper.valueToTree(s.steps.map { it.fields() }))
        }

        private fun ratioJson(
            o: ObjectNode,
            c: Int,
            a: InterleavedCapacity.Side,
            b: InterleavedCapacity.Side,
            verdict: String,
        ) {
            val p = pairings[c]
            o.put("family", p.family)
            o.put("variant", p.a.method)
            o.put("a", values[0])
            o.put("b", values[1])
            InterleavedCapacity.ratio(a, b)?.let {
                o.put("ratio", it.ratio)
                o.put("low", it.low)
                o.put("high", it.high)
                o.put("searches", it.blocks)
            }
            o.put("level", LEVEL)
            o.put("verdict", verdict)
            noVerdict(c, a, b)?.let { o.put("why", it) }
        }
    }

    private fun usage(why: String): Int {
        err.println(
            "capacity: $why (usage: LiveCapacityMain --sides name=a[,b] --out file.json <regex> [-p ...])",
        )
        return 2
    }

    private companion object {
        val OWN = setOf("--sides", "--out")

        /** The first value's server is the head side (a ratio's numerator), the second's the base. */
        val SIDES = listOf(Side.HEAD, Side.BASE)
        const val OBJECTIVE = "objective"
        const val LEVEL = 0.95

        /** Warmup windows as a live finding's: many configurations a round. */
        const val WINDOW_MILLIS = 500L
        const val SETTLE_MILLIS = 150L
    }
}
