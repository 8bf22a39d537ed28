package serverbench.workload

import serverbench.client.Request
import java.io.IOException
import java.nio.file.Files
import java.nio.file.NoSuchFileException
import java.nio.file.Path

/**
 * The requests of a `.http` file (the IntelliJ HTTP Client and VS Code REST Client format, docs/http-files.md), each
 * a [Request] with its share of the mix: what a benchmark sends, in proportion to [Entry.weight]. Where they are sent
 * (host, port, scheme, protocol) is the run's: a URL's scheme and authority are dropped.
 */
class HttpWorkload(
    /** The file, as given to [load] (or the name given to [parse]). */
    val file: Path,
    /** In the file's order; never empty. */
    val requests: List<Entry>,
) {
    /** One request of the file: its [name] (unique in the file), [weight] (>= 1), and its request line's [line]. */
    class Entry(val name: String, val weight: Int, val request: Request, val line: Int) {
        override fun toString() = "$name (weight $weight, line $line): $request"
    }

    override fun toString() = "$file: ${requests.joinToString { it.name }}"

    companion object {
        /**
         * Reads and parses [file] (UTF-8); a body read with `< path` is relative to its directory. [variables] win over
         * the file's own `@name = value` definitions ([HttpVariables.gather] gathers them from the system properties).
         * Throws [HttpFileException] (an [IllegalArgumentException]) whose message is one line:
         * `<file>:<line>: <what is wrong>[: how to fix]`.
         */
        @JvmStatic
        @JvmOverloads
        fun load(file: Path, variables: Map<String, String> = emptyMap()): HttpWorkload {
            val text = try {
                Files.readString(file)
            } catch (e: NoSuchFileException) {
                throw HttpFileException("$file: no such file")
            } catch (e: IOException) {
                throw HttpFileException("$file: cannot read it as UTF-8 text: $e")
            }
            return HttpWorkload(file, parse(text, file.toString(), variables, file.toAbsolutePath().parent).requests)
        }

        /**
         * Parses [text], a `.http` file's content; [fileName] only names it in error messages and [HttpWorkload.file],
         * [baseDir] is where `< path` bodies are read from (null: such a body is an error). Throws [HttpFileException]
         * as [load] does.
         */
        @JvmStatic
        fun parse(text: String, fileName: String, variables: Map<String, String>, baseDir: Path?): HttpWorkload =
            HttpWorkload(Path.of(fileName), HttpFileParser(fileName, variables, baseDir).parse(text))
    }
}
