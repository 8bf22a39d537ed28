package serverbench.app

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration
import io.r2dbc.postgresql.PostgresqlConnectionFactory
import java.net.URI

/**
 * R2DBC connections to a PostgreSQL named by its URL, `jdbc:postgresql://host:port/db` or `r2dbc:postgresql://...`
 * alike: the database family's pool and the harness's beans for a user's code open them the same way.
 */
object PostgresConnections {
    /** A connection factory for [url] (port 5432 when it names none); an empty [password] sends none. */
    fun r2dbc(url: String, user: String, password: String): PostgresqlConnectionFactory {
        val uri = URI(url.removePrefix("jdbc:").removePrefix("r2dbc:"))
        return PostgresqlConnectionFactory(
            PostgresqlConnectionConfiguration.builder()
                .host(uri.host).port(if (uri.port > 0) uri.port else DEFAULT_PORT).database(uri.path.removePrefix("/"))
                .username(user).apply { if (password.isNotEmpty()) password(password) }
                .build(),
        )
    }

    private const val DEFAULT_PORT = 5432
}
