package serverbench.metrics

import java.lang.management.ManagementFactory

/**
 * What a source of a target's figures measures on this side over an iteration, around its own read of the target:
 * this JVM's whole CPU time (the client's process, compared on equal terms with a separate tool's), which leaves the
 * read out, and this machine's busy share, which spans it. One copy for every target source ([RemoteResources],
 * [ActuatorResources], [ClientSideResources]).
 */
internal class ClientSpan {
    private val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private var machineStart: MachineCpu.Sample? = null
    private var ownCpuStart = -1L

    /** What [ClientSpan.end] read of the target, with this side's figures since [begin]. */
    class End<T>(val read: T, val ownCpuNanos: Long, val machineBusy: Double)

    /** Starts the span around [read], the target's first read, and answers it. */
    fun <T> begin(read: () -> T): T {
        machineStart = MachineCpu.sample()
        val value = read()
        ownCpuStart = ownCpuNanos()
        return value
    }

    /** Ends the span around [read], the target's last read: -1 CPU where the JVM cannot tell. */
    fun <T> end(read: () -> T): End<T> {
        val ownCpuEnd = ownCpuNanos()
        val value = read()
        return End(
            value,
            ResourceReport.growth(ownCpuStart, ownCpuEnd),
            MachineCpu.busyShare(machineStart, MachineCpu.sample()),
        )
    }

    private fun ownCpuNanos(): Long = os?.processCpuTime?.takeIf { it >= 0 } ?: -1
}
