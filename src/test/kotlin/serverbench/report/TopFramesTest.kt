package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.row
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** Top frames by self and total time from collapsed stacks, and their section in the report. */
class TopFramesTest {
    /** 100 samples; `Json.write` calls itself, and the total must count it once per stack. */
    private val stacks = """
        Thread.run;Handler.direct;PrimesKt.isPrime 50
        Thread.run;Handler.direct;Json.write 20
        Thread.run;Handler.direct;Json.write;Json.write;Json.escape 10
        Thread.run;Selector.select 20
    """.trimIndent()

    private fun ranking(frames: List<Frame>) = frames.map { it.name to it.percent }

    @Test
    fun `self and total rankings in percent of all samples, recursion counted once per stack`() {
        val top = TopFrames.of(stacks.lineSequence(), n = 5, collapse = false)
        assertEquals(100, top.samples)
        assertEquals(
            listOf(
                "PrimesKt.isPrime" to 50.0,
                "Json.write" to 20.0,
                "Selector.select" to 20.0,
                "Json.escape" to 10.0,
            ),
            ranking(top.self),
        )
        assertEquals(
            listOf(
                "Thread.run" to 100.0,
                "Handler.direct" to 80.0,
                "PrimesKt.isPrime" to 50.0,
                "Json.write" to 30.0,
                "Selector.select" to 20.0,
            ),
            ranking(top.total),
        )
        assertEquals(Frame("Json.write", 30, 30.0), top.total[3])
        assertEquals(2, TopFrames.of(stacks.lineSequence(), n = 2).self.size)
    }

    @Test
    fun `the total list leaves out frames that pass nearly all their time to one callee`() {
        val top = TopFrames.of(
            """
            start_thread;Thread.run;Loop.run;Handler.a 60
            start_thread;Thread.run;Loop.run;Handler.b 38
            start_thread;Thread.run;Gc.work 2
            """.trimIndent().lineSequence(),
        )
        // start_thread hands all its time to Thread.run, Thread.run 98 % to Loop.run; Loop.run divides its time.
        assertEquals(
            listOf("Loop.run" to 98.0, "Handler.a" to 60.0, "Handler.b" to 38.0, "Gc.work" to 2.0),
            ranking(top.total),
        )
        // Recursion is no callee of its own: Json.write stays.
        assertTrue(TopFrames.of(stacks.lineSequence()).total.any { it.name == "Json.write" })
    }

    @Test
    fun `several forks' files add up, and allocation profiles merge a type's TLAB and outside-TLAB frames`(
        @TempDir dir: File,
    ) {
        val forks = listOf(File(dir, "cpu-pid1.collapsed"), File(dir, "cpu-pid2.collapsed"))
        forks[0].writeText("Thread.run;Handler.direct;PrimesKt.isPrime 30\nThread.run;epoll_wait_[k] 10\n")
        forks[1].writeText("Thread.run;Handler.direct;PrimesKt.isPrime 20\n\nThread.run;epoll_wait_[k] 40\n")
        val top = TopFrames.of(forks, collapse = false)
        assertEquals(100, top.samples)
        assertEquals(listOf("PrimesKt.isPrime" to 50.0, "epoll_wait_[k]" to 50.0), ranking(top.self))
        assertEquals("epoll_wait (kernel)", TopFrames.short(top.self[1].name))

        val alloc = File(dir, "alloc.collapsed")
        alloc.writeText(
            "Handler.direct;byte[]_[i] 3\nHandler.direct;byte[]_[k] 1\n" +
                "Handler.direct;java.lang.String_[i] 4\n",
        )
        assertEquals(
            listOf("byte[]" to 50.0, "java.lang.String" to 50.0),
            ranking(TopFrames.of(listOf(alloc)).self),
        )
    }

