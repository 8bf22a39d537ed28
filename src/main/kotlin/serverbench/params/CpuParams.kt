package serverbench.params

import java.io.File

/**
 * `-p cpus` and `-p cpuset` as typed: a CFS quota in CPUs, or the cores the server side is pinned to
 * (fixture.CpuPlacement applies them; docs/cpu-budget.md).
 */
object CpuParams {
    const val UNLIMITED = "unlimited"
    const val NONE = "none"

    /** The kernel refuses a quota below 1 ms per period. */
    private const val MIN_CPUS = 0.01

    /** The allowed values of `-p cpus`, as the error line says them. */
    fun cpusAllowed(cores: Int) =
        "'$UNLIMITED' or a number of CPUs from $MIN_CPUS to $cores (this machine's cores), e.g. 0.5, 1, 1.5"

    fun cpusetAllowed(cores: Int) =
        "'$NONE' or cores from 0 to ${cores - 1} (e.g. 1, 0-1, 0,2) that leave at least one core " +
            "for the load client"

    /** Parses `-p cpus`: null for unlimited; throws [IllegalArgumentException] naming the parameter otherwise. */
    fun parseCpus(value: String, cores: Int = machineCores()): Double? {
        val v = value.trim()
        if (v == UNLIMITED) return null
        val n = v.toDoubleOrNull()?.takeIf { it.isFinite() && it >= MIN_CPUS - 1e-12 && it <= cores + 1e-12 }
        val name = ParamNames.CPUS
        return n ?: throw IllegalArgumentException("-p $name=$value: $name must be ${cpusAllowed(cores)}")
    }

    /**
     * A CFS quota on the load client's side (`-Dserverbench.clientCpus`): a smaller load generator than this machine,
     * as on a machine where one client thread cannot keep up with the server (docs/cpu-budget.md).
     */
    const val CLIENT_CPUS_PROPERTY = "serverbench.clientCpus"

    /** Parses `-D[CLIENT_CPUS_PROPERTY]`: null when unset; throws [IllegalArgumentException] naming it otherwise. */
    fun clientCpus(raw: String? = System.getProperty(CLIENT_CPUS_PROPERTY), cores: Int = machineCores()): Double? {
        raw ?: return null
        val n = raw.trim().toDoubleOrNull()?.takeIf { it.isFinite() && it >= MIN_CPUS - 1e-12 && it <= cores + 1e-12 }
        return n ?: throw IllegalArgumentException(
            "-D$CLIENT_CPUS_PROPERTY=$raw: it must be a number of CPUs from $MIN_CPUS to $cores (this machine's " +
                "cores), e.g. 0.25",
        )
    }

    /** Parses `-p cpuset` (a kernel CPU list): null for none. */
    fun parseCpuset(value: String, cores: Int = machineCores()): List<Int>? {
        val v = value.trim()
        if (v == NONE) return null
        val set = runCatching { cpuList(v) }.getOrNull().orEmpty()
        val onThisMachine = set.all { it in 0 until cores }
        if (set.isEmpty() || !onThisMachine || set.size >= cores) {
            val name = ParamNames.CPUSET
            throw IllegalArgumentException("-p $name=$value: $name must be ${cpusetAllowed(cores)}")
        }
        return set
    }

    /** "0-2,5" -> [0, 1, 2, 5] (the kernel's list format); throws on anything else. */
    fun cpuList(text: String): List<Int> = text.split(',').flatMap { part ->
        val bounds = part.trim().split('-').map { it.trim().toInt() }
        require(bounds.size in 1..2 && bounds.all { it >= 0 } && bounds.last() >= bounds.first())
        (bounds.first()..bounds.last()).toList()
    }.distinct().sorted()

    /**
     * The machine's online cores: not the JVM's count, which `-XX:ActiveProcessorCount` and a container's limits
     * change, and a forked JVM under a budget reads its own budget.
     */
    fun machineCores(): Int = runCatching { cpuList(File("/sys/devices/system/cpu/online").readText().trim()).size }
        .getOrNull()?.takeIf { it > 0 } ?: Runtime.getRuntime().availableProcessors()
}
