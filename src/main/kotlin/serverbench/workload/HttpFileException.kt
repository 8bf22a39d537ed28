package serverbench.workload

/**
 * A `.http` file (or its variables file) that cannot be sent as written. The message is one line,
 * `<file>:<line>: <what is wrong>[: how to fix it]`, so a caller prints it as it is, without a stack trace.
 */
class HttpFileException(message: String) : IllegalArgumentException(singleLine(message)) {
    internal constructor(file: String, line: Int, what: String) : this("$file:$line: $what")
}

/** [s] on one line: a wrapped message (a regex's, Jackson's) would otherwise split the caller's output. */
internal fun singleLine(s: String): String = s.trim().replace(Regex("""\s*\R\s*"""), " ")
