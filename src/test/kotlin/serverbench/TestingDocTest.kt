package serverbench

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * docs/testing.md's table of what `mvn verify` leaves out is the sources' `@Full` marks: a class marked whole is "all",
 * else the count of its marked tests. A new `@Full` test not in the table, or a row for one no longer marked, fails.
 */
class TestingDocTest {
    @Test
    fun `the table of tests left out by mvn verify is the sources' Full marks`() {
        val documented = Regex("""^\| `(\w+)` \| (all|\d+ tests?) \|$""", RegexOption.MULTILINE)
            .findAll(File("docs/testing.md").readText()).associate { it.groupValues[1] to it.groupValues[2] }
        val marked = fullMarks(File("src/test/kotlin"))
        assertTrue(marked.size >= 10 && "ServicePrIT" in marked, "$marked")
        assertEquals(marked, documented)
    }

    /** Class name -> "all" (`@Full` on the class) or "N tests" (on N of its functions). */
    private fun fullMarks(root: File): Map<String, String> = root.walkTopDown().filter { it.extension == "kt" }
        .filter { it.name != "Full.kt" }
        .mapNotNull { file ->
            val lines = file.readLines()
            val marks = lines.indices.filter { lines[it].trim() == "@Full" }
            if (marks.isEmpty()) return@mapNotNull null
            // A class mark sits at column 0, the class declaration below it after other annotations only.
            val whole = marks.any { i ->
                lines[i] == "@Full" && lines.drop(i + 1).first { !it.startsWith("@") }.startsWith("class ")
            }
            file.nameWithoutExtension to if (whole) "all" else "${marks.size} test${if (marks.size == 1) "" else "s"}"
        }.toMap().toSortedMap()
}
