package serverbench.app

import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import java.time.Duration

/**
 * Calibration endpoints, the same code on both stacks (annotated controllers run unchanged on Spring MVC and WebFlux).
 * - `/noop/hello`: no work at all; what the stack plus the client can do at most.
 * - `/noop/delay?ms=`: an ideal server that answers after `ms` without holding a thread ([waitWithoutThread]); checks
 *   that the harness's latency figures are right and is the lower bound for anything that waits.
 * - `/noop/thread`: the name of the thread that ran the handler, so tests can prove which stack answered.
 * - `/noop/delayThread?ms=`: the name of the thread the handler resumed on after [waitWithoutThread], for tests.
 */
@RestController
@RequestMapping("/noop", produces = [MediaType.TEXT_PLAIN_VALUE])
class NoopEndpoints {
    @GetMapping("/hello")
    fun hello(): String = HELLO

    @GetMapping("/delay")
    suspend fun delayed(@RequestParam("ms") ms: Long): String {
        waitWithoutThread(ms)
        return DELAYED
    }

    @GetMapping("/thread")
    fun thread(): String = Thread.currentThread().name

    @GetMapping("/delayThread")
    suspend fun delayThread(@RequestParam("ms") ms: Long): String {
        waitWithoutThread(ms)
        return Thread.currentThread().name
    }

    companion object {
        const val HELLO = "hello"
        const val DELAYED = "ok"
    }
}

/**
 * The wait of the "ideal server" endpoints (`/noop/delay`, `/blocking/nonBlocking`): `ms` without holding a thread, on
 * Reactor's timer (`Schedulers.parallel()`, one worker per core). Not kotlinx `delay()`: under Spring's
 * `Dispatchers.Unconfined` it resumes every request on kotlinx's single DefaultExecutor thread, so on Netty all that
 * follows the wait (encoding, commit, write) would be funnelled through one thread, and the lower bound would not be
 * one on that stack.
 */
suspend fun waitWithoutThread(ms: Long) {
    Mono.delay(Duration.ofMillis(ms)).awaitSingle()
}
