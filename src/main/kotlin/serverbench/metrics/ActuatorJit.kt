package serverbench.metrics

import serverbench.fixture.ActuatorEndpoint

/**
 * The JIT the steady warmup judges against a target with an Actuator ([ActuatorResources.jit]): its
 * `jvm.compilation.time` (Micrometer's `CompilationMXBean.totalCompilationTime`, ms), not this JVM's, whose compiler
 * compiles only the load client. Elapsed compile time, as TargetJit reads it from a serve process.
 */
internal class ActuatorJit(private val endpoint: ActuatorEndpoint) : JitSource {
    override val label = "the target's compile time (jvm.compilation.time), from its Actuator"

    /** Throws [IllegalStateException] with one line when the meter is gone or the endpoint does not answer. */
    override fun sample(): JitMeter.Sample {
        val reading = checkNotNull(endpoint.read(ActuatorResources.COMPILATION)) {
            "$endpoint no longer has ${ActuatorResources.COMPILATION}"
        }
        val nanos = try {
            reading.nanos("COUNT")
        } catch (e: IllegalArgumentException) {
            throw IllegalStateException("$endpoint: ${e.message}")
        }
        // Never a 0 for no figure: the warmup would read a quiet compiler.
        checkNotNull(nanos) { "$endpoint: ${ActuatorResources.COMPILATION} has no COUNT" }
        return JitMeter.Sample(emptyMap(), Math.round(nanos))
    }
}
