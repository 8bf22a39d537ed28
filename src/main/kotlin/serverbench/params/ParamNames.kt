package serverbench.params

/**
 * The `-p` names other than the server knobs ([Knobs]): spelled here only, besides the `@Param` fields that declare
 * them, so that a rename or a typo is a compile error and not a check that silently matches nothing.
 */
object ParamNames {
    const val SERVER = "server"
    const val CONCURRENCY = "concurrency"
    const val RATE = "rate"
    const val OBJECTIVE = "objective"
    const val LIMIT = "limit"
    const val BATCH_SIZE = "batchSize"
    const val DELAY_MS = "delayMs"
    const val WORK_MS = "workMs"
    const val FAIL_AFTER_MS = "failAfterMs"
    const val QUERY = "query"
    const val DB_POOL = "dbPool"
    const val BODY_BYTES = "bodyBytes"
    const val TLS = "tls"
    const val PROTOCOL = "protocol"
    const val STREAMS = "streams"
    const val REQUESTS_PER_CONNECTION = "requestsPerConnection"
    const val CLIENT_THREADS = "clientThreads"
    const val CPUS = "cpus"
    const val CPUSET = "cpuset"

    /** `HttpFileBenchmark`'s `.http` file (docs/http-files.md). */
    const val WORKLOAD = "workload"
}
