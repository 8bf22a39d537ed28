@file:JvmName("LiveFindingsMain")

package serverbench.compare

import serverbench.live.LiveMeasurement
import serverbench.live.LivePlan
import serverbench.live.LiveRow
import serverbench.live.MachineNoise
import serverbench.live.Metrics
import serverbench.live.Side
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.io.PrintStream
import java.util.Locale
import java.util.concurrent.TimeUnit
import kotlin.system.exitProcess

/**
 * A suite's findings as ratios (`findings: server=tomcat,netty` in its file; scripts/bench runs this after the JMH
 * rows): every configuration of the suite on both values of the parameter, live at once ([LiveMeasurement]: the
 * servers of both values in processes of their own, all configurations on each, interleaved windows), so that
 * "tomcat ÷ netty, direct: 1.05 [1.02, 1.08]" is read in the same minutes on both sides, not one after another.
 *
 * Usage: `LiveFindingsMain --sides server=tomcat,netty --out run-findings.json [--budget 150s] [--pairs N] <regex>
 * [-p …]`.
 * Writes the JSON (a list of objects with family, variant, metric, a, b, ratio, low, high, level, verdict, test) and
 * prints one line per configuration; exit 2 on bad input, 1 when nothing could be measured.
 */
fun main(args: Array<String>) {
    exitProcess(LiveFindings(System.out, System.err).run(args.toList()))
}

class LiveFindings(private val out: PrintStream, private val err: PrintStream) {
    /** What the command line asks: the sides' parameter and values, the output, the budget, the JMH options. */
    private class Args(
        val name: String,
        val values: List<String>,
        val out: File,
        val budget: Double,
        val pairs: Int,
        val jmh: List<String>,
    )

    private fun parse(args: List<String>): Args {
        val sides = requireNotNull(args.ownValue("--sides")) { "--sides name=a,b is missing" }
        val out = requireNotNull(args.ownValue("--out")?.let(::File)) { "--out file is missing" }
        val budget = args.ownValue("--budget")?.let {
            requireNotNull(ForkPlan.seconds(it)) { "--budget $it: such as 150s" }
        }
        val name = sides.substringBefore('=')
        val values = sides.substringAfter('=', "").split(',').filter { it.isNotEmpty() }
        require(name.isNotEmpty() && values.size == 2) { "--sides $sides: one parameter and two values, a,b" }
        val pairs = args.ownValue("--pairs")?.let { p ->
            requireNotNull(p.toIntOrNull()?.takeIf { it >= 1 }) { "--pairs $p: 1 or more server processes a side" }
        } ?: DEFAULT_PAIRS
        val jmh = args.withoutOwn(OWN)
        require(jmh.isNotEmpty()) { "the benchmark regex is missing" }
        return Args(name, values, out, budget ?: DEFAULT_BUDGET_SECONDS, pairs, jmh)
    }

    fun run(args: List<String>): Int {
        val (parsed, pairings) = try {
            parse(args).let {
                it to
                    SuitePairings.of(it.jmh, it.name, it.values, { line -> err.println("findings: $line") })
            }
        } catch (e: IllegalArgumentException) {
            return usage(e.message ?: "bad options")
        }
        val values = parsed.values
        val outFile = parsed.out
        val budget = parsed.budget
        if (pairings.isEmpty()) {
            err.println("findings: no configuration of '${parsed.jmh.first()}' can be measured live; none written")
            return 1
        }
        val plan = plan(parsed)
        val dir = File(outFile.absoluteFile.parentFile, outFile.nameWithoutExtension)
        val first = pairings.first()
        val measurement = LiveMeasurement(
            mapOf(Side.BASE to SuitePairings.spec(first.b), Side.HEAD to SuitePairings.spec(first.a)),
            pairings.map { LiveMeasurement.Config(it.label, mapOf(Side.BASE to it.b, Side.HEAD to it.a)) },
            plan,
            dir,
            err,
            ratioName = "${values[0]} ÷ ${values[1]}",
        )
        err.println(
            "findings: ${values[0]} ÷ ${values[1]} of ${pairings.size} configurations, live at once " +
                "(${plan.pairs} server${if (plan.pairs == 1) "" else "s"} a side, every configuration on each, " +
                "interleaved windows), " +
                "in at most ${budget.toLong()} s",
        )
        val outcome = measurement.run()
        outcome.failure?.let {
            err.println("findings: the live measurement failed: $it (windows kept in ${dir.path}/)")
        }
        val test = test(plan, outcome)
        val rows = pairings.withIndex().flatMap { (i, p) ->
            LiveRow.of(p.a.benchmark, p.key, outcome.windows.filter { it.config == i }).map { p to it }
        }
        ComparisonOutput.write(outFile, json(rows, values, test))
        rows.filter {
            it.second.metric.name == Metrics.THROUGHPUT
        }.forEach { (p, r) -> out.println(line(p, r, values)) }
        err.println("findings: ${outFile.path} ($test)")
        return if (rows.isEmpty()) 1 else 0
    }

