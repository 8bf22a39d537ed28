package serverbench.metrics

/** [ResourceMeter]'s figures for one iteration; -1 where this JVM cannot tell. */
class ResourceReport(
    val processCpuNanos: Long,
    val allocatedBytes: Long,
    val peakThreads: Int,
    val openFds: Long = -1,
    val heapAfterGcBytes: Long = -1,
    /** Most requests the server had in flight at once (received, response not complete); see ServerProbe. */
    val inFlightMax: Int = -1,
    /** Share of the machine's CPU time busy over the iteration, all processes (NaN where `/proc/stat` is absent). */
    val machineBusy: Double = Double.NaN,
    /** Whether [allocatedBytes] is a lower bound because threads ended (live threads counted only); null when exact. */
    val allocLowerBound: Boolean? = null,
    /**
     * Where the server ran when not in this JVM (a `-Dserverbench.target`): the other figures are then that process's
     * alone, with no client thread to subtract; [machineBusy] stays this (the client's) machine's.
     */
    val remoteServer: String? = null,
    /**
     * CPU and heap allocations of this JVM's threads that are not the server's though they run beside it (the proxy
     * family's downstream stub, a stand-in for other machines): [processCpuNanos] and [allocatedBytes] include them,
     * the server's figures subtract them.
     */
    val outsideCpuNanos: Long = 0,
    val outsideAllocatedBytes: Long = 0,
    /**
     * With a [remoteServer]: this JVM's whole CPU time over the iteration (the client's threads, its GC and JIT, JMH's
     * threads): what a separate tool's process is measured by, so the two compare on equal terms. -1 otherwise.
     */
    val clientProcessCpuNanos: Long = -1,
    /**
     * Stop-the-world GC pause time over the iteration (serverbench.fixture.GcPauses: the collectors' pauses, their
     * concurrent cycles left out, as Micrometer's `jvm.gc.pause`), of the whole process: in-process the client's
     * garbage too. -1 where it cannot tell.
     */
    val gcPauseNanos: Long = -1,
) {
    companion object {
        /**
         * A counter's growth from [from] to [to]: -1 (no figure) when either end could not tell (-1), never the 0
         * that subtracting one -1 from another would give.
         */
        fun growth(from: Long, to: Long): Long = if (from < 0 || to < 0) -1 else to - from

        /** [growth] of a counter of milliseconds, in nanoseconds; -1 as [growth]. */
        fun growthMillisAsNanos(from: Long, to: Long): Long = growth(from, to).let {
            if (it <
                0
            ) {
                -1
            } else {
                it * 1_000_000
            }
        }
    }
}
