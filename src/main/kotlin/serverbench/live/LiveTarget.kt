package serverbench.live

import org.openjdk.jmh.annotations.Param
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.OwnCode
import serverbench.client.LoadSplit
import serverbench.client.RequestMix
import serverbench.params.ClientThreadsParam
import serverbench.params.CpuParams
import serverbench.params.Objective
import serverbench.params.ParamValues
import java.lang.reflect.Field

/**
 * What one benchmark run ([benchmark] with its parameter [values]) is to a live comparison: the requests the client
 * sends, on how many connections, and the arguments of `scripts/serve` (and the Spring properties, as `-D` options)
 * that start the same server in a process of its own. The benchmark class itself says both (its
 * [HttpBenchmark.requests] and its server properties), so a comparison sends what the JMH run would.
 *
 * A run that a process of its own cannot serve the same way (one whose server must be in the fork, TLS, HTTP/2, open
 * loop, a capacity search) has a [refusal] instead: `scripts/compare --mode forks` measures those.
 */
class LiveTarget private constructor(
    val benchmark: String,
    val values: Map<String, String>,
    val mix: RequestMix,
    val concurrency: Int,
    /** `--server X`, `--cpus N`, `--cpuset L`: what serve needs for a built-in stack. */
    val serveArgs: List<String>,
    /** The benchmark's own server properties (knobs, pool sizes), each a `-Dname=value` for the server's JVM. */
    val properties: Map<String, String>,
) {
    val method: String get() = benchmark.substringAfterLast('.')

    /** The client's threads: `-p clientThreads` as the run gives it, else the fork's automatic split of the machine. */
    val clientThreads: Int
        get() = values["clientThreads"]?.let(ClientThreadsParam::count)
            ?: LoadSplit.auto(Runtime.getRuntime().availableProcessors())

    /**
     * The command that starts this target's built-in server in a process of its own: [java] with scripts/serve's
     * flags, a CPU budget's processors (as scripts/serve adds them), [jvmOptions], the server properties as `-D`,
     * serve's main class of [jar] on free loopback ports, ending with this process.
     */
    fun serveCommand(java: String, jar: String, jvmOptions: List<String>): List<String> {
        val cpus = serveArgs.indexOf("--cpus").takeIf { it >= 0 }?.let { serveArgs[it + 1].toDoubleOrNull() }
        val processors = cpus?.let { listOf("-XX:ActiveProcessorCount=${Math.ceil(it).toInt()}") }.orEmpty()
        return listOf(java) + SERVER_JVM + processors + jvmOptions + properties.map { (k, v) -> "-D$k=$v" } +
            "-D${LiveServer.EXIT_WITH_PARENT}=true" + listOf("-cp", jar, LiveServer.SERVE_CLASS) + serveArgs +
            listOf("--port", "0")
    }

    /** A run that is right but not for a live comparison (its server must be in the fork, TLS, open loop, ...). */
    class NotLive(message: String) : IllegalArgumentException(message)

    companion object {
        /** scripts/serve's flags for a built-in stack: the benchmark forks' heap and collector. */
        val SERVER_JVM = listOf(
            "-Xms2g",
            "-Xmx2g",
            "-XX:+UseG1GC",
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
        )

        /** The target of [benchmark] (`pkg.Class.method`) with [values]; throws [IllegalArgumentException] if none. */
        fun of(benchmark: String, values: Map<String, String>, served: Boolean): LiveTarget {
            refusal(values)?.let { throw NotLive("${describe(benchmark, values)}: $it") }
            val type = Class.forName(benchmark.substringBeforeLast('.'))
            val instance = type.getDeclaredConstructor().newInstance() as? HttpBenchmark
                ?: throw IllegalArgumentException("$benchmark is not an HTTP benchmark")
            // A parameter not given takes its one default, as JMH would (one with several must be given).
            for (field in params(type)) {
                val value = values[field.name] ?: field.getAnnotation(Param::class.java).value.singleOrNull()
                if (value != null) set(instance, field, value)
            }
            if (!served) {
                ownProcessProblem(instance, type)?.let {
                    throw NotLive(
                        "${describe(benchmark, values)}: its server cannot run in a process of its own ($it); " +
                            "--mode forks measures it",
                    )
                }
            }
            val variant = benchmark.substringAfterLast('.')
            val mix = instance.requests(variant)
            val serve = if (served) emptyList() else serveArgs(values)
            val props = if (served) emptyMap() else instance.ownProcessProperties().mapValues { it.value.toString() }
            return LiveTarget(benchmark, values, mix, instance.concurrency, serve, props)
        }

        /** Why [instance]'s server must run inside the JMH fork, or null. */
        private fun ownProcessProblem(instance: HttpBenchmark, type: Class<*>): String? = instance.inProcessOnly
            ?: "its code is the user's (${OwnCode.sources(type).describe()})".takeIf { OwnCode.sources(type).own }
            ?: "its PostgreSQL (@EmbeddedPostgres) starts in the fork".takeIf { OwnCode.embeddedPostgres(type) }

        /** serve's arguments for a built-in stack: the stack, and the CPU budget as `scripts/serve` takes it. */
        private fun serveArgs(values: Map<String, String>): List<String> =
            listOf("--server", values.getValue("server")) +
                (values["cpus"]?.takeIf { it != CpuParams.UNLIMITED }?.let { listOf("--cpus", it) } ?: listOf()) +
                (values["cpuset"]?.takeIf { it != CpuParams.NONE }?.let { listOf("--cpuset", it) } ?: listOf())

        /** Why a run with [values] is not for a live comparison; null when it is. */
        fun refusal(values: Map<String, String>): String? = when {
            values["tls"] == "true" -> "TLS (-p tls=true)"

            values["protocol"]?.let { it != ParamValues.H1 } == true -> "HTTP/2 (-p protocol=${values["protocol"]})"

            values["rate"]?.let { it != "0" } == true -> "open loop (-p rate=${values["rate"]})"

            values["objective"]?.let { it != Objective.NONE } == true -> "a capacity search (-p objective)"

            values["requestsPerConnection"]?.let { it != ParamValues.UNLIMITED_REQUESTS } == true ->
                "new connections (-p requestsPerConnection)"

            else -> null
        }?.let { "a live comparison drives kept-alive HTTP/1.1 connections in a closed loop, not $it; --mode forks" }

        fun describe(benchmark: String, values: Map<String, String>): String =
            benchmark.substringAfterLast('.', "").let { m ->
                "${benchmark.substringBeforeLast('.').substringAfterLast('.')}.$m" +
                    if (values.isEmpty()) "" else " (${values.entries.joinToString(", ") { "${it.key}=${it.value}" }})"
            }

        /** Sets the `@Param` [field] of [instance] from its text, as JMH would. */
        private fun set(instance: Any, field: Field, value: String) {
            field.isAccessible = true
            field.set(
                instance,
                when (field.type) {
                    Int::class.javaPrimitiveType -> value.toInt()
                    Long::class.javaPrimitiveType -> value.toLong()
                    Double::class.javaPrimitiveType -> value.toDouble()
                    Boolean::class.javaPrimitiveType -> value.toBooleanStrict()
                    else -> value
                },
            )
        }

        /** The `@Param` fields of [type] and its superclasses. */
        private fun params(type: Class<*>): List<Field> =
            generateSequence(type) { it.superclass }.flatMap { t -> t.declaredFields.asSequence() }
                .filter { it.isAnnotationPresent(Param::class.java) }.toList()
    }
}
