package serverbench

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals

/**
 * The limit ktlint does not enforce: its max-line-length rule (through spotless) lets long comments and string
 * templates pass; 120 columns fit a side-by-side diff. A file's length is not checked: detekt, run by `mvn verify`,
 * guards each function's length and complexity instead (its rules and thresholds: detekt.yml at the repository root).
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
}
