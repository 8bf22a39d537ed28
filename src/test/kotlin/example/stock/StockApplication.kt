package example.stock

import org.springframework.boot.autoconfigure.SpringBootApplication

/**
 * A user's own application written in serverbench's jar, whose class path has no Spring Boot JDBC or R2DBC module:
 * its scan finds [StockController] and [ReactiveStockController], which under `@EmbeddedPostgres` get their JdbcClient
 * and DatabaseClient from the harness. Configured by `stock.properties` (src/test/resources): its schema runs.
 */
@SpringBootApplication
class StockApplication
