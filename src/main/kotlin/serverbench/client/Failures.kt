package serverbench.client

/** Every way a request can fail. A failed request never counts as throughput. */
enum class FailureKind(val label: String) {
    NON_2XX("non-2xx"),
    INVALID_BODY("invalid body"),
    TIMEOUT("timeout"),
    IO_ERROR("connect/read error"),
    CLOSED("closed by server"),
    /** Open loop: never sent, because every allowed connection stayed busy for a whole timeout after it was due. */
    DROPPED("dropped (not sent)"),
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
    fun summary(): String =
        FailureKind.entries.filter { this[it] > 0 }.joinToString(", ") { "${this[it]} ${it.label}" }
}
