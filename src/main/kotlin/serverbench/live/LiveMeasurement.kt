package serverbench.live

import serverbench.benchmarks.SteadyWarmup
import serverbench.client.ClientSettings
import serverbench.client.LoadGroup
import serverbench.profile.ServerProfiles
import java.io.File
import java.io.PrintStream
import java.util.Locale
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
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
    /** `-prof flame`'s: every server sampled once warm, to the end of its generation ([ServerProfiles]). */
    private val profiles: ServerProfiles? = null,
    /** What runs on the warm servers instead of the interleaved windows (a capacity search), or null. */
    private val instead: Warmed? = null,
    /** How the lines name head ÷ base: the findings' "tomcat ÷ netty". */
    private val ratioName: String = "head ÷ base",
) {
    init {
        require(sides.size == 2 || (instead != null && sides.size == 1)) { "a comparison has two sides" }
        require(instead == null || plan.generations == 1) { "the servers of one generation are warmed for it" }
    }

    /**
     * Another measurement on the warm servers, in place of the windows: their closed-loop clients closed, so its own
     * load is all they have. Returns why it stopped; [stopped] turns true on an interrupt.
     */
    fun interface Warmed {
        fun run(servers: List<Warm>, stopped: () -> Boolean): String
    }

    /** One configuration on one warm server: its target, and its last warmup window's req/s (closed loop). */
    class Warm(val side: Side, val config: Int, val server: LiveServer, val target: LiveTarget, val rate: Double)

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
        /** The machine's own noise, measured before any server started ([MachineNoise]). */
        val machineNoise: Double? = null,
    )

    @Volatile
    private var stopRequested = false

    /** The generations this run measures: the plan's, or fewer where the budget holds fewer ([calibrate]). */
    private var generations = plan.generations

    private val processes = ArrayList<Process>()
    private val lock = Any()

    /** From another thread (a shutdown hook): stop after the window that runs, keeping every window measured. */
    fun requestStop() {
        stopRequested = true
    }

    /**
     * [block] with a shutdown hook (Ctrl-C) that says [line], asks this measurement to stop after its window (or
     * step) and waits for it to end (its servers stopped, what it measured kept), then stops whatever still runs; and
     * then gives the caller until [written] to write what it has before the JVM halts.
     */
    fun <T> withInterruptHook(err: PrintStream, line: String, written: CountDownLatch, block: () -> T): T {
        val done = CountDownLatch(1)
        val hook = Thread {
            err.println(line)
            requestStop()
            if (!done.await(HOOK_WAIT_SECONDS, TimeUnit.SECONDS)) killAll()
            written.await(HOOK_WAIT_SECONDS, TimeUnit.SECONDS)
        }
        Runtime.getRuntime().addShutdownHook(hook)
        try {
            return block()
        } finally {
            done.countDown()
            runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        }
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

    /** When [run] began, and the seconds since: the clock of every window and of the budget. */
    private var started = 0L

    private fun clock() = (System.nanoTime() - started) / 1e9

    /** Every window as it is measured ([run] opens it). */
    private lateinit var record: WindowFile

    fun run(): Outcome {
        dir.mkdirs()
        started = System.nanoTime()
        val servers = ArrayList<LiveServer>()
        val procs = ArrayList<Proc>()
        val windows = ArrayList<Window>()
        record = WindowFile(File(dir, "windows.csv"))
        var forecast: String? = null
        var failure: String? = null
        var stop = "not started"
        val all = ArrayList<LiveServer>()
        // The first generation's start and warmup: what each later one is expected to spend before it measures.
        var overhead = 0.0
        machineNoise = MachineNoise.spread()
        err.println("live: ${MachineNoise.describe(machineNoise!!)}, before any server starts: the machine's own noise")
        try {
            var generation = 0
            while (generation < generations) {
                if (stopRequested) throw Interrupted()
                val begun = clock()
                ready(generation, servers, procs, all)
                if (generation == 0) overhead = clock() - begun
                stop = instead?.let { warmed(it, procs) }
                    ?: measure(procs, windows, generation, overhead) { forecast = it }
                stopGeneration(procs, servers)
                generation++
            }
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
            stopGeneration(procs, servers)
            killAll()
            record.close()
        }
        return Outcome(
            windows,
            stop,
            failure,
            stopRequested,
            clock(),
            forecast,
            all.map { "${it.name}: pid ${it.pid}, log ${it.log.path}" },
            machineNoise,
        )
    }

    /** [MachineNoise] of this run, once [run] has measured it. */
    private var machineNoise: Double? = null

    /** [generation]'s servers started (also into [all]), connected and warm (then profiled, with `-prof flame`). */
    private fun ready(
        generation: Int,
        servers: MutableList<LiveServer>,
        procs: MutableList<Proc>,
        all: MutableList<LiveServer>,
    ) {
        servers += startServers(generation)
        all += servers
        procs += connect(servers)
        err.println("live: ${answering(generation, servers)}")
        servers.forEach { profiles?.attach(it.name, it.jvmPid) }
        err.println("live: ${warm(procs)}")
        servers.forEach { profiles?.start(it.name) }
        if (stopRequested) throw Interrupted()
    }

    private fun answering(generation: Int, servers: List<LiveServer>) =
        (if (generations > 1) "generation ${generation + 1} of $generations: " else "") +
            "${servers.size} server${if (servers.size == 1) " answers" else "s answer"} (${servers.joinToString {
                "${it.name} pid ${it.pid}"
            }})" +
            if (configs.size > 1) ", ${configs.size} configurations on each" else ""

    /** One generation's clients closed and servers stopped, before the next one starts. */
    private fun stopGeneration(procs: MutableList<Proc>, servers: MutableList<LiveServer>) {
        procs.forEach { p -> runCatching { p.group.close() } }
        profiles?.let { p -> servers.forEach { s -> p.finish(s.name)?.let { err.println("live: flame: $it") } } }
        servers.forEach { runCatching { it.stop() } }
        procs.clear()
        servers.clear()
    }

    private class Interrupted : RuntimeException()

    /** [instead] on the warm servers, once their closed-loop clients are closed. */
    private fun warmed(instead: Warmed, procs: List<Proc>): String {
        val warm = procs.map {
            Warm(it.side, it.config, it.server, configs[it.config].targets.getValue(it.side), warmRates[it] ?: 0.0)
        }
        procs.forEach { p -> runCatching { p.group.close() } }
        return instead.run(warm) { stopRequested }
    }

    /** Each process's last warmup window's req/s. */
    private val warmRates = HashMap<Proc, Double>()

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
                val group =
                    LoadGroup(s.address, target.concurrency, target.mix, settings, threads = target.clientThreads)
                procs += Proc(side, pair, c, pair * configs.size + c, s, group)
                group.start()
            }
        }
        return procs
    }

    /** [generation]'s servers, every side's, started at once; returns once all listen. */
    private fun startServers(generation: Int): List<LiveServer> {
        val pending = Side.entries.filter { it in sides }.flatMap { side ->
            plan.pairsOf(generation).map { pair ->
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
        // An interrupt while they start stops the wait at once; the caller's clean-up stops them.
        return pending.map { it.awaitListening(plan.startSeconds) { stopRequested } ?: throw Interrupted() }
    }

    /**
     * Full-load windows in interleaved rounds until every process is steady ([steady]) or [LivePlan.warmupSeconds]
     * have passed, each round followed by a pause in which no process has load: the compiler threads of every process
     * then have the cores (docs/warmup.md: on 2 cores a server's compiler starves under full load, and here four
     * servers compile at once). Recorded as warmup, in no statistic. Returns the line that says how it ended.
     */
    private fun warm(procs: List<Proc>): String {
        val begun = clock()
        val seen = procs.associateWith { ArrayList<Double>() }
        val servers = procs.map { it.server }.distinct()
        // Each server's compile time as a share of each round's wall time (its compiler runs in the others' windows
        // and the pause too); empty where its admin endpoint cannot tell (then the windows alone judge).
        val compiling = servers.associateWith { ArrayList<Double>() }
        var jit = servers.associateWith { it.jitNanos() }
        var round = 0
        var previous: List<Proc> = emptyList()
        while (!stopRequested) {
            val roundBegun = clock()
            previous = order(procs, round, previous)
            rounds(previous, round, "warmup", ::clock).zip(previous).forEach { (w, p) ->
                seen.getValue(p) += w.value(Metrics.THROUGHPUT) ?: 0.0
            }
            Thread.sleep(plan.pauseMillis)
            val now = servers.associateWith { it.jitNanos() }
            for (s in servers) {
                val before = jit[s]
                val after = now[s]
                if (before != null && after != null) {
                    compiling.getValue(s) += (after - before) / 1e9 / (clock() - roundBegun)
                }
            }
            jit = now
            seen.forEach { (p, figures) -> figures.lastOrNull()?.let { warmRates[p] = it } }
            round++
            val elapsed = clock() - begun
            val isSteady = { p: Proc -> steady(seen.getValue(p), compiling.getValue(p.server)) }
            if (elapsed >= MIN_WARMUP_SECONDS && procs.all(isSteady)) {
                return "warm: every server steady after ${Math.round(elapsed)} s ($round rounds)"
            }
            if (elapsed >= plan.warmupSeconds) {
                val not = procs.filterNot(isSteady).joinToString { name(it) }
                return "warm: not steady after the --warmup's ${Math.round(elapsed)} s ($not still compiling or " +
                    "climbing); " +
                    "the calibration's spread below says what that costs"
            }
        }
        return "warm: interrupted"
    }

    /**
     * A process is steady when the mean of its last [STEADY_WINDOWS] windows is within 5 % of the mean of the ones
     * before (no longer climbing: a server compiling reads low) and its compiler is quiet: under
     * [SteadyWarmup.JIT_SHARE] of the wall time in each of those rounds, the main job's rule for its warmup. Where the
     * server cannot tell its compile time ([compiling] empty), its windows must lie within 10 % of each other instead.
     * The JIT's time, not the windows' spread, says that compiling is done: on a noisy hour no three windows lie within
     * 10 % of each other, and warmup ran to its cap (docs/measurements.md).
     */
    private fun steady(figures: List<Double>, compiling: List<Double>): Boolean {
        if (figures.size < 2 * STEADY_WINDOWS) return false
        val last = figures.takeLast(STEADY_WINDOWS)
        val before = figures.dropLast(STEADY_WINDOWS).takeLast(STEADY_WINDOWS)
        val climbing = last.average() > STEADY_CLIMB * before.average()
        val quiet = if (compiling.size >= STEADY_WINDOWS) {
            compiling.takeLast(STEADY_WINDOWS).all { it < SteadyWarmup.JIT_SHARE }
        } else {
            last.min() >= STEADY_SPREAD * last.max()
        }
        return !climbing && quiet
    }

    /**
     * The forecast from the first generation's first [LivePlan.calibrationBlocks] blocks ([windows], begun at
     * [begun]): how far block differences spread on this machine now, and so what the budget can show. Those blocks
     * count in the statistics as any other (their number is fixed, so they cannot steer the verdict): on a 2-core
     * machine the seconds they took decide whether the budget holds another generation of pairs. Each later
     * generation will spend about [overhead] (its servers' start and warmup, as this one's took) before it measures.
     * Sets [generations]; returns the line that says it.
     */
    private fun calibrate(windows: List<Window>, begun: Double, overhead: Double): String {
        val blockSeconds = (clock() - begun) / plan.calibrationBlocks
        val spread = configs.indices.mapNotNull { c ->
            WindowStatistics.blockSpread(
                WindowStatistics.blockDifferences(windows.filter { it.config == c }, Metrics.THROUGHPUT).values,
            )
        }.maxOrNull()
        val windowSpread = windowSpread(windows)
        generations = Interleaving.generationsThatFit(plan, begun, overhead, blockSeconds)
        val pairs = if (generations == plan.generations) plan.pairs else generations * plan.atOnce
        val measuring = (plan.budgetSeconds - begun - (generations - 1) * overhead) / generations
        val blocks = minOf(plan.maxBlocks, maxOf(2, (measuring / blockSeconds).toInt()))
        val half = spread?.let { WindowStatistics.expectedHalfWidth(it, blocks, pairs) }
        val minutes = (begun + generations * blocks * blockSeconds + (generations - 1) * overhead) / 60
        val generationsSaid = when {
            generations < plan.generations ->
                " (the --budget holds $generations generation${if (generations == 1) "" else "s"} of " +
                    "${plan.atOnce} pairs, not ${plan.generations}, after ${Math.round(overhead)} s of start and " +
                    "warmup: $pairs pairs, not ${plan.pairs}, so a process's own luck weighs more; a longer " +
                    "--budget measures them all)"

            generations > 1 ->
                " ($pairs pairs over the run, $generations generations of ${plan.atOnce}, each after about " +
                    "${Math.round(overhead)} s of start and warmup)"

            else -> ""
        }
        val first = "${plan.calibrationBlocks} block${if (plan.calibrationBlocks == 1) "" else "s"}"
        return "calibration, now, over the first $first (they count as any other): one window's req/s spreads by " +
            "${percent(windowSpread)} (sd within a process), a block's $ratioName by ${percent(spread)}; at " +
            "$blocks blocks a pair$generationsSaid, ${String.format(Locale.ROOT, "%.0f", blockSeconds)} s a block, " +
            "the windows alone would let these settings show a change of about ± ${percent(half)} in req/s (the " +
            "95 % interval's half-width; a process's own luck, which the pairs carry, adds to it), in about " +
            "${String.format(Locale.ROOT, "%.1f", minutes)} min in all" +
            if (half != null && half > plan.precision) {
                "; the --precision ${percent(plan.precision)} needs about " +
                    "${WindowStatistics.blocksFor(
                        spread,
                        plan.precision,
                        pairs,
                        plan.minBlocks,
                    )} blocks a pair: a noisy hour" +
                    (
                        machineNoise?.let { " (a memory-bound loop spread ${percent(it)} before the servers started)" }
                            ?: ""
                        ) +
                    ", or a longer --budget"
            } else {
                ""
            }
    }

    /**
     * [generation]'s blocks until the req/s interval (every pair so far) of every configuration is within the
     * precision, the generation's share of the budget is spent ([Interleaving.share], each later generation's
     * [overhead] set aside), or [LivePlan.maxBlocks]. A configuration whose interval is done ([Interleaving.done])
     * leaves the rotation, its windows kept, so the ones still wide get its time: on the main job's findings the
     * blocking configurations settle in a few blocks while the CPU ones need every window they can get. The first
     * generation's first [LivePlan.calibrationBlocks] blocks also give the forecast ([calibrate], said to [forecast]),
     * which sets how many generations the budget holds; no rule stops it before.
     */
    private fun measure(
        procs: List<Proc>,
        windows: MutableList<Window>,
        generation: Int,
        overhead: Double,
        forecast: (String) -> Unit,
    ): String {
        val begun = clock()
        val first = windows.size
        var share = Interleaving.share(plan, generations, generation, begun, overhead)
        var previous: List<Proc> = emptyList()
        var lastLine = begun
        var block = 0
        // Each generation's pairs need their own blocks, so every configuration starts this generation in the rotation.
        val active = configs.indices.toMutableSet()
        while (true) {
            val driven = procs.filter { it.config in active }
            val blockBegun = clock()
            for (round in 2 * block..2 * block + 1) {
                previous = order(driven, round, previous)
                windows += rounds(previous, round, "measure") { clock() - begun }
            }
            block++
            if (generation == 0 && block < plan.calibrationBlocks) continue
            if (generation == 0 && block == plan.calibrationBlocks) {
                val line = calibrate(windows.subList(first, windows.size), begun, overhead)
                err.println("live: $line")
                forecast(line)
                share = Interleaving.share(plan, generations, generation, begun, overhead)
            }
            val ratios = configs.indices.associateWith { c ->
                WindowStatistics.ratio(windows.filter { it.config == c }, Metrics.THROUGHPUT)
            }
            val wasDriven = active.size
            leave(active, block, ratios)
            val ratio = widest(if (active.isEmpty()) configs.indices else active, ratios)
            val now = clock()
            // The next block: as long as this one, for the configurations that stay in the rotation.
            val next = now + (now - blockBegun) * active.size / wasDriven
            val reason = if (active.isEmpty()) {
                ended(block, ratio)
            } else {
                Interleaving.stopReason(plan, block, ratio, next, share)
            }
            if (reason != null || now - lastLine >= PROGRESS_SECONDS) {
                lastLine = now
                err.println("live: ${progressLine(block, now, ratio, active.size)}; ${reason ?: "going on"}")
            }
            if (reason != null) return reason
        }
    }

    /** The widest interval of [of]'s configurations (each must reach the precision); null until each has one. */
    private fun widest(of: Iterable<Int>, ratios: Map<Int, WindowStatistics.Ratio?>) =
        of.map { ratios[it] }.let { all ->
            if (all.any { it == null }) null else all.maxBy { it!!.halfWidth }
        }

    private fun progressLine(block: Int, now: Double, ratio: WindowStatistics.Ratio?, active: Int): String {
        val left = if (configs.size > 1 &&
            active > 0
        ) {
            " (the widest of the $active configurations in the rotation)"
        } else {
            ""
        }
        return "$block blocks a pair, ${Math.round(now)} s: ${progress(ratio)}$left"
    }

    /** The configurations of [active] whose interval is done after [block] blocks, out of it, each said in a line. */
    private fun leave(active: MutableSet<Int>, block: Int, ratios: Map<Int, WindowStatistics.Ratio?>) {
        val leaving = active.filter { Interleaving.done(plan, block, ratios[it]) != null }
        if (configs.size > 1) {
            leaving.forEach { c ->
                err.println(
                    "live: ${configs[c].name} leaves the rotation after $block blocks a pair: " +
                        "${progress(ratios[c])}, ${Interleaving.done(plan, block, ratios[c])}",
                )
            }
        }
        active -= leaving.toSet()
    }

    /** Why a generation ended once every configuration's interval is done ([ratio]: the widest). */
    private fun ended(block: Int, ratio: WindowStatistics.Ratio?): String = if (configs.size > 1) {
        "every configuration's req/s interval done (within ± ${percent(plan.precision)}" +
            (plan.decidedBeyond?.let { " or wholly beyond ×${fmt(it)}" } ?: "") + ") after $block blocks a pair"
    } else {
        "${Interleaving.done(plan, block, ratio)} after $block blocks a pair"
    }

    private fun progress(ratio: WindowStatistics.Ratio?) = ratio?.let {
        "req/s $ratioName ${fmt(it.ratio)} [${fmt(it.low)}, ${fmt(it.high)}], ± ${percent(it.halfWidth)}" +
            if (it.pairs > 1) " (${it.pairs} pairs)" else ""
    } ?: "no interval yet"

    /** One window of each of [ordered] in turn, each recorded as [phase]; an interrupt ends it between windows. */
    private fun rounds(ordered: List<Proc>, round: Int, phase: String, at: () -> Double) = ordered.map { p ->
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
        private const val HOOK_WAIT_SECONDS = 30L
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
