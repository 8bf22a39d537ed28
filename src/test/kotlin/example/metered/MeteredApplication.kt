package example.metered

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration
import org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration

/**
 * A team's own service with Spring Boot Actuator, as small as it gets: web and actuator, its metrics exposed
 * (ActuatorResourcesSpringTest sets `management.endpoints.web.exposure.include`). Jetty left out: with both servlet
 * containers on the test class path, Boot would take whichever it ordered first.
 */
@SpringBootApplication(
    exclude = [JettyServletWebServerAutoConfiguration::class, JettyReactiveWebServerAutoConfiguration::class],
)
class MeteredApplication
