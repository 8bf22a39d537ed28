package serverbench.benchmarks

/**
 * A benchmark method that needs a newer JDK than 17 (virtual threads need 21). On an older benchmark JVM the launcher
 * skips its runs with a one-line notice instead of failing them.
 */
@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
annotation class RequiresJdk(val version: Int, val why: String)
