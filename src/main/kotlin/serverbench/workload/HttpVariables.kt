package serverbench.workload

import tools.jackson.core.JacksonException
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.IOException
import java.nio.file.Files
import java.nio.file.NoSuchFileException
import java.nio.file.Path

/**
 * The variables a run gives a `.http` file, from system properties (docs/http-files.md, "Variables"), winning over the
 * file's own `@name = value` definitions: `-Dserverbench.var.<name>=value` each, over a variables file's values. The
 * variables file is `-Dserverbench.httpVars=path` or, without that property, an `http-client.env.json` beside the
 * `.http` file (IntelliJ's convention): either IntelliJ's environments (`{"dev": {"host": "..."}}`, `$shared`
 * holding defaults for all, one chosen by `-Dserverbench.httpEnv=NAME`, needed when there are several) or a flat
 * object of variables (`{"host": "..."}`).
 */
object HttpVariables {
    /** A variable's property: `-Dserverbench.var.host=localhost:8080`. */
    const val VARIABLE_PREFIX = "serverbench.var."

    /** The variables file's property. */
    const val FILE_PROPERTY = "serverbench.httpVars"

    /** The environment's property, to choose one of a variables file's environments. */
    const val ENV_PROPERTY = "serverbench.httpEnv"

    /** The variables file found beside a `.http` file when [FILE_PROPERTY] is not set. */
    const val ENV_FILE = "http-client.env.json"

    /** IntelliJ's environment of defaults, merged under the chosen one. */
    private const val SHARED = "\$shared"

    private val MAPPER = JsonMapper.builder().build()

    /**
     * The variables for [httpFile], from the properties [property] reads (by name) and [propertyNames] lists; by
     * default the system properties, injectable so that a test needs none. Throws [HttpFileException] for a variables
     * file that is missing, not JSON, or whose environment is not chosen.
     */
    @JvmStatic
    @JvmOverloads
    fun gather(
        httpFile: Path,
        property: (String) -> String? = System::getProperty,
        propertyNames: () -> Collection<String> = { System.getProperties().stringPropertyNames() },
    ): Map<String, String> {
        val explicit = property(FILE_PROPERTY)?.let { Path.of(it) }
        val beside = httpFile.toAbsolutePath().resolveSibling(ENV_FILE)
        val file = explicit ?: beside.takeIf { Files.isRegularFile(it) }
        val variables = LinkedHashMap(file?.let { fromFile(it, explicit != null, property(ENV_PROPERTY)) }.orEmpty())
        for (name in propertyNames().filter { it.startsWith(VARIABLE_PREFIX) }.sorted()) {
            property(name)?.let { variables[name.removePrefix(VARIABLE_PREFIX)] = it }
        }
        return variables
    }

    /** [file]'s variables; [given]: named by [FILE_PROPERTY] (else found beside the `.http` file), for messages. */
    private fun fromFile(file: Path, given: Boolean, env: String?): Map<String, String> {
        val shown = if (given) "$file (-D$FILE_PROPERTY)" else "$file"
        val root = read(file, shown)
        if (!root.isObject) throw HttpFileException("$shown: not a JSON object of variables or of environments")
        val entries = root.properties().associate { it.key to it.value }
        val environments = entries.filterValues { it.isObject }
        return when {
            environments.isEmpty() -> {
                if (env != null) {
                    throw HttpFileException("$shown: -D$ENV_PROPERTY=$env, but the file has no environments")
                }
                values(entries)
            }

            environments.size < entries.size -> throw HttpFileException(
                "$shown: mixes environments (objects) with variables " +
                    "(${(entries - environments.keys).keys.first()}): " +
                    "put the variables in an environment, or use a flat object",
            )

            else -> values(environments[SHARED]?.properties()?.associate { it.key to it.value }.orEmpty()) +
                values(environment(environments - SHARED, env, shown))
        }
    }

    /** The chosen environment's entries: [env], or the only one. */
    private fun environment(environments: Map<String, JsonNode>, env: String?, shown: String): Map<String, JsonNode> {
        val names = environments.keys.joinToString(", ")
        val chosen = when {
            env != null -> environments[env]
                ?: throw HttpFileException("$shown: no environment \"$env\" (-D$ENV_PROPERTY); it has $names")

            environments.size == 1 -> environments.values.first()

            else -> throw HttpFileException(
                "$shown: has several environments ($names): choose one with -D$ENV_PROPERTY=NAME",
            )
        }
        return chosen.properties().associate { it.key to it.value }
    }

    /**
     * The variables among [entries]: a string as it is, a number or boolean as its JSON text. Anything else is not a
     * variable (IntelliJ keeps settings such as `SSLConfiguration` in the same file) and is skipped.
     */
    private fun values(entries: Map<String, JsonNode>): Map<String, String> = entries.mapNotNull { (name, node) ->
        when {
            node.isString -> name to node.stringValue()
            node.isNumber || node.isBoolean -> name to node.toString()
            else -> null
        }
    }.toMap()

    private fun read(file: Path, shown: String): JsonNode {
        val text = try {
            Files.readString(file)
        } catch (e: NoSuchFileException) {
            throw HttpFileException("$shown: no such file")
        } catch (e: IOException) {
            throw HttpFileException("$shown: cannot read it as UTF-8 text: $e")
        }
        return try {
            MAPPER.readTree(text)
        } catch (e: JacksonException) {
            val line = e.location?.lineNr?.takeIf { it > 0 }
            throw HttpFileException("$file${line?.let { ":$it" } ?: ""}: not JSON: ${e.originalMessage}")
        }
    }
}
