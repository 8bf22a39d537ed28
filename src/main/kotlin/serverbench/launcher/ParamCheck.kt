package serverbench.launcher

import serverbench.benchmarks.CapacityRun
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.HttpFileBenchmark
import serverbench.benchmarks.SteadyWarmup
import serverbench.client.ClientSettings
import serverbench.client.FileDescriptors
import serverbench.fixture.Cgroups
import serverbench.fixture.CpuBudget
import serverbench.fixture.CpuPlacement
import serverbench.fixture.RemoteTarget
import serverbench.params.CpuParams
import serverbench.params.Objective
import serverbench.params.ParamNames
import serverbench.params.ParamRules
import serverbench.params.ProtocolRules
import java.io.File
/**
 * Every `-p` value checked in the launcher, before any fork or server starts: a typo must cost the user one line and
 * a second, not a stack trace from a fork after minutes of other benchmarks, and never a run that silently ignores it
 * (JMH drops a `-p` whose name no selected benchmark declares).
 */
object ParamCheck {
    private val CORES = CpuParams.machineCores()

    /** Waits that the client must see answered before its timeout. */
    private val WAITS = listOf(ParamNames.DELAY_MS, ParamNames.WORK_MS)

    /**
     * The first problem with the user's `-p` options ([given]: name -> values as typed) for these planned runs, as one
     * line naming the parameter, the bad value and what is allowed; null if there is none.
     */
    fun check(
        given: Map<String, List<String>>,
        runs: List<Plan.Run>,
        declared: Set<String>,
        profiled: Boolean = false,
    ): String? = valueProblem(given, declared)
        ?: OwnApplicationCheck.problem(given, runs)
        ?: capacityProblem(runs)
        ?: clientQuotaProblem()
        ?: timingProblem(given, runs)
        ?: workloadProblem(runs)
        ?: TargetCheck.problem(runs, profiled)
        ?: budgetProblem(runs)
        ?: connectionProblem(runs)

    /** A name no selected benchmark declares, an empty value, or one its rule ([ParamRules]) refuses. */
    private fun valueProblem(given: Map<String, List<String>>, declared: Set<String>): String? {
        for ((name, values) in given) {
            val typed = "-p $name=${values.joinToString(",")}"
            if (name !in declared) {
                return "$typed: no selected benchmark has a parameter '$name'; theirs are " +
                    "${declared.sorted().joinToString(", ")} (list them with -lp <pattern>)"
            }
            if (values.isEmpty() || values.any { it.isBlank() }) return "$typed: an empty value"
            val rule = ParamRules.rules[name] ?: continue
            values.firstOrNull { !rule.accepts(it) }?.let { return "-p $name=$it: $name must be ${rule.allowed}" }
        }
        return null
    }

    /** A `.http` workload that is missing or does not parse: one line with its file and line number. */
    private fun workloadProblem(runs: List<Plan.Run>): String? =
        runs.mapNotNull { it.params[ParamNames.WORKLOAD] }.distinct().firstNotNullOfOrNull { workload ->
            try {
                HttpFileBenchmark.load(workload)
                null
            } catch (e: IllegalArgumentException) {
                e.message
            }
        }

    /** A capacity search (`-p objective`) sets the rate itself; a bad `-Dserverbench.capacity.*` property. */
    private fun capacityProblem(runs: List<Plan.Run>): String? {
        val search = runs.filter { (it.params[ParamNames.OBJECTIVE] ?: Objective.NONE) != Objective.NONE }
        if (search.isEmpty()) return null
        search.firstOrNull { (it.params[ParamNames.RATE] ?: "0") != "0" }?.let {
            val objective = "-p ${ParamNames.OBJECTIVE}=${it.params[ParamNames.OBJECTIVE]}"
            return "-p ${ParamNames.RATE}=${it.params[ParamNames.RATE]}: a capacity search ($objective) sets the " +
                "rate itself; leave -p rate at 0"
        }
        return try {
            CapacityRun.limitsFromProperties()
            null
        } catch (e: IllegalArgumentException) {
            e.message
        }
    }

    /** A bad `-Dserverbench.clientCpus`, or one beside a server elsewhere, whose client this process cannot limit. */
    private fun clientQuotaProblem(): String? {
        val clientCpus = try {
            CpuParams.clientCpus()
        } catch (e: IllegalArgumentException) {
            return e.message
        }
        if (clientCpus == null || System.getProperty(RemoteTarget.TARGET) == null) return null
        return "-D${CpuParams.CLIENT_CPUS_PROPERTY}: the load client's quota is made beside an in-process server; " +
            "with -D${RemoteTarget.TARGET} put the client under a quota of your own (e.g. systemd-run --scope " +
            "-p CPUQuota=25% java -jar target/benchmarks.jar ...)"
    }

