package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.client.Request
import serverbench.client.RequestMix
import serverbench.params.ParamNames
import serverbench.workload.HttpVariables
import serverbench.workload.HttpWorkload
import java.nio.file.Path

/**
 * A workload written as a `.http` file (docs/http-files.md): its requests, each with its checks, sent in the
 * proportions of their `@weight`, to the built-in server `-p server` starts in this JVM, to any HTTP server
 * `-Dserverbench.target` names, or (extended by a class with `@ServerApplication`) to your own application.
 *
 * Run: `java -Dserverbench.target=127.0.0.1:8080 -jar target/benchmarks.jar HttpFileBenchmark -p workload=orders.http
 * -p server=other -p concurrency=8`
 */
@State(Scope.Benchmark)
open class HttpFileBenchmark : HttpBenchmark() {
    /** The `.http` file: a path, relative to the working directory. Required. */
    @Param("")
    var workload: String = ""

    private var loaded: RequestMix? = null

    /** The file's first request: what a caller that takes one request (a probe, an export) sees. */
    override fun request(variant: String): Request = requests(variant).entries.first().request

    override fun requests(variant: String): RequestMix = loaded ?: load(workload).also { loaded = it }

    @Benchmark
    fun http() = call()

    companion object {
        /**
         * The mix [workload] (a `-p workload` value) names, its variables from the `-D` properties; throws
         * [IllegalArgumentException] with one line (`orders.http:12: ...`), as the launcher says it before any fork.
         */
        fun load(workload: String): RequestMix {
            require(workload.isNotBlank()) {
                "HttpFileBenchmark needs -p ${ParamNames.WORKLOAD}=path/to/file.http (docs/http-files.md)"
            }
            val file = Path.of(workload)
            val http = HttpWorkload.load(file, HttpVariables.gather(file))
            return RequestMix(http.requests.map { RequestMix.Entry(it.request, it.weight, it.name) })
        }
    }
}
