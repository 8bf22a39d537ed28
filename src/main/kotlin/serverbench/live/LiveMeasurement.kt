package serverbench.live

import serverbench.client.ClientSettings
import serverbench.client.LoadGroup
import serverbench.client.LoadSplit
import serverbench.params.ClientThreadsParam
import java.io.File
import java.io.PrintStream
import java.util.Locale
import kotlin.random.Random

/**
 * The live-sides engine: every side's server runs at once, each in a process of its own ([pairs] fresh processes a
 * side), all warmed together; then one load client, in this JVM (outside every side's CPU budget), drives one process
 * at a time in short windows, in balanced random order, and keeps each window's figures ([Window]) per side.
 *
 * Why it is shaped so (docs/compare.md): sides measured one after another drift apart by more than the changes teams
 * make (the machine drifts over minutes), while processes measured in the same minutes agree within about 1 %. One
 * window's noise is white, so precision comes from measured seconds a side, and interleaving is what keeps the drift
 * out of it. Each round drives every process once, a pair's two sides next to each other in a random order, the next
 * round in the reverse order (ABBA): a drift linear over a block of two rounds adds to both sides alike. The first
 * [settleNanos] after each switch are dropped: the other process's requests in flight end then, and its compiler's
 * work of the last window with them.
 */
class LiveMeasurement(
    private val sides: Map<Side, Spec>,
    /** What is compared on those servers: one configuration or several (each its own requests, on the same servers). */
    private val configs: List<Config>,
    private val plan: LivePlan,
    private val dir: File,
    private val err: PrintStream,
    private val random: Random = Random.Default,
) {
    /** One side: how one of its server processes starts (given its log file). */
    class Spec(val label: String, val command: (log: File) -> List<String>)

    /** One configuration: what each side's client sends for it. */
    class Config(val name: String, val targets: Map<Side, LiveTarget>)

    /** How a measurement ended. */
    class Outcome(
        val windows: List<Window>,
        /** Why it stopped adding blocks: the precision, the budget, the cap, an interrupt, a failure. */
        val stop: String,
        val failure: String?,
        val interrupted: Boolean,
        val seconds: Double,
        /** The forecast said before it began (from the calibration), or null. */
        val forecast: String?,
        /** Each server's process ids and logs. */
        val servers: List<String>,
    )

    @Volatile
    private var stopRequested = false

    private val processes = ArrayList<Process>()
    private val lock = Any()

    /** From another thread (a shutdown hook): stop after the window that runs, keeping every window measured. */
    fun requestStop() {
        stopRequested = true
    }

    /** Every server process still running, stopped: for a hook, when the measuring thread did not get to it. */
    fun killAll() = synchronized(lock) {
        processes.forEach { p ->
            p.descendants().forEach { it.destroyForcibly() }
            p.destroyForcibly()
        }
    }

    /** One configuration's load on one server process. */
    private class Proc(
        override val side: Side,
        override val pair: Int,
        val config: Int,
        override val couple: Int,
        val server: LiveServer,
        val group: LoadGroup,
    ) : Interleaving.Slot

    fun run(): Outcome {
        dir.mkdirs()
        val started = System.nanoTime()
        val servers = ArrayList<LiveServer>()
        val procs = ArrayList<Proc>()
        val windows = ArrayList<Window>()
        val record = WindowFile(File(dir, "windows.csv"))
        var forecast: String? = null
        var failure: String? = null
        var stop = "not started"
        try {
            servers += startServers()
            procs += connect(servers)
            err.println(
                "live: ${servers.size} servers answer (${servers.joinToString { "${it.name} pid ${it.pid}" }})" +
                    if (configs.size > 1) ", ${configs.size} configurations on each" else "",
            )
            val clock = { (System.nanoTime() - started) / 1e9 }
            err.println("live: ${warm(procs, record, clock)}")
            if (stopRequested) throw Interrupted()
            forecast = calibrate(procs, record, clock)
            err.println("live: $forecast")
            stop = measure(procs, windows, record, clock)
        } catch (e: Interrupted) {
            stop = "interrupted"
        } catch (e: Throwable) {
            // A failed request is a LoadFailure, an AssertionError. One that comes with an interrupt is its doing:
            // Ctrl-C reaches the servers (one process group) as it reaches this JVM, whose hook may run a moment later.
            if (!stopRequested) Thread.sleep(INTERRUPT_GRACE_MILLIS)
            if (stopRequested) {
                stop = "interrupted"
            } else {
                if (e !is Exception && e !is AssertionError) throw e
                failure = e.message ?: e.toString()
                stop = "failed"
            }
        } finally {
            procs.forEach { p -> runCatching { p.group.close() } }
            servers.forEach { runCatching { it.stop() } }
            killAll()
            record.close()
        }
        return Outcome(
            windows,
            stop,
            failure,
            stopRequested,
            (System.nanoTime() - started) / 1e9,
            forecast,
            servers.map { "${it.name}: pid ${it.pid}, log ${it.log.path}" },
        )
    }

    private class Interrupted : RuntimeException()

    /** Each configuration's client on each server, its requests checked once first. */
    private fun connect(servers: List<LiveServer>): List<Proc> {
        val settings = ClientSettings.fromSystemProperties()
        val procs = ArrayList<Proc>()
        for (s in servers) {
            val side = if (s.name.startsWith("base")) Side.BASE else Side.HEAD
            val pair = s.name.substringAfterLast('-').toInt()
            for ((c, config) in configs.withIndex()) {
                val target = config.targets.getValue(side)
                LoadGroup.verify(s.address, target.mix, settings, remoteAllowed = false)
                val threads = target.values["clientThreads"]?.let(ClientThreadsParam::count)
                    ?: LoadSplit.auto(Runtime.getRuntime().availableProcessors())
                val group = LoadGroup(s.address, target.concurrency, target.mix, settings, threads = threads)
                procs += Proc(side, pair, c, pair * configs.size + c, s, group)
                group.start()
            }
        }
        return procs
    }

    /** Every side's [LivePlan.pairs] servers, started at once; returns once all listen. */
    private fun startServers(): List<LiveServer> {
        val pending = Side.entries.flatMap { side ->
            (0 until plan.pairs).map { pair ->
                val name = "${side.name.lowercase()}-$pair"
                val log = File(dir, "$name-serve.log")
                LiveServer.launch(name, sides.getValue(side).command(log), log) { p ->
                    synchronized(lock) {
                        if (stopRequested) p.destroyForcibly()
                        processes += p
                    }
                }
            }
        }
        return pending.map { it.awaitListening(plan.startSeconds) }
    }

    /**
     * Full-load windows in interleaved rounds until every process is steady ([steady]) or [LivePlan.warmupSeconds]
     * have passed, each round followed by a pause in which no process has load: the compiler threads of every process
     * then have the cores (docs/warmup.md: on 2 cores a server's compiler starves under full load, and here four
     * servers compile at once). Recorded as warmup, in no statistic. Returns the line that says how it ended.
     */
    private fun warm(procs: List<Proc>, record: WindowFile, clock: () -> Double): String {
        val begun = clock()
        val seen = procs.associateWith { ArrayList<Double>() }
        var round = 0
        var previous: List<Proc> = emptyList()
        while (!stopRequested) {
            previous = order(procs, round, previous)
            rounds(previous, round, "warmup", record, clock).zip(previous).forEach { (w, p) ->
                seen.getValue(p) += w.value(Metrics.THROUGHPUT) ?: 0.0
            }
            Thread.sleep(plan.pauseMillis)
            round++
            val elapsed = clock() - begun
            if (elapsed >= MIN_WARMUP_SECONDS && seen.values.all(::steady)) {
                return "warm: every server steady after ${Math.round(elapsed)} s ($round rounds)"
            }
            if (elapsed >= plan.warmupSeconds) {
                val not = seen.filterValues { !steady(it) }.keys.joinToString { name(it) }
                return "warm: not steady after the --warmup's ${Math.round(elapsed)} s ($not still changing); " +
                    "the calibration's spread below says what that costs"
            }
        }
        return "warm: interrupted"
    }

    /**
     * A process is steady when its last [STEADY_WINDOWS] windows lie within 10 % of each other and their mean is
     * within 5 % of the mean of the ones before: neither noisy nor still climbing (a server compiling reads low).
     */
    private fun steady(figures: List<Double>): Boolean {
        if (figures.size < 2 * STEADY_WINDOWS) return false
        val last = figures.takeLast(STEADY_WINDOWS)
        val before = figures.dropLast(STEADY_WINDOWS).takeLast(STEADY_WINDOWS)
        return last.min() >= STEADY_SPREAD * last.max() && last.average() <= STEADY_CLIMB * before.average()
    }

    /**
     * [LivePlan.calibrationBlocks] blocks measured as the comparison's would be, in no statistic: how far block
     * differences spread on this machine now, and so what the budget can show. Returns the line that says it.
     */
    private fun calibrate(procs: List<Proc>, record: WindowFile, clock: () -> Double): String {
        val windows = ArrayList<Window>()
        val begun = clock()
        var previous: List<Proc> = emptyList()
        for (round in 0 until 2 * plan.calibrationBlocks) {
            previous = order(procs, round, previous)
            windows += rounds(previous, round, "calibration", record, clock)
        }
        val blockSeconds = (clock() - begun) / plan.calibrationBlocks
        val spread = configs.indices.mapNotNull { c ->
            WindowStatistics.blockSpread(
                WindowStatistics.blockDifferences(windows.filter { it.config == c }, Metrics.THROUGHPUT).values,
            )
        }.maxOrNull()
        val windowSpread = windowSpread(windows)
        val left = plan.budgetSeconds - clock()
        val blocks = minOf(plan.maxBlocks, maxOf(plan.minBlocks, (left / blockSeconds).toInt()))
        val half = spread?.let { WindowStatistics.expectedHalfWidth(it, blocks, plan.pairs) }
        val minutes = (clock() + blocks * blockSeconds) / 60
        return "calibration, now, over ${plan.calibrationBlocks} blocks: one window's req/s spreads by " +
            "${percent(windowSpread)} (sd within a process), a block's head ÷ base by ${percent(spread)}; at " +
            "$blocks blocks a pair (the --budget's, ${String.format(Locale.ROOT, "%.0f", blockSeconds)} s a block) " +
            "these settings can show a change of about ± ${percent(half)} in req/s (the 95 % interval's half-width), " +
            "in about ${String.format(Locale.ROOT, "%.1f", minutes)} min in all" +
            if (half != null && half > plan.precision) {
                "; the --precision ${percent(plan.precision)} needs about " +
                    "${WindowStatistics.blocksFor(
                        spread,
                        plan.precision,
                        plan.pairs,
                        plan.minBlocks,
                    )} blocks a pair: a noisy hour, or a longer --budget"
            } else {
                ""
            }
    }

    /** Blocks until the req/s interval is within the precision, the budget is spent, or [LivePlan.maxBlocks]. */
    private fun measure(
        procs: List<Proc>,
        windows: MutableList<Window>,
        record: WindowFile,
        clock: () -> Double,
    ): String {
        val begun = clock()
        var previous: List<Proc> = emptyList()
        var lastLine = begun
        var block = 0
        while (true) {
            for (round in 2 * block..2 * block + 1) {
                previous = order(procs, round, previous)
                windows += rounds(previous, round, "measure", record) { clock() - begun }
            }
            block++
            // The widest configuration's: each must reach the precision.
            val ratio = configs.indices.map { c ->
                WindowStatistics.ratio(windows.filter { it.config == c }, Metrics.THROUGHPUT)
            }.let { all -> if (all.any { it == null }) null else all.maxBy { it!!.halfWidth } }
            val reason = Interleaving.stopReason(plan, block, ratio, clock(), (clock() - begun) / block)
            if (reason != null || clock() - lastLine >= PROGRESS_SECONDS) {
                lastLine = clock()
                val now = ratio?.let {
                    "req/s head ÷ base ${fmt(it.ratio)} [${fmt(it.low)}, ${fmt(it.high)}], ± ${percent(it.halfWidth)}"
                } ?: "no interval yet"
                err.println("live: $block blocks a pair, ${Math.round(clock())} s: $now; ${reason ?: "going on"}")
            }
            if (reason != null) return reason
        }
    }

    /** One window of each of [ordered] in turn, each recorded as [phase]; an interrupt ends it between windows. */
    private fun rounds(ordered: List<Proc>, round: Int, phase: String, record: WindowFile, at: () -> Double) =
        ordered.map { p ->
            if (stopRequested) throw Interrupted()
            window(p, round, at()).also { record.write(phase, it) }
        }

    private fun name(p: Proc) = p.server.name + if (configs.size > 1) " ${configs[p.config].name}" else ""

    private fun order(procs: List<Proc>, round: Int, previous: List<Proc>) =
        Interleaving.order(procs, round, previous, random)

    /** One window of [p]: the settling time dropped, then [LivePlan.windowNanos] measured. */
    private fun window(p: Proc, round: Int, at: Double): Window {
        val group = p.group
        group.beginIteration()
        drive(group, plan.settleNanos)
        group.endIteration()
        val cpuBefore = p.server.cpuNanos()
        group.beginIteration()
        drive(group, plan.windowNanos)
        val report = group.endIteration()
        val cpuAfter = p.server.cpuNanos()
        val successes = report.successes
        val seconds = report.wallNanos / 1e9
        val figures = LinkedHashMap<String, Double>()
        figures[Metrics.THROUGHPUT] = successes / seconds
        if (cpuBefore != null && cpuAfter != null && successes > 0) {
            figures[Metrics.CPU_PER_REQUEST] = (cpuAfter - cpuBefore) / 1e6 / successes
        }
        if (successes > 0) {
            figures[Metrics.P50] = report.latencyMicros.getValueAtPercentile(50.0) / 1000.0
            figures[Metrics.P99] = report.latencyMicros.getValueAtPercentile(99.0) / 1000.0
        }
        figures[Metrics.ERRORS] = report.failures.total.toDouble()
        return Window(p.side, p.pair, round, at, figures, p.config)
    }

    /** Runs [group]'s closed loop for [nanos]; a failure beyond the tolerance throws its one line. */
    private fun drive(group: LoadGroup, nanos: Long) {
        val end = System.nanoTime() + nanos
        while (System.nanoTime() - end < 0) group.next()
    }

    /** The sd of log req/s within each process over [windows], pooled: one window's own noise. */
    private fun windowSpread(windows: List<Window>): Double? {
        val groups = windows.groupBy { Triple(it.side, it.pair, it.config) }.values.map { w ->
            w.mapNotNull { it.value(Metrics.THROUGHPUT)?.takeIf { v -> v > 0 }?.let(Math::log) }
        }
        return WindowStatistics.blockSpread(groups)
    }

    /** Each window as a CSV line, written as it is measured: an interrupt loses none. */
    private class WindowFile(file: File) {
        private val out = file.bufferedWriter()

        init {
            out.write("phase,config,side,pair,round,at_s,${COLUMNS.joinToString(",")}\n")
        }

        fun write(phase: String, w: Window) {
            val values = COLUMNS.joinToString(",") { c ->
                w.value(c)?.let { String.format(Locale.ROOT, "%.6g", it) }
                    ?: ""
            }
            out.write(
                "$phase,${w.config},${w.side.name.lowercase()},${w.pair},${w.round},${String.format(
                    Locale.ROOT,
                    "%.3f",
                    w.at,
                )}," +
                    "$values\n",
            )
            out.flush()
        }

        fun close() = runCatching { out.close() }

        companion object {
            val COLUMNS = listOf(Metrics.THROUGHPUT, Metrics.CPU_PER_REQUEST, Metrics.P50, Metrics.P99, Metrics.ERRORS)
        }
    }

    companion object {
        private const val PROGRESS_SECONDS = 30.0
        private const val INTERRUPT_GRACE_MILLIS = 1_000L
        private const val MIN_WARMUP_SECONDS = 20.0
        private const val STEADY_WINDOWS = 3
        private const val STEADY_SPREAD = 0.9
        private const val STEADY_CLIMB = 1.05

        fun percent(share: Double?): String =
            share?.let { String.format(Locale.ROOT, "%.1f %%", it * 100) } ?: "(too few windows)"

        fun fmt(x: Double): String = String.format(Locale.ROOT, "%.3f", x)
    }
}
