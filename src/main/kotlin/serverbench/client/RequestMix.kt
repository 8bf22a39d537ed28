package serverbench.client

/**
 * Several [Request]s a load client sends in proportion to their weights (docs/requests.md, "A mix of requests"): each
 * send takes the next entry of one fixed cycle, a smooth weighted round-robin (weights 3:1 give A A B A, interleaved,
 * so that the mix holds over any stretch of a run, not in blocks), each client thread with its own place in it. Each
 * response is held to the entry it answers. A one-entry mix ([of]) is a single request and costs what one costs.
 */
class RequestMix(val entries: List<Entry>) {
    /** One request of the mix, sent [weight] times per [weight] sum of the mix; [name] says it in failure messages. */
    class Entry @JvmOverloads constructor(
        val request: Request,
        val weight: Int = 1,
        val name: String = request.toString(),
    ) {
        init {
            require(weight >= 1) { "a request mix weight must be >= 1, was $weight for $name" }
            require(name.none { it == '\r' || it == '\n' }) { "a request mix entry's name must be one line: $name" }
        }

        /** What a failure names: the request, and its [name] when it has one of its own (`POST /orders (create)`). */
        val description: String =
            if (name == request.toString()) name else "${request.method} ${request.path} ($name)"

        override fun toString() = description
    }

    init {
        require(entries.isNotEmpty()) { "a request mix needs at least one request" }
        val total = entries.sumOf { it.weight.toLong() }
        require(total <= MAX_TOTAL_WEIGHT) { "a request mix's weights add up to at most $MAX_TOTAL_WEIGHT, not $total" }
    }

    val size: Int get() = entries.size

    /** Some entry carries a body: bytes written are then counted (`bytes.inPerReq`). */
    internal val anyBody: Boolean = entries.any { it.request.hasBody }

    /**
     * The order of the sends, by entry index: one cycle of smooth weighted round-robin (nginx's) over the weights
     * divided by their greatest common divisor. Each step adds every entry's weight to its credit and takes the entry
     * with the most (the first on a tie), which then pays the total: every entry comes [Entry.weight] times per cycle,
     * spread as evenly as the weights allow. Precomputed, so a send reads one int.
     */
    internal val cycle: IntArray = run {
        val divisor = entries.fold(0) { g, e -> gcd(g, e.weight) }
        val weights = IntArray(entries.size) { entries[it].weight / divisor }
        val total = weights.sum()
        val credit = IntArray(weights.size)
        IntArray(total) {
            var best = 0
            for (i in weights.indices) {
                credit[i] += weights[i]
                if (credit[i] > credit[best]) best = i
            }
            credit[best] -= total
            best
        }
    }

    /** The single request's text, or `mix of GET /a ×3, POST /orders (create) ×1`. */
    override fun toString(): String = if (entries.size == 1) {
        entries[0].description
    } else {
        entries.joinToString(", ", prefix = "mix of ") { "${it.description} ×${it.weight}" }
    }

    companion object {
        /** The cycle holds one int per unit of weight (after the common divisor): bounded, not a place for a ratio. */
        const val MAX_TOTAL_WEIGHT = 1_000_000L

        /** [request] alone: what a [LoadGroup] or [LoadClient] given one request sends. */
        @JvmStatic
        fun of(request: Request): RequestMix = RequestMix(listOf(Entry(request)))

        private tailrec fun gcd(a: Int, b: Int): Int = if (b == 0) a else gcd(b, a % b)
    }
}
