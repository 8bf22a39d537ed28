package serverbench.compare

import java.io.File
import java.util.zip.ZipFile

/**
 * One side of a comparison: a jar, a `java`, and arguments of its own, split at spaces into JVM options for the
 * measuring fork (`-X…`, `-D…`, `--add-…`, `-javaagent…`) and JMH options (`-p limit=10500`, `-t 2`, …); and, for a
 * team's own service, the arguments of `scripts/serve --jar` that start it before each fork ([ServedService]).
 */
class Configuration(
    val name: String,
    val jar: File,
    val java: String,
    args: String,
    val serve: List<String> = listOf(),
    /**
     * What the side is, for a reader (`--base-label`, such as a commit): said instead of the jar's path, and the
     * served jar by its file name, where those paths are temporary (a pull request's worktrees) and mean nothing
     * once the run is over.
     */
    private val label: String? = null,
) {
    private val tokens = args.trim().split(Regex("\\s+")).filter { it.isNotEmpty() }

    val jvmOptions: List<String> = tokens.filter(::isJvmOption)
    val jmhOptions: List<String> = tokens.filterNot(::isJvmOption)

    /** The values this side gives each parameter it sets ([paramValues]). */
    val paramValues: Map<String, List<String>> = paramValues(jmhOptions)

    /** Parameters this side sets: rows are paired across sides without them. */
    val params: Set<String> = paramValues.keys.toSortedSet()

    fun describe(): String {
        val served = if (label == null) {
            serve
        } else {
            serve.mapIndexed { i, t -> if (i > 0 && serve[i - 1] == "--jar") File(t).name else t }
        }
        val service = if (served.isEmpty()) null else "each fork against its own `serve ${served.joinToString(" ")}`"
        return listOfNotNull(label ?: jar.path, java, tokens.joinToString(" ").ifEmpty { "(no options)" }, service)
            .joinToString(", ")
    }

    /**
     * The command that measures one fork of this side: the launcher of [jar] on [java], the user's regex and JMH
     * options ([common]), this side's options, one fork, its results in [json], JMH's output in [log] (the compact
     * console). The user's own `-jvmArgsAppend` is kept, ahead of this side's JVM options; the user's `-D` options
     * go to both sides' launchers, as do [target]'s (the fork's own service, when this side serves one).
     */
    fun command(
        common: List<String>,
        json: File,
        log: File,
        checkOnly: Boolean = false,
        target: List<String> = listOf(),
    ): List<String> {
        val rest = common.toMutableList()
        val append = ArrayList<String>()
        val at = rest.indexOf("-jvmArgsAppend")
        if (at >= 0 && at + 1 < rest.size) {
            append += rest[at + 1]
            rest.subList(at, at + 2).clear()
        }
        // -D options after the regex are for the launcher (JMH's command line has none): they go before -jar.
        val (commonProps, shared) = rest.partition { it.startsWith("-D") }
        append += jvmOptions
        // The launcher forwards -Dserverbench.* to its forks, and reads some itself (the warmup's limits).
        val launcherProps = commonProps + jvmOptions.filter { it.startsWith("-Dserverbench.") } + target +
            (if (checkOnly) listOf("-D$CHECK_ONLY=true") else emptyList())
        return listOf(java) + launcherProps + "-Dserverbench.log=${log.path}" + listOf("-jar", jar.path) + shared +
            jmhOptions + listOf("-f", "1", "-rf", "json", "-rff", json.path) +
            (if (append.isEmpty()) emptyList() else listOf("-jvmArgsAppend", append.joinToString(" ")))
    }

    /** Whether [jar]'s launcher can check a command without running it (jars that hold compare can). */
    fun checksFirst(): Boolean = runCatching {
        ZipFile(jar).use { it.getEntry("serverbench/compare/CompareMain.class") != null }
    }.getOrDefault(false)

    companion object {
        /** The launcher's check-only switch (`Launcher.CHECK_ONLY`; compare may not import the launcher). */
        const val CHECK_ONLY = "serverbench.checkOnly"

        private val JVM_PREFIXES = listOf("-X", "-D", "--add-", "-javaagent", "-agentpath", "--enable-")

        fun isJvmOption(token: String) = JVM_PREFIXES.any { token.startsWith(it) }

        /**
         * Each parameter's values in JMH options, as JMH reads them: `-p name=a,b` and `-pname=a` alike (`-prof` is
         * another option), the values of a name given twice added up.
         */
        fun paramValues(options: List<String>): Map<String, List<String>> {
            val values = LinkedHashMap<String, MutableList<String>>()
            options.forEachIndexed { i, token ->
                val spec = when {
                    token == "-p" -> options.getOrNull(i + 1)
                    token.startsWith("-p") && !token.startsWith("-prof") && '=' in token -> token.substring(2)
                    else -> null
                }
                if (spec != null && '=' in spec) {
                    values.getOrPut(spec.substringBefore('=')) { ArrayList() } += spec.substringAfter('=').split(',')
                }
            }
            return values
        }

        /** A `java` executable, or a JDK directory's `bin/java`; null when neither. */
        fun java(given: String): String? {
            val f = File(given)
            val exe = if (f.isDirectory) File(f, "bin/java") else f
            return when {
                exe.isFile && exe.canExecute() -> exe.path

                // A bare name is looked up on PATH, as a shell would.
                !given.contains('/') -> System.getenv("PATH").orEmpty().split(File.pathSeparator)
                    .map { File(it, given) }.firstOrNull { it.isFile && it.canExecute() }?.path

                else -> null
            }
        }
    }
}