    private fun plan(parsed: Args) = LivePlan(
        pairs = parsed.pairs,
        windowNanos = TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS),
        settleNanos = TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS),
        warmupSeconds = WARMUP_SECONDS,
        calibrationBlocks = CALIBRATION_BLOCKS,
        minBlocks = MIN_BLOCKS,
        precision = PRECISION,
        decidedBeyond = DECIDED_BEYOND,
        budgetSeconds = parsed.budget,
    )

    /** The test behind every finding's interval, with the rotation's rule and why the measurement stopped. */
    private fun test(plan: LivePlan, outcome: LiveMeasurement.Outcome): String {
        val blocks = outcome.windows.maxOfOrNull { it.round }?.let { (it + 1) / 2 }
        return LiveRow.test(plan, null) + (blocks?.let { ", up to $it blocks a pair" } ?: "") +
            "; a configuration leaves the rotation once its interval is within ± " +
            "${LiveMeasurement.percent(PRECISION)} or wholly beyond ×${DECIDED_BEYOND.toInt()} either way, " +
            "the others measured on; stopped: ${outcome.stop}" +
            (outcome.machineNoise?.let { "; before the servers started, ${MachineNoise.describe(it)}" } ?: "")
    }

    private fun line(p: Pairing, r: LiveRow, values: List<String>): String {
        val ratio = r.ratio ?: return "- ${p.label}: ${values[0]} ÷ ${values[1]} req/s: too few windows"
        return "- ${p.label}: ${values[0]} ÷ ${values[1]} req/s " +
            String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", ratio.ratio, ratio.low, ratio.high) +
            if (r.significant) " (${values[0]} ${r.verdict})" else " (no difference this run can tell)"
    }

    private fun json(rows: List<Pair<Pairing, LiveRow>>, values: List<String>, test: String): String {
        val mapper = JsonMapper.builder().build()
        val array = mapper.createArrayNode()
        for ((p, r) in rows) {
            val o = array.addObject()
            o.put("family", p.family)
            o.put("variant", p.a.method)
            val params = o.putObject("params")
            p.key.forEach { (k, v) -> params.put(k, v) }
            o.put("metric", r.metric.name)
            o.put("a", values[0])
            o.put("b", values[1])
            o.put("aMean", r.head)
            o.put("bMean", r.base)
            r.ratio?.let {
                o.put("ratio", it.ratio)
                o.put("low", it.low)
                o.put("high", it.high)
            }
            o.put("level", 0.95)
            o.put("verdict", if (r.significant) r.verdict else "~")
            o.put("windows", r.windows)
            o.put("test", test)
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n"
    }

    private fun usage(why: String): Int {
        err.println("findings: $why")
        err.println(
            "usage: LiveFindingsMain --sides name=a,b --out file.json [--budget 150s] [--pairs N] <regex> " +
                "[JMH -p options]",
        )
        return 2
    }

    private companion object {
        val OWN = setOf("--sides", "--out", "--budget", "--pairs")
        const val DEFAULT_BUDGET_SECONDS = 150.0

        /** One server a side: the main job's minutes hold one warmup, not a comparison's generations of pairs. */
        const val DEFAULT_PAIRS = 1
        const val WARMUP_SECONDS = 60.0

        /**
         * ± 2.5 %: a configuration whose req/s interval is that narrow leaves the rotation, and the ones still wider
         * (the CPU rows, whose windows spread most) get its windows; the findings end when none is left.
         */
        const val PRECISION = 0.025

        /** A lead beyond 2× either way is told at any width: BlockingIo direct's 15× leaves after [MIN_BLOCKS]. */
        const val DECIDED_BEYOND = 2.0

        /** Blocks before an interval may end a configuration: at 2 or 3 its spread is itself a guess. */
        const val MIN_BLOCKS = 4

        /** Two blocks, the fewest whose differences spread: the forecast's material. */
        const val CALIBRATION_BLOCKS = 2

        /** Half-second windows: a round of many configurations then takes seconds, not half a minute. */
        const val WINDOW_MILLIS = 500L
        const val SETTLE_MILLIS = 150L
    }
}
