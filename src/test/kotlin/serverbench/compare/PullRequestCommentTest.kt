package serverbench.compare

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.compare.ForkOrder.Side
import serverbench.testing.metric
import serverbench.testing.row
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.util.jar.Attributes
import java.util.jar.JarOutputStream
import java.util.jar.Manifest
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * The pull-request comment written from a comparison's artifacts folder, as a service repository's script calls it:
 * compare.json and compare.md as compare writes them, fork result files that list their profiles.
 */
class PullRequestCommentTest {
    private val base = "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    private val head = "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

    private class Written(val status: Int, val out: String, val err: String)

    private fun comment(vararg args: String): Written {
        val out = ByteArrayOutputStream()
        val err = ByteArrayOutputStream()
        val status = CommentWriter(PrintStream(out, true, Charsets.UTF_8), PrintStream(err, true, Charsets.UTF_8))
            .run(arrayOf(*args))
        return Written(status, out.toString(Charsets.UTF_8), err.toString(Charsets.UTF_8))
    }

    private fun comment(artifacts: File, vararg more: String): String {
        val written =
            comment("--artifacts", artifacts.path, "--base", base, "--head", head, "--what", "`orders.http`", *more)
        assertEquals(0, written.status, written.err)
        return written.out
    }

    /** Six forks a side; head's netty req/s [change] times base's (a 1 % spread), everything else the same. */
    private fun comparison(change: Double): Comparison {
        val seen = HashMap<Side, Int>()
        val forks = ForkOrder.of(6).map { side ->
            val k = seen.merge(side, 1, Int::plus)!! - 1
            val wobble = 1 + 0.01 * (k - 2.5)
            val netty = 8000 * wobble * if (side == Side.HEAD) change else 1.0
            side to listOf(run("netty", netty, 10.0), run("tomcat", 4000.0, 20.0))
        }
        return Comparison.of(forks, emptySet())
    }

    private fun run(server: String, score: Double, p99: Double) = row(
        "CpuBenchmark.direct",
        linkedMapOf("server" to server, "concurrency" to "64"),
        score,
        secondary = mapOf("latency.p99" to metric(p99, "ms"), "server.cpuPerReq" to metric(100.0, "us")),
        iterations = 5,
    )

    private fun artifacts(dir: File, comparison: Comparison): File {
        File(dir, "compare.json").writeText(ComparisonOutput.json(comparison))
        File(
            dir,
            "compare.md",
        ).writeText(ComparisonOutput.markdown(comparison, "base.jar", "head.jar", "6 forks a side"))
        File(dir, "compare.log").writeText("compare: ...\n")
        File(dir, "build-head.log").writeText("")
        File(dir, "head-tree").mkdirs()
        return dir
    }

    /**
     * `forks/<name>.json`, one netty row; with [stacks], its collapsed profile and flamegraph under `profiles/`,
     * listed relative to the result file as the launcher writes them.
     */
    private fun fork(artifacts: File, name: String, stacks: String? = null) {
        val forks = File(artifacts, "forks").apply { mkdirs() }
        val listed = if (stacks == null) {
            ""
        } else {
            val profiles = File(artifacts, "profiles/$name/CpuBenchmark.direct/concurrency=64,server=netty")
            profiles.mkdirs()
            File(profiles, "cpu.collapsed").writeText(stacks)
            File(profiles, "cpu.html").writeText("<html></html>")
            val at = "../profiles/$name/CpuBenchmark.direct/concurrency=64,server=netty"
            """, "profiles": ["$at/cpu.html", "$at/cpu.collapsed"]"""
        }
        File(forks, "$name.json").writeText(
            """[{"benchmark": "serverbench.benchmarks.CpuBenchmark.direct", "mode": "thrpt", "jdkVersion": "21.0.5",
              |  "params": {"server": "netty", "concurrency": "64"},
              |  "primaryMetric": {"score": 8000, "scoreError": 10, "scoreUnit": "ops/s"},
              |  "secondaryMetrics": {}$listed}]
            """.trimMargin(),
        )
        File(forks, "$name.log").writeText("")
    }

    private val baseStacks = """
        Thread.run;Servlet.service;com/example/orders/OrderController.create;com/example/orders/Pricing.total 30
        Thread.run;Servlet.service;com/example/orders/OrderController.create;Jdbc.execute 40
        Thread.run;Servlet.service;Json.write 30
    """.trimIndent()
    private val headStacks = """
        Thread.run;Servlet.service;com/example/orders/OrderController.create;com/example/orders/Pricing.total 60
        Thread.run;Servlet.service;Json.write 40
    """.trimIndent()

    /** A Spring Boot exec jar in miniature: only its manifest matters here. */
    private fun serviceJar(dir: File): File {
        val manifest = Manifest().apply {
            mainAttributes[Attributes.Name.MANIFEST_VERSION] = "1.0"
            mainAttributes[Attributes.Name.MAIN_CLASS] = "org.springframework.boot.loader.launch.JarLauncher"
            mainAttributes.putValue("Start-Class", "com.example.orders.OrdersApplication")
        }
        val jar = File(dir, "orders.jar")
        JarOutputStream(jar.outputStream(), manifest).close()
        return jar
    }

