package serverbench.client

import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import java.util.concurrent.atomic.AtomicLong

/**
 * One of a [LoadGroup]'s threads after the first: a [LoadClient] with its own event loop and connections, on a thread
 * of its own, told what to do once per iteration (begin, end, drain, close), never per request. Between [Kind.BEGIN]
 * and [Kind.END] it runs the load ([LoadClient.turn]) and adds each success to [successes]; otherwise it waits for the
 * next command, so nothing is sent or read between iterations, as on the benchmark thread.
 */
internal class ClientWorker(val index: Int, private val create: () -> LoadClient) {
    enum class Kind { BEGIN, END, DRAIN, CLOSE }

    private class Command(val kind: Kind, val maxWait: Duration? = null) {
        val result = CompletableFuture<Any?>()
    }

    /** Successes completed since start; written by this worker's thread only, read by the benchmark thread. */
    val successes = AtomicLong()

    /** What stopped the worker's thread (a [LoadFailure] beyond the tolerance, a stall); null while it runs. */
    @Volatile
    var failure: Throwable? = null
        private set

    @Volatile
    private var client: LoadClient? = null
    private val started = CompletableFuture<Unit>()
    private val commands = LinkedBlockingQueue<Command>()
    private val thread = Thread(::run, "${LoadGroup.THREAD_PREFIX}$index").apply { isDaemon = true }

    /** Starts the thread, which creates its client and opens its connections; [awaitStarted] waits for that. */
    fun start() = thread.start()

    fun awaitStarted(timeout: Duration) {
        await(started, timeout, "open its connections")
    }

    /** Sends [kind] and returns at once; [await] the result (all workers are told before any is waited for). */
    fun send(kind: Kind, maxWait: Duration? = null): CompletableFuture<Any?> {
        val command = Command(kind, maxWait)
        commands.put(command)
        client?.wakeup()
        // The thread may have ended before it took the command (its drain below then missed it).
        failure?.let { command.result.completeExceptionally(it) }
        return command.result
    }

    /** The result of [future], or the worker's own failure; a worker that does not answer in time is a failure. */
    fun <T> await(future: CompletableFuture<T>, timeout: Duration, what: String = "answer"): T = try {
        future.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
    } catch (e: ExecutionException) {
        throw e.cause ?: e
    } catch (e: TimeoutException) {
        throw LoadFailure("client thread $index did not $what within ${timeout.toMillis()} ms")
    }

    /** Complete responses since start (read while the worker waits between commands). */
    val responses: Long get() = client?.responses ?: 0

    private fun run() {
        var c: LoadClient? = null
        try {
            c = create().also { client = it }
            c.start()
            started.complete(Unit)
            while (true) {
                val command = commands.take()
                when (command.kind) {
                    Kind.BEGIN -> {
                        c.beginIteration(null)
                        command.result.complete(null)
                        turnUntilNextCommand(c)
                    }

                    Kind.END -> command.result.complete(c.endIteration())

                    Kind.DRAIN -> command.result.complete(c.drain(command.maxWait ?: c.settings.timeout))

                    Kind.CLOSE -> {
                        c.close()
                        command.result.complete(null)
                        return
                    }
                }
            }
        } catch (t: Throwable) {
            failure = t
            started.completeExceptionally(t)
            while (true) commands.poll()?.result?.completeExceptionally(t) ?: break
            runCatching { c?.close() }
        }
    }

    /** Drives [c]'s connections through an iteration, until the next command comes. */
    private fun turnUntilNextCommand(c: LoadClient) {
        while (commands.isEmpty()) {
            val read = c.turn()
            // One release store per batch of events, to a counter only this thread writes: no lock, no queue, no
            // hand-off per request.
            if (read > 0) successes.lazySet(successes.get() + read)
        }
    }
}
