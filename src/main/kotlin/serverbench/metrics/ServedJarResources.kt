package serverbench.metrics

/**
 * A team's jar served by `scripts/serve --jar`: its admin endpoint reads the process from `/proc` (CPU, threads, fds,
 * the budget's throttling) but cannot see inside the JVM, so allocation and GC pauses come from the jar's own
 * Actuator when it has one ([ActuatorResources]); what neither tells stays absent (-1).
 */
class ServedJarResources(private val admin: RemoteResources, private val actuator: ActuatorResources) : ResourceSource {
    override fun begin() {
        admin.begin()
        actuator.begin()
    }

    override fun end(): ResourceReport {
        val inside = actuator.end()
        val process = admin.end()
        return ResourceReport(
            processCpuNanos = process.processCpuNanos,
            allocatedBytes = process.allocatedBytes.takeIf { it >= 0 } ?: inside.allocatedBytes,
            peakThreads = process.peakThreads,
            openFds = process.openFds,
            heapAfterGcBytes = process.heapAfterGcBytes,
            inFlightMax = process.inFlightMax,
            machineBusy = process.machineBusy,
            allocLowerBound = process.allocLowerBound,
            remoteServer = process.remoteServer,
            clientProcessCpuNanos = process.clientProcessCpuNanos,
            gcPauseNanos = process.gcPauseNanos.takeIf { it >= 0 } ?: inside.gcPauseNanos,
        )
    }

    /** The budget's figures, from the admin endpoint. */
    fun budget(): BudgetReport? = admin.budget()
}
