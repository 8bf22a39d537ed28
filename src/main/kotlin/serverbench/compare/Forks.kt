package serverbench.compare

import serverbench.compare.ForkOrder.Side
import java.io.File
import java.io.PrintStream
import kotlin.io.path.createTempDirectory

/**
 * Runs a comparison's forks in [ForkOrder], one process at a time (two at once would measure each other): each is
 * the side's own launcher with one fork, so a jar or a JDK can differ between sides. Their console lines go to [err]
 * with the fork's name in front; stdout stays for the table.
 */
class Forks(
    private val base: Configuration,
    private val head: Configuration,
    private val common: List<String>,
    private val dir: File,
    private val err: PrintStream,
) {
    /** What a run measured: each fork's side and JMH results (null when it did not complete), and why it stopped. */
    class Measured(
        val forks: List<Pair<Side, File?>>,
        val forksASide: Int,
        val stop: ForkPlan.Stop,
        val seconds: Double,
    )

    /**
     * Runs [plan]'s forks a block of two a side at a time while [plan] says so, each look reading the req/s rows'
     * detectables from the forks so far ([detectable]); null when a side was refused or the run interrupted (a line
     * said so). [onStart] runs once both sides' commands were accepted; [onFirstLook] hears the forks of the first
     * look, at [ForkPlan.firstForks] a side, and their time, for the forecast from the run's own figures.
     */
    fun run(
        plan: ForkPlan,
        detectable: (List<Pair<Side, File?>>) -> List<Double>,
        onFirstLook: (List<Pair<Side, File?>>, Double) -> Unit = { _, _ -> },
        onStart: () -> Unit = {},
    ): Measured? {
        val order = ForkOrder.of(maxOf(ForkPlan.MOST_FORKS, plan.firstForks))
        for (config in listOf(base, head)) {
            val why = refused(config) ?: continue
            err.println("compare: the ${config.name} side's $why; nothing was started")
            return null
        }
        onStart()
        check(dir.mkdirs()) { "could not create $dir" }
        val sitting = Sitting(plan, detectable, onFirstLook)
        val hook = Thread(sitting.interruption::interrupt)
        // A Ctrl-C during the check already shut down: the fork it would have started is not.
        if (runCatching { Runtime.getRuntime().addShutdownHook(hook) }.isFailure) return null
        try {
            for ((i, side) in order.withIndex()) {
                if (!sitting.fork(i, side)) return null
                // A look after each whole block (base head head base), where a drift cancels.
                if ((i + 1) % 4 == 0 && sitting.look(i + 1)) break
            }
        } finally {
            runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        }
        val done = sitting.done
        return Measured(done, done.size / 2, sitting.stop ?: ForkPlan.Stop.MOST, sitting.seconds())
    }

    /** One run's forks so far, and the plan's looks at them. */
    private inner class Sitting(
        private val plan: ForkPlan,
        private val detectable: (List<Pair<Side, File?>>) -> List<Double>,
        private val onFirstLook: (List<Pair<Side, File?>>, Double) -> Unit,
    ) {
        val done = ArrayList<Pair<Side, File?>>()
        val interruption = Interruption(dir, err)
        var stop: ForkPlan.Stop? = null
        private val count = mutableMapOf(Side.BASE to 0, Side.HEAD to 0)
        private val started = System.nanoTime()
        private var planned = plan.firstForks

        fun seconds() = (System.nanoTime() - started) / 1e9

        /** Runs the [i]th fork, of [side]; false when it was interrupted or its side refused (a line said so). */
        fun fork(i: Int, side: Side): Boolean {
            val config = if (side == Side.BASE) base else head
            val n = count.getValue(side) + 1
            count[side] = n
            val name = "${config.name}-$n"
            val json = File(dir, "$name.json")
            val left = if (i == 0) "" else ", about ${minutes(seconds() / i * (2 * planned - i))} left to this look"
            err.println("compare: fork ${i + 1} of ${2 * planned}: ${config.name} ($n of $planned)$left")
            interruption.planned = 2 * planned
            val service = if (config.serve.isEmpty()) {
                null
            } else {
                // A service that does not come up fails this fork, as a fork that fails would: the run goes on.
                ServedService.start(config, name, dir, interruption, err::println) ?: run {
                    if (interruption.happened) return false
                    done += side to null
                    interruption.done = done.size
                    return true
                }
            }
            val status = try {
                val process = interruption.start(
                    ProcessBuilder(
                        config.command(common, json, File(dir, "$name.log"), target = service?.target.orEmpty()),
                    )
                        .redirectErrorStream(true),
                ) ?: return false
                interruption.read(process) { err.println("  [$name] $it") } ?: return false
            } finally {
                // Not after an interruption: the hook stops it, and this thread may be past its last word.
                if (!interruption.happened) service?.stop()
            }
            if (status == 2 && n == 1 && !config.checksFirst()) {
                // A jar too old to check first, refused before anything started: its line said why.
                err.println("compare: the ${config.name} side's command was refused (exit 2); nothing was compared")
                dir.deleteRecursively()
                return false
            }
            if (status != 0) err.println("compare: fork $name exited with status $status; its log: $dir/$name.log")
            done += side to json.takeIf { it.isFile }
            interruption.done = done.size
            return true
        }

        /** The look after [ran] forks (a whole block): true when the plan stops here. */
        fun look(ran: Int): Boolean {
            val forks = ran / 2
            val seconds = seconds()
            if (ran == 4) {
                err.println("compare: " + plan.pace(seconds / ran))
                // The countdown follows the pace line: to the budget's stop where it comes before the first look.
                planned = minOf(planned, plan.forksWithin(seconds / ran))
            }
            if (forks < ForkStatistics.minimumForks) return false
            if (forks == plan.firstForks) onFirstLook(done.toList(), seconds)
            val widths = if (forks >= plan.firstForks) detectable(done) else emptyList()
            val stop = plan.decide(forks, widths, seconds)
            this.stop = stop
            val said = this@Forks.look(plan, forks, widths, stop)
            err.println("compare: $forks forks a side in ${minutes(seconds)}$said")
            if (stop != null) return true
            planned = maxOf(plan.firstForks, forks + 2)
            return false
        }
    }

    /** The rest of a look's line: before the first look only the budget is read, from it the detectables too. */
    private fun look(plan: ForkPlan, forks: Int, widths: List<Double>, stop: ForkPlan.Stop?): String {
        val then = stop?.let { "stop, ${it.said}" } ?: "two more a side"
        if (forks < plan.firstForks) return ", the budget read (the precision from ${plan.firstForks} a side): $then"
        val widest = widths.maxOrNull()?.let { ForkPlan.percent(it) } ?: "–"
        return ", req/s expected detectable ± $widest from the pooled spread " +
            "(target ± ${ForkPlan.percent(plan.precision)}): $then"
    }

    /**
     * Runs the side's launcher in check-only mode: a wrong `-p` value or option is refused, in the launcher's own
     * line, before either side measures anything; why it was refused, or null. Jars without compare (older builds)
     * cannot check; their first fork is the check.
     */
    private fun refused(config: Configuration): String? {
        if (!config.checksFirst()) return null
        // A side that serves its own jar checks against it: the jar starts, and answers as the options expect.
        val service = if (config.serve.isEmpty()) {
            null
        } else {
            val scratch = createTempDirectory("compare-check").toFile()
            val started = ServedService.start(config, "${config.name}-check", scratch, Interruption(scratch, err)) {
                err.println(it)
            }
            if (started == null) {
                scratch.deleteRecursively()
                return "service did not start (the lines above say why)"
            }
            started to scratch
        }
        val probe = File.createTempFile("compare-check", ".json").also { it.delete() }
        val target = service?.first?.target.orEmpty()
        val process = ProcessBuilder(
            config.command(common, probe, File("/dev/null"), checkOnly = true, target = target),
        )
            .redirectErrorStream(true).start()
        process.inputStream.bufferedReader().forEachLine { err.println("  [${config.name}] $it") }
        val status = process.waitFor()
        probe.delete()
        service?.let { (s, scratch) ->
            s.stop()
            scratch.deleteRecursively()
        }
        return if (status == 2) "command was refused (exit 2)" else null
    }

    private fun minutes(seconds: Double): String {
        val s = seconds.toLong()
        return if (s < 120) "$s s" else "${s / 60} min"
    }
}
