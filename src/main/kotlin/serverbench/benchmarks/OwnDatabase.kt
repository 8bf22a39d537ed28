package serverbench.benchmarks

import serverbench.fixture.PostgresServer
import serverbench.fixture.ServerSources

/**
 * The PostgreSQL a benchmark class asks for with [EmbeddedPostgres], for one trial; Spring's properties name it, for
 * JDBC and R2DBC alike ([PostgresServer.springProperties]).
 */
internal class OwnDatabase private constructor(private val postgres: PostgresServer) : AutoCloseable {
    fun properties(): Map<String, Any> = postgres.springProperties()

    override fun close() = postgres.close()

    companion object {
        /** Started when [benchmark] (or a superclass) carries [EmbeddedPostgres]; null otherwise. */
        fun startFor(benchmark: Class<*>): OwnDatabase? {
            if (!OwnCode.embeddedPostgres(benchmark)) return null
            val postgres = PostgresServer.start()
            val forWhom = OwnCode.sources(benchmark).takeIf { it.own }?.describe()
                ?: benchmark.simpleName.substringBefore('_')
            println(
                "serverbench: PostgreSQL on port ${postgres.port} for $forWhom " +
                    "(${ServerSources.DATASOURCE_URL}=${postgres.jdbcUrl}, ${ServerSources.R2DBC_URL} too" +
                    (postgres.placement?.let { "; outside the CPU budget, $it" } ?: "") + ")",
            )
            return OwnDatabase(postgres)
        }
    }
}
