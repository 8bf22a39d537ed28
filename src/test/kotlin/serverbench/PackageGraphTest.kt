package serverbench

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The packages of `src/main` depend on each other as docs/layout.md draws them: no cycle, and measurement (the
 * fork's `benchmarks`, `metrics`, `profile`) never reaches the host's `launcher` or the `report`, nor `metrics` and
 * `profile` the application. Edges come from import lines and fully-qualified names, KDoc included.
 */
class PackageGraphTest {
    private val graph: Map<String, Set<String>> = File("src/main/kotlin/serverbench").listFiles()!!
        .filter { it.isDirectory }.associate { dir ->
            dir.name to dir.walk().filter { it.extension == "kt" }.flatMap { file ->
                Regex("""serverbench\.([a-z]+)\.[A-Z]""").findAll(file.readText()).map { it.groupValues[1] }
            }.filter { it != dir.name && it != "internal" }.toSortedSet()
        }

    @Test
    fun `the package graph has no cycle`() {
        val order = ArrayList<String>()
        val visiting = HashSet<String>()
        fun visit(p: String, path: List<String>) {
            if (p in order) return
            check(visiting.add(p)) { "package cycle: ${(path + p).joinToString(" -> ")}" }
            graph[p].orEmpty().forEach { visit(it, path + p) }
            order += p
        }
        graph.keys.sorted().forEach { visit(it, emptyList()) }
        assertEquals(graph.keys, order.toSet())
    }

    @Test
    fun `measurement never imports the host's packages, nor metrics and profile the application`() {
        for (p in listOf("benchmarks", "metrics", "profile")) {
            assertTrue(graph.getValue(p).none { it in setOf("launcher", "report", "compare") }, "$p -> ${graph[p]}")
        }
        for (p in listOf("metrics", "profile")) {
            assertTrue(graph.getValue(p).none { it == "app" || it == "benchmarks" }, "$p -> ${graph[p]}")
        }
        assertEquals(
            setOf(
                "hyperfoil", "compare", "launcher", "live", "metrics", "profile", "benchmarks", "report", "app",
                "client", "fixture", "params", "workload",
            ),
            graph.keys,
        )
        // The vocabulary of a run sits below everything that reads it, so any package may name a parameter.
        assertEquals(emptySet(), graph.getValue("params"))
    }

    @Test
    fun `the Layout table of docs-layout-md is the graph`() {
        val layout = File("docs/layout.md").readText()
        val drawn = Regex("""^(\w+)\s*->\s*([\w, ()]+?)(?:\s{2,}.*)?$""", RegexOption.MULTILINE).findAll(layout)
            .associate { m ->
                m.groupValues[1] to
                    m.groupValues[2].split(',').map { it.trim() }.filter { it != "(none)" }.toSortedSet()
            }
        assertEquals(graph, drawn)
    }
}
