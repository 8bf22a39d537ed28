package serverbench.jmh

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.runner.BenchmarkList
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.VerboseMode
import java.io.OutputStream
import java.io.PrintStream

/**
 * The runs JMH will make for these options: every matching benchmark × benchmark mode × combination of parameter
 * values, computed the way JMH's Runner expands them. JMH leaves failed runs out of its results without failing the
 * process (unless -foe), so the launcher compares this count with the results to set the exit status.
 */
object Plan {
    class Run(val benchmark: String, val mode: Mode, val params: Map<String, String>)

    fun runs(options: Options): List<Run> {
        val silent = OutputFormatFactory.createFormatInstance(PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT)
        val entries = BenchmarkList.defaultList().find(silent, options.includes, options.excludes)
        val out = ArrayList<Run>()
        for (entry in entries) {
            val modes = options.benchModes.ifEmpty { listOf(entry.mode) }
                .flatMap { m -> if (m == Mode.All) Mode.entries.filter { it != Mode.All } else listOf(m) }
            var combos = listOf(emptyMap<String, String>())
            for ((name, defaults) in entry.params.orElse(emptyMap())) {
                val values = options.getParameter(name).orElse(defaults.toList())
                combos = combos.flatMap { c -> values.map { v -> c + (name to v) } }
            }
            for (mode in modes) for (c in combos) out += Run(entry.username, mode, c)
        }
        return out
    }
}
