package serverbench

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals

/**
 * The limits ktlint does not enforce: its max-line-length rule (through spotless) lets long comments and string
 * templates pass, and nothing counts a file's lines. A reader holds a file of ~300 lines in mind; 120 columns fit a
 * side-by-side diff.
 */
class SourceShapeTest {
    private fun kotlin(dir: String) = File(dir).walk().filter { it.extension == "kt" }.sortedBy { it.path }.toList()

    @Test
    fun `no line of the Kotlin sources is wider than 120 columns`() {
        val wide = (kotlin("src/main/kotlin") + kotlin("src/test/kotlin")).flatMap { file ->
            file.readLines().mapIndexedNotNull { i, line ->
                if (line.length > 120) "${file.path}:${i + 1} (${line.length})" else null
            }
        }
        assertEquals(emptyList(), wide)
    }

    @Test
    fun `no file of src-main is longer than 300 lines`() {
        val long = kotlin("src/main/kotlin").map { it to it.readLines().size }.filter { it.second > 300 }
        assertEquals(emptyList(), long.map { "${it.first.path} (${it.second})" })
    }
}
