package serverbench.metrics

import serverbench.fixture.CpuBudget
import serverbench.fixture.RemoteTarget
import serverbench.fixture.TargetStatus

/**
 * A target's resource figures per iteration, from its serve process's admin endpoint ([RemoteTarget]): the
 * differences of its counters between [begin] (which also starts a new window for its peaks) and [end], as
 * [ResourceMeter] takes them in-process. The machine's busy share is this machine's (the client's host), and so is
 * [ResourceReport.clientProcessCpuNanos]: with the server elsewhere, this JVM is the client's process alone.
 */
class RemoteResources(private val target: RemoteTarget) : ResourceSource {
    private var start: TargetStatus? = null
    private var last: Pair<TargetStatus, TargetStatus>? = null
    private val client = ClientSpan()

    override fun begin() {
        start = client.begin { target.begin() }
        last = null
    }

    override fun end(): ResourceReport {
        val from = checkNotNull(start) { "end() before begin()" }
        val span = client.end { target.status() }
        val to = span.read
        last = from to to
        return ResourceReport(
            processCpuNanos = ResourceReport.growth(from.processCpuNanos, to.processCpuNanos),
            allocatedBytes = ResourceReport.growth(from.allocatedBytes, to.allocatedBytes),
            peakThreads = to.peakThreads,
            openFds = to.openFds,
            heapAfterGcBytes = to.heapAfterGcBytes,
            inFlightMax = to.inFlightMax,
            machineBusy = span.machineBusy,
            remoteServer = target.toString(),
            clientProcessCpuNanos = span.ownCpuNanos,
            // An older serve that does not say (null) has no figure either: its gcMillis counts concurrent cycles too.
            gcPauseNanos = ResourceReport.growthMillisAsNanos(from.gcPauseMillis ?: -1, to.gcPauseMillis ?: -1),
        )
    }

    /** The target's CPU budget (`scripts/serve --cpus`) over the last iteration; null without one. */
    fun budget(): BudgetReport? {
        val (from, to) = last ?: return null
        val cpus = to.cpus ?: return null
        val throttling = if (to.throttlePeriods == null || from.throttlePeriods == null) {
            null
        } else {
            CpuBudget.Throttling(to.throttlePeriods, to.throttledPeriods ?: 0, to.throttledNanos ?: 0) -
                CpuBudget.Throttling(from.throttlePeriods, from.throttledPeriods ?: 0, from.throttledNanos ?: 0)
        }
        return BudgetReport(cpus, throttling)
    }
}
