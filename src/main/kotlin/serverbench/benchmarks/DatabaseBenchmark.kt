package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.DatabaseClients
import serverbench.app.DatabaseSchema
import serverbench.app.PoolWait
import serverbench.client.BodyCheck
import serverbench.client.BodyShape
import serverbench.client.LoadGroup
import serverbench.client.Request
import serverbench.fixture.PostgresServer
import serverbench.metrics.Figure
import serverbench.metrics.MetricCatalogue
import serverbench.params.ParamValues
import java.sql.DriverManager
import java.sql.SQLException
import java.time.Duration

/**
 * The database family: one query on a real PostgreSQL (started per trial from the bundled binaries, or the one
 * `-Dserverbench.db.url` names), run the ways Spring Boot services run it (see [serverbench.app.DatabaseEndpoints]):
 * JDBC on the request thread, offloaded, on virtual threads or in coroutines, or R2DBC end to end. Which stack and
 * which driver, and when is the pool the limit? Both pools hold `dbPool` connections (minimum = maximum).
 *
 * `nextval` and `insert` answer a new number each time: validated as a positive integer larger than the previous
 * answer on the same connection; `selectById` as `user-<id>` of a row that exists. `db.poolWait.*` says how long
 * requests waited for a free connection; `db.handover.mean` (R2DBC) how long a free one took to reach the request.
 *
 * Run: `java -jar target/benchmarks.jar DatabaseBenchmark -p query=nextval -p concurrency=50`
 */
@State(Scope.Benchmark)
class DatabaseBenchmark : TunableHttpBenchmark() {

    @Param("nextval", "selectById", "insert")
    var query: String = ""

    /** Connections in the variant's pool (HikariCP's default size, 10). */
    @Param("10")
    var dbPool: Int = 0

    private var postgres: PostgresServer? = null
    private var selfChecks: DatabaseSelfChecks? = null

    override fun request(variant: String): Request {
        val path = "/db/$variant?q=$query"
        return if (query == "selectById") {
            Request(path, "user-<id> for an id from 1 to ${DatabaseSchema.USERS}", userName)
        } else {
            Request(path, "a number larger than the connection's previous answer", BodyShape.increasingNumber)
        }
    }

    override val inProcessOnly = "its PostgreSQL is started per trial next to the server this JVM starts"

    override fun serverProperties(): Map<String, Any> = super.serverProperties() + buildMap<String, Any> {
        put(DatabaseClients.POOL_PROPERTY, dbPool)
        // The pool gives up a little before the client does, so a run the pool starves fails with the pool's own
        // message (PoolExhausted) rather than with bare timeouts.
        put(DatabaseClients.ACQUIRE_TIMEOUT_PROPERTY, acquireTimeout().toMillis())
        if (variant == "jdbcVirtual") put("spring.threads.virtual.enabled", "true")
    }

    /** PostgreSQL is never inside the server's CPU budget: under one it runs in a group of its own (PostgresServer). */
    override fun startDependencies(): Map<String, Any> {
        require(query in DatabaseClients.Query.ids) {
            "query must be one of ${DatabaseClients.Query.ids.joinToString()}, was '$query'"
        }
        require(dbPool in 1..MAX_POOL) { "dbPool must be an integer from 1 to $MAX_POOL, was $dbPool" }
        val external = System.getProperty(DatabaseClients.URL_PROPERTY)
        val url = external ?: PostgresServer.start().also { postgres = it }.jdbcUrl
        val user = System.getProperty(DatabaseClients.USER_PROPERTY) ?: PostgresServer.USER
        val password = System.getProperty(DatabaseClients.PASSWORD_PROPERTY) ?: ""
        try {
            DriverManager.getConnection(url, user, password).use { DatabaseSchema.create(it) }
        } catch (e: SQLException) {
            throw IllegalStateException("the database at $url could not be set up: ${e.message}", e)
        }
        val where = if (external != null) {
            "the database at $external"
        } else {
            "PostgreSQL on port ${postgres!!.port}" +
                (postgres!!.placement?.let { " (outside the CPU budget, $it)" } ?: "")
        }
        println(
            "serverbench: $where, schema ready; pool of $dbPool connections, " +
                "acquire timeout ${acquireTimeout().toMillis()} ms",
        )
        val database = mapOf<String, Any>(
            DatabaseClients.URL_PROPERTY to url,
            DatabaseClients.USER_PROPERTY to user,
            DatabaseClients.PASSWORD_PROPERTY to password,
        )
        val hold = clientSettings().timeout.plusSeconds(2)
        selfChecks = DatabaseSelfChecks(postgres, database, DatabaseClients.Query.of(query)!!, hold)
        return database
    }

    /** 90 % of the client's timeout (30 s by default, HikariCP's own default too), at least HikariCP's 250 ms. */
    private fun acquireTimeout(): Duration = clientSettings().timeout.multipliedBy(9).dividedBy(10)
        .coerceAtLeast(Duration.ofMillis(250))

    override fun stopDependencies() {
        selfChecks?.stop()
        selfChecks = null
        postgres?.close()
        postgres = null
    }

    override fun iterationStarted(client: LoadGroup) {
        PoolWait.reset()
        selfChecks?.start()
    }

    override fun iterationFigures(): List<Figure> {
        val wait = PoolWait.snapshot()
        return listOfNotNull(
            Figure(MetricCatalogue.POOL_WAIT_MEAN, wait.meanNanos / 1e3),
            Figure(MetricCatalogue.POOL_WAIT_MAX, wait.maxNanos / 1e6),
            wait.handoverMeanNanos?.let { Figure(MetricCatalogue.HANDOVER_MEAN, it / 1e3) },
        )
    }

    @Benchmark
    fun jdbc() = call()

    @Benchmark
    @RequiresJdk(21, "virtual threads")
    fun jdbcVirtual() = call()

    @Benchmark
    fun jdbcBoundedElastic() = call()

    @Benchmark
    fun jdbcCoroutines() = call()

    @Benchmark
    fun r2dbc() = call()

    @Benchmark
    fun r2dbcCoroutines() = call()

    companion object {
        /** Within PostgreSQL's max_connections of the embedded server (200), with room for a session besides. */
        const val MAX_POOL = ParamValues.MAX_DB_POOL

        private val userName = BodyShape {
            BodyCheck { body ->
                val id = body.removePrefix("user-").toIntOrNull()
                if (body.startsWith("user-") && id != null && id in 1..DatabaseSchema.USERS) {
                    null
                } else {
                    "not user-<id> of an existing row"
                }
            }
        }
    }
}
