package serverbench.benchmarks

import serverbench.fixture.ServerSources

/** What a benchmark class declares of the user's code ([ServerEndpoints], [ServerApplication]), for the fixture. */
object OwnCode {
    fun sources(benchmark: Class<*>): ServerSources {
        val endpoints = declared(benchmark, ServerEndpoints::class.java)
        val app = declared(benchmark, ServerApplication::class.java)
        return ServerSources(
            endpoints = endpoints?.value?.map { it.java }.orEmpty(),
            packages = endpoints?.packages?.toList().orEmpty(),
            application = app?.value?.java,
            webType = app?.webType ?: endpoints?.webType.orEmpty(),
            config = app?.config ?: ServerSources.DEFAULT_CONFIG,
            database = embeddedPostgres(benchmark),
        )
    }

    /** Whether [benchmark] is a user's family (one carrying either annotation), not a built-in one. */
    fun isOwn(benchmark: Class<*>): Boolean = declared(benchmark, ServerEndpoints::class.java) != null ||
        declared(benchmark, ServerApplication::class.java) != null

    /** Whether [benchmark] asks for a PostgreSQL of its own ([EmbeddedPostgres]). */
    fun embeddedPostgres(benchmark: Class<*>): Boolean = declared(benchmark, EmbeddedPostgres::class.java) != null

    /** On the class or a superclass: JMH runs a generated subclass of the user's benchmark class. */
    private fun <A : Annotation> declared(benchmark: Class<*>, annotation: Class<A>): A? =
        generateSequence(benchmark) { it.superclass }.firstNotNullOfOrNull { it.getAnnotation(annotation) }
}
