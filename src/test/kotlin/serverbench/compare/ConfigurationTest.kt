package serverbench.compare

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertNull

class ConfigurationTest {
    private val jar = File("target/benchmarks.jar")

    @Test
    fun `a side's arguments split into the fork's JVM options and JMH options`() {
        val c =
            Configuration(
                "head",
                jar,
                "java",
                " -p limit=10500  -XX:TieredStopAtLevel=1 -Dserverbench.warmupMaxSeconds=9 -t 2",
            )
        assertEquals(listOf("-XX:TieredStopAtLevel=1", "-Dserverbench.warmupMaxSeconds=9"), c.jvmOptions)
        assertEquals(listOf("-p", "limit=10500", "-t", "2"), c.jmhOptions)
        assertEquals(setOf("limit"), c.params)
    }

    @Test
    fun `a side's parameters are read as JMH reads them - attached, several values, repeated`() {
        // -pname=value is JMH's too; it was left out of the side's parameters, so rows never paired.
        val attached = Configuration("head", jar, "java", "-plimit=10500 -prof gc -t 2")
        assertEquals(setOf("limit"), attached.params)
        assertEquals(mapOf("limit" to listOf("10500")), attached.paramValues)
        assertEquals(listOf("-plimit=10500", "-prof", "gc", "-t", "2"), attached.jmhOptions)
        assertEquals(
            mapOf("limit" to listOf("1000", "10000"), "server" to listOf("netty", "tomcat")),
            Configuration.paramValues(listOf("-p", "limit=1000,10000", "-pserver=netty", "-p", "server=tomcat")),
        )
        assertEquals(emptyMap(), Configuration.paramValues(listOf("-prof", "gc", "-p")))
    }

    @Test
    fun `one fork's command - the side's launcher, the shared options, one fork, its own result file`() {
        val c = Configuration("head", jar, "/jdk/bin/java", "-XX:+UseZGC -p limit=7")
        val cmd = c.command(
            listOf("CpuBenchmark.direct", "-p", "server=netty", "-jvmArgsAppend", "-Xss1m", "-Dserverbench.x=1"),
            File("/r/head-1.json"),
            File("/r/head-1.log"),
        )
        assertEquals(
            listOf(
                "/jdk/bin/java", "-Dserverbench.x=1", "-Dserverbench.log=/r/head-1.log", "-jar", jar.path,
                "CpuBenchmark.direct", "-p", "server=netty", "-p", "limit=7",
                "-f", "1", "-rf", "json", "-rff", "/r/head-1.json",
                "-jvmArgsAppend", "-Xss1m -XX:+UseZGC",
            ),
            cmd,
        )
        assertEquals(
            listOf("java", "-Dserverbench.log=l", "-jar", jar.path, "X", "-f", "1", "-rf", "json", "-rff", "j"),
            Configuration("base", jar, "java", "").command(listOf("X"), File("j"), File("l")),
        )
    }

    @Test
    fun `a side is described by its paths, or by its label with a served jar by its name`() {
        val serve = listOf("--jar", "/tmp/serverbench-pr.x/base/app/target/orders.jar", "--postgres")
        val plain = Configuration("base", jar, "java", "-p limit=1", serve)
        assertEquals(
            "target/benchmarks.jar, java, -p limit=1, each fork against its own " +
                "`serve --jar /tmp/serverbench-pr.x/base/app/target/orders.jar --postgres`",
            plain.describe(),
        )
        val labelled = Configuration("base", jar, "java", "", serve, label = "`ec96dd3`")
        assertEquals(
            "`ec96dd3`, java, (no options), each fork against its own `serve --jar orders.jar --postgres`",
            labelled.describe(),
        )
    }

    @Test
    fun `a java is an executable or a JDK directory`() {
        val home = System.getProperty("java.home")
        assertEquals(File(home, "bin/java").path, Configuration.java(home))
        assertEquals(File(home, "bin/java").path, Configuration.java("$home/bin/java"))
        assertNull(Configuration.java("/nonexistent/jdk"))
    }
}
