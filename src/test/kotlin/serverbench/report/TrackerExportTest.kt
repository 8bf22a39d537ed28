package serverbench.report

import org.junit.jupiter.api.Test
import serverbench.metrics.MetricCatalogue
import serverbench.report.TrackerExport.Format
import serverbench.testing.row
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * `scripts/report --format` against the trackers' documented shapes. github-action-benchmark (its README's
 * examples of customBiggerIsBetter / customSmallerIsBetter; `BenchmarkResult` in its src/extract.ts): a JSON array of
 * objects with `name` (string), `unit` (string), `value` (number), optional `range` and `extra` (strings), nothing else
 * read.
 * Bencher Metric Format (bencher.dev/bmf.json, draft-07): an object of benchmark names, each an object of measures,
 * each an object with a required number `value` and optional numbers `lower_value`, `upper_value`.
 */
class TrackerExportTest {
    private val runs = Results.read(File(javaClass.getResource("/report/tracker.json")!!.toURI()))
    private val mapper = JsonMapper.builder().build()

    private fun export(format: Format): Pair<JsonNode, List<String>> {
        val leftOut = ArrayList<String>()
        val text = TrackerExport.render(format, runs) { leftOut += it }
        return mapper.readTree(text) to leftOut
    }

    private fun items(node: JsonNode) = (0 until node.size()).map { node[it] }

    /** github-action-benchmark's BenchmarkResult[]: returns name -> entry. */
    private fun assertGithubShape(root: JsonNode): Map<String, JsonNode> {
        assertTrue(root.isArray, "$root")
        for (e in items(root)) {
            assertTrue(e.isObject, "$e")
            assertEquals(emptySet(), e.propertyNames().toSet() - setOf("name", "unit", "value", "range", "extra"), "$e")
            assertTrue(e["name"].isString && e["unit"].isString && e["value"].isNumber, "$e")
            for (optional in listOf("range", "extra")) assertTrue(e[optional]?.isString ?: true, "$e")
        }
        val byName = items(root).associateBy { it["name"].asString() }
        assertEquals(root.size(), byName.size, "names must be unique: $root")
        return byName
    }

    /** The BMF JSON schema, property by property. Returns benchmark -> measure -> metric. */
    private fun assertBencherShape(root: JsonNode): Map<String, Map<String, JsonNode>> {
        assertTrue(root.isObject, "$root")
        return root.properties().associate { (benchmark, measures) ->
            assertTrue(benchmark.isNotEmpty() && measures.isObject, "$benchmark: $measures")
            benchmark to measures.properties().associate { (measure, metric) ->
                assertTrue(measure.isNotEmpty() && metric.isObject, "$benchmark/$measure: $metric")
                assertTrue(metric["value"]?.isNumber == true, "$benchmark/$measure: $metric")
                for (bound in listOf("lower_value", "upper_value")) {
                    assertTrue(metric[bound]?.isNumber ?: true, "$benchmark/$measure: $metric")
                }
                // Not in the schema, but what the bounds mean.
                if (metric.has("lower_value")) {
                    assertTrue(metric["lower_value"].asDouble() <= metric["value"].asDouble(), "$metric")
                    assertTrue(metric["value"].asDouble() <= metric["upper_value"].asDouble(), "$metric")
                }
                measure to metric
            }
        }
    }

    @Test
    fun `bigger-is-better holds each steady run's req per s, named by benchmark and parameters`() {
        val (root, leftOut) = export(Format.BIGGER)
        val byName = assertGithubShape(root)
        assertEquals(
            setOf(
                "NoopBenchmark.hello (clientThreads=1, concurrency=64, rate=0, server=netty) · req/s",
                "CpuBenchmark.direct (concurrency=64, limit=10000, server=tomcat) · req/s",
                "DelayBenchmark.delay (concurrency=8) · req/s",
            ),
            byName.keys,
        )
        val noop = byName.getValue(
            "NoopBenchmark.hello (clientThreads=1, concurrency=64, rate=0, server=netty) · req/s",
        )
        assertEquals("req/s", noop["unit"].asString())
        assertEquals(71276.5, noop["value"].asDouble())
        assertEquals("± 6550", noop["range"].asString())
        assertTrue(noop["extra"].asString().contains("1 fork × 5 iterations of 5 s"), "$noop")
        assertTrue(noop["extra"].asString().contains("JDK 17.0.15"), "$noop")
        val cpu = byName.getValue("CpuBenchmark.direct (concurrency=64, limit=10000, server=tomcat) · req/s")
        assertTrue(cpu["extra"].asString().contains("warnings: littlesLaw"), "$cpu")
        // No interval, no range.
        val delay = byName.getValue("DelayBenchmark.delay (concurrency=8) · req/s")
        assertNull(delay["range"])
        assertTrue(!delay["extra"].asString().contains("range"), "$delay")
        assertEquals(1, leftOut.size, "$leftOut")
        assertTrue(
            leftOut.single().startsWith("CpuBenchmark.completableFuture (concurrency=64, limit=10000"),
            "$leftOut",
        )
        assertTrue(leftOut.single().contains("not steady"), "$leftOut")
    }

