package serverbench.hyperfoil

import org.openjdk.jmh.annotations.Mode
import serverbench.launcher.Plan
import tools.jackson.databind.json.JsonMapper

/**
 * A [Workload] as a Hyperfoil 0.25.2 benchmark file, which Hyperfoil's own parser reads (in-VM here, or on its
 * controller with agents): the target, a warmup phase and a measured phase of the same load, and the checks that make
 * a response count (status 2xx, the exact body). Any other response fails the run at once, as in the harness
 * (`serverbench.maxErrors` 0): a `fail` action ends the phase with a line saying what came back, and the request's SLA
 * (`errorRatio`/`invalidRatio` 0) fails it for connection errors and timeouts, which Hyperfoil counts instead.
 */
object HyperfoilYaml {
    /** The phase Hyperfoil warms up in, whose figures are not kept, and the one measured. */
    const val WARMUP = "warmup"
    const val MEASURE = "measure"

    /** Where the stored body goes, for the body check. */
    private const val BODY_VAR = "serverbenchBody"

    class Sizing(val warmupSeconds: Int, val iterations: Int, val iterationSeconds: Int) {
        val measureSeconds: Int get() = iterations * iterationSeconds
    }

    /** The comment line that names the run a file was written for (one line of JSON after it). */
    const val IDENTITY = "# serverbench-run: "

    private val mapper = JsonMapper.builder().build()

    private fun identity(w: Workload, sizing: Sizing): String = mapper.writeValueAsString(
        mapOf(
            "benchmark" to w.run.benchmark,
            "params" to w.run.params,
            "warmupSeconds" to sizing.warmupSeconds,
            "iterations" to sizing.iterations,
            "iterationSeconds" to sizing.iterationSeconds,
        ),
    )

    /** The run and sizing a file written by [write] was made for, from its [IDENTITY] line; null without one. */
    fun identity(text: String): Pair<Plan.Run, Sizing>? {
        val line = text.lineSequence().firstOrNull { it.startsWith(IDENTITY) } ?: return null
        val node = mapper.readTree(line.removePrefix(IDENTITY))
        val params = LinkedHashMap<String, String>()
        node["params"].properties().forEach { (k, v) -> params[k] = v.asString() }
        val sizing = Sizing(node["warmupSeconds"].asInt(), node["iterations"].asInt(), node["iterationSeconds"].asInt())
        val run = Plan.Run(
            node["benchmark"].asString(),
            Mode.Throughput,
            params,
            0,
            sizing.iterations,
        )
        return run to sizing
    }

