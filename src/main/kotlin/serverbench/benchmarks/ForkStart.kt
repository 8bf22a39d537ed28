package serverbench.benchmarks

import serverbench.metrics.Figure
import serverbench.metrics.MetricCatalogue
import java.lang.management.ManagementFactory

/**
 * How long this fork took to become ready, counted from its process's start (the OS's start time, 10 ms resolution on
 * Linux; the JVM's own start time if the OS does not say): what a fork costs before it measures anything, and what
 * the class-data archive (docs/jdk.md#fork-start) shortens. A fork runs one trial, so one pair of times per fork.
 */
internal object ForkStart {
    private val origin: Long = ProcessHandle.current().info().startInstant().map { it.toEpochMilli() }
        .orElse(ManagementFactory.getRuntimeMXBean().startTime)
    private var setupAt = -1L
    private var readyAt = -1L

    private fun millis(): Long = System.currentTimeMillis() - origin

    /** The trial's setup begins: JVM start and JMH's own start are behind. */
    fun setup() {
        setupAt = millis()
    }

    /** The first response was validated: the fork is ready to measure. */
    fun ready() {
        readyAt = millis()
    }

    /** "fork ready 1840 ms after its JVM started (setup began at 610 ms)", for the trial's setup line. */
    fun describe() = "fork ready $readyAt ms after its JVM started (setup began at $setupAt ms)"

    /** The JSON's `fork.startMs`: process start to first validated response, averaged over the forks. */
    fun figures(): List<Figure> =
        if (readyAt < 0) emptyList() else listOf(Figure(MetricCatalogue.FORK_START_MS, readyAt.toDouble()))
}
