package serverbench.benchmarks

import serverbench.app.DatabaseClients
import serverbench.app.DatabaseSchema
import serverbench.client.Properties
import serverbench.fixture.PostgresServer
import serverbench.fixture.ThreadRoles
import java.sql.DriverManager
import java.sql.SQLException
import java.time.Duration

/**
 * The database family's self-checks, each started once, when the trial's first iteration (or warmup window) starts,
 * so a test sees the run fail the way a user's would:
 * - `-Dserverbench.db.stopAfterMs=N`: the trial's own PostgreSQL stops N ms into the load (the database goes down);
 * - `-Dserverbench.db.lockAfterMs=N`: N ms into the load, a session of its own locks what the query uses for
 *   [hold], so every pooled connection waits inside PostgreSQL and the requests behind them wait for the pool
 *   beyond the pool's acquire timeout (pool exhaustion, as a long transaction or a leak causes it).
 */
internal class DatabaseSelfChecks(
    private val postgres: PostgresServer?,
    private val database: Map<String, Any>,
    private val query: DatabaseClients.Query,
    private val hold: Duration,
) {
    private val threads = mutableListOf<Thread>()
    private var started = false

    // Read when the trial starts, so a bad value fails it before any load.
    private val stopAfter = Properties.long(STOP_AFTER_PROPERTY, min = 0, unit = "ms")
    private val lockAfter = Properties.long(LOCK_AFTER_PROPERTY, min = 0, unit = "ms")

    fun start() {
        if (started) return
        started = true
        if (stopAfter != null && postgres != null) {
            after("stop", stopAfter) {
                println("serverbench: self-check: stopping PostgreSQL (pid ${postgres.pid}) under load")
                postgres.close()
            }
        }
        if (lockAfter != null) {
            after("lock", lockAfter) {
                try {
                    lockAndHold()
                } catch (e: SQLException) {
                    println("serverbench: self-check: could not lock for ${query.id}: ${e.message}")
                }
            }
        }
    }

    fun stop() {
        threads.forEach { it.interrupt() }
        threads.forEach { it.join(5_000) }
        threads.clear()
    }

    private fun lockAndHold() {
        val sql = lockStatement(query)
        DriverManager.getConnection(
            database[DatabaseClients.URL_PROPERTY] as String,
            database[DatabaseClients.USER_PROPERTY] as String,
            database[DatabaseClients.PASSWORD_PROPERTY] as String,
        ).use { c ->
            c.autoCommit = false
            c.createStatement().use { it.execute(sql) }
            println("serverbench: self-check: '$sql' holds every ${query.id} query for ${hold.toMillis()} ms")
            try {
                Thread.sleep(hold.toMillis())
            } finally {
                c.rollback()
            }
        }
    }

    private fun after(what: String, millis: Long, action: () -> Unit) {
        threads += Thread({
            try {
                Thread.sleep(millis)
                action()
            } catch (e: InterruptedException) {
                // the trial ended first
            }
        }, "${ThreadRoles.SELF_CHECK_PREFIX}$what").apply {
            isDaemon = true
            start()
        }
    }

    companion object {
        const val STOP_AFTER_PROPERTY = "serverbench.db.stopAfterMs"
        const val LOCK_AFTER_PROPERTY = "serverbench.db.lockAfterMs"

        /**
         * A statement that, in an open transaction, makes [query] wait: LOCK TABLE takes no sequence, and ALTER
         * SEQUENCE's ShareRowExclusiveLock conflicts with nextval's RowExclusiveLock.
         */
        fun lockStatement(query: DatabaseClients.Query) = when (query) {
            DatabaseClients.Query.NEXTVAL -> "alter sequence ${DatabaseSchema.SEQUENCE} cache 1"
            DatabaseClients.Query.SELECT_BY_ID -> "lock table ${DatabaseSchema.USER_TABLE} in access exclusive mode"
            DatabaseClients.Query.INSERT -> "lock table ${DatabaseSchema.INSERT_TABLE} in access exclusive mode"
        }
    }
}
