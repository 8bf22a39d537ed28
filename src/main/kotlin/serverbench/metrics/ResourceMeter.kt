package serverbench.metrics

import serverbench.fixture.GcPauses
import java.lang.management.ManagementFactory
import java.lang.management.MemoryType

/**
 * What the whole benchmark JVM used in an iteration: process CPU time, bytes allocated on the heap by all threads, and
 * the peak number of live threads. The server's share is the process's minus the client thread's (so it includes GC
 * and JIT work, which the server's allocations and code cause).
 */
class ResourceMeter(
    /**
     * The server's most requests in flight since the last reset, which only the application can count; the benchmark
     * passes its probe in, so measurement never reaches into the application.
     */
    private val inFlight: InFlightGauge? = null,
    /**
     * False only in tests: measure allocation as JVMs without
     * [com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes] must.
     */
    useTotal: Boolean = true,
    /** Threads (by name) in this JVM that are not the server's: measured apart ([ResourceReport.outsideCpuNanos]). */
    private val outside: (String) -> Boolean = { false },
) : ResourceSource {
    private val threads = ManagementFactory.getThreadMXBean()
    private val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private val hotspotThreads = threads as? com.sun.management.ThreadMXBean

    /**
     * HotSpot (JDK 16+) counts the allocations of threads that already ended too; looked up reflectively because
     * other JVMs may lack it, and then only live threads can be asked.
     */
    private val totalAllocated = if (!useTotal) {
        null
    } else {
        runCatching {
            com.sun.management.ThreadMXBean::class.java.getMethod("getTotalThreadAllocatedBytes")
        }.getOrNull()?.takeIf {
            hotspotThreads != null &&
                runCatching { it.invoke(hotspotThreads) as Long >= 0 }.getOrDefault(false)
        }
    }

    private var cpuStart = 0L
    private var gcPauseStart = -1L
    private var allocatedStart = 0L
    private var machineStart: MachineCpu.Sample? = null
    private var threadIdsStart: Set<Long> = emptySet()
    private var startedStart = 0L

    /** CPU and allocated bytes of each outside thread at [begin]; a thread that starts later counts from 0. */
    private var outsideStart: Map<Long, Pair<Long, Long>> = emptyMap()

    override fun begin() {
        threads.resetPeakThreadCount()
        inFlight?.resetMax()
        if (totalAllocated == null) {
            threadIdsStart = threads.allThreadIds.toHashSet()
            startedStart = threads.totalStartedThreadCount
        }
        machineStart = MachineCpu.sample()
        // The process's span encloses the outside threads' (read after it starts, before it ends).
        cpuStart = processCpuNanos()
        outsideStart = outsideThreads().associateWith { cpuAndAllocated(it) }
        allocatedStart = allocatedBytes()
        gcPauseStart = GcPauses.millis()
    }

    override fun end(): ResourceReport {
        var outsideCpu = 0L
        var outsideAllocated = 0L
        for (id in outsideThreads()) {
            val (c, a) = cpuAndAllocated(id)
            val (c0, a0) = outsideStart[id] ?: (0L to 0L)
            outsideCpu += (c - c0).coerceAtLeast(0)
            outsideAllocated += (a - a0).coerceAtLeast(0)
        }
        val cpu = ResourceReport.growth(cpuStart, processCpuNanos())
        val allocated = ResourceReport.growth(allocatedStart, allocatedBytes())
        val machine = MachineCpu.busyShare(machineStart, MachineCpu.sample())
        return ResourceReport(
            processCpuNanos = cpu,
            allocatedBytes = allocated,
            peakThreads = threads.peakThreadCount,
            openFds = (os as? com.sun.management.UnixOperatingSystemMXBean)?.openFileDescriptorCount ?: -1,
            heapAfterGcBytes = heapAfterGc(),
            inFlightMax = inFlight?.max() ?: -1,
            machineBusy = machine,
            allocLowerBound = if (totalAllocated != null || allocated < 0) null else threadsCameAndWent(),
            outsideCpuNanos = outsideCpu,
            outsideAllocatedBytes = outsideAllocated,
            gcPauseNanos = ResourceReport.growthMillisAsNanos(gcPauseStart, GcPauses.millis()),
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
            .filter { it.type == MemoryType.HEAP }
            .mapNotNull { it.collectionUsage?.used }
        return if (used.isEmpty() || used.all { it == 0L }) -1 else used.sum()
    }

    private fun processCpuNanos(): Long = os?.processCpuTime ?: -1

    /** Live threads whose names [outside] matches (none unless it was given). */
    private fun outsideThreads(): List<Long> = threads.getThreadInfo(threads.allThreadIds)
        .filter { it != null && outside(it.threadName) }.map { it.threadId }

    private fun cpuAndAllocated(id: Long): Pair<Long, Long> = threads.getThreadCpuTime(id).coerceAtLeast(0) to
        (hotspotThreads?.getThreadAllocatedBytes(id) ?: 0).coerceAtLeast(0)

    private fun allocatedBytes(): Long {
        val hotspot = hotspotThreads ?: return -1
        totalAllocated?.let { return it.invoke(hotspot) as Long }
        // Without the total: the live threads only (a thread that ends mid-iteration takes its count with it).
        return hotspot.getThreadAllocatedBytes(threads.allThreadIds).filter { it > 0 }.sum()
    }
}

/** What the server used in an iteration: this JVM ([ResourceMeter]) or a target's process ([RemoteResources]). */
interface ResourceSource {
    fun begin()

    fun end(): ResourceReport
}

/** Most requests the server held at once, kept by the application ([ResourceMeter]'s view of it). */
interface InFlightGauge {
    fun resetMax()

    fun max(): Int
}
