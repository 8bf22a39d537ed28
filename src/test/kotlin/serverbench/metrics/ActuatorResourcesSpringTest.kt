package serverbench.metrics

import example.metered.MeteredApplication
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.springframework.boot.Banner
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import serverbench.fixture.ActuatorEndpoint
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * A real Spring Boot Actuator in this JVM ([MeteredApplication]: web and actuator, its metrics exposed) read as a
 * target's: the figures are this JVM's, so the test's own work shows in them. Nothing is timed: a span of work is
 * read as more than nothing, however slow the machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ActuatorResourcesSpringTest {
    private lateinit var context: ConfigurableApplicationContext
    private lateinit var target: InetSocketAddress

    @BeforeAll
    fun start() {
        context = SpringApplicationBuilder(MeteredApplication::class.java)
            .web(WebApplicationType.SERVLET)
            .bannerMode(Banner.Mode.OFF)
            .properties(
                "server.port=0",
                "server.address=127.0.0.1",
                "management.endpoints.web.exposure.include=health,metrics",
                "spring.application.name=metered",
            )
            .run()
        val port = context.environment.getProperty("local.server.port")!!.toInt()
        // An address as -Dserverbench.target gives it, by its literal: the URL then names 127.0.0.1, not localhost.
        target = InetSocketAddress(InetAddress.getByName("127.0.0.1"), port)
    }

    @AfterAll
    fun stop() {
        if (::context.isInitialized) context.close()
    }

    @Test
    fun `an iteration's CPU, allocation, threads and GC pauses are read from the Actuator`() {
        val resources = assertNotNull(ActuatorResources.probe(target, tls = false, override = null))
        // jvm.gc.pause appears at the first pause, which may not have come yet.
        val everyOther = ActuatorResources.METERS - ActuatorResources.GC_PAUSE
        assertEquals(everyOther, resources.present - ActuatorResources.GC_PAUSE)
        resources.begin()
        var sink = 0L
        repeat(20) { round ->
            // Work on a CPU and garbage on the heap, then a collection: jvm.gc.memory.allocated moves only at one.
            sink += busy(round)
            sink += ByteArray(4 shl 20).also { it[round] = 1 }.sum()
        }
        System.gc()
        // The GC's notification reaches Micrometer on another thread: ask again until it has (never a timing check).
        var report = resources.end()
        val deadline = System.nanoTime() + 30_000_000_000
        while (report.allocatedBytes < 0 && System.nanoTime() < deadline) {
            Thread.sleep(100)
            report = resources.end()
        }
        assertTrue(report.processCpuNanos > 0, "CPU ${report.processCpuNanos}")
        assertTrue(report.allocatedBytes > 0, "allocated ${report.allocatedBytes}")
        assertTrue(report.peakThreads > 0, "threads ${report.peakThreads}")
        assertTrue(report.gcPauseNanos >= 0, "GC pauses ${report.gcPauseNanos}")
        assertEquals(-1, report.openFds)
        assertTrue(report.remoteServer!!.startsWith("target 127.0.0.1:${target.port}"), report.remoteServer)
        assertTrue(sink != 42L)
    }

    @Test
    fun `the target's JIT is its jvm compilation time`() {
        val jit = assertNotNull(assertNotNull(ActuatorResources.probe(target, false, null)).jit())
        assertEquals("the target's compile time (jvm.compilation.time), from its Actuator", jit.label)
        assertTrue(jit.sample().elapsedNanos > 0)
    }

    @Test
    fun `no Actuator answers null, and a management base that is not one is one line`() {
        val closed = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }
        val nowhere = InetSocketAddress(InetAddress.getLoopbackAddress(), closed)
        var why: String? = null
        assertNull(ActuatorResources.probe(nowhere, tls = false, override = null) { why = it })
        assertTrue(why!!.contains("no Actuator metrics endpoint"), why)
        // The application's own port, but a path where no Actuator is: absent, and asked for, so an error.
        val wrong = "http://127.0.0.1:${target.port}/management"
        val e = assertFailsWith<IllegalStateException> { ActuatorResources.probe(target, false, wrong) }
        assertTrue(ActuatorEndpoint.PROPERTY in e.message!!, e.message)
        assertEquals(1, e.message!!.lines().size)
        assertNotNull(ActuatorResources.probe(nowhere, false, "http://127.0.0.1:${target.port}/actuator"))
    }

    /** Some arithmetic the JIT cannot drop. */
    private fun busy(seed: Int): Long {
        var x = seed.toLong()
        repeat(2_000_000) { x = x * 6364136223846793005L + 1442695040888963407L }
        return x
    }
}
