package serverbench.metrics

import java.util.concurrent.atomic.AtomicReference

/** Hand-over from the benchmark's iteration teardown (benchmark thread) to [LoadMetricsProfiler] (JMH's thread). */
object ClientReports {
    private val last = AtomicReference<IterationReport?>()

    fun publish(report: IterationReport) = last.set(report)

    fun take(): IterationReport? = last.getAndSet(null)
}