    /**
     * The file for [w] against `http://[target]` (host:port), its phases sized by [sizing]; with [agents] (Hyperfoil's
     * `agents:` inline form, `name: host:port` or `user@host:port`) its controller splits users, rate and connections
     * between them.
     */
    fun write(w: Workload, target: String, sizing: Sizing, agents: Map<String, String> = emptyMap()): String {
        val path = w.request.path
        val out = StringBuilder()
        out.append("# ${w.name}, written by scripts/hyperfoil for Hyperfoil 0.25.2.\n")
        out.append("# ${describeLoad(w)}; warmup ${sizing.warmupSeconds} s (its figures not kept), then ")
        out.append("${sizing.iterations} x ${sizing.iterationSeconds} s measured.\n")
        out.append("# A response counts when its status is 2xx and its body is exactly the expected one; any other\n")
        out.append("# fails the run at once (a fail action), and connection errors or timeouts fail it by its SLA.\n")
        w.notes.forEach { note -> wrap("Differs from the harness: $note.").forEach { out.append("# $it\n") } }
        // What `scripts/hyperfoil --import` needs to fold a controller's results of this file into the harness's JSON.
        out.append("$IDENTITY${identity(w, sizing)}\n")
        out.append("name: ${quote(w.fileName)}\n")
        if (agents.isNotEmpty()) {
            out.append("agents:\n")
            agents.forEach { (name, address) -> out.append("  ${quote(name)}: ${quote(address)}\n") }
        }
        out.append("threads: ${w.threads}\n")
        out.append("http:\n")
        out.append("  host: ${quote("http://$target")}\n")
        out.append("  sharedConnections: ${w.concurrency}\n")
        out.append("  requestTimeout: ${w.timeoutMillis}ms\n")
        out.append("phases:\n")
        phase(out, WARMUP, w, sizing.warmupSeconds, warmup = true)
        out.append("      scenario: &scenario\n")
        out.append("      - request:\n")
        out.append("        - httpRequest:\n")
        out.append("            GET: ${quote(path)}\n")
        out.append("            sla:\n")
        out.append("              errorRatio: 0\n")
        out.append("              invalidRatio: 0\n")
        out.append("            handler:\n")
        out.append("              status:\n")
        out.append("              - range: 2xx\n")
        out.append("              - action:\n")
        for ((range, what) in listOf("100-199,300-399" to "1xx or 3xx", "4xx" to "4xx", "5xx" to "5xx")) {
            out.append("                  ${quote(range)}:\n")
            out.append("                  - fail: ${quote("GET $path answered HTTP $what, not 2xx")}\n")
        }
        out.append("              body:\n")
        out.append("                store: $BODY_VAR\n")
        out.append("              onCompletion:\n")
        val expected = w.request.expectedBody
        val shown = if (expected.length > 60) expected.take(57) + "..." else expected
        // Hyperfoil runs the completion handlers after a connection error or timeout too: no body then.
        failUnless(
            out,
            "GET $path got no body (an empty one, or the connection failed or timed out first), expected \"$shown\"",
            "isSet: false",
        )
        failUnless(out, "GET $path answered another body than \"$shown\"", "notEqualTo: ${quote(expected)}")
        phase(out, MEASURE, w, sizing.measureSeconds, warmup = false)
        out.append("      startAfterStrict: $WARMUP\n")
        out.append("      scenario: *scenario\n")
        return out.toString()
    }

    /** "closed loop, 64 users over 64 connections" or "open loop at 2000 req/s, at most 64 sessions ...". */
    fun describeLoad(w: Workload): String = if (w.openLoop) {
        "open loop at ${w.rate} req/s on a fixed schedule, at most ${w.concurrency} sessions over " +
            "${w.concurrency} connections, ${w.threads} thread(s)"
    } else {
        "closed loop, ${w.concurrency} users (one request each in flight) over ${w.concurrency} connections, " +
            "${w.threads} thread(s)"
    }

    private fun phase(out: StringBuilder, name: String, w: Workload, seconds: Int, warmup: Boolean) {
        out.append("- $name:\n")
        if (w.openLoop) {
            out.append("    constantRate:\n")
            out.append("      usersPerSec: ${w.rate}\n")
            out.append("      maxSessions: ${w.concurrency}\n")
            // A fixed schedule, as the harness's open loop (Hyperfoil's default draws Poisson arrivals).
            out.append("      variance: false\n")
            // All sessions busy: the next request goes when one frees, late, as the harness sends it (not a failure).
            out.append("      sessionLimitPolicy: CONTINUE\n")
        } else {
            out.append("    always:\n")
            out.append("      users: ${w.concurrency}\n")
        }
        out.append("      duration: ${seconds}s\n")
        if (warmup) out.append("      isWarmup: true\n")
    }

    private fun failUnless(out: StringBuilder, message: String, condition: String) {
        out.append("              - fail:\n")
        out.append("                  message: ${quote(message)}\n")
        out.append("                  stringCondition:\n")
        out.append("                    fromVar: $BODY_VAR\n")
        out.append("                    $condition\n")
    }

    /** Comment lines within 120 columns. */
    private fun wrap(text: String): List<String> = text.split(' ').fold(mutableListOf("")) { lines, word ->
        if (lines.last().isNotEmpty() && lines.last().length + word.length + 1 > 116) {
            lines += word
        } else {
            lines[lines.size - 1] = (lines.last() + " " + word).trim()
        }
        lines
    }

    /** A YAML double-quoted scalar. */
    fun quote(s: String): String = "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\""
}
