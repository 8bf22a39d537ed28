package serverbench.benchmarks

import kotlin.reflect.KClass

/**
 * The user's endpoints a benchmark class drives, started beside the built-in application of each stack: [value] names
 * controllers (or `@Configuration` classes) and [packages] are component-scanned (`@RestController`, `@Component`...).
 * Kotlin: `@ServerEndpoints(OrderController::class)`, `@ServerEndpoints(packages = ["com.acme.orders"])`; Java:
 * `@ServerEndpoints(OrderController.class)`. A benchmark class carrying it is a user's family: the tests that check
 * the built-in families leave it out. Walk-through: docs/your-own-benchmark.md.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@MustBeDocumented
annotation class ServerEndpoints(vararg val value: KClass<*> = [], val packages: Array<String> = [])
