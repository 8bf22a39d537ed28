package serverbench.app

import kotlinx.coroutines.delay
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * Calibration endpoints, the same code on both stacks (annotated controllers run unchanged on Spring MVC and WebFlux).
 * - `/noop/hello`: no work at all; what the stack plus the client can do at most.
 * - `/noop/delay?ms=`: an ideal server that answers after `ms` without holding a thread (coroutine `delay`); checks that
 *   the harness's latency figures are right and is the lower bound for anything that waits.
 * - `/noop/thread`: the name of the thread that ran the handler, so tests can prove which stack answered.
 */
@RestController
@RequestMapping("/noop", produces = [MediaType.TEXT_PLAIN_VALUE])
class NoopEndpoints {
    @GetMapping("/hello")
    fun hello(): String = HELLO

    @GetMapping("/delay")
    suspend fun delayed(@RequestParam("ms") ms: Long): String {
        delay(ms)
        return DELAYED
    }

    @GetMapping("/thread")
    fun thread(): String = Thread.currentThread().name

    companion object {
        const val HELLO = "hello"
        const val DELAYED = "ok"
    }
}
