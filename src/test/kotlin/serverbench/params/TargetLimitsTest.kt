package serverbench.params

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The launcher's check, the fork and Hyperfoil refuse the same parameters of a server they do not start. */
class TargetLimitsTest {
    private val elsewhere = TargetLimits.Elsewhere("with -Dserverbench.target", "the target")

    @Test
    fun `a budget, a set knob and a chosen TLS engine are refused, unset ones pass`() {
        assertNull(TargetLimits.refusal(mapOf("server" to "netty", "tomcatMaxThreads" to "n/a"), elsewhere))
        assertNull(TargetLimits.refusal(mapOf("sslProvider" to "default", "cpus" to "unlimited"), elsewhere))
        val cpus = TargetLimits.refusal(mapOf("cpus" to "1"), elsewhere)!!
        assertTrue(cpus.startsWith("-p cpus=1 budgets a server the benchmark starts;"), cpus)
        assertTrue(cpus.endsWith("scripts/serve --cpus 1"), cpus)
        val knob = TargetLimits.refusal(mapOf("tomcatMaxThreads" to "10"), elsewhere)!!
        assertTrue(knob.startsWith("-p tomcatMaxThreads=10 sets a property of a server the benchmark starts"), knob)
        // Before, the launcher let it pass and only the fork refused it, in other words.
        val engine = TargetLimits.refusal(mapOf("sslProvider" to "openssl", "tls" to "true"), elsewhere)!!
        assertEquals("-p sslProvider=openssl", engine.substringBefore(" sets"))
    }
}
