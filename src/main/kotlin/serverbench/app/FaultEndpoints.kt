package serverbench.app

import kotlinx.coroutines.awaitCancellation
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import java.util.concurrent.atomic.AtomicLong

/**
 * Endpoints that misbehave on purpose, so the harness's failure detection can be checked against a real server
 * (tests and the `SelfCheck` benchmarks): an error status, one that starts failing under load, and a handler
 * that never answers.
 */
@RestController
@RequestMapping("/fault", produces = [MediaType.TEXT_PLAIN_VALUE])
class FaultEndpoints {
    @GetMapping("/status")
    fun status(@RequestParam("code") code: Int): ResponseEntity<String> = ResponseEntity.status(code).body("status $code")

    private val served = AtomicLong()

    /** Answers "ok" to the first `n` requests this server gets here, then 500: a failure that starts under load. */
    @GetMapping("/failAfter")
    fun failAfter(@RequestParam("n") n: Long): ResponseEntity<String> =
        if (served.incrementAndGet() <= n) ResponseEntity.ok(OK) else ResponseEntity.status(500).body("failing after $n")

    @GetMapping("/hang")
    suspend fun hang(): String = awaitCancellation()

    companion object {
        const val OK = "ok"
    }
}
