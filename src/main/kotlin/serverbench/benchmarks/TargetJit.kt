package serverbench.benchmarks

import serverbench.fixture.RemoteTarget
import serverbench.fixture.TargetStatus
import serverbench.metrics.JitMeter
import serverbench.metrics.JitSource

/**
 * The JIT the steady warmup judges against a target: the target's compile time from its admin endpoint, not this
 * JVM's, whose compiler compiles only the load client. A target that reports none leaves this JVM's figure, and the
 * label says so.
 */
internal class TargetJit private constructor(private val target: RemoteTarget) : JitSource {
    override val label = "the target's elapsed compile time, from its admin endpoint"

    override fun sample() = JitMeter.Sample(emptyMap(), target.status().jitNanos ?: 0)

    companion object {
        fun of(target: RemoteTarget, status: TargetStatus): JitSource = if (status.jitNanos != null) {
            TargetJit(target)
        } else {
            own("the target reports no compile time")
        }

        /** This JVM's own JIT, labelled with [why] the target's is not judged. */
        fun own(why: String): JitSource {
            val own = JitMeter()
            return object : JitSource by own {
                override val label = "this JVM's ${own.label}: $why"
            }
        }
    }
}
