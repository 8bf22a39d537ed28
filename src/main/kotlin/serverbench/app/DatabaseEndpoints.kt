package serverbench.app

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.withContext
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.ErrorResponse
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.server.ResponseStatusException
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers

/**
 * The database family: one query (`q` = nextval, selectById, insert; see [DatabaseClients]) the ways Spring Boot
 * services run it. Same code on both stacks; a blocking handler runs on a Tomcat worker, or on Netty's event loop
 * (the classic mistake), unless `spring.threads.virtual.enabled` puts it on a virtual thread.
 * - `jdbc`: JDBC on the request thread · `jdbcVirtual`: the same, run with virtual threads on (JDK 21+)
 * - `jdbcBoundedElastic`: JDBC in `Mono.fromCallable` on `Schedulers.boundedElastic()`
 * - `jdbcCoroutines`: JDBC in `withContext(Dispatchers.IO)` in a `suspend` handler
 * - `r2dbc`: R2DBC returned as a `Mono` · `r2dbcCoroutines`: the same awaited in a `suspend` handler
 * The body is the query's answer: a number (nextval, insert's new id) or the user's name (selectById).
 */
@RestController
@RequestMapping("/db", produces = [MediaType.TEXT_PLAIN_VALUE])
class DatabaseEndpoints(private val db: DatabaseClients) {
    @GetMapping("/jdbc")
    fun jdbc(@RequestParam("q") q: String): String = db.jdbc(query(q))

    @GetMapping("/jdbcVirtual")
    fun jdbcVirtual(@RequestParam("q") q: String): String = db.jdbc(query(q))

    @GetMapping("/jdbcBoundedElastic")
    fun jdbcBoundedElastic(@RequestParam("q") q: String): Mono<String> {
        val query = query(q)
        return Mono.fromCallable { db.jdbc(query) }.subscribeOn(Schedulers.boundedElastic())
    }

    @GetMapping("/jdbcCoroutines")
    suspend fun jdbcCoroutines(@RequestParam("q") q: String): String {
        val query = query(q)
        return withContext(Dispatchers.IO) { db.jdbc(query) }
    }

    @GetMapping("/r2dbc")
    fun r2dbc(@RequestParam("q") q: String): Mono<String> = db.r2dbc(query(q))

    @GetMapping("/r2dbcCoroutines")
    suspend fun r2dbcCoroutines(@RequestParam("q") q: String): String = db.r2dbc(query(q)).awaitSingle()

    /** A failed query answers 503 naming the database, so the client's one failure line says what broke. */
    @ExceptionHandler(Exception::class)
    fun failed(e: Exception): ResponseEntity<String> {
        // Spring's own errors (a bad or missing parameter) keep their status.
        if (e is ErrorResponse) return ResponseEntity.status(e.statusCode).body(e.body.detail ?: "")
        val cause = generateSequence<Throwable>(e) { it.cause }.last()
        val body = when (cause) {
            is DatabaseClients.PoolExhausted -> cause.message
            else -> "database query failed: ${cause.message ?: cause}"
        }
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.TEXT_PLAIN).body(body)
    }

    private fun query(q: String): DatabaseClients.Query {
        if (!db.configured) {
            throw ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "no database configured")
        }
        return DatabaseClients.Query.of(q) ?: throw ResponseStatusException(
            HttpStatus.BAD_REQUEST,
            "q must be one of ${DatabaseClients.Query.ids.joinToString()}, was '$q'",
        )
    }
}
