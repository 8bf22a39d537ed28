package serverbench.benchmarks

import org.junit.jupiter.api.Test
import java.io.File
import java.net.URI
import java.net.URL
import java.util.Properties
import java.util.zip.ZipFile
import kotlin.test.assertTrue

/**
 * Spring Boot wires itself from metadata files that many jars ship under the same name. The shade plugin must merge
 * them, or auto-configuration silently vanishes from the jar. Every entry that any dependency declares (as seen on
 * the test classpath, one copy per jar) must be in the jar's merged file.
 */
class SpringMetadataIT {
    private val lineFiles = listOf(
        "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports",
        "META-INF/spring/org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration.imports",
        "META-INF/spring/org.springframework.boot.web.server.test.AutoConfigureWebServer.imports",
        "META-INF/spring.handlers",
        "META-INF/spring.schemas",
    )
    private val propertyFiles = listOf(
        "META-INF/spring.factories",
        "META-INF/spring/aot.factories",
        "META-INF/spring-autoconfigure-metadata.properties",
        "META-INF/spring-devtools.properties",
        // Not Spring's, merged the same way: Netty's Version.identify() reads every Netty jar's entries from it.
        "META-INF/io.netty.versions.properties",
    )

    /**
     * The copies of [name] in the dependencies the jar shades: a jar only the tests use (test scope: Actuator's, for
     * ActuatorResourcesSpringTest) is not shaded, so its entries are not the jar's to keep.
     */
    private fun copiesOnClasspath(name: String): List<String> = javaClass.classLoader.getResources(name).toList()
        .filter { shaded(it) }.map { it.readText() }

    private val shadedEntries: Set<String> by lazy {
        ZipFile(Jar.path).use { zip -> zip.entries().asSequence().map { it.name }.toSet() }
    }

    /** Whether the jar holding [url] is shaded into the jar: its first class is there (classes directories are). */
    private fun shaded(url: URL): Boolean {
        if (url.protocol != "jar") return true
        val file = File(URI(url.path.substringBefore("!/")))
        val firstClass = ZipFile(file).use { zip ->
            zip.entries().asSequence().map { it.name }
                .firstOrNull {
                    it.endsWith(".class") && !it.endsWith("module-info.class") && !it.startsWith("META-INF/")
                }
        } ?: return true
        return firstClass in shadedEntries
    }

    private fun inJar(name: String): String = ZipFile(Jar.path).use { zip ->
        val entry = zip.getEntry(name) ?: error("$name missing from ${Jar.path}")
        zip.getInputStream(entry).readBytes().toString(Charsets.UTF_8)
    }

    private fun lines(text: String) = text.lines().map {
        it.trim()
    }.filter { it.isNotEmpty() && !it.startsWith("#") }.toSet()

    private fun entries(text: String): Set<Pair<String, String>> {
        val p = Properties().apply { load(text.reader()) }
        return p.stringPropertyNames().flatMap { key ->
            p.getProperty(key).split(',').map { it.trim() }.filter { it.isNotEmpty() }.map { key to it }
        }.toSet()
    }

    @Test
    fun `line-based metadata of every dependency is in the jar`() {
        for (name in lineFiles) {
            val copies = copiesOnClasspath(name)
            assertTrue(
                copies.size >= 2 || name.endsWith("handlers") || name.endsWith("schemas"),
                "$name: ${copies.size} copies",
            )
            val merged = lines(inJar(name))
            val missing = copies.flatMap { lines(it) }.toSet() - merged
            assertTrue(missing.isEmpty(), "$name lost ${missing.size} entries, e.g. ${missing.take(3)}")
        }
    }

    @Test
    fun `properties metadata of every dependency is merged key by key`() {
        for (name in propertyFiles) {
            val copies = copiesOnClasspath(name)
            assertTrue(copies.size >= 2, "$name: ${copies.size} copies")
            val merged = entries(inJar(name))
            val all = copies.flatMap { entries(it) }.toSet()
            // Netty's versions file has one key per artifact and value, and its two epoll jars (one per CPU) give
            // their own buildDate: such a key keeps one value. Elsewhere (Spring's lists) every value must survive.
            val contested = if (name != "META-INF/io.netty.versions.properties") {
                emptySet()
            } else {
                all.groupBy { it.first }.filterValues { it.size > 1 }.keys
            }
            val missing = all.filter { it.first !in contested } - merged
            assertTrue(missing.isEmpty(), "$name lost ${missing.size} entries, e.g. ${missing.take(3)}")
            val lostKeys = contested - merged.map { it.first }.toSet()
            assertTrue(lostKeys.isEmpty(), "$name lost the keys $lostKeys")
        }
    }

    @Test
    fun `the web server auto-configurations of every stack are there`() {
        val imports = inJar(lineFiles[0])
        for (cls in listOf(
            "TomcatServletWebServerAutoConfiguration",
            "JettyServletWebServerAutoConfiguration",
            "NettyReactiveWebServerAutoConfiguration",
            "WebMvcAutoConfiguration",
            "WebFluxAutoConfiguration",
        )) {
            assertTrue(imports.contains(cls), "$cls not in the merged AutoConfiguration.imports")
        }
    }
}