    @Test
    fun `frames are named as a reviewer reads them`() {
        fun read(raw: String) = TopFrames.short(TopFrames.normalize(raw))
        assertEquals("NioEventLoop.run", read("io/netty/channel/nio/NioEventLoop.run_[j]"))
        assertEquals("String.<init>", read("java/lang/String.<init>_[i]"))
        // Hidden classes' numbers differ between forks (JDK 17 and JDK 21 spellings).
        val lambda = "CpuEndpoints\$\$Lambda.invoke"
        assertEquals(lambda, read("serverbench/app/CpuEndpoints\$\$Lambda\$312/0x0000000800f1a000.invoke"))
        assertEquals(lambda, read("serverbench/app/CpuEndpoints\$\$Lambda/0x000001f0010a3c58.invoke"))
        assertEquals(lambda, read("serverbench/app/CpuEndpoints\$\$Lambda.0x00007f236815fa10.invoke"))
        assertEquals(
            "PostRuntimeDispatch::oop_access_barrier",
            read(
                "AccessInternal::PostRuntimeDispatch<" +
                    "G1BarrierSet::AccessBarrier<286822ul, G1BarrierSet>, (AccessInternal::BarrierType)3, 286822ul>" +
                    "::oop_access_barrier",
            ),
        )
        assertEquals("String[]", read("java.lang.String[]"))
        assertEquals("__GI___libc_write", read("__GI___libc_write"))
        assertEquals("do_syscall_64 (kernel)", read("do_syscall_64_[k]"))
        assertEquals(70, read("x".repeat(100)).length)
    }

    private val benchmark = "serverbench.benchmarks.CpuBenchmark.direct"

    private fun run(limit: String, profiles: List<File> = emptyList()) = row(
        benchmark,
        mapOf("server" to "netty", "limit" to limit, "concurrency" to "64"),
        1000.0,
        10.0,
        profiles = profiles,
    )

    @Test
    fun `the report shows where the time went for profiled rows only`(@TempDir dir: File) {
        val plain = Report.markdown(listOf(run("1000"), run("10000")), "x.json", null, null)
        assertFalse(plain.contains("Where the time went"), plain)

        // A pipe in a frame's name must not split the table's cell.
        val collapsed = File(dir, "cpu.collapsed")
            .apply { writeText(stacks.replace("Handler.direct", "serverbench/app/Cpu|Handler.direct")) }
        val profiled = run("10000", listOf(collapsed, File(dir, "cpu.html")))
        val md = Report.markdown(listOf(profiled, run("1000")), "x.json", null, null)
        val section = md.substringAfter("\n### Where the time went (cpu samples)\n", "")
        assertTrue(section.isNotEmpty(), md)
        assertTrue(md.indexOf("| direct |") < md.indexOf("### Where the time went"), "after the family's table: $md")
        assertEquals(1, Regex("samples\\n").findAll(section).count(), "the unprofiled row has none: $section")
        assertEquals(
            """
            |**direct · server=netty · limit=10000, concurrency=64**: 100 samples
            |
            || self % | frame | total % | frame |
            || ---: | --- | ---: | --- |
            || 50.0 | `PrimesKt.isPrime` | 100.0 | `Thread.run` |
            || 20.0 | `Json.write` | 80.0 | `Cpu\|Handler.direct` |
            || 20.0 | `Selector.select` | 50.0 | `PrimesKt.isPrime` |
            || 10.0 | `Json.escape` | 30.0 | `Json.write` |
            ||  |  | 20.0 | `Selector.select` |
            |
            """.trimMargin(),
            section.substringAfter("\n\n"),
        )
    }

    @Test
    fun `a user's family shows its own code's frames by total time, a built-in family none`(@TempDir dir: File) {
        assertEquals("com/example/", TopFrames.ownCode("com.example.orders.bench.OrdersServiceBenchmark.createOrder"))
        assertEquals(null, TopFrames.ownCode(benchmark))
        val collapsed = File(dir, "cpu.collapsed").apply {
            writeText(
                """
                Thread.run;Servlet.service;com/example/orders/OrderController.create;com/example/orders/Pricing.total 30
                Thread.run;Servlet.service;com/example/orders/OrderController.create;Jdbc.execute 40
                Thread.run;Servlet.service;Json.write 30
                """.trimIndent(),
            )
        }
        val own = row(
            "com.example.orders.bench.OrdersServiceBenchmark.createOrder",
            mapOf("server" to "tomcat"),
            1000.0,
            10.0,
            profiles = listOf(collapsed),
        )
        val md = Report.markdown(listOf(own), "x.json", null, null)
        assertTrue(
            md.contains("\nYour code (`com.example`), total %: `OrderController.create` 70.0 · `Pricing.total` 30.0\n"),
            md,
        )
        val builtIn = Report.markdown(listOf(run("10000", listOf(collapsed))), "x.json", null, null)
        assertFalse(builtIn.contains("Your code"), builtIn)
        // A served jar's package, given: a built-in benchmark's rows name the jar's frames too.
        val served = TopFrames.markdown(listOf(run("10000", listOf(collapsed))), ownPrefix = "com/example/")
        assertTrue(served.contains("\nYour code (`com.example`), total %: `OrderController.create` 70.0"), served)
    }
}
