package serverbench.client

import java.util.concurrent.atomic.AtomicLong

/** Every way a request can fail. A failed request never counts as throughput. */
enum class FailureKind(val label: String) {
    NON_2XX("non-2xx"),
    INVALID_BODY("invalid body"),
    TIMEOUT("timeout"),
    IO_ERROR("connect/read error"),
    CLOSED("closed by server"),

    /** Open loop: never sent, because every allowed connection stayed busy for a whole timeout after it was due. */
    DROPPED("dropped (not sent)"),

    /** HTTP/2: the server reset the stream (RST_STREAM) before its response was complete. */
    RESET("stream reset"),

    /** HTTP/2: the server's GOAWAY left the stream unprocessed or cut it short. */
    GOAWAY("GOAWAY"),

    /** A 2xx that the request's declared statuses do not list ([ResponseExpectation.status]): 200 where 201 is due. */
    UNEXPECTED_STATUS("unexpected status"),
}

/**
 * Thrown from the benchmark method when the failures exceed the tolerated count; JMH then reports the benchmark as
 * failed. An [AssertionError], like Netty's microbenchmarks on an unexpected reply: the server broke the benchmark's
 * contract. It has no stack trace on purpose: JMH prints the throwable, and the message alone says what happened
 * (counts by kind and the first failure seen), so the user sees one line instead of forty frames of harness code.
 */
class LoadFailure(message: String) : AssertionError(message) {
    override fun fillInStackTrace(): Throwable = this
    override fun toString(): String = "serverbench: $message"
}

/** Failure counts by kind, plus the first failure's description. */
class FailureCounts {
    private val counts = LongArray(FailureKind.entries.size)
    var first: String? = null
        private set

    var total = 0L
        private set

    operator fun get(kind: FailureKind): Long = counts[kind.ordinal]

    fun add(kind: FailureKind, detail: String) {
        counts[kind.ordinal]++
        total++
        if (first == null) first = detail
    }

    /** Adds [other]'s counts (another client thread's); the first failure stays the earliest added. */
    fun addAll(other: FailureCounts) {
        for (i in counts.indices) counts[i] += other.counts[i]
        total += other.total
        if (first == null) first = other.first
    }

    fun reset() {
        counts.fill(0)
        total = 0
        first = null
    }

    fun copy(): FailureCounts = FailureCounts().also { c ->
        counts.copyInto(c.counts)
        c.total = total
        c.first = first
    }

    /** "2 non-2xx, 1 timeout" — only the kinds that occurred. */
    fun summary(): String = FailureKind.entries.filter { this[it] > 0 }.joinToString(", ") { "${this[it]} ${it.label}" }
}

/**
 * A client's failure accounting: a failed request counts in the trial (warmup included), where failures beyond
 * [ClientSettings.maxErrors] fail the benchmark, and in the current [iteration].
 */
internal class Failures(
    /** Which request (or mix) to which server, to prefix a failure of no one request with (a connect, a handshake). */
    private val what: String,
    /** The same for each entry of the mix, to prefix a failure of a request of that entry with. */
    private val entries: List<String>,
    private val settings: ClientSettings,
    private val iteration: FailureCounts,
    /** Failed requests of every client thread of the trial: the tolerance applies to their sum. */
    private val trialTotal: AtomicLong = AtomicLong(),
) {
    val trial = FailureCounts()

    /**
     * One failed request; [detail] says what was received or what went wrong, [entry] which entry of the mix it was
     * ([NO_ENTRY]: a failure of the connection, not of a request sent).
     */
    fun add(kind: FailureKind, detail: String, entry: Int = NO_ENTRY) {
        val text = "${if (entry == NO_ENTRY) what else entries[entry]}: $detail"
        trial.add(kind, text)
        iteration.add(kind, text)
        trialTotal.incrementAndGet()
    }

    /** Throws when the failures of all threads exceed the tolerance, from a thread that has some of its own to name. */
    fun failIfOverLimit() {
        if (trial.total > settings.maxErrors || (trial.total > 0 && trialTotal.get() > settings.maxErrors)) {
            throw LoadFailure(overLimitMessage())
        }
    }

    /** How many failed, by kind, the first failure, and which setting would let the benchmark through. */
    private fun overLimitMessage(): String {
        val tolerance = if (settings.maxErrors == 0L) "" else " (tolerated: ${settings.maxErrors})"
        val n = trialTotal.get()
        val hints = listOfNotNull(
            // A server that answers, only slower than the timeout (e.g. a Netty event loop blocked by each request).
            "if the server is just slow: -D${ClientSettings.TIMEOUT_PROPERTY}=N (now ${settings.timeout.toMillis()})"
                .takeIf { trial[FailureKind.TIMEOUT] > 0 },
            "to tolerate failures: -D${ClientSettings.MAX_ERRORS_PROPERTY}=N".takeIf { settings.maxErrors == 0L },
        )
        val others = if (n > trial.total) " on this client thread, ${n - trial.total} on the others" else ""
        val counted = "$n failed request${if (n == 1L) "" else "s"}$tolerance: ${trial.summary()}$others"
        return "$counted; first: ${trial.first}" +
            if (hints.isEmpty()) "" else " [${hints.joinToString("; ")}]"
    }

    companion object {
        /** A failure of no one entry of the mix: a connect, a TLS handshake, an open loop's request never sent. */
        const val NO_ENTRY = -1
    }
}
