package serverbench.hyperfoil

import serverbench.benchmarks.HttpBenchmark
import serverbench.client.ClientSettings
import serverbench.client.LoadSplit
import serverbench.client.Method
import serverbench.client.Request
import serverbench.launcher.Plan
import serverbench.params.ClientThreadsParam
import serverbench.params.Knobs
import serverbench.params.LaterParams
import serverbench.params.Objective
import serverbench.params.ParamNames
import serverbench.params.ParamValues
import serverbench.params.RunName
import serverbench.params.TargetLimits

/**
 * One planned run as Hyperfoil runs it: the variant's request and the only answer that counts (status 2xx and the
 * exact body), the connections, the closed loop (`users`) or open loop (`usersPerSec`, at most `concurrency`
 * sessions), and what Hyperfoil measures differently from the harness ([notes], printed with the export).
 */
class Workload(
    val run: Plan.Run,
    val request: Request,
    val concurrency: Int,
    /** Requests per second on a fixed schedule; 0 = closed loop. */
    val rate: Int,
    /** Hyperfoil's event loops (`threads`), from `-p clientThreads` as the harness resolves it on this machine. */
    val threads: Int,
    val timeoutMillis: Long,
    val notes: List<String>,
) {
    val openLoop: Boolean get() = rate > 0

    /** "NoopBenchmark.hello (server=netty, concurrency=64)": the run's name, unset knobs left out. */
    val name: String = RunName.of(run.benchmark, run.params.filterNot { Knobs.unset(it.key, it.value) })

    /** The run's name as a file name: `NoopBenchmark.hello_server-netty_concurrency-64`. */
    val fileName: String = name.replace(" (", "_").removeSuffix(")").replace(", ", "_").replace('=', '-')
        .replace(Regex("[^A-Za-z0-9._-]"), "_")

    companion object {
        /** The families Hyperfoil cannot run the way the harness measures them, and why. */
        private val REFUSED = mapOf(
            "DatabaseBenchmark" to "its server needs the PostgreSQL a benchmark starts beside it (scripts/serve " +
                "has none), and its bodies differ per response (a number larger than the connection's last), a " +
                "check by shape Hyperfoil's handlers cannot express",
        )

        /** SelfCheck variants that are plain HTTP; the others need the harness's in-process hooks or its timing. */
        private val SELF_CHECKS = setOf("status500", "status503", "wrongBody", "failAfter")

        private val PROXY_NOTE = "Hyperfoil checks each proxied response's status and body, not that each request " +
            "reached the downstream stub exactly once (the harness counts the stub's hits per iteration)"

        /** How the run reaches the server it is pointed at, as a refusal of what that server cannot take words it. */
        val ELSEWHERE = TargetLimits.Elsewhere("for Hyperfoil", "the server", " and pass --server-host host:port")

        /** Spring's property for Tomcat's requests per keep-alive connection; -1 = unlimited. */
        const val TOMCAT_KEEP_ALIVE = "server.tomcat.max-keep-alive-requests"

        private val TOMCAT_NOTE = "Hyperfoil 0.25.2 does not honour a response's Connection: close, which Tomcat " +
            "sends on every 100th response of a connection by default (the harness reconnects and counts " +
            "reconnects), so a request it sends on the closing connection fails: the in-VM run serves Tomcat with " +
            "-D$TOMCAT_KEEP_ALIVE=-1 (keep-alive unlimited), and a --server-host or a controller's target must run " +
            "with JAVA_OPTS=-D$TOMCAT_KEEP_ALIVE=-1 too; the harness's rows measure default Tomcat"

        private val OPEN_LOOP_NOTE = "open loop: Hyperfoil 0.25.2's latency runs from each request's actual send " +
            "(the harness's latency.uncorrected.*). It is the corrected latency.* as well only while every request " +
            "went when due: when all concurrency sessions or connections were busy, Hyperfoil sends the next one " +
            "when one frees (late, as the harness does) without counting the wait, and the row then has " +
            "warning.behindSchedule and no latency.* (Hyperfoil 0.29.0 measures from the scheduled send)"

        /** TLS, per-connection request limits and HTTP/2 are the harness's: refused with where to measure them. */
        private fun requireConnectionParams(params: Map<String, String>) {
            require(params[ParamNames.WORKLOAD] == null) {
                "-p workload: a .http workload is not exported to Hyperfoil yet (its mix, templates and checks are " +
                    "the harness's); drive it with the harness, in-process or -Dserverbench.target=host:port"
            }
            require(params[ParamNames.SERVER] != ParamValues.OTHER) {
                "-p server=other: not on Hyperfoil (it drives a scripts/serve stack it starts or names): drive a " +
                    "server of another kind with the harness, -Dserverbench.target=host:port"
            }
            // The export writes an http:// host; TLS on Hyperfoil (its own certificates and engine) is not done here.
            require(params[ParamNames.TLS] != ParamValues.TRUE) {
                "-p tls=true: not on Hyperfoil (its workload speaks plain HTTP here); drive HTTPS with the harness " +
                    "(docs/tls.md)"
            }
            val requests = ParamNames.REQUESTS_PER_CONNECTION
            params[requests]?.takeIf { !LaterParams.isDefault(requests, it) }?.let {
                throw IllegalArgumentException(
                    "-p requestsPerConnection=$it: not on Hyperfoil (its connections stay open); measure connections " +
                        "and handshakes with the harness (docs/tls.md)",
                )
            }
            val protocol = params[ParamNames.PROTOCOL]
            require(protocol == null || LaterParams.isDefault(ParamNames.PROTOCOL, protocol)) {
                "-p protocol=h2: not on Hyperfoil (its workload speaks HTTP/1.1 here); drive HTTP/2 with the harness " +
                    "(docs/http2.md)"
            }
        }

        /**
         * The workload of [run], or [IllegalArgumentException] with the one line that says why Hyperfoil cannot run
         * it the way the harness measures it.
         */
        fun of(run: Plan.Run): Workload {
            val className = run.className.substringAfterLast('.')
            val shown = RunName.of(run.benchmark, run.params.filterNot { Knobs.unset(it.key, it.value) })
            REFUSED[className]?.let { throw IllegalArgumentException("$shown: not on Hyperfoil: $it") }
            if (className == "SelfCheckBenchmark" && run.method !in SELF_CHECKS) {
                throw IllegalArgumentException(
                    "$shown: not on Hyperfoil: it needs the harness's in-process hooks or its client timing; " +
                        "these self-checks run on Hyperfoil: ${SELF_CHECKS.joinToString(", ")}",
                )
            }
            run.params[ParamNames.OBJECTIVE]?.takeIf { it != Objective.NONE }?.let {
                throw IllegalArgumentException(
                    "-p objective=$it: not on Hyperfoil: a capacity search judges each step's percentiles in the " +
                        "harness (Hyperfoil 0.25.2's percentile SLA checks p0.99 for \"p99\", and its open-model " +
                        "latency runs partly from the actual send); run it with java -jar target/benchmarks.jar " +
                        "(docs/capacity.md), or export fixed rates (-p rate) and read their latency.* here",
                )
            }
            TargetLimits.refusal(run.params, ELSEWHERE)?.let { throw IllegalArgumentException(it) }
            requireConnectionParams(run.params)
            val request = request(run)
            if (request.shape != null) {
                throw IllegalArgumentException("$shown: not on Hyperfoil: its bodies are checked by shape")
            }
            notPlainGet(request)?.let { throw IllegalArgumentException("$shown: not on Hyperfoil: $it") }
            val notes = listOfNotNull(
                PROXY_NOTE.takeIf { className == "ProxyBenchmark" },
                TOMCAT_NOTE.takeIf { run.params[ParamNames.SERVER] == ParamValues.TOMCAT },
                OPEN_LOOP_NOTE.takeIf { (run.params[ParamNames.RATE]?.toIntOrNull() ?: 0) > 0 },
            )
            return Workload(
                run,
                request,
                concurrency = run.params[ParamNames.CONCURRENCY]?.toInt() ?: 64,
                rate = run.params[ParamNames.RATE]?.toInt() ?: 0,
                threads = run.params[ParamNames.CLIENT_THREADS]?.let { ClientThreadsParam.count(it) }
                    ?: LoadSplit.auto(Runtime.getRuntime().availableProcessors()),
                timeoutMillis = ClientSettings.fromSystemProperties().timeout.toMillis(),
                notes = notes,
            )
        }

        /** Why the generated files, which send one constant GET, cannot send [request]; null: they can. */
        private fun notPlainGet(request: Request): String? = when {
            // A POST with the family's body is not written yet.
            request.hasBody -> "its requests carry a body"

            request.method != Method.GET -> "its requests are ${request.method}s"

            request.headers.isNotEmpty() -> "its requests carry headers of their own"

            request.templated -> "its requests' paths have placeholders"

            // The generated files check a 2xx status and the exact body only.
            request.expect != null -> "its responses are checked by a declared expectation (${request.expect})"

            else -> null
        }

        /**
         * The variant's request as the benchmark itself builds it: an instance of the benchmark class with the run's
         * parameter values set, as JMH sets its `@Param` fields, asked for [HttpBenchmark.request].
         */
        private fun request(run: Plan.Run): Request {
            val benchmark = Class.forName(run.className).getDeclaredConstructor().newInstance() as HttpBenchmark
            for ((name, value) in run.params) {
                val setter = benchmark.javaClass.methods.firstOrNull {
                    it.name == "set" + name.replaceFirstChar { c -> c.uppercase() } && it.parameterCount == 1
                } ?: continue
                val converted: Any = when (setter.parameterTypes[0]) {
                    Int::class.javaPrimitiveType -> value.toInt()
                    Long::class.javaPrimitiveType -> value.toLong()
                    else -> value
                }
                setter.invoke(benchmark, converted)
            }
            return benchmark.request(run.method)
        }
    }
}
