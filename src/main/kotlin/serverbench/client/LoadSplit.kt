package serverbench.client

/**
 * How the threads of a [LoadGroup] share the load: each its own connections and, open loop, its own share of the rate.
 * Connections are split as evenly as they go (the first threads take one more when they do not divide); the rate
 * evenly, each thread's schedule offset so that the group's requests stay evenly spaced ([OpenLoop]'s phase).
 */
class LoadSplit private constructor(
    /** Connections of each thread, thread 0 (the benchmark thread) first. */
    val connections: List<Int>,
    /** Requests per second of each thread; 0 in closed loop. */
    val rates: List<Double>,
    /** Why fewer threads run than were asked for; null when all of them do. */
    val reduction: String?,
) {
    val threads: Int get() = connections.size

    /** "32 + 32 connections" (closed loop) or "1000 + 1000 req/s on up to 32 + 32 connections" (open loop). */
    fun describe(): String {
        val conns = connections.joinToString(" + ") + " connections"
        return if (rates[0] == 0.0) {
            conns
        } else {
            rates.joinToString(" + ") { LoadClient.rateText(it) } + " req/s on up to $conns"
        }
    }

    companion object {
        /**
         * `-p clientThreads=auto`: one client thread per [PROCESSORS_PER_THREAD] processors this JVM may use (the
         * server's budget under `-p cpus`/`-p cpuset`), at least one, so exactly 1 below 8 processors: every figure
         * measured on 2 cores stays comparable. Why 4: sharing the cores, the client needs c ÷ (s + c) of them (c, s:
         * client and server CPU per request), under a quarter as measured (docs/scaling-the-load.md).
         */
        const val PROCESSORS_PER_THREAD = 4

        fun auto(processors: Int): Int = maxOf(1, processors / PROCESSORS_PER_THREAD)

        /**
         * `auto` for a server on its own host with [serverProcessors]: the server no longer gives cores to the client,
         * so it can serve more, and the client needs a thread per [REMOTE_PROCESSORS_PER_THREAD] of its processors
         * (rounded up), but no more than this host's [clientProcessors].
         */
        fun autoRemote(serverProcessors: Int, clientProcessors: Int): Int =
            ((serverProcessors + REMOTE_PROCESSORS_PER_THREAD - 1) / REMOTE_PROCESSORS_PER_THREAD)
                .coerceIn(1, maxOf(1, clientProcessors))

        /**
         * A thread's worth of server when client and server do not share cores: the client costs c ÷ s of the server's
         * CPU per request, up to a third as measured (docs/scaling-the-load.md).
         */
        const val REMOTE_PROCESSORS_PER_THREAD = 3

        /**
         * [connections] and [rate] (0: closed loop) over up to [threads] threads. Fewer threads run when each would not
         * have a connection of its own, or (open loop) a request per second: [reduction] says so.
         */
        fun of(connections: Int, rate: Double, threads: Int): LoadSplit {
            require(connections >= 1 && threads >= 1 && rate >= 0) { "connections, threads >= 1 and rate >= 0" }
            val byRate = if (rate > 0) maxOf(1, rate.toLong().coerceAtMost(Int.MAX_VALUE.toLong()).toInt()) else threads
            val n = minOf(threads, connections, byRate)
            val reduction = when {
                n == threads -> null

                n == connections && connections < threads ->
                    "clientThreads=$threads reduced to $n: each thread needs a connection of its own " +
                        "(-p concurrency=$connections)"

                else ->
                    "clientThreads=$threads reduced to $n: each thread needs at least 1 request/s of " +
                        "-p rate=${LoadClient.rateText(rate)}"
            }
            val base = connections / n
            val extra = connections % n
            return LoadSplit(List(n) { base + if (it < extra) 1 else 0 }, List(n) { rate / n }, reduction)
        }
    }
}
