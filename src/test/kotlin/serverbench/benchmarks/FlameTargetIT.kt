package serverbench.benchmarks

import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.testing.deleteResults
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * `-prof flame` with `-Dserverbench.target` on `scripts/serve` (a process of its own on 127.0.0.1): the fork attaches
 * async-profiler to the serve JVM, whose pid the admin endpoint says, and writes the graph, the collapsed stacks and
 * the notes where a profiled in-process server's go, listed in the result file, so the report reads them unchanged.
 */
@Full
class FlameTargetIT {
    @Test
    fun `the target's JVM is profiled, its server frames in the graph and the load client's not`() {
        val (out, err) = Jar.outputFiles("serve-flame")
        val serve = ProcessBuilder("scripts/serve", "--server", "netty", "--port", "0")
            .redirectOutput(out).redirectError(err).start()
        val dir = Files.createTempDirectory("profiles").toFile()
        val json = Files.createTempFile("flame-target", ".json").toFile()
        try {
            val (port, admin) = listening(serve, out, err)
            val run = Jar.run(
                "NoopBenchmark.hello$", "-p", "server=netty", "-p", "concurrency=8", "-f", "1", "-i", "2", "-r", "1s",
                "-prof", "flame:dir=${dir.path}", "-rf", "json", "-rff", json.path,
                jvmArgs = listOf(
                    "-Dserverbench.target=127.0.0.1:$port",
                    "-Dserverbench.targetAdmin=$admin",
                    "-Dserverbench.warmup=off",
                ),
            )
            assertEquals(0, run.exitCode, run.toString())
            assertTrue(run.stdout.contains("attaching to the target's JVM (pid ${serve.pid()})"), run.stdout)
            val listed = JsonMapper.builder().build().readTree(json)[0]["profiles"]
            val files = (0 until listed.size()).map { File(json.parentFile, listed[it].asString()) }
            assertEquals(listOf("cpu.collapsed", "cpu.html", "cpu.txt"), files.map { it.name }, run.toString())
            val (collapsed, html, notes) = files
            assertTrue(html.length() > 10_000, "no flamegraph: ${html.length()} bytes")
            val stacks = collapsed.readLines()
            val server = stacks.filter { it.contains("reactor/netty") || it.contains("io/netty") }
            println(
                "FlameTargetIT: ${server.size} of ${stacks.size} stacks have Netty/Reactor frames, e.g. " +
                    server.maxByOrNull { it.substringAfterLast(' ').toLong() }?.take(300),
            )
            assertTrue(server.isNotEmpty(), "no Netty/Reactor server frames in ${stacks.take(20)}")
            // The request handling itself, not only the event loop's polling.
            assertTrue(stacks.any { it.contains("reactor/netty/http/server") }, "no Reactor Netty HTTP server frames")
            assertTrue(stacks.none { it.contains("serverbench/client") }, "the load client's frames are in the graph")
            val text = notes.readText()
            assertTrue(text.contains("threads: every thread of the target's JVM, pid ${serve.pid()}"), text)
            assertTrue(Regex("samples: [1-9]").containsMatchIn(text), text)
        } finally {
            serve.destroy()
            if (!serve.waitFor(20, TimeUnit.SECONDS)) serve.destroyForcibly()
            dir.deleteRecursively()
            deleteResults(json)
        }
    }

    /** The server's and the admin endpoint's ports, once scripts/serve says it listens. */
    private fun listening(serve: Process, out: File, err: File): Pair<Int, Int> {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
        val line = Regex("""listening on http://127\.0\.0\.1:(\d+) .* admin http://127\.0\.0\.1:(\d+)/""")
        while (System.nanoTime() < deadline && serve.isAlive) {
            line.find(out.readText())?.let { return it.groupValues[1].toInt() to it.groupValues[2].toInt() }
            Thread.sleep(100)
        }
        error("scripts/serve did not start: ${out.readText()} ${err.readText()}")
    }
}
