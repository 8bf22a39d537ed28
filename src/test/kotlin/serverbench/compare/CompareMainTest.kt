package serverbench.compare

import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.nio.file.Files
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** Bad input: one line naming the option and what it accepts, exit 2, nothing started, nothing written. */
class CompareMainTest {
    private fun refused(vararg args: String): String = refusedSaying(*args).lines().first()

    /** Everything a refused run said. */
    private fun refusedSaying(vararg args: String): String {
        val dir = Files.createTempDirectory("compare").toFile()
        val err = ByteArrayOutputStream()
        val status = Compare(PrintStream(ByteArrayOutputStream()), PrintStream(err)).run(
            arrayOf("--results", dir.path) + args,
        )
        val text = err.toString()
        assertEquals(2, status, text)
        assertEquals(0, dir.list()!!.size, "wrote ${dir.list()!!.toList()}")
        dir.delete()
        return text
    }

    @Test
    fun `bad input is refused in one line before anything runs`() {
        assertEquals("compare: the benchmark regex is missing", refused())
        assertEquals("compare: the benchmark regex is missing", refused("--forks", "3"))
        assertEquals("compare: -f: compare sets it for every fork itself; use --forks N", refused("Noop", "-f", "3"))
        assertEquals("compare: -rff: compare sets it for every fork itself", refused("Noop", "-rff", "x.json"))
        assertEquals("compare: --base-jar /no/such.jar: no such file", refused("--base-jar", "/no/such.jar", "Noop"))
        assertTrue(
            refused(
                "--base-jar",
                "pom.xml",
                "--head-jar",
                "pom.xml",
                "--head-java",
                "/no/jdk",
                "Noop",
            ).startsWith("compare: --head-java /no/jdk: not a java executable"),
        )
        assertTrue(refused("--nosuch", "Noop").contains("nosuch"))
        assertTrue(refused("--mode", "forks", "--forks", "many", "Noop").contains("many"))
        for (p in listOf("0", "0%", "100%", "two", "-3%")) {
            assertEquals(
                "compare: --precision $p: a per cent above 0 and below 100, such as 2%",
                refused("--mode", "forks", "--precision", p, "Noop"),
            )
            assertEquals(
                "compare: --precision $p: a per cent above 0 and below 100, such as 1%",
                refused("--precision", p, "Noop"),
            )
        }
        for (b in listOf("soon", "15", "-1m", "15 minutes")) {
            assertEquals(
                "compare: --budget $b: a duration such as 15m, 900s or 1h; 0 runs exactly --forks",
                refused("--mode", "forks", "--budget", b, "Noop"),
            )
            assertEquals("compare: --budget $b: a duration such as 9m", refused("--budget", b, "Noop"))
        }
    }

    @Test
    fun `a live comparison refuses in one line what it cannot run, before any server starts`() {
        val jars = arrayOf("--base-jar", "pom.xml", "--head-jar", "pom.xml")
        assertEquals(
            "compare: --mode sometimes: live (every side at once, interleaved windows) or forks",
            refused("--mode", "sometimes", "Noop"),
        )
        assertEquals(
            "compare: --forks is for --mode forks; a live run has --pairs and --budget",
            refused(*jars, "--forks", "6", "NoopBenchmark.hello$"),
        )
        assertEquals(
            "compare: --pairs 0: 1 or more server processes a side (default 6)",
            refused("--pairs", "0", "NoopBenchmark"),
        )
        assertEquals(
            "compare: --at-once 0: 1 or more pairs live at a time (default 2)",
            refused("--at-once", "0", "NoopBenchmark"),
        )
        assertEquals("compare: --window 0s: a duration such as 1s", refused("--window", "0s", "NoopBenchmark"))
        // -prof flame profiles the live servers; its options for one fork's iterations are refused, as others are.
        assertEquals(
            "compare: flame: overhead is for fork by fork (--mode forks); a live comparison takes event, interval " +
                "and cstack",
            refused(*jars, "--mode", "live", "NoopBenchmark.hello$", "-prof", "flame:overhead"),
        )
        assertTrue(
            refused(*jars, "NoopBenchmark.hello$", "-prof", "flame:event=bogus")
                .startsWith("compare: flame: event must be one of cpu, wall"),
        )
        assertEquals(
            "compare: -prof gc: a live comparison profiles its servers with flame only; --mode forks runs JMH's",
            refused(*jars, "--mode", "live", "NoopBenchmark.hello$", "-prof", "gc"),
        )
        // A live -prof flame takes no --forks.
        assertEquals(
            "compare: --forks is for --mode forks; a live run has --pairs and --budget",
            refused(*jars, "--forks", "4", "NoopBenchmark.hello$", "-prof", "flame"),
        )
        // Without --mode, another profiler measures fork by fork (which takes --forks), and says so first.
        val profiled = refusedSaying(*jars, "--forks", "3", "NoopBenchmark.hello$", "-prof", "gc").lines()
        assertEquals(
            "compare: -prof gc: a live comparison profiles its servers with flame only: fork by fork (--mode forks)",
            profiled[0],
        )
        assertTrue(profiled[1].startsWith("compare: --forks 3: must be even"), profiled[1])
        assertTrue(
            refused(*jars, "--mode", "live", "NoopBenchmark.hello$", "-p", "server=netty", "-p", "tls=true").endsWith(
                "a live comparison drives kept-alive HTTP/1.1 connections in a closed loop, not TLS (-p tls=true); " +
                    "--mode forks",
            ),
        )
        // Without --mode, what live cannot measure (TLS here; a team's own @ServerEndpoints, whose server runs inside
        // the JMH fork: LiveTargetTest) runs fork by fork, said first, and takes --forks.
        val said = refusedSaying(*jars, "--forks", "3", "NoopBenchmark.hello$", "-p", "server=netty", "-p", "tls=true")
        assertTrue(said.lines()[0].endsWith("not TLS (-p tls=true): fork by fork (--mode forks)"), said)
        assertTrue(said.lines()[1].startsWith("compare: --forks 3: must be even"), said)
        assertTrue(refused(*jars, "NoopBenchmark.hello$", "-p", "concurrency=zero").contains("concurrency"))
        assertEquals(
            "compare: no benchmark matches 'NoSuchBenchmark' on both sides",
            refused(*jars, "NoSuchBenchmark"),
        )
    }

