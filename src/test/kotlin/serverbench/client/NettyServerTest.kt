package serverbench.client

import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.TestInstance
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind

/** Client tests against one real WebFlux-on-Netty server, started once per test class (a start costs ~2 s). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NettyServerTest {
    protected lateinit var server: ServerFixture

    /** Properties the class's server starts with (the fixture's overrides). */
    protected open val serverProperties: Map<String, Any> get() = emptyMap()

    @BeforeAll
    fun startServer() {
        server = ServerFixture.start(ServerKind.NETTY, serverProperties)
    }

    @AfterAll
    fun stopServer() {
        server.close()
    }
}
