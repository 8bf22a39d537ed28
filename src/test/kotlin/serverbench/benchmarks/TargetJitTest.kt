package serverbench.benchmarks

import org.junit.jupiter.api.Test
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServeAdmin
import serverbench.fixture.ServerKind
import java.net.InetSocketAddress
import kotlin.test.assertContains
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/** Against a target the steady warmup judges the target's JIT, read over its admin endpoint, and says so. */
class TargetJitTest {
    @Test
    fun `the target's compile time is read from its admin endpoint, a counter that grows`() {
        ServeAdmin.start(ServerKind.NETTY, "127.0.0.1", 0).use { admin ->
            val target = RemoteTarget(InetSocketAddress("127.0.0.1", 9), admin.address)
            val status = target.status()
            assertNotNull(status.jitNanos, "$status")
            val jit = TargetJit.of(target, status)
            assertContains(jit.label, "the target's elapsed compile time")
            val first = jit.sample()
            val second = jit.sample()
            assertTrue(second.nanosSince(first) >= 0)
        }
    }

    @Test
    fun `a target that reports no compile time leaves this JVM's figure, and the label says so`() {
        ServeAdmin.start(ServerKind.NETTY, "127.0.0.1", 0).use { admin ->
            val target = RemoteTarget(InetSocketAddress("127.0.0.1", 9), admin.address)
            val jit = TargetJit.of(target, target.status().copy(jitNanos = null))
            assertContains(jit.label, "this JVM's")
            assertContains(jit.label, "the target reports no compile time")
        }
    }
}