    @Test
    fun `a marked row is a finding with its direction, and each side's top frames name the service's code`(
        @TempDir dir: File,
    ) {
        val artifacts = artifacts(File(dir, "artifacts").apply { mkdirs() }, comparison(0.93))
        fork(artifacts, "base-1")
        fork(artifacts, "base-2", baseStacks)
        fork(artifacts, "head-1", headStacks)
        val text = comment(
            artifacts,
            "--service-jar",
            serviceJar(dir).path,
            "--title",
            "serverbench (orders)",
            "--reproduce",
            "bin/serverbench-pr $base $head",
            "--run-url",
            "https://github.com/o/r/actions/runs/1",
        )
        val lines = text.lines()
        assertEquals("<!-- serverbench-pr -->", lines[0])
        assertEquals("## serverbench (orders): head `2222222` against base `1111111`", lines[1])
        assertEquals(listOf("", "`orders.http`", "", "### Findings", ""), lines.subList(2, 7))
        assertEquals("**1 of 6 rows marked:**", lines[7])
        val finding = lines.single { it.startsWith("- **") }
        assertTrue(
            finding.startsWith(
                "- **slower**: req/s of CpuBenchmark.direct (server=netty, concurrency=64): head ÷ base 0.93, " +
                    "95 % interval 0.9",
            ),
            finding,
        )
        assertTrue(finding.endsWith(", p 0.002"), finding)
        // compare's table, one heading level down.
        assertTrue(text.contains("\n### Comparison: head ÷ base"), text)
        assertFalse(text.contains("\n## Comparison"), text)

        val frames = text.substringAfter("\n### Where the time went, each side\n").substringBefore("\nArtifacts in")
        // base-1 has no profile: base's first profiled fork is base-2.
        assertTrue(
            frames.indexOf("\n#### base (`forks/base-2.json`)\n") in 0 until frames.indexOf("\n#### head"),
            frames,
        )
        assertTrue(frames.contains("\n#### head (`forks/head-1.json`)\n"), frames)
        assertTrue(frames.contains("\n##### Where the time went (cpu samples)\n"), frames)
        val own = frames.lines().filter { it.startsWith("Your code") }
        assertEquals(
            listOf(
                "Your code (`com.example`), total %: `OrderController.create` 70.0 · `Pricing.total` 30.0",
                "Your code (`com.example`), total %: `OrderController.create` 60.0 · `Pricing.total` 60.0",
            ),
            own,
        )
        assertTrue(
            frames.contains(
                "Flamegraphs in the run's artifact ([the workflow run](https://github.com/o/r/actions/runs/1)):\n\n" +
                    "- base (`forks/base-2.json`): " +
                    "`profiles/base-2/CpuBenchmark.direct/concurrency=64,server=netty/cpu.html`\n" +
                    "- head (`forks/head-1.json`): " +
                    "`profiles/head-1/CpuBenchmark.direct/concurrency=64,server=netty/cpu.html`\n",
            ),
            frames,
        )
        assertTrue(
            text.contains(
                "\nArtifacts in [the workflow run](https://github.com/o/r/actions/runs/1): `compare.json` (the " +
                    "verdict for tools), `compare.md` (the table), `forks/` (each fork's JMH results and log), " +
                    "`profiles/` (flamegraphs), `head-tree/` (the workload as sent), `build-head.log`, `compare.log` " +
                    "(its progress lines).\n",
            ),
            text,
        )
        val details = text.substringAfter("<details><summary>Machine, and the command that reproduces this</summary>")
        assertTrue(details.contains(" cores"), details)
        assertTrue(details.contains("- the forks' JDK, as JMH recorded it: 21.0.5\n"), details)
        assertTrue(details.contains("```sh\nbin/serverbench-pr $base $head\n```\n\n</details>\n"), details)
    }

    @Test
    fun `without a service jar a built-in benchmark's frames name no own code, and nothing marked says so`(
        @TempDir dir: File,
    ) {
        val artifacts = artifacts(dir, comparison(1.0))
        fork(artifacts, "base-1", baseStacks)
        fork(artifacts, "head-1", headStacks)
        val text = comment(artifacts)
        assertTrue(
            text.contains(
                "\n### Findings\n\n**No difference marked** in 6 rows. The *detectable* column says how small a " +
                    "change these forks could have shown.\n",
            ),
            text,
        )
        assertTrue(text.contains("\n#### head (`forks/head-1.json`)\n"), text)
        assertFalse(text.contains("Your code"), text)
        assertTrue(text.contains("Artifacts in `${dir.absoluteFile.normalize().path}`: "), text)
        assertFalse(text.contains("```sh"), "no --reproduce, no command: $text")
    }

