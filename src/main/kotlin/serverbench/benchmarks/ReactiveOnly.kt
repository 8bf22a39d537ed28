package serverbench.benchmarks

/**
 * A benchmark method whose handler exists on reactive stacks only (a WebFlux idiom MVC has no equivalent for). The
 * launcher skips its runs on the other stacks with a one-line notice; a run that bypasses the launcher fails in one
 * line saying so.
 */
@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
annotation class ReactiveOnly(val why: String)
