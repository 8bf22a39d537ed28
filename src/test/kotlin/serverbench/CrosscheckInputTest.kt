package serverbench

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * `scripts/crosscheck` refuses bad input in one line, exit 2, before it builds or starts anything: `mvn` and `java`
 * that fail are first on PATH, so a case that got past the checks could start neither a build nor a server.
 */
class CrosscheckInputTest {
    private fun refused(dir: File, vararg args: String, says: String) {
        val bin = File(dir, "bin").apply { mkdirs() }
        for (tool in listOf("mvn", "java")) {
            File(bin, tool).apply {
                writeText("#!/bin/sh\necho '$tool must not run here' >&2\nexit 97\n")
                setExecutable(true)
            }
        }
        val results = File("jmh-results").list().orEmpty().filter { it.startsWith("crosscheck-") }.toSet()
        val run = runProcess(
            listOf("bash", "scripts/crosscheck") + args,
            env = mapOf("PATH" to bin.path + File.pathSeparator + System.getenv("PATH"), "JAVA_HOME" to null),
            mergeErr = true,
        )
        val text = run.stdout
        assertEquals(2, run.exitCode, text)
        assertEquals(1, text.trim().lines().size, text)
        assertTrue(text.startsWith("crosscheck: ") && text.contains(says), text)
        assertEquals(results, File("jmh-results").list().orEmpty().filter { it.startsWith("crosscheck-") }.toSet())
    }

    @Test
    fun `a bad value names the option and what it takes`(@TempDir dir: File) {
        refused(dir, "--server", "undertow", says = "--server must be tomcat, jetty or netty, was 'undertow'")
        refused(dir, "--cpus", "one", says = "--cpus must be a number, was 'one'")
        refused(dir, "--seconds", "-5", says = "--seconds must be a number")
        refused(dir, "--variants", "direct,cooperative", says = "--variants takes direct, suspendFun")
    }

    @Test
    fun `an unknown option or a missing value is refused`(@TempDir dir: File) {
        refused(dir, "--forks", "2", says = "unknown option '--forks'")
        refused(dir, "--limit", says = "--limit needs a value")
    }
}
