package serverbench.benchmarks

import serverbench.fixture.ServerSources
import kotlin.reflect.KClass

/**
 * The user's own `@SpringBootApplication` class ([value]), started by the fixture instead of the built-in application:
 * its component scan, its auto-configuration, and its configuration file `<config>.properties` (default
 * `application.properties`). Its web type is [webType] (`servlet` or `reactive`) when set, else the file's
 * `spring.main.web-application-type`, else servlet; a servlet application runs on `-p server=tomcat` or `jetty`, a
 * reactive one on `netty`; the launcher refuses any other stack named with `-p server` in one line and skips it when
 * it comes from the default. Walk-through: docs/your-own-benchmark.md.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@MustBeDocumented
annotation class ServerApplication(
    val value: KClass<*>,
    val webType: String = "",
    val config: String = ServerSources.DEFAULT_CONFIG,
)
