package serverbench.hyperfoil

import java.io.File
import java.util.Properties

/**
 * What the runner JVM measured (serverbench.hyperfoil.runner writes it as a properties file): per phase the totals,
 * the latency histogram's figures, and per second since the phase started the successes of the requests that started
 * in it; `failure` when the run failed.
 */
class RunSummary(internal val p: Properties) {
    val failure: String? get() = p.getProperty("failure")

    fun phase(name: String) = Phase(name)

    inner class Phase(private val name: String) {
        private fun long(key: String): Long = p.getProperty("phase.$name.$key")?.toDoubleOrNull()?.toLong() ?: 0
        private fun double(key: String): Double = p.getProperty("phase.$name.$key")?.toDoubleOrNull() ?: Double.NaN

        val requests get() = long("requests")
        val responses get() = long("responses")
        val invalid get() = long("invalid")
        val connectionErrors get() = long("connectionErrors")
        val requestTimeouts get() = long("requestTimeouts")
        val internalErrors get() = long("internalErrors")
        val blockedNanos get() = long("blockedNanos")
        val sessionLimitExceeded get() = p.getProperty("phase.$name.sessionLimitExceeded") == "true"

        /** Responses by status class: 2xx, 3xx, 4xx, 5xx, other. */
        val statuses: List<Long>
            get() = p.getProperty("phase.$name.status")?.split(',')?.map { it.toLong() } ?: List(5) { 0L }

        /** Hyperfoil's whole JVM, its busiest event loop (cores) and the machine's busy share, over the phase. */
        val processCores get() = double("cpu.process")
        val busiestLoopCores get() = double("cpu.busiestLoop")
        val machineBusy get() = double("cpu.machineBusy")

        val latencyCount get() = long("latency.count")
        val meanMillis get() = double("latency.meanNanos") / 1e6
        val maxMillis get() = double("latency.maxNanos") / 1e6
        fun percentileMillis(p: String) = double("latency.p$p.nanos") / 1e6

        /** Second since the phase started -> (successes, responses timed, their latencies' sum in ns). */
        val seconds: Map<Int, Triple<Long, Long, Long>>
            get() = p.getProperty("phase.$name.seconds").orEmpty().split(',').filter { it.isNotBlank() }.associate {
                val f = it.split(':')
                f[0].toInt() to Triple(f[1].toLong(), f[2].toLong(), f[3].toLong())
            }

        /** Failed requests by the harness's kinds (errors.<kind>), Hyperfoil's counts mapped onto them. */
        fun errorsByKind(): Map<String, Long> {
            val non2xx = statuses[1] + statuses[2] + statuses[3] + statuses[4]
            return linkedMapOf(
                "non_2xx" to non2xx,
                "invalid_body" to maxOf(0, invalid - non2xx),
                "timeout" to requestTimeouts,
                "io_error" to connectionErrors,
                "internal" to internalErrors,
            ).filterValues { it > 0 }
        }
    }

    companion object {
        fun read(file: File): RunSummary = RunSummary(Properties().apply { file.inputStream().use { load(it) } })
    }
}
