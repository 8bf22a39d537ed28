package serverbench.metrics

/**
 * The figures of an iteration against a target that reports nothing of its own process (any HTTP server, without
 * `scripts/serve`'s admin endpoint or Actuator's metrics): every server-side figure is absent (-1, so none is
 * published), never a zero and never this JVM's, which runs only the client. What is known is the client's side: this
 * JVM's CPU time and this machine's busy share.
 */
class ClientSideResources(private val target: String) : ResourceSource {
    private val client = ClientSpan()

    override fun begin() = client.begin {}

    override fun end(): ResourceReport {
        val span = client.end {}
        return ResourceReport(
            processCpuNanos = -1,
            allocatedBytes = -1,
            peakThreads = -1,
            machineBusy = span.machineBusy,
            remoteServer = target,
            clientProcessCpuNanos = span.ownCpuNanos,
        )
    }
}
