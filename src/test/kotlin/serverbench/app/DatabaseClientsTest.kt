package serverbench.app

import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import reactor.core.publisher.Flux
import serverbench.app.DatabaseClients.Query
import serverbench.fixture.BundledPostgres
import serverbench.fixture.PostgresServer
import java.sql.DriverManager
import java.time.Duration
import java.util.concurrent.TimeUnit

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseClientsTest {
    private lateinit var pg: PostgresServer

    @BeforeAll
    fun start() {
        BundledPostgres.assume()
        pg = PostgresServer.start()
        DriverManager.getConnection(pg.jdbcUrl, PostgresServer.USER, "").use { DatabaseSchema.create(it) }
    }

    @AfterAll
    fun stop() {
        if (::pg.isInitialized) pg.close()
    }

    private fun clients(pool: Int) = DatabaseClients(pg.jdbcUrl, PostgresServer.USER, "", pool)

    private fun DatabaseClients.r2dbcAtOnce(query: Query, n: Int) =
        Flux.merge((1..n).map { r2dbc(query) }).collectList().toFuture()

    @Test
    fun `an R2DBC request with a connection to spare waits for none, and its hand-over is timed apart`() {
        clients(pool = 3).use { db ->
            db.r2dbcAtOnce(Query.NEXTVAL, 3).get(30, TimeUnit.SECONDS)
            PoolWait.reset()
            // One at a time: a connection may still be on its way back to the pool when the next request asks (a
            // real, short wait the figure counts), but two of three are always free.
            repeat(20) { db.r2dbc(Query.NEXTVAL).block(Duration.ofSeconds(30)) }
            val wait = PoolWait.snapshot()
            assertEquals(20, wait.acquires)
            assertEquals(0, wait.maxNanos, "no acquire queued with a connection to spare")
            assertTrue(wait.handoverMeanNanos!! > 0, "the hand-over onto the connection's event loop takes some time")
        }
    }

    @Test
    fun `an R2DBC request queued behind a busy pool waits as long as the connection stays busy`() {
        clients(pool = 1).use { db ->
            db.r2dbc(Query.INSERT).block(Duration.ofSeconds(30))
            PoolWait.reset()
            DriverManager.getConnection(pg.jdbcUrl, PostgresServer.USER, "").use { lock ->
                lock.autoCommit = false
                // The first insert takes the only connection and waits for the lock; the second waits for the pool.
                lock.createStatement().use { it.execute("lock table ${DatabaseSchema.INSERT_TABLE}") }
                val both = db.r2dbcAtOnce(Query.INSERT, 2)
                Thread.sleep(600)
                lock.rollback()
                assertEquals(2, both.get(30, TimeUnit.SECONDS)!!.size)
            }
            val wait = PoolWait.snapshot()
            assertEquals(2, wait.acquires)
            assertTrue(wait.maxNanos >= 500_000_000, "the queued acquire waited for the lock: ${wait.maxNanos} ns")
            assertTrue(wait.meanNanos >= 250_000_000, "one of two acquires waited: ${wait.meanNanos} ns")
        }
    }

    @Test
    fun `a JDBC request waits for a connection only while the pool has none free`() {
        clients(pool = 2).use { db ->
            db.jdbc(Query.NEXTVAL)
            PoolWait.reset()
            repeat(20) { db.jdbc(Query.NEXTVAL) }
            val wait = PoolWait.snapshot()
            assertEquals(20, wait.acquires)
            assertTrue(wait.maxNanos < 1_000_000_000, "a free connection is taken at once: ${wait.maxNanos} ns")
            assertEquals(null, wait.handoverMeanNanos, "HikariCP hands the connection over on the caller's thread")
        }
    }
}
