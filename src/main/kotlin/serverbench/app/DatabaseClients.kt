package serverbench.app

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import io.r2dbc.pool.ConnectionPool
import io.r2dbc.pool.ConnectionPoolConfiguration
import io.r2dbc.spi.Connection
import io.r2dbc.spi.ConnectionFactory
import io.r2dbc.spi.R2dbcTimeoutException
import io.r2dbc.spi.Row
import io.r2dbc.spi.RowMetadata
import org.reactivestreams.Publisher
import org.springframework.r2dbc.core.DatabaseClient
import reactor.core.publisher.Mono
import reactor.pool.PoolMetricsRecorder
import serverbench.params.ParamValues
import java.sql.SQLTransientConnectionException
import java.time.Duration
import java.util.concurrent.ThreadLocalRandom

/**
 * The database family's two clients, each the one users run, both sized [poolSize] (minimum = maximum, so no request
 * pays for opening a connection): JDBC through HikariCP, and R2DBC through r2dbc-pool and Spring's [DatabaseClient].
 * Each pool opens on first use, so a run opens only the one its variant needs. Without a [url] (every other family)
 * nothing is created and the database endpoints answer 503. A request that waits [acquireTimeout] for a connection
 * fails with [PoolExhausted].
 */
class DatabaseClients(
    private val url: String?,
    private val user: String,
    private val password: String,
    private val poolSize: Int,
    private val acquireTimeout: Duration = DEFAULT_ACQUIRE_TIMEOUT,
) : AutoCloseable {
    enum class Query(val id: String) {
        NEXTVAL(ParamValues.NEXTVAL),
        SELECT_BY_ID(ParamValues.SELECT_BY_ID),
        INSERT(ParamValues.INSERT),
        ;

        companion object {
            val ids = entries.map { it.id }

            fun of(id: String) = entries.firstOrNull { it.id == id }
        }
    }

    val configured get() = url != null

    /** The pools opened so far ("jdbc", "r2dbc"): none for a run that never queried. */
    val opened get() = listOfNotNull("jdbc".takeIf { hikari.isInitialized() }, "r2dbc".takeIf { pool.isInitialized() })

    private val hikari = lazy {
        HikariDataSource(
            HikariConfig().also {
                it.jdbcUrl = url
                it.username = user
                it.password = password
                it.maximumPoolSize = poolSize
                it.minimumIdle = poolSize
                it.poolName = "serverbench-jdbc"
                it.connectionTimeout = acquireTimeout.toMillis()
            },
        )
    }

    private val pool = lazy {
        val factory = PostgresConnections.r2dbc(url!!, user, password)
        ConnectionPool(
            ConnectionPoolConfiguration.builder(factory).initialSize(poolSize).maxSize(poolSize)
                .maxAcquireTime(acquireTimeout).metricsRecorder(QueueWaits)
                // No second try after a timed-out acquire (r2dbc-pool's default is one): it waits as HikariCP does.
                .acquireRetry(0).build(),
        )
    }

    private val r2dbcClient by lazy { DatabaseClient.create(TimedAcquire(pool.value, ::exhausted)) }

    /** Runs [query] over JDBC on the calling thread; returns the response body. */
    fun jdbc(query: Query): String {
        val sql = when (query) {
            Query.NEXTVAL -> "select nextval('${DatabaseSchema.SEQUENCE}')"
            Query.SELECT_BY_ID -> "select name from ${DatabaseSchema.USER_TABLE} where id = ?"
            Query.INSERT -> "insert into ${DatabaseSchema.INSERT_TABLE} (user_id) values (?) returning id"
        }
        val start = System.nanoTime()
        val connection = try {
            hikari.value.connection
        } catch (e: SQLTransientConnectionException) {
            PoolWait.record(System.nanoTime() - start)
            // Without a cause, HikariCP timed out with every connection busy; with one, the database failed.
            throw if (e.cause == null) exhausted() else e
        }
        return connection.use { c ->
            PoolWait.record(System.nanoTime() - start)
            c.prepareStatement(sql).use { s ->
                if (query != Query.NEXTVAL) s.setInt(1, randomUser())
                s.executeQuery().use { r ->
                    check(r.next()) { "$sql returned no row" }
                    r.getString(1)
                }
            }
        }
    }

    /** Runs [query] over R2DBC; the body when it completes. */
    fun r2dbc(query: Query): Mono<String> {
        val client = r2dbcClient
        val spec = when (query) {
            Query.NEXTVAL -> client.sql("select nextval('${DatabaseSchema.SEQUENCE}')")

            Query.SELECT_BY_ID ->
                client.sql("select name from ${DatabaseSchema.USER_TABLE} where id = :id").bind("id", randomUser())

            Query.INSERT -> client.sql("insert into ${DatabaseSchema.INSERT_TABLE} (user_id) values (:id) returning id")
                .bind("id", randomUser())
        }
        return spec.map { row: Row, _: RowMetadata -> row.get(0).toString() }.one()
    }

    private fun exhausted() = PoolExhausted(poolSize, acquireTimeout)

    private fun randomUser() = ThreadLocalRandom.current().nextInt(1, DatabaseSchema.USERS + 1)

    override fun close() {
        try {
            if (pool.isInitialized()) pool.value.disposeLater().block(Duration.ofSeconds(10))
        } finally {
            if (hikari.isInitialized()) hikari.value.close()
        }
    }

    /**
     * r2dbc-pool's whole acquire, from asking to holding the connection on its event loop, timed into [PoolWait]
     * (which takes the queue's share from [QueueWaits]); its acquire timeout becomes [PoolExhausted].
     */
    private class TimedAcquire(private val pool: ConnectionFactory, private val exhausted: () -> PoolExhausted) :
        ConnectionFactory {
        override fun create(): Publisher<out Connection> = Mono.defer {
            val start = System.nanoTime()
            Mono.from(pool.create()).doOnNext { PoolWait.handedOver(System.nanoTime() - start) }
                .onErrorMap(R2dbcTimeoutException::class.java) {
                    PoolWait.record(System.nanoTime() - start)
                    exhausted()
                }
        }

        override fun getMetadata() = pool.metadata
    }

    /** reactor-pool's time in its queue of pending acquires: the R2DBC share of [PoolWait] that is a wait. */
    private object QueueWaits : PoolMetricsRecorder {
        override fun recordPendingSuccessAndLatency(latencyMs: Long) = PoolWait.queued(latencyMs * 1_000_000)

        override fun recordAllocationSuccessAndLatency(latencyMs: Long) = Unit

        override fun recordAllocationFailureAndLatency(latencyMs: Long) = Unit

        override fun recordResetLatency(latencyMs: Long) = Unit

        override fun recordDestroyLatency(latencyMs: Long) = Unit

        override fun recordRecycled() = Unit

        override fun recordLifetimeDuration(millisecondsSinceAllocation: Long) = Unit

        override fun recordIdleTime(millisecondsIdle: Long) = Unit

        override fun recordSlowPath() = Unit

        override fun recordFastPath() = Unit
    }

    /**
     * Every connection of the pool stayed busy for as long as a request may wait for one: the pool, not the stack, is
     * the limit. No cause, and short, so the client's one failure line (which quotes 80 bytes of a body) holds it all.
     */
    class PoolExhausted(poolSize: Int, waited: Duration) :
        RuntimeException("connection pool exhausted: all $poolSize busy for ${waited.toMillis()} ms (raise -p dbPool)")

    companion object {
        const val URL_PROPERTY = "serverbench.db.url"
        const val USER_PROPERTY = "serverbench.db.user"
        const val PASSWORD_PROPERTY = "serverbench.db.password"
        const val POOL_PROPERTY = "serverbench.db.pool"

        /** How long a request waits for a pooled connection; HikariCP's own default, 30 s, when not set. */
        const val ACQUIRE_TIMEOUT_PROPERTY = "serverbench.db.acquireTimeoutMs"

        /** HikariCP's own default connection timeout. */
        val DEFAULT_ACQUIRE_TIMEOUT: Duration = Duration.ofSeconds(30)

        /** HikariCP's own default pool size, used for both pools. */
        const val DEFAULT_POOL = 10
    }
}
