package serverbench.client

import java.util.concurrent.atomic.AtomicLong

/**
 * A [LoadClient]'s place in a [LoadGroup]: the group's other threads' successes that its [LoadClient.next] also
 * returns ([others], the benchmark thread's client only), the open-loop phase that interleaves its schedule with
 * theirs, the failure total the tolerance applies to (all threads'), and whether the target may be off loopback (asked
 * for explicitly). The defaults are a client alone.
 */
class GroupShare internal constructor(
    internal val others: OtherThreads? = null,
    internal val phaseNanos: Long = 0,
    internal val trialTotal: AtomicLong = AtomicLong(),
    internal val remoteAllowed: Boolean = false,
)

/** What the group's other threads completed, which the benchmark thread's [LoadClient.next] returns. */
internal interface OtherThreads {
    /** Successes completed since the last call; throws the [LoadFailure] that stopped another thread. */
    fun collect(): Long

    /** Starts counting from now (at the window's start). */
    fun reset()
}
