package serverbench.benchmarks

import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.app.DatabaseClients
import serverbench.app.DatabaseSchema
import serverbench.fixture.BundledPostgres
import serverbench.fixture.PostgresServer
import serverbench.testing.deleteResults
import serverbench.testing.killWithDescendants
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.nio.file.Files
import java.sql.DriverManager
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * The database family through the jar, on the PostgreSQL it starts itself: it measures, it fails with one line when
 * the database goes down or its pool stays exhausted, it runs on a database of the user's own instead of starting
 * one, and no PostgreSQL process or data directory outlives a completed, a failed or a killed run.
 */
@Full
class DatabaseIT {
    private val tiny = arrayOf("-f", "1", "-wi", "0", "-i", "2", "-r", "1s")
    private val tmp = File(System.getProperty("java.io.tmpdir"))
    private val trialDir = Regex("""serverbench-pg-\d+-.+""")

    /** PostgreSQL data directories of trials, and postgres processes serving one. */
    private fun leftovers(): Set<String> {
        val dirs = tmp.listFiles().orEmpty().filter { trialDir.matches(it.name) }.map { it.path }
        val processes = ProcessHandle.allProcesses().toList().filter { p ->
            p.info().commandLine().orElse("").let { it.contains("serverbench-pg-") && it.contains("/bin/postgres") }
        }.map { "postgres ${it.pid()}" }
        return (dirs + processes).toSet()
    }

    @Test
    fun `both drivers measure on a real PostgreSQL, with the pool's wait, and leave nothing behind`() {
        BundledPostgres.assume()
        val before = leftovers()
        val json = Files.createTempFile("db", ".json").toFile()
        try {
            val run = Jar.run(
                "DatabaseBenchmark.(jdbc|r2dbc)$", "-p", "query=nextval", "-p", "concurrency=8", *tiny,
                "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            val rows = JsonMapper.builder().build().readTree(json)
            assertEquals(4, rows.size(), "jdbc and r2dbc on both stacks")
            for (row in rows) {
                val secondary = row["secondaryMetrics"]
                assertTrue(row["primaryMetric"]["score"].asDouble() > 0, row.toString())
                assertTrue(secondary.has("db.poolWait.mean"), secondary.toString())
                assertEquals(0.0, secondary["errors"]["score"].asDouble(), row.toString())
            }
            assertEquals(before, leftovers(), "nothing of the trials' PostgreSQL remains")
        } finally {
            deleteResults(json)
        }
    }

    @Test
    fun `a database that goes down mid-run fails the run with one line naming it, and nothing remains`() {
        BundledPostgres.assume()
        val before = leftovers()
        val run = Jar.run(
            "DatabaseBenchmark.jdbc$", "-p", "server=tomcat", "-p", "query=nextval", "-p", "concurrency=8",
            "-f", "1", "-wi", "0", "-i", "3", "-r", "2s",
            jvmArgs = listOf("-Dserverbench.warmup=off", "-D${DatabaseSelfChecks.STOP_AFTER_PROPERTY}=1500"),
        )
        assertEquals(1, run.exitCode, run.toString())
        assertTrue(run.stdout.contains("self-check: stopping PostgreSQL"), run.toString())
        assertTrue(run.stderr.contains("database query failed"), run.toString())
        assertEquals(before, leftovers(), "nothing of the trial's PostgreSQL remains")
    }

    @Test
    fun `a killed launcher leaves no PostgreSQL behind`() {
        BundledPostgres.assume()
        val before = leftovers()
        val started = Jar.start("DatabaseBenchmark.r2dbc$", "-p", "server=netty", "-p", "query=insert", *tiny)
        val process = started.process
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            while (!started.out.readText().contains("schema ready")) {
                assertTrue(process.isAlive && System.nanoTime() < deadline, started.out.readText().takeLast(4000))
                Thread.sleep(50)
            }
            assertFalse(leftovers() == before, "a trial's PostgreSQL runs")
            val family = process.descendants().toList()
            process.destroyForcibly()
            assertTrue(process.waitFor(30, TimeUnit.SECONDS))
            family.forEach { it.onExit().get(30, TimeUnit.SECONDS) }
            // The fork stops its PostgreSQL before it halts; give the postmaster a moment to exit.
            val end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
            while (leftovers() != before && System.nanoTime() < end) Thread.sleep(100)
            assertEquals(before, leftovers(), "nothing of the trial's PostgreSQL remains")
        } finally {
            killWithDescendants(process)
        }
    }