    @Test
    fun `--forks takes only counts the test can mark with and the order can balance, 4, 6, 8 and on`() {
        for (forks in listOf("1", "2", "3", "5", "7")) {
            assertEquals(
                "compare: --forks $forks: must be even and 4 or more (4, 6, 8, …; default 6): fewer can never mark " +
                    "a row, an odd count cannot cancel a steady drift",
                refused("--mode", "forks", "--forks", forks, "NoopBenchmark"),
            )
        }
    }

    @Test
    fun `a side's parameter with several values, or given after the regex too, is refused - it would pool rows`() {
        val jars = arrayOf("--base-jar", "pom.xml", "--head-jar", "pom.xml")
        assertEquals(
            "compare: --base-args -p limit=1000,10000: one value a side (several would pool into one row); run " +
                "compare once per value",
            refused(*jars, "--base-args", "-p limit=1000,10000", "--head-args", "-p limit=10500", "Cpu"),
        )
        assertEquals(
            "compare: --head-args -p limit=10,20: one value a side (several would pool into one row); run compare " +
                "once per value",
            refused(*jars, "--head-args", "-plimit=10 -XX:+UseZGC -p limit=20", "Cpu"),
        )
        assertEquals(
            "compare: --head-args -p limit: also given after the regex; give it to each side only",
            refused(*jars, "--head-args", "-p limit=10500", "Cpu", "-plimit=10000"),
        )
    }

    @Test
    fun `a side's service is refused in one line when it names no jar, or a port or address compare sets`() {
        val jars = arrayOf("--base-jar", "pom.xml", "--head-jar", "pom.xml")
        assertEquals(
            "compare: --head-serve '--postgres': needs --jar path/to/service.jar",
            refused(*jars, "--head-serve", "--postgres", "Noop"),
        )
        assertEquals(
            "compare: --base-serve: --jar /no/such.jar: no such file",
            refused(*jars, "--base-serve", "--jar /no/such.jar", "Noop"),
        )
        for (own in listOf("--port 8080", "--admin-port=9001", "--bind 0.0.0.0", "--log x.log")) {
            assertEquals(
                "compare: --base-serve: ${own.split(' ').first()} is compare's to set (each fork's service listens " +
                    "on free loopback ports)",
                refused(*jars, "--base-serve", "--jar pom.xml $own", "Noop"),
            )
        }
        // After `--` the arguments are the application's own, which serve itself checks.
        assertEquals(
            "compare: --head-serve and -Dserverbench.target: each fork of a serving side drives its own service",
            refused(*jars, "--head-serve", "--jar pom.xml -- --port=1", "Noop", "-Dserverbench.target=127.0.0.1:8080"),
        )
    }

    @Test
    fun `help prints the usage and exits 0`() {
        val out = ByteArrayOutputStream()
        assertEquals(0, Compare(PrintStream(out), PrintStream(ByteArrayOutputStream())).run(arrayOf("--help")))
        assertTrue(out.toString().startsWith("usage: scripts/compare"))
        assertTrue(File("scripts/compare").canExecute())
    }
}
