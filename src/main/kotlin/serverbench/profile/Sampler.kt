package serverbench.profile

import one.profiler.AsyncProfiler

/**
 * Where [FlameProfiler]'s async-profiler commands go: the library in this JVM ([InProcess], the in-process server's),
 * or a library loaded into a target's JVM on this machine ([AttachedProfiler]). The commands and their output files
 * are the same either way, so the graphs are too.
 */
internal interface Sampler {
    /** Runs one async-profiler command (`start,event=…`, `dump,collapsed,file=…`, `stop,file=…`). */
    fun execute(command: String)

    /** Stack traces recorded since the profile started. */
    val samples: Long

    /** async-profiler's version, as its `version` command says it. */
    val version: String

    /** The profiled JVM's name and version. */
    val jdk: String

    /** What the graph's `.txt` says of the threads it shows, when not the benchmark's own JVM's; null in-process. */
    val profiled: String?

    /** This fork's JVM: async-profiler from the Maven artifact, loaded by its Java API. */
    object InProcess : Sampler {
        private fun profiler(): AsyncProfiler = AsyncProfiler.getInstance()

        override fun execute(command: String) {
            profiler().execute(command)
        }

        override val samples: Long get() = profiler().samples
        override val version: String get() = profiler().version
        override val jdk: String get() = "${System.getProperty("java.vm.name")} ${Runtime.version()}"
        override val profiled: String? = null
    }
}
