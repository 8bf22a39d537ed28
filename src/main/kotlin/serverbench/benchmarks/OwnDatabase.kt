package serverbench.benchmarks

import serverbench.fixture.PostgresServer
import serverbench.fixture.ServerSources

/** The PostgreSQL a benchmark class asks for with [EmbeddedPostgres], for one trial; Spring's properties name it. */
internal class OwnDatabase private constructor(private val postgres: PostgresServer) : AutoCloseable {
    fun properties(): Map<String, Any> = mapOf(URL to postgres.jdbcUrl, USERNAME to PostgresServer.USER, PASSWORD to "")

    override fun close() = postgres.close()

    companion object {
        const val URL = ServerSources.DATASOURCE_URL
        const val USERNAME = ServerSources.DATASOURCE_USERNAME
        const val PASSWORD = ServerSources.DATASOURCE_PASSWORD

        /** Started when [benchmark] (or a superclass) carries [EmbeddedPostgres]; null otherwise. */
        fun startFor(benchmark: Class<*>): OwnDatabase? {
            if (!OwnCode.embeddedPostgres(benchmark)) return null
            val postgres = PostgresServer.start()
            println(
                "serverbench: PostgreSQL on port ${postgres.port} for the application ($URL=${postgres.jdbcUrl}" +
                    (postgres.placement?.let { "; outside the CPU budget, $it" } ?: "") + ")",
            )
            return OwnDatabase(postgres)
        }
    }
}
