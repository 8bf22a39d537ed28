package serverbench.jmh

import java.lang.management.ManagementFactory

/**
 * What the whole benchmark JVM used in an iteration: process CPU time, bytes allocated on the heap by all threads, and
 * the peak number of live threads. The server's share is the process's minus the client thread's (so it includes GC
 * and JIT work, which the server's allocations and code cause).
 */
class ResourceMeter {
    private val threads = ManagementFactory.getThreadMXBean()
    private val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private val hotspotThreads = threads as? com.sun.management.ThreadMXBean
    /** JDK 21+ counts the allocations of threads that already ended too; looked up because bytecode targets 17. */
    private val totalAllocated = runCatching {
        com.sun.management.ThreadMXBean::class.java.getMethod("getTotalThreadAllocatedBytes")
    }.getOrNull()?.takeIf { hotspotThreads != null && runCatching { it.invoke(hotspotThreads) as Long >= 0 }.getOrDefault(false) }

    private var cpuStart = 0L
    private var allocatedStart = 0L

    fun begin() {
        threads.resetPeakThreadCount()
        serverbench.app.ServerProbe.resetMax()
        cpuStart = processCpuNanos()
        allocatedStart = allocatedBytes()
    }

    fun end(): ResourceReport = ResourceReport(
        processCpuNanos = processCpuNanos() - cpuStart,
        allocatedBytes = allocatedBytes() - allocatedStart,
        peakThreads = threads.peakThreadCount,
        openFds = (os as? com.sun.management.UnixOperatingSystemMXBean)?.openFileDescriptorCount ?: -1,
        heapAfterGcBytes = heapAfterGc(),
        inFlightMax = serverbench.app.ServerProbe.inFlightMax,
    )

    /**
     * Heap in use right after the last collection of each pool: what survives, so it grows only if something leaks
     * (the plain heap usage saws up and down with allocation). -1 before the first collection.
     */
    private fun heapAfterGc(): Long {
        val used = ManagementFactory.getMemoryPoolMXBeans()
            .filter { it.type == java.lang.management.MemoryType.HEAP }
            .mapNotNull { it.collectionUsage?.used }
        return if (used.isEmpty() || used.all { it == 0L }) -1 else used.sum()
    }

    private fun processCpuNanos(): Long = os?.processCpuTime ?: -1

    private fun allocatedBytes(): Long {
        val hotspot = hotspotThreads ?: return -1
        totalAllocated?.let { return it.invoke(hotspot) as Long }
        // JDK 17: the live threads only (a thread that ends mid-iteration takes its count with it).
        return hotspot.getThreadAllocatedBytes(threads.allThreadIds).filter { it > 0 }.sum()
    }
}

/** [ResourceMeter]'s figures for one iteration; -1 where this JVM cannot tell. */
class ResourceReport(
    val processCpuNanos: Long,
    val allocatedBytes: Long,
    val peakThreads: Int,
    val openFds: Long = -1,
    val heapAfterGcBytes: Long = -1,
    /** Most requests the server had in flight at once (received, response not complete); see ServerProbe. */
    val inFlightMax: Int = -1,
)
