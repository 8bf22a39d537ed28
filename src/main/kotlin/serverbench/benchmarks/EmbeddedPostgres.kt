package serverbench.benchmarks

/**
 * A real PostgreSQL for the user's code under the benchmark class carrying it, started per trial before the server
 * (from the binaries the database family uses) and stopped and deleted after it. Spring Boot's
 * `spring.datasource.*` and `spring.r2dbc.*` (url, username, password) point to it and win over the application's
 * own configuration; the schema is the application's own (`schema.sql` with `spring.sql.init.mode=always`, Flyway,
 * Liquibase). Beside [ServerEndpoints], the built-in application keeps the team's JDBC and R2DBC auto-configuration
 * (a DataSource and `JdbcClient`, or a ConnectionFactory and `DatabaseClient`) and runs `schema.sql`, or the harness
 * gives the same where the modules are absent (EmbeddedDatabaseBeans). Under `-p cpus` it runs outside the server's
 * CPU budget, as the database family's does. Examples: examples/orders-service (JDBC), examples/reactive-orders
 * (R2DBC).
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@MustBeDocumented
annotation class EmbeddedPostgres
