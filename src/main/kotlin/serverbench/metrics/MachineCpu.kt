package serverbench.metrics

import java.io.File

/** Machine-wide CPU time from Linux's `/proc/stat` (first line: jiffies per state, summed over all cores). */
object MachineCpu {
    class Sample(val busy: Long, val total: Long)

    fun sample(): Sample? = runCatching {
        val fields = File("/proc/stat").useLines { it.first() }.trim().split(Regex("\\s+"))
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
