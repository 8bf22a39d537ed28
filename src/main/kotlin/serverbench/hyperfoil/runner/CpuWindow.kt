package serverbench.hyperfoil.runner

import java.io.File
import java.lang.management.ManagementFactory

/**
 * The CPU Hyperfoil's JVM used over a phase, as the harness measures its client's: the whole process (its event loops,
 * JIT and GC), its busiest event loop (a loop near a whole core is the bottleneck), and how busy the machine's cores
 * were (all processes, from Linux's `/proc/stat`; NaN elsewhere).
 */
class CpuWindow private constructor(
    private val wall: Long,
    private val process: Long,
    private val loops: Map<Long, Long>,
    private val machine: LongArray?,
) {
    /** Cores over the window since [start]: process, busiest event loop, machine's busy share (0..1). */
    fun until(end: CpuWindow): Triple<Double, Double, Double> {
        val wallNanos = (end.wall - wall).coerceAtLeast(1).toDouble()
        val busiest = end.loops.maxOfOrNull { (id, cpu) -> cpu - (loops[id] ?: 0) } ?: 0
        val busy = if (machine != null && end.machine != null) {
            val total = end.machine[1] - machine[1]
            if (total > 0) (end.machine[0] - machine[0]).toDouble() / total else Double.NaN
        } else {
            Double.NaN
        }
        return Triple((end.process - process) / wallNanos, busiest / wallNanos, busy)
    }

    companion object {
        private val threads = ManagementFactory.getThreadMXBean()

        fun now(): CpuWindow {
            val os = ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
            // Hyperfoil's event loops are Netty's: epollEventLoopGroup-N-M (or nio... without the native transport).
            val loops = Thread.getAllStackTraces().keys.filter { it.name.contains("EventLoopGroup-") }
                .associate { it.id to threads.getThreadCpuTime(it.id).coerceAtLeast(0) }
            return CpuWindow(System.nanoTime(), os?.processCpuTime ?: 0, loops, machine())
        }

        /** Busy and total jiffies of all cores (user, nice, system, irq, softirq, steal / plus idle, iowait). */
        private fun machine(): LongArray? = runCatching {
            val f = File("/proc/stat").useLines { lines -> lines.first { it.startsWith("cpu ") } }
                .trim().split(Regex("\\s+")).drop(1).map { it.toLong() }
            val busy = f[0] + f[1] + f[2] + f[5] + f[6] + f.getOrElse(7) { 0 }
            longArrayOf(busy, busy + f[3] + f[4])
        }.getOrNull()
    }
}
