package serverbench.report

import java.io.ByteArrayOutputStream
import java.io.PrintStream

/** What a block printed, on each stream, while it ran. */
class Printed<T>(val value: T, val stdout: String, val stderr: String)

/**
 * Runs [block] with System.out and System.err captured, for code that prints progress a test should check rather than
 * show (async-profiler's converter reports each file it writes).
 */
fun <T> printedBy(block: () -> T): Printed<T> {
    val (out, err) = System.out to System.err
    val (stdout, stderr) = ByteArrayOutputStream() to ByteArrayOutputStream()
    System.setOut(PrintStream(stdout, true, Charsets.UTF_8))
    System.setErr(PrintStream(stderr, true, Charsets.UTF_8))
    try {
        val value = block()
        return Printed(value, stdout.toString(Charsets.UTF_8), stderr.toString(Charsets.UTF_8))
    } finally {
        System.setOut(out)
        System.setErr(err)
    }
}
