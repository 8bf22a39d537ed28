package serverbench.metrics

import java.lang.management.ManagementFactory

/**
 * The figures of an iteration against a target that reports nothing of its own process (any HTTP server, without
 * `scripts/serve`'s admin endpoint or Actuator's metrics): every server-side figure is absent (-1, so none is
 * published), never a zero and never this JVM's, which runs only the client. What is known is the client's side: this
 * JVM's CPU time and this machine's busy share.
 */
class ClientSideResources(private val target: String) : ResourceSource {
    private val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private var machineStart: MachineCpu.Sample? = null
    private var ownCpuStart = -1L

    override fun begin() {
        machineStart = MachineCpu.sample()
        ownCpuStart = ownCpuNanos()
    }

    override fun end(): ResourceReport {
        val ownCpuEnd = ownCpuNanos()
        return ResourceReport(
            processCpuNanos = -1,
            allocatedBytes = -1,
            peakThreads = -1,
            machineBusy = MachineCpu.busyShare(machineStart, MachineCpu.sample()),
            remoteServer = target,
            clientProcessCpuNanos = ResourceReport.growth(ownCpuStart, ownCpuEnd),
        )
    }

    private fun ownCpuNanos(): Long = os?.processCpuTime?.takeIf { it >= 0 } ?: -1
}