    /** A bad warmup or client setting (-D), or a wait every request would time out on. */
    private fun timingProblem(given: Map<String, List<String>>, runs: List<Plan.Run>): String? {
        val settings = try {
            SteadyWarmup.fromSystemProperties()
            runs.map { it.className }.distinct().forEach { SteadyWarmup.maxSeconds(it) }
            ClientSettings.fromSystemProperties()
        } catch (e: IllegalArgumentException) {
            return e.message
        }
        val timeoutMs = settings.timeout.toMillis()
        for (name in WAITS) {
            val tooLong = given[name].orEmpty().firstOrNull { (it.toIntOrNull() ?: 0) >= timeoutMs } ?: continue
            return "-p $name=$tooLong: every request would time out (client timeout $timeoutMs ms); " +
                "use a shorter wait or raise -D${ClientSettings.TIMEOUT_PROPERTY}"
        }
        return null
    }

    /** A protocol setting a run cannot use, or more connections than this process may open. */
    private fun connectionProblem(runs: List<Plan.Run>): String? {
        for (run in runs) {
            val concurrency = run.params[ParamNames.CONCURRENCY]?.toIntOrNull() ?: continue
            ProtocolRules.problem(run.params)?.let { return it }
            val streams = maxOf(1, ProtocolRules.streams(run.params))
            try {
                FileDescriptors.require(concurrency / streams, descriptorsPerConnection(run))
            } catch (e: IllegalStateException) {
                return "-p ${ParamNames.CONCURRENCY}=$concurrency: ${e.message}"
            }
        }
        return null
    }

    /**
     * Where a run asks for a CPU budget: whether this machine and user can make the cgroups, checked by doing what the
     * fork will do (and undoing it) before anything starts. Runs without a budget never touch cgroups.
     */
    private fun budgetProblem(runs: List<Plan.Run>): String? {
        val clientCpus = runCatching { CpuParams.clientCpus() }.getOrNull()
        val placements = runs.map { placement(it) }.filter { it.limited }
        if (placements.isEmpty()) return null
        val needs = CpuPlacement(
            placements.firstNotNullOfOrNull { it.cpus },
            placements.firstNotNullOfOrNull { it.cpuset },
            clientCpus,
        )
        val given = listOfNotNull(
            needs.cpus?.let { "-p ${ParamNames.CPUS}" },
            needs.cpuset?.let { "-p ${ParamNames.CPUSET}" },
            needs.clientCpus?.let { "-D${CpuParams.CLIENT_CPUS_PROPERTY}" },
        ).joinToString(" and ")
        val mountinfo = File(System.getProperty(MOUNTINFO_PROPERTY, "/proc/self/mountinfo"))
        val problem = CpuBudget.probe(needs, Cgroups.locate(needs, mountinfo = mountinfo)) ?: return null
        return "$given: $problem"
    }

    /** Tests point the launcher at another mount table to see how it refuses a machine without usable cgroups. */
    const val MOUNTINFO_PROPERTY = "serverbench.internal.mountinfo"

    /** The placement a planned run asks for (values already checked). */
    fun placement(run: Plan.Run): CpuPlacement = CpuPlacement.of(
        run.params[ParamNames.CPUS] ?: CpuParams.UNLIMITED,
        run.params[ParamNames.CPUSET] ?: CpuParams.NONE,
        CORES,
        runCatching { CpuParams.clientCpus() }.getOrNull(),
    )

    private fun descriptorsPerConnection(run: Plan.Run): Int = benchmark(run)?.descriptorsPerConnection ?: 2

    /** A planned run's benchmark class, instantiated to read what it declares; null if it cannot be. */
    fun benchmark(run: Plan.Run): HttpBenchmark? =
        runCatching { Class.forName(run.className).getDeclaredConstructor().newInstance() as HttpBenchmark }.getOrNull()

    /**
     * The `-p` options as typed (`-p name=v1,v2` or `-pname=v1,v2`), in order; later ones replace earlier ones, as in
     * JMH.
     */
    fun given(args: Array<String>): Map<String, List<String>> {
        val out = LinkedHashMap<String, List<String>>()
        var i = 0
        while (i < args.size) {
            val spec = when {
                args[i] == "-p" -> args.getOrNull(++i)
                args[i].startsWith("-p") && args[i].contains('=') -> args[i].substring(2)
                else -> null
            }
            if (spec != null && spec.contains('=')) {
                out[spec.substringBefore('=')] = spec.substringAfter('=').split(',')
            }
            i++
        }
        return out
    }
}
