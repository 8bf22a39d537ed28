package serverbench.benchmarks

import com.sun.net.httpserver.HttpServer
import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.testing.deleteResults
import java.io.File
import java.net.InetSocketAddress
import java.nio.file.Files
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * A server on "its own host": `scripts/serve` in a process of its own (on 127.0.0.1, as every test here), driven by
 * the jar with `-Dserverbench.target`: the run measures it with its figures read from the serve process; a stack it
 * does not run is refused in one line before anything starts; the target killed mid-run fails the run in one line.
 */
@Full
class RemoteTargetIT {
    private class Serve(val process: Process, val port: Int, val adminPort: Int, val pid: Long, val out: File)

    private fun serve(kind: String): Serve {
        val (out, err) = Jar.outputFiles("serve-$kind")
        val process = ProcessBuilder("scripts/serve", "--server", kind, "--port", "0")
            .redirectOutput(out).redirectError(err).start()
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
        val listening = Regex("""listening on http://127\.0\.0\.1:(\d+) .* admin http://127\.0\.0\.1:(\d+)/""")
        while (System.nanoTime() < deadline && process.isAlive) {
            listening.find(out.readText())?.let { m ->
                return Serve(process, m.groupValues[1].toInt(), m.groupValues[2].toInt(), process.pid(), out)
            }
            Thread.sleep(100)
        }
        process.destroyForcibly()
        error("scripts/serve did not start: ${out.readText()} ${err.readText()}")
    }

    private fun stop(s: Serve) {
        s.process.destroy()
        if (!s.process.waitFor(20, TimeUnit.SECONDS)) s.process.destroyForcibly()
    }

    private fun target(s: Serve) =
        listOf("-Dserverbench.target=127.0.0.1:${s.port}", "-Dserverbench.targetAdmin=${s.adminPort}")

    @Test
    fun `a target is measured with the serve process's figures, another stack and a budget are refused in one line`() {
        val s = serve("netty")
        val json = File.createTempFile("remote", ".json")
        try {
            val ok = Jar.run(
                "NoopBenchmark", "-p", "server=netty", "-p", "concurrency=8", "-f", "1", "-i", "2", "-r", "1s",
                "-rf", "json", "-rff", json.path,
                jvmArgs = target(s),
            )
            assertEquals(0, ok.exitCode, ok.toString())
            assertTrue(ok.stdout.contains("netty on 127.0.0.1:${s.port} (pid ${s.pid},"), ok.toString())
            // The steady warmup judged the target's JIT, not this JVM's (which compiles only the load client).
            assertTrue(ok.stdout.contains("the target's elapsed compile time, from its admin endpoint"), ok.toString())
            val text = json.readText()
            assertTrue(text.contains("\"server.remote\""), "the results say the server ran elsewhere")
            assertTrue(
                Regex(""""server.cpu"\s*:\s*\{\s*"score"\s*:\s*([0-9.]+)""").find(text)!!.groupValues[1]
                    .toDouble() > 0,
                "the serve process's CPU",
            )
            // The client's whole JVM (GC, JIT, JMH's threads too) costs at least its client threads: the JDK reads
            // process CPU in clock ticks (10 ms per read on Linux), so two 1 s iterations may read a few % low.
            val score = { name: String ->
                Regex(""""$name"\s*:\s*\{\s*"score"\s*:\s*([0-9.]+)""").find(text)?.groupValues?.get(1)?.toDouble()
            }
            val threads = score("client.cpuPerReq")!!
            val process = score("client.processCpuPerReq")
            assertTrue(process != null && process > threads * 0.9, "processCpuPerReq $process, cpuPerReq $threads")

            val tomcat = Jar.run("NoopBenchmark", "-p", "server=tomcat", jvmArgs = target(s))
            assertEquals(2, tomcat.exitCode, tomcat.toString())
            assertEquals(
                "serverbench: the target 127.0.0.1:${s.port} runs netty, not -p server=tomcat: add -p server=netty, " +
                    "or start the target with scripts/serve --server tomcat",
                tomcat.stderr.trim().lines().last(),
            )
            val budget = Jar.run("NoopBenchmark", "-p", "server=netty", "-p", "cpus=1", jvmArgs = target(s))
            assertEquals(2, budget.exitCode, budget.toString())
            assertTrue(budget.stderr.contains("scripts/serve --cpus 1"), budget.toString())
            val proxy = Jar.run("ProxyBenchmark.jdkBlocking", "-p", "server=netty", jvmArgs = target(s))
            assertEquals(2, proxy.exitCode, proxy.toString())
            assertTrue(proxy.stderr.contains("cannot drive -Dserverbench.target"), proxy.toString())
        } finally {
            stop(s)
            deleteResults(json)
        }
    }

