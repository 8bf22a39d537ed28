package serverbench.client

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.app.NoopEndpoints
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The client against a real server (WebFlux on Netty) and against raw sockets that misbehave on purpose. */
class LoadClientTest : NettyServerTest() {
    private val strict = ClientSettings(timeout = Duration.ofSeconds(5))

    private fun client(path: String, body: String, connections: Int = 4, settings: ClientSettings = strict) =
        LoadClient(server.address, connections, Request(path, body), settings)

    @Test
    fun `every success is validated, counted once and timed`() {
        client("/noop/hello", NoopEndpoints.HELLO).use { c ->
            c.start()
            c.beginIteration()
            repeat(500) { c.next() }
            val report = c.endIteration()
            assertTrue(report.successes >= 500, "successes ${report.successes}")
            assertEquals(report.successes, report.latencyMicros.totalCount, "one latency value per success")
            assertEquals(0, report.failures.total)
            assertEquals(0, report.unanswered)
            assertTrue(report.latencyMicros.maxValue < 5_000_000, "latency in µs")
            assertTrue(report.clientCpuNanos > 0 && report.wallNanos >= report.clientCpuNanos / 2)
        }
    }

    @Test
    fun `exactly the configured number of connections each carry one request`() {
        // /noop/delay holds every request for 200 ms, so they are in flight together: counted, not timed (Little's
        // law over wall time would count a busy machine's delays between a response and the next send).
        client("/noop/delay?ms=200", NoopEndpoints.DELAYED, connections = 10).use { c ->
            c.start()
            c.beginIteration()
            val deadline = System.nanoTime() + 10_000_000_000L
            while (c.slots.inFlight() < 10 && System.nanoTime() < deadline) c.turn()
            assertEquals(10, c.slots.inFlight(), "requests in flight on 10 connections")
            var most = 0
            repeat(50) {
                c.next()
                most = maxOf(most, c.slots.inFlight())
            }
            val report = c.endIteration()
            assertTrue(most <= 10, "$most requests in flight at once")
            assertTrue(report.successes >= 50, "${report.successes}")
            assertEquals(10, c.slots.all.mapNotNull { it?.channel }.distinct().size, "connections")
        }
    }

    @Test
    fun `non-2xx fails with the status and body`() {
        client("/fault/status?code=500", "ok").use { c ->
            val e = assertThrows<LoadFailure> {
                c.start()
                c.next()
            }
            assertTrue(e.message!!.contains("non-2xx"), e.message)
            assertTrue(e.message!!.contains("HTTP 500 \"status 500\""), e.message)
            assertTrue(c.trialFailures[FailureKind.NON_2XX] >= 1)
            assertEquals(c.trialFailures.total, c.trialFailures[FailureKind.NON_2XX])
        }
    }

    @Test
    fun `a wrong body fails and says what came back`() {
        client("/noop/hello", "goodbye").use { c ->
            c.start()
            c.beginIteration()
            val e = assertThrows<LoadFailure> { c.next() }
            assertTrue(e.message!!.contains("invalid body"), e.message)
            assertTrue(e.message!!.contains("body \"hello\" (5 bytes), expected \"goodbye\""), e.message)
            val report = c.endIteration()
            assertEquals(0, report.successes, "a failure never counts as throughput")
            assertEquals(0, report.latencyMicros.totalCount)
        }
    }

    @Test
    fun `requests starved for a whole iteration are reported, not silently left out`() {
        client(
            "/fault/hang",
            "ok",
            connections = 2,
            settings = ClientSettings(timeout = Duration.ofSeconds(10)),
        ).use { c ->
            c.start()
            c.beginIteration()
            Thread.sleep(300)
            val report = c.endIteration()
            assertEquals(2, report.unanswered)
            assertTrue(report.oldestUnansweredNanos >= 300_000_000, "${report.oldestUnansweredNanos}")
            val warning = serverbench.metrics.Guards.check(
                serverbench.metrics.IterationReport(report, null),
            )[serverbench.metrics.Guards.UNANSWERED]
            assertTrue(warning!!.startsWith("2 requests were still unanswered"), warning)
        }
    }