    @Test
    fun `smaller-is-better holds p99 in ms and server CPU per request in microseconds`() {
        val (root, _) = export(Format.SMALLER)
        val byName = assertGithubShape(root)
        val noop = "NoopBenchmark.hello (clientThreads=1, concurrency=64, rate=0, server=netty)"
        val p99 = byName.getValue("$noop · p99")
        assertEquals("ms", p99["unit"].asString())
        assertEquals(8.511, p99["value"].asDouble())
        // p99's interval is the range of its per-iteration values, asymmetric: its ends, said as what they are.
        assertEquals("8.107 – 9.471", p99["range"].asString())
        assertTrue("lowest to highest p99 of the" in p99["extra"].asString(), "$p99")
        assertFalse("JMH's 99.9 % interval" in p99["extra"].asString(), "$p99")
        val cpu = byName.getValue("$noop · server CPU/req")
        assertEquals("µs", cpu["unit"].asString())
        assertEquals(20.3, cpu["value"].asDouble())
        assertEquals(
            210.0,
            byName.getValue(
                "CpuBenchmark.direct (concurrency=64, limit=10000, server=tomcat) · server CPU/req",
            )["value"].asDouble(),
        )
        // A run without server CPU (as against a remote target) has its p99 only, converted from µs.
        val delay = byName.filterKeys { it.startsWith("DelayBenchmark.delay") }
        assertEquals(setOf("DelayBenchmark.delay (concurrency=8) · p99"), delay.keys)
        assertEquals(2.5, delay.values.single()["value"].asDouble(), 1e-12)
        assertEquals(5, byName.size, "${byName.keys}")
    }

    @Test
    fun `bencher metric format holds throughput, p99 and server CPU per run, with the interval as bounds`() {
        val (root, leftOut) = export(Format.BENCHER)
        val benchmarks = assertBencherShape(root)
        assertEquals(
            setOf(
                "NoopBenchmark.hello (clientThreads=1, concurrency=64, rate=0, server=netty)",
                "CpuBenchmark.direct (concurrency=64, limit=10000, server=tomcat)",
                "DelayBenchmark.delay (concurrency=8)",
            ),
            benchmarks.keys,
        )
        val noop = benchmarks.getValue("NoopBenchmark.hello (clientThreads=1, concurrency=64, rate=0, server=netty)")
        assertEquals(setOf("throughput", "latency-p99-ms", "server-cpu-per-request-us"), noop.keys)
        assertEquals(71276.5, noop.getValue("throughput")["value"].asDouble())
        assertEquals(64726.25, noop.getValue("throughput")["lower_value"].asDouble())
        assertEquals(77826.75, noop.getValue("throughput")["upper_value"].asDouble())
        assertEquals(18.5, noop.getValue("server-cpu-per-request-us")["lower_value"].asDouble(), 1e-9)
        // An interval of few iterations can reach below 0; CPU per request cannot.
        val cpu = benchmarks.getValue("CpuBenchmark.direct (concurrency=64, limit=10000, server=tomcat)")
        assertEquals(0.0, cpu.getValue("server-cpu-per-request-us")["lower_value"].asDouble())
        assertEquals(460.0, cpu.getValue("server-cpu-per-request-us")["upper_value"].asDouble(), 1e-9)
        val delay = benchmarks.getValue("DelayBenchmark.delay (concurrency=8)")
        assertEquals(setOf("throughput", "latency-p99-ms"), delay.keys)
        // JMH could not tell an interval: the value alone.
        assertEquals(setOf("value"), delay.getValue("throughput").propertyNames().toSet())
        assertEquals(1, leftOut.size, "$leftOut")
    }

    @Test
    fun `format names are the options scripts-report documents`() {
        assertEquals(Format.BENCHER, Format.of("bencher"))
        assertEquals(Format.BIGGER, Format.of("github-benchmark-bigger"))
        assertEquals(Format.SMALLER, Format.of("github-benchmark-smaller"))
        assertNull(Format.of("json"))
    }

    /** Fails before: a target's points and in-process points of the same run joined one series. */
    @Test
    fun `a run against a target is a series of its own`() {
        val params = mapOf("server" to "netty", "concurrency" to "64")
        val remote = mapOf(MetricCatalogue.SERVER_REMOTE.name to Metric(1.0, 0.0, "flag"))
        assertEquals(
            "NoopBenchmark.hello (concurrency=64, server=netty)",
            TrackerExport.name(row("NoopBenchmark.hello", params)),
        )
        assertEquals(
            "NoopBenchmark.hello (concurrency=64, server=netty, target)",
            TrackerExport.name(row("NoopBenchmark.hello", params, secondary = remote)),
        )
    }
}