    @Test
    fun `a pool that stays exhausted past the client's timeout fails the run with one line naming the pool`() {
        BundledPostgres.assume()
        val before = leftovers()
        // A 5 s client timeout: the pools give up after 4.5 s. 1 s into the load a session locks the sequence for
        // 7 s: both pooled connections wait inside PostgreSQL, the other 6 requests wait for the pool and get the
        // pool's 503 about 0.5 s before the first two time out at the client.
        val run = Jar.run(
            "DatabaseBenchmark.(jdbc|r2dbc)$", "-p", "server=tomcat", "-p", "query=nextval", "-p", "concurrency=8",
            "-p", "dbPool=2", "-f", "1", "-wi", "0", "-i", "5", "-r", "2s",
            jvmArgs = listOf(
                "-Dserverbench.warmup=off",
                "-Dserverbench.timeoutMs=5000",
                "-D${DatabaseSelfChecks.LOCK_AFTER_PROPERTY}=1000",
            ),
        )
        assertEquals(1, run.exitCode, run.toString())
        assertTrue(run.stdout.contains("self-check: 'alter sequence"), run.toString())
        // The launcher's summary: one line, "DatabaseBenchmark.<variant> (<params>): <failure>" per failed run.
        val summary = run.stderr.lines().first { it.contains("benchmark runs failed") }
        for (variant in listOf("jdbc", "r2dbc")) {
            val failure = summary.substringAfter("DatabaseBenchmark.$variant (").substringBefore("; DatabaseBenchmark.")
            assertTrue(failure.contains("/db/$variant?q=nextval"), summary)
            assertTrue(failure.contains("connection pool exhausted: all 2 busy for 4500 ms (raise -p dbPool)"), summary)
        }
        assertEquals(before, leftovers(), "nothing of the trials' PostgreSQL remains")
    }

    @Test
    fun `a database named by serverbench_db_url is used instead of one of its own`() {
        BundledPostgres.assume()
        PostgresServer.start().use { own ->
            val before = leftovers()
            val run = Jar.run(
                "DatabaseBenchmark.(jdbc|r2dbc)$", "-p", "server=netty", "-p", "query=nextval", "-p", "concurrency=4",
                *tiny,
                jvmArgs = listOf(
                    "-D${DatabaseClients.URL_PROPERTY}=${own.jdbcUrl}",
                    "-D${DatabaseClients.USER_PROPERTY}=${PostgresServer.USER}",
                ),
            )
            assertEquals(0, run.exitCode, run.toString())
            assertEquals(
                2,
                Regex("the database at ${Regex.escape(own.jdbcUrl)}, schema ready").findAll(run.stdout).count(),
                run.stdout,
            )
            assertFalse(run.stdout.contains("PostgreSQL on port"), "started no PostgreSQL of its own: $run")
            assertEquals(before, leftovers(), "nothing of a PostgreSQL of its own")
            // The queries went to this database: its sequence moved.
            DriverManager.getConnection(own.jdbcUrl, PostgresServer.USER, "").use { c ->
                c.createStatement().executeQuery("select last_value from ${DatabaseSchema.SEQUENCE}").use { r ->
                    assertTrue(r.next() && r.getLong(1) > 100, "the sequence moved")
                }
            }
        }
        val closed = java.net.ServerSocket(0).use { it.localPort }
        val url = "jdbc:postgresql://127.0.0.1:$closed/none"
        val run = Jar.run(
            "DatabaseBenchmark.jdbc$",
            "-p",
            "server=netty",
            "-p",
            "query=nextval",
            *tiny,
            jvmArgs = listOf("-D${DatabaseClients.URL_PROPERTY}=$url"),
        )
        assertEquals(1, run.exitCode, run.toString())
        assertTrue(run.stderr.contains("the database at $url could not be set up"), run.toString())
    }
}
