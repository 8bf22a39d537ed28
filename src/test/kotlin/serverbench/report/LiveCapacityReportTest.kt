package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The report's section for a suite's capacities measured live, from `<run>-capacity.json`. */
class LiveCapacityReportTest {
    @Test
    fun `each row's capacity with what held, each ratio with its interval, a verdict only where it has one`(
        @TempDir dir: File,
    ) {
        val json = File(dir, "capacity-1.json")
        LiveCapacityReport.fileFor(json).writeText(
            """
            {"objective":"p99:100ms","a":"tomcat","b":"netty","stepSeconds":8,"test":"5 searches a side",
             "stopped":"every search ended","seconds":1200.0,"estimateSeconds":1150.0,
             "rows":[{"family":"Cpu","variant":"direct","side":"tomcat","capacity":1850.0,"stable":true,
                      "label":"holds: met the objective in 3 steps in a row at 1,850 req/s","estimates":[],"steps":[]},
                     {"family":"Cpu","variant":"direct","side":"netty","capacity":null,"stable":false,
                      "label":"unstable: the 5 searches spread by 30.0 %","estimates":[],"steps":[]}],
             "ratios":[{"family":"Cpu","variant":"direct","a":"tomcat","b":"netty","ratio":1.08,"low":1.05,
                        "high":1.12,"level":0.95,"verdict":"~","why":"no verdict: netty did not hold"},
                       {"family":"Cpu","variant":"completableFuture","a":"tomcat","b":"netty","ratio":1.2,
                        "low":1.1,"high":1.3,"level":0.95,"verdict":"higher"}]}
            """.trimIndent(),
        )
        val md = LiveCapacityReport.markdown(LiveCapacityReport.fileFor(json))
        assertTrue(md.contains("## Capacity at p99:100ms, measured live"), md)
        assertTrue(md.contains("5 searches a side. Every server ran at once"), md)
        assertTrue(md.contains("| Cpu direct, tomcat | 1,850 req/s | holds: met the objective in 3 steps"), md)
        assertTrue(md.contains("| Cpu direct, netty | — | unstable: the 5 searches spread by 30.0 % |"), md)
        assertTrue(
            md.contains("- **Cpu direct**: tomcat ÷ netty capacity 1.080 [1.050, 1.120] (no verdict: netty did not"),
            md,
        )
        assertTrue(md.contains("capacity 1.200 [1.100, 1.300] **tomcat higher**"), md)
    }

    @Test
    fun `no file, no section`(@TempDir dir: File) {
        assertEquals("", LiveCapacityReport.markdown(File(dir, "none-capacity.json")))
    }

    @Test
    fun `it says which run the rows were compared with and the machine's own noise, or that none was beside it`(
        @TempDir dir: File,
    ) {
        fun md(extra: String): String {
            val file = File(dir, "run-capacity.json")
            file.writeText(
                """{"objective":"p99:100ms","a":"tomcat","test":"5 searches a side","stopped":"every search ended",
                   "seconds":60.0,"rows":[],"ratios":[],"identity":{"jar":"abc"}$extra}""",
            )
            return LiveCapacityReport.markdown(file)
        }
        val compared = md(
            ""","machineNoise":0.031,"machineNoiseWindowSeconds":0.25,
               "rerun":{"file":"capacity-1-capacity.json","ended":"15:23 UTC","limit":0.1}""",
        )
        assertTrue(
            compared.contains("a memory-bound loop's 0.25 s windows spread 3.1 % (sd): the machine's own noise"),
            compared,
        )
        assertTrue(
            compared.contains(
                "compared with the last run of the same jar and command, `capacity-1-capacity.json` (15:23 UTC): a " +
                    "row more than 10 % apart from it is unstable across sittings",
            ),
            compared,
        )
        val first = md("")
        assertTrue(first.contains("No earlier run of the same jar and command was beside it"), first)
    }
}
