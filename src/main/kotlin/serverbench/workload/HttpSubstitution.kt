package serverbench.workload

/**
 * The `{{...}}` of a `.http` file's text, resolved: a variable becomes its value (the [external] ones, given to the
 * parser, win over the file's [definitions], whose values may refer to other variables), a dynamic variable
 * (`{{$uuid}}`) one of the client's per-request placeholders, and `\{{` a literal `{{`. What it yields is rendered
 * for a request's path or body template ([template]), or for a header, sent as written ([literal]).
 */
internal class HttpSubstitution(
    private val file: String,
    private val external: Map<String, String>,
    private val definitions: Map<String, Definition>,
) {
    /** A piece of resolved text: literal [text], or a client [placeholder] (`seq`), [text] then being as written. */
    class Part(val text: String, val placeholder: String? = null)

    /** [text], from [line], with its variables resolved. */
    fun resolve(text: String, line: Int): List<Part> = resolve(text, line, emptyList())

    /** [text] as a client template (docs/requests.md): placeholders as `{{seq}}`, a literal `{{` as `\{{`. */
    fun template(text: String, line: Int): String = buildString {
        for (part in resolve(text, line)) {
            if (part.placeholder == null) {
                append(part.text.replace(OPEN, "\\" + OPEN))
            } else {
                // The client's templates have no escape for a backslash: this one would make the placeholder literal.
                if (endsWith('\\')) fail(line, "a \\ right before ${part.text} would make it literal text")
                append("{{${part.placeholder}}}")
            }
        }
    }

    /** [text] as a header sends it: the same every time, so a per-request placeholder cannot be in it. */
    fun literal(text: String, line: Int): String = resolve(text, line).joinToString("") { part ->
        if (part.placeholder != null) {
            fail(
                line,
                "${part.text} in a header: headers are sent as written, the same each time; " +
                    "a per-request value goes in the URL or the body",
            )
        }
        part.text
    }

    private fun resolve(text: String, line: Int, using: List<String>): List<Part> {
        val parts = Parts()
        var i = 0
        while (i < text.length) {
            when {
                text.startsWith(ESCAPED_OPEN, i) -> {
                    parts.add(Part(OPEN))
                    i += ESCAPED_OPEN.length
                }

                text.startsWith(OPEN, i) -> {
                    val end = text.indexOf(CLOSE, i + OPEN.length)
                    if (end < 0) fail(line, "{{ with no }} after it (a literal {{ is written \\{{)")
                    val name = text.substring(i + OPEN.length, end).trim()
                    variable(name, text.substring(i, end + CLOSE.length), line, using).forEach { parts.add(it) }
                    i = end + CLOSE.length
                }

                else -> parts.add(Part(text[i++].toString()))
            }
        }
        return parts.done()
    }

    /** Parts in order, adjacent literal text merged. */
    private class Parts {
        private val parts = ArrayList<Part>()
        private val literal = StringBuilder()

        fun add(part: Part) {
            if (part.placeholder == null) {
                literal.append(part.text)
                return
            }
            parts += Part(literal.toString())
            literal.setLength(0)
            parts += part
        }

        fun done(): List<Part> = parts + Part(literal.toString())
    }

    /** What [name] (written [written] at [line]) stands for; [using]: the definitions being resolved, outer first. */
    private fun variable(name: String, written: String, line: Int, using: List<String>): List<Part> {
        if (name.startsWith("$")) {
            val placeholder = DYNAMIC[name] ?: fail(
                line,
                "$written is not supported: the dynamic variables are ${DYNAMIC.keys.joinToString { "{{$it}}" }}",
            )
            return listOf(Part(written, placeholder))
        }
        external[name]?.let { return listOf(Part(it)) }
        val definition = definitions[name] ?: fail(line, unknown(name))
        if (name in using) {
            fail(definition.line, "variable @$name refers to itself: ${(using + name).joinToString(" -> ")}")
        }
        return resolve(definition.value, definition.line, using + name)
    }

    private fun unknown(name: String): String = "unknown variable {{$name}}: define it with @$name = value in the " +
        "file, in the variables file (-D${HttpVariables.FILE_PROPERTY}), or with -D${HttpVariables.VARIABLE_PREFIX}" +
        "$name=..." + (PLACEHOLDER_NAMES[name]?.let { " (the per-request {{$name}} is written $it)" } ?: "")

    private fun fail(line: Int, what: String): Nothing = throw HttpFileException(file, line, what)

    companion object {
        private const val OPEN = "{{"
        private const val CLOSE = "}}"
        private const val ESCAPED_OPEN = "\\{{"

        /** The dynamic variables, each the client placeholder it becomes (docs/requests.md, "Placeholders"). */
        val DYNAMIC = linkedMapOf(
            "\$uuid" to "uuid",
            "\$random.uuid" to "uuid",
            "\$guid" to "uuid",
            "\$randomInt" to "random",
            "\$seq" to "seq",
        )

        /** The client's own placeholder names, which a `.http` file writes as dynamic variables. */
        private val PLACEHOLDER_NAMES = mapOf(
            "seq" to "{{\$seq}}",
            "uuid" to "{{\$uuid}}",
            "random" to "{{\$randomInt}}",
        )
    }
}
