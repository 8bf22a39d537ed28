package serverbench.app

import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import java.time.Duration
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicLong

/**
 * Endpoints that misbehave on purpose, so the harness's failure detection can be checked against a real server
 * (tests and the `SelfCheck` benchmarks): an error status, one that starts failing under load, a handler that never
 * answers, a server that dies under load, a JSON answer one cent off; the stack-specific FaultMvc/FaultWebFlux add a
 * response cut short.
 */
@RestController
@RequestMapping("/fault", produces = [MediaType.TEXT_PLAIN_VALUE])
class FaultEndpoints(private val context: ConfigurableApplicationContext) {
    @GetMapping("/status")
    fun status(@RequestParam("code") code: Int): ResponseEntity<String> =
        ResponseEntity.status(code).body("status $code")

    /** When this server answered its first /fault/failAfter request; 0 until then. */
    private val firstServedAt = AtomicLong()

    /**
     * Answers "ok" for `ms` milliseconds from the first request it gets, then 500: a failure that starts under load,
     * in the middle of a run (use a time longer than the warmup to fail during measurement).
     */
    @GetMapping("/failAfter")
    fun failAfter(@RequestParam("ms") ms: Long): ResponseEntity<String> {
        val now = System.nanoTime()
        firstServedAt.compareAndSet(0, now)
        return if (now - firstServedAt.get() <= ms * 1_000_000) {
            ResponseEntity.ok(OK)
        } else {
            ResponseEntity.status(500).body("failing after $ms ms")
        }
    }

    /** When this server answered its first /fault/dieAfter request; 0 until then. */
    private val dieClockStart = AtomicLong()
    private val dying = AtomicBoolean()

    /**
     * Answers "ok" for `ms` milliseconds from the first request it gets, then stops this whole server (its application
     * context) from another thread, as a crashed server would: connections close and new ones are refused.
     */
    @GetMapping("/dieAfter")
    fun dieAfter(@RequestParam("ms") ms: Long): String {
        val now = System.nanoTime()
        dieClockStart.compareAndSet(0, now)
        if (now - dieClockStart.get() > ms * 1_000_000 && dying.compareAndSet(false, true)) {
            Thread({ context.close() }, "fault-die").apply { isDaemon = true }.start()
        }
        return OK
    }

    /** The JSON family's answer with the total one cent off: valid JSON of the right shape, only wrong. */
    @PostMapping("/jsonWrongTotal", produces = [MediaType.APPLICATION_JSON_VALUE])
    fun jsonWrongTotal(@RequestBody order: Order): OrderSummary =
        summarize(order).let { it.copy(totalCents = it.totalCents + 1) }

    @GetMapping("/hang")
    suspend fun hang(): String = awaitCancellation()

    /**
     * Answers each request [LATE_HOLD_MS] after it came: "ok", or 500 once [failLate] is set. The benchmark sets it
     * when its last measurement window closes, so the requests then in flight fail while the client drains them
     * (`SelfCheckBenchmark.failWhileDraining`).
     */
    @GetMapping("/late")
    suspend fun late(): ResponseEntity<String> {
        Mono.delay(Duration.ofMillis(LATE_HOLD_MS)).awaitSingle()
        return if (failLate) {
            ResponseEntity.status(500).body("failing after the last measurement")
        } else {
            ResponseEntity.ok(OK)
        }
    }

    companion object {
        const val OK = "ok"
        const val LATE_HOLD_MS = 200L

        /** Set by the benchmark in this JVM (the server is in-process for self-checks), read by [late]. */
        @Volatile
        @JvmStatic
        var failLate = false
        const val TRUNCATED_LENGTH = 1000

        /** The message of the exception that cuts /fault/truncated short, which the server logs (tests expect it). */
        const val TRUNCATED_MESSAGE = "truncated on purpose"
    }
}
