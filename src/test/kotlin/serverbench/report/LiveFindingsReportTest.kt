package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The report's section for a suite's findings measured live, from `<run>-findings.json`. */
class LiveFindingsReportTest {
    @Test
    fun `each configuration's ratios with their intervals, a verdict only where marked`(@TempDir dir: File) {
        val json = File(dir, "quick-1.json").apply { writeText("[]") }
        LiveFindingsReport.fileFor(json).writeText(
            """
            [{"family":"Cpu","variant":"direct","metric":"score","a":"tomcat","b":"netty","ratio":1.05,"low":1.02,
              "high":1.08,"level":0.95,"verdict":"faster","windows":40,"test":"interleaved 0.50 s windows"},
             {"family":"Cpu","variant":"direct","metric":"latency.p99","a":"tomcat","b":"netty","ratio":0.99,
              "low":0.9,"high":1.1,"level":0.95,"verdict":"~","windows":40,"test":"interleaved 0.50 s windows"}]
            """.trimIndent(),
        )
        val md = LiveFindingsReport.markdown(LiveFindingsReport.fileFor(json))
        assertTrue(md.contains("## Findings, measured live: tomcat ÷ netty"), md)
        assertTrue(
            md.contains(
                "- **Cpu direct**: tomcat ÷ netty req/s 1.050 [1.020, 1.080] **tomcat faster**; " +
                    "p99 0.990 [0.900, 1.100]\n",
            ),
            md,
        )
        assertTrue(md.contains("interleaved 0.50 s windows."), md)
    }

    @Test
    fun `no file, no section`(@TempDir dir: File) {
        assertEquals("", LiveFindingsReport.markdown(File(dir, "none-findings.json")))
    }
}
