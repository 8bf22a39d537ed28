package serverbench.metrics

/** Where the steady warmup reads how much the server's JIT wants to compile: this JVM's ([JitMeter]) or a target's. */
interface JitSource {
    /** What a figure is, for the console line. */
    val label: String

    fun sample(): JitMeter.Sample
}
