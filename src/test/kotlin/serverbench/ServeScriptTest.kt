package serverbench

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** `scripts/serve` runs on the JDK of `JAVA_HOME`, as `scripts/bench` does, not on whatever `java` PATH finds first. */
class ServeScriptTest {
    @Test
    fun `scripts-serve runs JAVA_HOME's java when it is set`(@TempDir dir: File) {
        // A copy of the script beside a jar that exists (its content is never read here) and a JDK whose java says
        // how it was called: the served process is then that JDK's.
        File(dir, "scripts").mkdirs()
        File("scripts/serve").copyTo(File(dir, "scripts/serve")).setExecutable(true)
        File(dir, "target").mkdirs()
        File(dir, "target/benchmarks.jar").writeText("")
        val jdk = File(dir, "jdk/bin").apply { mkdirs() }
        File(jdk, "java").apply {
            writeText("#!/usr/bin/env bash\necho \"chosen java: \$*\"\n")
            setExecutable(true)
        }
        val run = runProcess(
            listOf("bash", File(dir, "scripts/serve").path, "--server", "netty"),
            env = mapOf("JAVA_HOME" to File(dir, "jdk").path),
            mergeErr = true,
        )
        val out = run.stdout
        assertEquals(0, run.exitCode, out)
        assertTrue(out.startsWith("chosen java: ") && "serverbench.fixture.Serve --server netty" in out, out)
    }
}
