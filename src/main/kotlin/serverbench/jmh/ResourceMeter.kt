package serverbench.jmh

import java.lang.management.ManagementFactory

/**
 * What the whole benchmark JVM used in an iteration: process CPU time, bytes allocated on the heap by all threads, and
 * the peak number of live threads. The server's share is the process's minus the client thread's (so it includes GC
 * and JIT work, which the server's allocations and code cause).
 */
class ResourceMeter(
    /** False only in tests: measure allocation as JVMs without [com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes] must. */
    useTotal: Boolean = true,
) {
    private val threads = ManagementFactory.getThreadMXBean()
    private val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private val hotspotThreads = threads as? com.sun.management.ThreadMXBean
    /**
     * HotSpot (JDK 16+) counts the allocations of threads that already ended too; looked up reflectively because
     * other JVMs may lack it, and then only live threads can be asked.
     */
    private val totalAllocated = if (!useTotal) null else runCatching {
        com.sun.management.ThreadMXBean::class.java.getMethod("getTotalThreadAllocatedBytes")
    }.getOrNull()?.takeIf { hotspotThreads != null && runCatching { it.invoke(hotspotThreads) as Long >= 0 }.getOrDefault(false) }

    private var cpuStart = 0L
    private var allocatedStart = 0L
    private var machineStart: MachineCpu.Sample? = null
    private var threadIdsStart: Set<Long> = emptySet()
    private var startedStart = 0L

    fun begin() {
        threads.resetPeakThreadCount()
        serverbench.app.ServerProbe.resetMax()
        if (totalAllocated == null) {
            threadIdsStart = threads.allThreadIds.toHashSet()
            startedStart = threads.totalStartedThreadCount
        }
        machineStart = MachineCpu.sample()
        cpuStart = processCpuNanos()
        allocatedStart = allocatedBytes()
    }

    fun end(): ResourceReport {
        val cpu = processCpuNanos() - cpuStart
        val allocated = allocatedBytes() - allocatedStart
        val machine = MachineCpu.busyShare(machineStart, MachineCpu.sample())
        return ResourceReport(
            processCpuNanos = cpu,
            allocatedBytes = allocated,
            peakThreads = threads.peakThreadCount,
            openFds = (os as? com.sun.management.UnixOperatingSystemMXBean)?.openFileDescriptorCount ?: -1,
            heapAfterGcBytes = heapAfterGc(),
            inFlightMax = serverbench.app.ServerProbe.inFlightMax,
            machineBusy = machine,
            allocLowerBound = if (totalAllocated != null || allocated < 0) null else threadsCameAndWent(),
        )
    }

    /**
     * Counting live threads only, a thread that ended during the iteration took its count with it (and one alive at
     * the start subtracts its whole lifetime's), so the figure is then a lower bound.
     */
    private fun threadsCameAndWent(): Boolean {
        val now = threads.allThreadIds.toHashSet()
        val started = threads.totalStartedThreadCount - startedStart
        return threadIdsStart.any { it !in now } || started > now.count { it !in threadIdsStart }
    }

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
        // Without the total: the live threads only (a thread that ends mid-iteration takes its count with it).
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
    /** Share of the machine's CPU time busy over the iteration, all processes (NaN where `/proc/stat` is absent). */
    val machineBusy: Double = Double.NaN,
    /** Whether [allocatedBytes] is a lower bound because threads ended (live threads counted only); null when exact. */
    val allocLowerBound: Boolean? = null,
)

/** Machine-wide CPU time from Linux's `/proc/stat` (first line: jiffies per state, summed over all cores). */
object MachineCpu {
    class Sample(val busy: Long, val total: Long)

    fun sample(): Sample? = runCatching {
        val fields = java.io.File("/proc/stat").useLines { it.first() }.trim().split(Regex("\\s+"))
        require(fields[0] == "cpu")
        parse(fields.drop(1).map { it.toLong() })
    }.getOrNull()

    /** user nice system idle iowait irq softirq steal …: idle and iowait are not busy. */
    fun parse(jiffies: List<Long>): Sample {
        val total = jiffies.take(8).sum()
        return Sample(total - jiffies[3] - jiffies.getOrElse(4) { 0 }, total)
    }

    fun busyShare(from: Sample?, to: Sample?): Double {
        if (from == null || to == null || to.total <= from.total) return Double.NaN
        return (to.busy - from.busy).toDouble() / (to.total - from.total)
    }
}