    @Test
    fun `a hanging endpoint times out`() {
        val settings = ClientSettings(timeout = Duration.ofMillis(300))
        client("/fault/hang", "ok", connections = 2, settings = settings).use { c ->
            val started = System.nanoTime()
            val e = assertThrows<LoadFailure> {
                c.start()
                c.next()
            }
            val seconds = (System.nanoTime() - started) / 1e9
            assertTrue(e.message!!.contains("timeout"), e.message)
            assertTrue(e.message!!.contains("no complete response within 300 ms"), e.message)
            assertTrue(
                e.message!!.endsWith(
                    "[if the server is just slow: -Dserverbench.timeoutMs=N (now 300); " +
                        "to tolerate failures: -Dserverbench.maxErrors=N]",
                ),
                e.message,
            )
            // 300 ms, then the next scan of the slots: a bound that tells it from a client that waits for ever, with
            // room for a busy machine.
            assertTrue(seconds < 10, "took $seconds s")
        }
    }

    @Test
    fun `failures up to the tolerance are counted, the next one fails`() {
        client("/fault/status?code=503", "ok", connections = 1, settings = strict.copy(maxErrors = 5)).use { c ->
            c.start()
            val e = assertThrows<LoadFailure> { c.next() }
            assertEquals(6, c.trialFailures.total)
            assertTrue(e.message!!.startsWith("6 failed requests (tolerated: 5): 6 non-2xx"), e.message)
        }
    }

    @Test
    fun `nothing listening is a connect error`() {
        val address = InetSocketAddress("127.0.0.1", RawServer.unusedPort())
        LoadClient(address, 2, Request("/x", "y"), strict).use { c ->
            val e = assertThrows<LoadFailure> { c.start() }
            assertTrue(e.message!!.contains("connect/read error"), e.message)
            assertTrue(e.message!!.contains("connect failed"), e.message)
        }
    }

    @Test
    fun `a connection closed before the response is complete is its own kind`() {
        RawServer { s ->
            if (RawServer.readRequest(s)) {
                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial".toByteArray())
                s.getOutputStream().flush()
            }
        }.use { raw ->
            LoadClient(raw.address, 1, Request("/x", "y"), strict).use { c ->
                val e = assertThrows<LoadFailure> {
                    c.start()
                    c.next()
                }
                assertTrue(e.message!!.contains("closed by server"), e.message)
            }
        }
    }

    @Test
    fun `a server that announces Connection close is followed, not counted as a failure`() {
        RawServer { s ->
            while (RawServer.readRequest(s)) {
                s.getOutputStream().write(
                    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".toByteArray(),
                )
                s.getOutputStream().flush()
                break
            }
        }.use { raw ->
            LoadClient(raw.address, 2, Request("/x", "ok"), strict).use { c ->
                c.start()
                c.beginIteration()
                repeat(20) { c.next() }
                val report = c.endIteration()
                assertEquals(0, report.failures.total)
                assertTrue(report.reconnects >= 19, "reconnects ${report.reconnects}")
            }
        }
    }

    @Test
    fun `a server that closes every connection after its answer, with a short backlog, still starts all connections`() {
        // As python3 -m http.server does (HTTP/1.0, an accept backlog of 5): connections beyond the backlog open
        // seconds late, by then the first ones have closed, so all are never open at once.
        val server = ServerSocket(0, 1, InetAddress.getLoopbackAddress())
        val acceptor = Thread {
            Thread.sleep(300)
            while (!server.isClosed) {
                val s = runCatching { server.accept() }.getOrNull() ?: break
                s.use {
                    if (RawServer.readRequest(it)) {
                        it.getOutputStream().write("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok".toByteArray())
                        it.getOutputStream().flush()
                    }
                }
            }
        }.apply {
            isDaemon = true
            start()
        }
        server.use {
            val address = InetSocketAddress("127.0.0.1", server.localPort)
            LoadClient(address, 8, Request("/x", "ok"), strict.copy(connectTimeout = Duration.ofSeconds(20))).use { c ->
                c.start()
                c.beginIteration()
                repeat(40) { c.next() }
                assertEquals(0, c.endIteration().failures.total)
            }
        }
        acceptor.join(2000)
    }