    @Test
    fun `the target killed mid-run fails the run in one line that names it`() {
        val s = serve("netty")
        try {
            val started = Jar.start(
                "NoopBenchmark", "-p", "server=netty", "-p", "concurrency=8", "-f", "1", "-i", "30", "-r", "1s",
                jvmArgs = target(s),
            )
            // Kill the target once the jar measures (its first iteration line), then the jar must end by itself.
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
            while (System.nanoTime() < deadline && !started.out.readText().contains("Iteration   2:")) Thread.sleep(200)
            s.process.destroyForcibly().waitFor()
            assertTrue(started.process.waitFor(3, TimeUnit.MINUTES), "the run ended after its target died")
            val out = started.out.readText() + started.err.readText()
            assertEquals(1, started.process.exitValue(), out.takeLast(3000))
            assertTrue(out.contains("127.0.0.1:${s.port}"), out.takeLast(3000))
        } finally {
            stop(s)
        }
    }

    @Test
    fun `any HTTP server, driven by a file of requests, measures without server-side figures and says so`() {
        // The JDK's own HTTP server serving a file: no scripts/serve admin endpoint, no Actuator.
        val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        server.createContext("/hello.json") { exchange ->
            val body = """{"hello":"world"}""".toByteArray()
            exchange.responseHeaders.add("Content-Type", "application/json")
            exchange.sendResponseHeaders(200, body.size.toLong())
            exchange.responseBody.use { it.write(body) }
        }
        server.createContext("/ping") { exchange ->
            exchange.sendResponseHeaders(204, -1)
            exchange.close()
        }
        server.executor = Executors.newFixedThreadPool(2)
        server.start()
        val dir = Files.createTempDirectory("httpfile")
        try {
            val http = dir.resolve("hello.http")
            Files.writeString(
                http,
                "@host = localhost\n### hello\n# @weight 3\n# @expect status 200\n# @expect json /hello = \"world\"\n" +
                    "GET http://{{host}}/hello.json\n\n### ping\n# @expect status 204\nGET /ping\n",
            )
            val json = dir.resolve("any.json").toFile()
            val target = listOf("-Dserverbench.target=127.0.0.1:${server.address.port}", "-Dserverbench.warmup=off")
            val ok = Jar.run(
                "HttpFileBenchmark", "-p", "workload=$http", "-p", "server=other", "-p", "concurrency=8", "-f", "1",
                "-i", "2", "-r", "1s", "-rf", "json", "-rff", json.path,
                jvmArgs = target,
            )
            assertEquals(0, ok.exitCode, ok.toString())
            assertTrue(ok.stdout.contains("says neither its stack nor its figures"), ok.toString())
            // The mix as answered, beside the weights the file gave.
            assertTrue(ok.stdout.contains("the mix as answered in the measured iterations: hello "), ok.toString())
            assertTrue(ok.stdout.contains("weight 75.0 %); ping "), ok.toString())
            val text = json.readText()
            assertTrue(text.contains("\"server.remote\""), text)
            assertFalse(text.contains("\"server.cpu\""), "no server-side figure, never a zero: $text")
            assertFalse(text.contains("\"threads.peak\""), text)
            val report = Jar.script("report", json.path)
            assertTrue(report.stdout.contains("The target said nothing of its process"), report.toString())
            // Two labels for a server that does not say its stack would drive it twice: refused in one line.
            val two = Jar.run(
                "HttpFileBenchmark",
                "-p",
                "workload=$http",
                "-p",
                "server=tomcat,netty",
                jvmArgs = target,
            )
            assertEquals(2, two.exitCode, two.toString())
            assertTrue(two.stderr.contains("does not say its stack"), two.toString())
            // A check that fails on the first request: one line, no stack trace, exit non-zero.
            val wrong = dir.resolve("wrong.http")
            Files.writeString(wrong, "### hello\n# @expect json /hello = \"there\"\nGET /hello.json\n")
            val failed = Jar.run(
                "HttpFileBenchmark", "-p", "workload=$wrong", "-p", "server=other", "-f", "1", "-i", "1", "-r", "1s",
                jvmArgs = target,
            )
            assertEquals(1, failed.exitCode, failed.toString())
            assertTrue(failed.stdout.contains("/hello: expected \"there\", was \"world\""), failed.toString())
            assertFalse(failed.stdout.contains("\tat serverbench"), failed.toString())
        } finally {
            server.stop(0)
            (server.executor as ExecutorService).shutdownNow()
            dir.toFile().deleteRecursively()
        }
    }
}
