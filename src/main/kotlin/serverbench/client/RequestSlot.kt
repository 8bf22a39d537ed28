package serverbench.client

import io.netty.channel.Channel

/**
 * One place a request can be in flight, as [Pacing] and [ConnectionSlots] see it: an HTTP/1.1 [Connection] (one
 * request at a time), or one stream of an HTTP/2 connection ([H2Stream]; `-p protocol=h2`), so that both loop models
 * drive connections × streams requests in flight without knowing which protocol carries them.
 */
internal interface RequestSlot {
    /** Index in [ConnectionSlots.all]. */
    val slot: Int

    /** The channel carrying this slot's requests (shared by the streams of one HTTP/2 connection). */
    val channel: Channel?

    /** When the request in flight was written. */
    val sentAt: Long

    /** When the request was due: [sentAt] in closed loop; the schedule's time in open loop. */
    val intendedAt: Long
    val inFlight: Boolean

    /** Sends the request; [due] is its scheduled time in open loop (0 in closed loop: due when sent). */
    fun send(due: Long)

    /** Still the slot's current carrier (not closed and replaced) and open. */
    fun isCurrent(): Boolean

    /** Open, not replaced, nothing in flight: may carry the next request. */
    fun isUsable(): Boolean

    /** The request in flight got no complete response within the timeout: a failure. */
    fun timedOut(now: Long)
}
