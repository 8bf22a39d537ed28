package serverbench

import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Disabled
import org.junit.jupiter.api.Test
import org.junit.platform.engine.discovery.DiscoverySelectors.selectClass
import org.junit.platform.launcher.core.LauncherConfig
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request
import org.junit.platform.launcher.core.LauncherFactory
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import kotlin.test.assertEquals

/** [SkipReasons] names each test that did not run and why, and says nothing of tests that ran. */
class SkipReasonsTest {
    /** Run only by the launcher below (Surefire leaves nested classes out). */
    class Planted {
        @Test
        fun ran() = Unit

        @Test
        fun aborted() = assumeTrue(false, "no planted platform here")

        @Test
        @Disabled("switched off on purpose")
        fun disabled() = Unit
    }

    @Test
    fun `a skipped test says on the console which one and why`() {
        val bytes = ByteArrayOutputStream()
        val listener = SkipReasons(PrintStream(bytes, true))
        // Only this listener: the one the run loads for every test would print the planted skip as a real one.
        val launcher = LauncherFactory.create(
            LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build(),
        )
        launcher.execute(request().selectors(selectClass(Planted::class.java)).build(), listener)
        assertEquals(
            listOf(
                "serverbench tests: SkipReasonsTest\$Planted.aborted skipped: " +
                    "Assumption failed: no planted platform here",
                "serverbench tests: SkipReasonsTest\$Planted.disabled skipped: switched off on purpose",
            ),
            bytes.toString().lines().filter { it.isNotEmpty() }.sorted(),
        )
    }
}
