package serverbench

import org.junit.platform.engine.TestExecutionResult
import org.junit.platform.engine.support.descriptor.ClassSource
import org.junit.platform.engine.support.descriptor.MethodSource
import org.junit.platform.launcher.TestExecutionListener
import org.junit.platform.launcher.TestIdentifier
import java.io.PrintStream

/**
 * Every test that does not run says so on the console, with its reason: Surefire and Failsafe count skipped tests but
 * print their reasons only into their XML reports, and a platform that cannot run a test (no bundled PostgreSQL, no
 * cgroups, no JDK 21+, no actionlint, not a git clone) must not look like one that passed it
 * (docs/testing.md, "Skip rules"). Loaded by the JUnit Platform from META-INF/services for every test run.
 */
class SkipReasons(private val out: PrintStream) : TestExecutionListener {
    constructor() : this(System.out)

    override fun executionSkipped(id: TestIdentifier, reason: String) = say(id, reason)

    override fun executionFinished(id: TestIdentifier, result: TestExecutionResult) {
        if (result.status == TestExecutionResult.Status.ABORTED) {
            say(id, result.throwable.map { it.message ?: it.javaClass.simpleName }.orElse("aborted"))
        }
    }

    private fun say(id: TestIdentifier, reason: String) {
        val name = when (val source = id.source.orElse(null)) {
            is MethodSource -> "${source.className.substringAfterLast('.')}.${source.methodName}"
            is ClassSource -> source.className.substringAfterLast('.')
            else -> id.displayName
        }
        out.println("serverbench tests: $name skipped: $reason")
    }
}
