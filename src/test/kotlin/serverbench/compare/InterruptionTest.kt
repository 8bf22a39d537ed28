package serverbench.compare

import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** Ctrl-C during a fork: one line, the fork stopped, and the reading thread ends without an exception. */
class InterruptionTest {
    private val dir = File("jmh-results/compare-x")

    @Test
    fun `the hook's destroy under a reading thread ends the read quietly, and nothing starts after it`() {
        val text = ByteArrayOutputStream()
        val interruption = Interruption(dir, PrintStream(text, true))
        interruption.done = 3
        interruption.planned = 12
        // As a fork's launcher does, it goes on writing for a moment after the hook's SIGTERM, its stream closed.
        val fork = ProcessBuilder("sh", "-c", "trap '' TERM; echo started; sleep 1; echo stopping")
            .redirectErrorStream(true)
        val process = interruption.start(fork)!!
        val lines = ArrayList<String>()
        val first = CompletableFuture<Unit>()
        val read = CompletableFuture.supplyAsync {
            interruption.read(process) {
                lines += it
                first.complete(Unit)
            }
        }
        first.get(10, TimeUnit.SECONDS)
        interruption.interrupt()
        // An IOException (stream closed) would fail the future; the read ends with null, nothing more to do.
        assertNull(read.get(10, TimeUnit.SECONDS))
        assertFalse(process.isAlive)
        assertEquals(listOf("started"), lines)
        assertEquals(
            "compare: interrupted after 3 of 12 forks; the forks' results so far stay in jmh-results/compare-x/\n",
            text.toString(),
        )
        assertNull(interruption.start(ProcessBuilder("true")))
    }

    @Test
    fun `without an interrupt a fork's lines and exit status pass through, and a failed read is not swallowed`() {
        val interruption = Interruption(dir, PrintStream(ByteArrayOutputStream()))
        val lines = ArrayList<String>()
        val process = interruption.start(ProcessBuilder("sh", "-c", "echo a; echo b; exit 3"))!!
        assertEquals(3, interruption.read(process) { lines += it })
        assertEquals(listOf("a", "b"), lines)
        val closed = interruption.start(ProcessBuilder("sh", "-c", "sleep 60"))!!
        closed.inputStream.close()
        val failed = runCatching { interruption.read(closed) {} }
        closed.destroy()
        assertTrue(failed.exceptionOrNull() is java.io.IOException, "$failed")
    }
}
