package serverbench.benchmarks

import kotlin.reflect.KClass

/**
 * The user's endpoints a benchmark class drives, started beside the built-in application of each stack: [value] names
 * controllers (or `@Configuration` classes) and [packages] are component-scanned (`@RestController`, `@Component`...).
 * Kotlin: `@ServerEndpoints(OrderController::class)`, `@ServerEndpoints(packages = ["com.acme.orders"])`; Java:
 * `@ServerEndpoints(OrderController.class)`. [webType] (`servlet` or `reactive`), when set, says which stacks the
 * endpoints are written for (a blocking JDBC call belongs on Tomcat or Jetty, not on Netty's event loop): the others
 * are refused when named with `-p server` and skipped when they come from the default, as for [ServerApplication].
 * A benchmark class carrying it is a user's family: the tests that check the built-in families leave it out.
 * Walk-through: docs/your-own-benchmark.md.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@MustBeDocumented
annotation class ServerEndpoints(
    vararg val value: KClass<*> = [],
    val packages: Array<String> = [],
    val webType: String = "",
)