    @Test
    fun `a live run's profiles give each side's top frames, their graphs and the differential graph`(
        @TempDir dir: File,
    ) {
        val artifacts = artifacts(dir, comparison(1.0))
        val profiles = File(artifacts, "forks/live-1/profiles")
        for ((side, stacks) in listOf("base" to baseStacks, "head" to headStacks)) {
            File(profiles, side).mkdirs()
            File(profiles, "$side/cpu.collapsed").writeText(stacks)
            File(profiles, "$side/cpu.html").writeText("<html></html>")
        }
        File(profiles, "cpu-diff.html").writeText("<html></html>")
        val text = comment(artifacts, "--service-jar", serviceJar(dir).path)
        assertTrue(text.contains("Every server sampled from the end of its warmup on (`-prof flame`)"), text)
        assertTrue(text.contains("\n**head, cpu samples (`forks/live-1/profiles/head/cpu.collapsed`)**: "), text)
        assertTrue(text.contains("\n**base, cpu samples (`forks/live-1/profiles/base/cpu.collapsed`)**: "), text)
        assertTrue(text.contains("Your code (`com.example`)"), text)
        for (graph in listOf("cpu-diff.html", "base/cpu.html", "head/cpu.html")) {
            assertTrue(text.contains("- `forks/live-1/profiles/$graph`\n"), text)
        }
        assertTrue(text.contains("each side's flamegraphs, `live-N/profiles/`"), text)
    }

    @Test
    fun `an interrupted run's folder gets a comment saying what is there`(@TempDir dir: File) {
        fork(dir, "base-1")
        val text = comment(dir)
        assertEquals("<!-- serverbench-pr -->", text.lines().first())
        assertTrue(
            text.contains(
                "\n### Findings\n\n**No comparison**: no benchmark completed on both sides; each fork's log is in " +
                    "the artifacts (`forks/`).\n",
            ),
            text,
        )
        assertFalse(text.contains("Where the time went"), text)
        assertTrue(text.contains(": `forks/` (each fork's JMH results and log).\n"), text)
        // A service jar the failed build did not leave costs only the "Your code" line: the comment is still written.
        val missingJar = comment(
            "--artifacts", dir.path, "--base", base, "--head", head, "--what", "x",
            "--service-jar", "/no/such.jar",
        )
        assertEquals(0, missingJar.status)
        assertTrue(missingJar.out.startsWith("<!-- serverbench-pr -->\n"), missingJar.out)
        assertEquals(
            "pr-comment: --service-jar /no/such.jar: no such file; the top frames name no own code",
            missingJar.err.trimEnd(),
        )
        // An empty verdict (no row on both sides) says the same.
        File(dir, "compare.json").writeText("[]\n")
        assertTrue(comment(dir).contains("**No comparison**"))
    }

    @Test
    fun `a comment that would pass GitHub's limit leaves the top frames out first, and says where they are`(
        @TempDir dir: File,
    ) {
        val artifacts = artifacts(dir, comparison(0.93))
        fork(artifacts, "base-1", baseStacks)
        fork(artifacts, "head-1", headStacks)
        val whole = comment(artifacts)
        val frames = whole.substringAfter("### Where the time went, each side").substringBefore("Artifacts in").length
        // A table that fits with the top frames left out, not with them.
        val room = 65_536 - whole.length + frames / 2
        val line = "| row |" + " x".repeat(45) + " |\n"
        File(artifacts, "compare.md").appendText("\n" + line.repeat(room / line.length) + "END\n")
        val text = comment(artifacts)
        assertTrue(text.length <= 65_536, "${text.length}")
        assertTrue(text.contains("\nEND\n"), "the table stays")
        assertFalse(text.contains("#### base"), "the top frames go")
        assertTrue(text.contains("### Where the time went, each side\n\nLeft out: with it this comment would pass"))
    }

    @Test
    fun `bad input is refused in one line naming the option, exit 2`(@TempDir dir: File) {
        fun refused(vararg args: String): String {
            val written = comment(*args)
            assertEquals(2, written.status, written.err)
            assertEquals("", written.out)
            assertEquals(1, written.err.trimEnd().lines().size, written.err)
            return written.err.trimEnd()
        }
        val rest = arrayOf("--base", base, "--head", head, "--what", "x")
        assertEquals("pr-comment: --artifacts DIR is missing: the run's artifacts", refused(*rest))
        assertEquals(
            "pr-comment: --artifacts /no/such/dir: no such directory",
            refused("--artifacts", "/no/such/dir", *rest),
        )
        assertEquals(
            "pr-comment: --head is missing: the head commit's sha",
            refused("--artifacts", dir.path, "--base", base, "--what", "x"),
        )
        assertEquals(
            "pr-comment: --base is missing: the base commit's sha",
            refused("--artifacts", dir.path, "--head", head, "--what", "x"),
        )
        assertTrue(refused("--artifacts", dir.path, "--nosuch", *rest).contains("nosuch"))
        assertTrue(refused("--artifacts", dir.path, *rest, "--title").contains("title"))
    }
}
