package serverbench.launcher

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.openjdk.jmh.runner.options.CommandLineOptions
import serverbench.testing.planRun
import serverbench.testing.runProcess
import java.io.File
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream
import java.util.jar.Manifest
import javax.tools.ToolProvider
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * The forks' class-data archive with real JVMs: this JDK's `java` records a real archive of a small program, and
 * `java -version` must map it before it is used. Made once and reused, also by the next session; a corrupt or stale
 * one is replaced, and the run goes on; the user's own flags still reach the forks.
 */
class ForkArchiveTest {
    private val java = File(System.getProperty("java.home"), "bin/java").path
    private val jdk = Runtime.version().feature()

    /** A jar holding one class, Hello, compiled now. */
    private fun jar(dir: File, greeting: String): File {
        val src = File(dir, "src/Hello.java").apply {
            parentFile.mkdirs()
            writeText(
                "public class Hello { public static void main(String[] a) { System.out.println(\"$greeting\"); } }",
            )
        }
        val classes = File(dir, "classes").apply { mkdirs() }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.path, src.path))
        val jar = File(dir, "app.jar")
        JarOutputStream(jar.outputStream(), Manifest().apply { mainAttributes.putValue("Manifest-Version", "1.0") })
            .use { out ->
                out.putNextEntry(JarEntry("Hello.class"))
                out.write(File(classes, "Hello.class").readBytes())
                out.closeEntry()
            }
        return jar
    }

    private class Session(val archive: ForkArchive, val said: MutableList<String>)

    private fun session(jar: File, key: String): Session {
        val said = ArrayList<String>()
        val archive =
            ForkArchive(
                java,
                jdk,
                jar.path,
                File(jar.parentFile, "fork-archives"),
                "app-$key",
                "app-$key-jdk$jdk",
                emptyList(),
            ) {
                said += it
            }
        return Session(archive, said)
    }

    /** A training "fork": the small program, run with the recording flags. Counts its runs. */
    private class Trainer(val java: String, val jar: File) {
        var runs = 0

        fun train(record: List<String>): String? {
            runs++
            val exit = runProcess(listOf(java) + record + listOf("-cp", jar.path, "Hello"), mergeErr = true).exitCode
            return if (exit == 0) null else "exit $exit"
        }
    }

    @Test
    fun `an archive is made once and reused, by later runs and by the next session`(@TempDir dir: File) {
        val jar = jar(dir, "hello")
        val trainer = Trainer(java, jar)
        val first = session(jar, "a")
        val made = assertNotNull(first.archive.prepare("netty", trainer::train))
        assertEquals(made, first.archive.prepare("netty", trainer::train))
        assertEquals(1, trainer.runs)
        assertNull(first.archive.mapFailure(made))
        val flag = if (jdk >= ForkArchive.AOT_CACHE_JDK) "-XX:AOTCache=" else "-XX:SharedArchiveFile="
        assertEquals(listOf(flag + made.path), first.archive.useArgs("netty"))
        assertEquals(emptyList(), first.archive.useArgs("tomcat"), "no archive prepared for tomcat")

        val next = session(jar, "a")
        assertEquals(made, next.archive.prepare("netty", trainer::train))
        assertEquals(1, trainer.runs, "the next session reuses it")
        assertEquals(emptyList(), next.said)
        assertEquals(listOf(made.name, "app-a-jdk$jdk-netty.lock"), made.parentFile.list()!!.sorted())
    }

    @Test
    fun `a corrupt archive is replaced and a stale one deleted, without failing the run`(@TempDir dir: File) {
        val jar = jar(dir, "hello")
        val trainer = Trainer(java, jar)
        val made = assertNotNull(session(jar, "a").archive.prepare("netty", trainer::train))
        made.setWritable(true) // the JVM writes its archive read-only
        made.writeBytes(ByteArray(4096) { 7 })
        val again = session(jar, "a")
        assertEquals(made, again.archive.prepare("netty", trainer::train))
        assertEquals(2, trainer.runs)
        assertNull(again.archive.mapFailure(made))
        assertTrue(
            again.said.first().startsWith("serverbench: the class-data archive ${made.path} does not map ("),
            "${again.said}",
        )

        // The jar rebuilt (another content hash): its archive is made anew and the old jar's is deleted.
        val rebuilt = session(jar(dir, "hello again"), "b")
        val fresh = assertNotNull(rebuilt.archive.prepare("netty", Trainer(java, File(dir, "app.jar"))::train))
        assertEquals(listOf(fresh.name), fresh.parentFile.list()!!.filter { !it.endsWith(".lock") })
    }

    @Test
    fun `a training fork that fails costs the archive only`(@TempDir dir: File) {
        val jar = jar(dir, "hello")
        val s = session(jar, "a")
        assertNull(s.archive.prepare("jetty") { "the training fork failed" })
        assertEquals(emptyList(), s.archive.useArgs("jetty"))
        assertEquals(
            "serverbench: could not make the forks' class-data archive for jetty (the training fork failed); " +
                "its forks start without one (slower start only)",
            s.said.last(),
        )
        assertEquals(emptyList(), File(dir, "fork-archives").list()!!.filter { !it.endsWith(".lock") }, "no tmp left")
    }

    @Test
    fun `the user's own class data sharing flags take over, and their other flags reach the forks with the archive`() {
        val own = CommandLineOptions("-jvmArgsAppend", "-Xshare:off")
        assertEquals("-Xshare:off", ForkArchive.userFlag(own))
        val said = ArrayList<String>()
        assertNull(ForkArchive.of(own, emptyList()) { said += it })
        assertEquals(listOf("serverbench: the forks use your -Xshare:off, not serverbench's class-data archive"), said)

        val user = CommandLineOptions("-jvmArgsAppend", "-Xmx700m -Dmine=1")
        assertNull(ForkArchive.userFlag(user))
        val run = planRun("NoopBenchmark.hello", "server" to "netty", estimateSeconds = 1)
        assertEquals(
            listOf("-Xmx700m", "-Dmine=1", "-XX:SharedArchiveFile=x.jsa"),
            SingleRun(user, run, listOf("-XX:SharedArchiveFile=x.jsa")).jvmArgsAppend.get().toList(),
        )
    }

    @Test
    fun `a bad -Dserverbench_forkArchive names the values allowed`() {
        assertNull(ForkArchive.badProperty(null))
        assertNull(ForkArchive.badProperty("off"))
        assertEquals("-Dserverbench.forkArchive must be on or off, was 'no'", ForkArchive.badProperty("no"))
    }
}