    @Test
    fun `malformed responses are invalid`() {
        RawServer { s ->
            if (RawServer.readRequest(s)) {
                s.getOutputStream().write("SMTP ready\r\n\r\n".toByteArray())
                s.getOutputStream().flush()
                Thread.sleep(1000)
            }
        }.use { raw ->
            LoadClient(raw.address, 1, Request("/x", "ok"), strict).use { c ->
                val e = assertThrows<LoadFailure> {
                    c.start()
                    c.next()
                }
                assertTrue(e.message!!.contains("malformed HTTP response: bad status line \"SMTP ready\""), e.message)
            }
        }
    }

    @Test
    fun `responses that arrive between iterations are neither timed nor counted`() {
        client("/noop/delay?ms=50", NoopEndpoints.DELAYED, connections = 4).use { c ->
            c.start()
            c.beginIteration()
            repeat(8) { c.next() }
            c.endIteration()
            Thread.sleep(300) // JMH's pause between iterations: the 4 requests in flight complete, nobody reads them
            c.beginIteration()
            repeat(8) { c.next() }
            val report = c.endIteration()
            assertEquals(4, report.discardedAtStart, "the responses that arrived during the pause, one per connection")
            // A pause counted as latency would be at least its 300 ms; a 50 ms response on a busy machine stays under.
            assertTrue(
                report.latencyMicros.maxValue < 300_000,
                "a pause must not show up as latency: max ${report.latencyMicros.maxValue} µs",
            )
            assertEquals(report.successes, report.latencyMicros.totalCount)
        }
    }

    @Test
    fun `bytes nobody asked for are a failure`() {
        RawServer { s ->
            if (RawServer.readRequest(s)) {
                val out = s.getOutputStream()
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".toByteArray())
                out.flush()
                Thread.sleep(100)
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".toByteArray())
                out.flush()
                Thread.sleep(2000)
            }
        }.use { raw ->
            LoadClient(raw.address, 1, Request("/x", "ok"), strict.copy(maxErrors = 0)).use { c ->
                c.probe() // one request, one fine response; no further request is sent
                val e = assertThrows<LoadFailure> { c.next() }
                assertTrue(
                    e.message!!.contains("unexpected bytes after a complete response") ||
                        e.message!!.contains("bytes after the end of the response"),
                    e.message,
                )
            }
        }
    }

    @Test
    fun `only loopback targets are accepted`() {
        assertThrows<IllegalArgumentException> {
            LoadClient(InetSocketAddress("8.8.8.8", 80), 1, Request("/", "x"), strict)
        }
    }

    @Test
    fun `failures that arrive between iterations count in the next iteration`() {
        // The responses of requests in flight when JMH paused are read as the next iteration begins; a failed one must
        // count there (it was in no earlier iteration's errors), even though successes read then are discarded.
        client("/fault/status?code=500", "ok", connections = 2, settings = ClientSettings(maxErrors = 1_000)).use { c ->
            c.start()
            c.beginIteration() // sends the first request on each connection
            Thread.sleep(300) // both fail while nobody reads (JMH between iterations)
            c.beginIteration()
            val r = c.endIteration()
            assertTrue(r.failures[FailureKind.NON_2XX] >= 2, "failures ${r.failures.summary()}")
        }
    }

    @Test
    fun `open loop records requests that timed out in the corrected latency, at their timeout`() {
        // As wrk2 does: with tolerated failures, a tail made only of the requests that completed would be cut.
        val settings = ClientSettings(timeout = Duration.ofMillis(300), maxErrors = 1_000)
        LoadClient(server.address, 4, Request("/fault/hang", "never"), settings, rate = 20.0).use { c ->
            c.start()
            c.beginIteration()
            // Nothing ever succeeds: next() gives up after twice the timeout, having sent and timed out requests.
            assertThrows<LoadFailure> { c.next() }
            val r = c.endIteration()
            assertTrue(r.failures[FailureKind.TIMEOUT] >= 1, "timeouts ${r.failures.summary()}")
            assertEquals(r.failures[FailureKind.TIMEOUT] + r.failures[FailureKind.DROPPED], r.latencyMicros.totalCount)
            assertTrue(r.latencyMicros.minValue >= 300_000, "recorded at their timeout: ${r.latencyMicros.minValue} µs")
        }
    }
}
