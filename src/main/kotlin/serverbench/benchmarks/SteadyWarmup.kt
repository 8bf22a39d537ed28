package serverbench.benchmarks

import serverbench.client.ClientReport
import serverbench.client.ClientSettings
import serverbench.client.LoadGroup
import serverbench.client.Properties
import serverbench.client.RequestMix
import serverbench.metrics.JitMeter
import serverbench.metrics.JitSource
import serverbench.metrics.Steadiness
import java.net.InetSocketAddress
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Warmup until the server is steady, measured instead of assumed: load in windows, each window's successful req/s a
 * figure, until the last [Steadiness.WINDOWS] agree with each other and with the ones before them
 * ([Steadiness.warmedUp]), at least 2 × [Steadiness.WINDOWS] windows and at most [maxSeconds]. JMH's warmup is a
 * fixed count of iterations that it cannot end early, and no count suits every benchmark: how long the hot paths take
 * to compile differs several-fold between them (docs/warmup.md).
 *
 * Throughput alone can plateau while the JIT is still at work (docs/warmup.md), so the JIT must also be quiet:
 * its compiler threads' time on or waiting for a CPU over the last [Steadiness.WINDOWS] windows below [JIT_SHARE] of
 * their time ([JitMeter]: a starved compiler, which runs little while its queue waits, reads busy, not quiet).
 *
 * A compiler starved by the load ([starved]: it wanted over a quarter of a window, waiting longer than it ran) gets
 * a **lighter load** next ([Light]: a few connections of their own, e.g. 4 of 64) until a window in which it was busy
 * under [LIGHT_QUIET] of it, at most [MAX_LIGHT]. Under full load on 2 cores the compiler threads share the cores with
 * the client and every busy server thread (Tomcat's 64 workers at 64 connections): they run a few % of the time while
 * their queue waits, and the quick suite's CPU rows reached their limits still compiling (docs/warmup.md). Pausing the
 * load instead (tried first) gave the compiler the cores but no new invocations to profile, so each window at full load
 * queued more; a light load keeps the hot paths running with few server threads to share the cores with. Only
 * full-load windows are figures, and only their JIT counts towards quiet.
 *
 * Windows last max(1 s, 10 mean latencies), at most 5 s: a window must hold many round trips of every connection, or
 * whole bursts of responses (handlers that wait in step answer `concurrency` at a time) make its count jump. Where even
 * a 5 s window cannot be more precise than that, the tolerance widens to half a burst of all connections per window.
 */
class SteadyWarmup(private val maxSeconds: Long, private val jit: JitSource = JitMeter()) {

    /** The same warmup, judging [source]'s JIT (a target's) instead of this JVM's. */
    fun judging(source: JitSource) = SteadyWarmup(maxSeconds, source)

    class Outcome(
        val seconds: Double,
        val steady: Boolean,
        val figures: List<Double>,
        val windowSeconds: Double,
        val jitMillis: Long,
        /** What [jitMillis] is ([JitMeter.label]). */
        val jitLabel: String,
        /** Time under the [Light] load for a starved compiler, part of [seconds]. */
        val lightSeconds: Double = 0.0,
        val lightConnections: Int = 0,
    ) {
        private val lighter = if (lightSeconds > 0) {
            "; %.1f s at %d connections for a starved compiler".format(lightSeconds, lightConnections)
        } else {
            ""
        }

        fun describe(): String {
            val last = figures.takeLast(Steadiness.WINDOWS).joinToString(", ") { "%,.0f".format(it) }
            return if (steady) {
                "warmed up until steady in %.0f s (windows of %.1f s; last req/s: %s; JIT %d ms in them, %s%s)"
                    .format(seconds, windowSeconds, last, jitMillis, jitLabel, lighter)
            } else {
                (
                    "NOT steady after the %.0f s warmup limit (-D%s; last req/s: %s; JIT %d ms in them, %s; " +
                        "steady needs < %.0f %% of their time%s): measuring anyway, see the notSteady guard"
                    ).format(seconds, MAX_PROPERTY, last, jitMillis, jitLabel, JIT_SHARE * 100, lighter)
            }
        }
    }

    /**
     * Runs windows of load on [client]; [started] and [ended] run at each full window's start and end, as the
     * benchmark's own per-iteration checks run around a measurement iteration; [light] runs between full windows.
     */
    fun run(client: LoadGroup, light: Light?, started: () -> Unit, ended: () -> Unit): Outcome {
        val begun = System.nanoTime()
        val limit = TimeUnit.SECONDS.toNanos(maxSeconds)
        val figures = ArrayList<Double>()
        val jitNanos = ArrayList<Long>()
        val wall = ArrayList<Long>()
        var window = MIN_WINDOW
        var lightNanos = 0L
        while (true) {
            val jitBefore = jit.sample()
            val report = loadWindow(client, window, started, ended)
            val jitAfter = jit.sample()
            val seconds = report.wallNanos / 1e9
            val rate = if (seconds > 0) report.successes / seconds else 0.0
            figures += rate
            jitNanos += jitAfter.nanosSince(jitBefore)
            wall += report.wallNanos / 1_000_000
            val meanLatency = Duration.ofNanos((report.latencyMicros.mean * 1000 * LATENCIES_PER_WINDOW).toLong())
            val tolerance = maxOf(Steadiness.TOLERANCE, client.connections / (2.0 * report.successes.coerceAtLeast(1)))
            val elapsed = System.nanoTime() - begun
            val recentJit = jitNanos.takeLast(Steadiness.WINDOWS).sum() / 1_000_000
            val jitQuiet = recentJit <= JIT_SHARE * wall.takeLast(Steadiness.WINDOWS).sum()
            val steady = jitQuiet && Steadiness.warmedUp(figures, tolerance)
            val starved = starved(jitNanos.last(), jitAfter.waitSince(jitBefore), report.wallNanos)
            val mayLighten = !steady && elapsed < limit
            if (mayLighten && light != null && starved) lightNanos += lighter(light, limit - elapsed)
            val now = System.nanoTime() - begun
            if (steady || now >= limit) {
                return Outcome(
                    now / 1e9,
                    steady,
                    figures,
                    window.toMillis() / 1000.0,
                    recentJit,
                    jit.label,
                    lightNanos / 1e9,
                    light?.connections ?: 0,
                )
            }
            window = meanLatency.coerceIn(MIN_WINDOW, MAX_WINDOW)
        }
    }

    /**
     * The [light] load in windows of [LIGHT_WINDOW] until one in which the compiler threads were busy (or waiting)
     * under [LIGHT_QUIET] of it, [MAX_LIGHT], or [remainingNanos]; returns the nanoseconds it ran.
     */
    private fun lighter(light: Light, remainingNanos: Long): Long {
        val start = System.nanoTime()
        val most = minOf(MAX_LIGHT.toNanos(), remainingNanos)
        light.spell { group ->
            while (System.nanoTime() - start < most) {
                val before = jit.sample()
                val report = loadWindow(group, LIGHT_WINDOW, {}, {})
                if (jit.sample().nanosSince(before) < LIGHT_QUIET * report.wallNanos) break
            }
        }
        return System.nanoTime() - start
    }

    /**
     * The lighter load a starved compiler gets: [connections] of their own, opened by [open] (started) for each spell
     * of it, sending the benchmark's request. The benchmark's per-iteration checks do not run on it; each spell ends
     * drained and closed before the next full-load window, so none of its requests lands in one, and a family that
     * counts every request its server served (the proxy's stub) adds [responses] and, at most, [unanswered].
     */
    class Light(val connections: Int, private val open: () -> LoadGroup) {
        /** Complete responses of every spell so far. */
        var responses = 0L
            private set

        /** Requests a spell's drain could not wait out: each may have reached the server, or not. */
        var unanswered = 0
            private set

        /** Runs [load] on a new group, then lets its requests in flight finish (briefly) and closes it. */
        internal fun spell(load: (LoadGroup) -> Unit) {
            val group = open()
            try {
                load(group)
                unanswered += group.drain(Duration.ofSeconds(1))
            } finally {
                responses += group.responses
                group.close()
            }
        }

        companion object {
            /** The light load of a benchmark's [concurrency] on one client thread (HTTP/2: as many streams). */
            fun of(
                concurrency: Int,
                address: InetSocketAddress,
                request: RequestMix,
                settings: ClientSettings,
                remote: Boolean,
            ) = connections(concurrency)?.let { n ->
                Light(n) {
                    val streams = settings.copy(http2Streams = minOf(settings.http2Streams, n))
                    LoadGroup(address, n, request, streams, remoteAllowed = remote).also { it.start() }
                }
            }

            /** A quarter of [concurrency], at most 4; null where that is none (the full load is light already). */
            fun connections(concurrency: Int): Int? = minOf(concurrency / 4, MOST_CONNECTIONS).takeIf { it >= 1 }

            private const val MOST_CONNECTIONS = 4
        }
    }

    private fun loadWindow(client: LoadGroup, length: Duration, started: () -> Unit, ended: () -> Unit): ClientReport {
        client.beginIteration(length)
        started()
        val start = System.nanoTime()
        val nanos = length.toNanos()
        do client.next() while (System.nanoTime() - start < nanos)
        return client.endIteration().also { ended() }
    }

    companion object {
        /** Share of the windows' time the JIT may still spend compiling once steady. */
        const val JIT_SHARE = 0.05
        const val PROPERTY = "serverbench.warmup"
        const val MAX_PROPERTY = "serverbench.warmupMaxSeconds"
        const val DEFAULT_MAX_SECONDS = 120L
        private val MIN_WINDOW: Duration = Duration.ofSeconds(1)
        private val MAX_WINDOW: Duration = Duration.ofSeconds(5)
        private const val LATENCIES_PER_WINDOW = 10
        private val LIGHT_WINDOW: Duration = Duration.ofMillis(500)

        /** The light load ends after a window in which the compiler threads were busy under this share of it. */
        private const val LIGHT_QUIET = 0.2
        private val MAX_LIGHT: Duration = Duration.ofSeconds(10)

        /**
         * Starved: the compiler wanted over [STARVED_SHARE] of a window of [wallNanos] ([demandNanos], on or waiting
         * for a CPU) and waited for one ([waitNanos]) longer than it ran. Below that share (but over [JIT_SHARE]) its
         * stragglers keep the full load: after its burst a fork's compiler wants a little for a minute or more, and
         * lightening for that only cost the warmup its full-load windows (docs/warmup.md).
         */
        internal fun starved(demandNanos: Long, waitNanos: Long, wallNanos: Long): Boolean =
            demandNanos > STARVED_SHARE * wallNanos && 2 * waitNanos > demandNanos

        private const val STARVED_SHARE = 0.25

        /**
         * From `-Dserverbench.warmup=auto|off` (default auto) and `-Dserverbench.warmupMaxSeconds=N` (default 120),
         * which `-Dserverbench.warmupMaxSeconds.<BenchmarkClass>=N` overrides for one class (a suite whose families
         * need different limits, e.g. CPU work still compiling where a blocking wait is flat at once): null when off
         * (JMH's `-wi`/`-w` warm up alone). Throws [IllegalArgumentException] naming the property on bad input.
         */
        fun fromSystemProperties(benchmarkClass: String? = null): SteadyWarmup? {
            val mode = System.getProperty(PROPERTY, "auto").trim()
            require(mode == "auto" || mode == "off") { "-D$PROPERTY must be auto or off, was '$mode'" }
            return if (mode == "off") null else SteadyWarmup(maxSeconds(benchmarkClass))
        }

        /** The warmup limit for a benchmark class (its simple or full name), from the properties above. */
        fun maxSeconds(benchmarkClass: String?): Long {
            val own = benchmarkClass?.let { "$MAX_PROPERTY.${it.substringAfterLast('.')}" }
            val name = own?.takeIf { System.getProperty(it) != null } ?: MAX_PROPERTY
            return Properties.long(name, min = 1, unit = "seconds") ?: DEFAULT_MAX_SECONDS
        }
    }
}
