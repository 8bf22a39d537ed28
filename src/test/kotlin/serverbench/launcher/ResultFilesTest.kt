package serverbench.launcher

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.io.IOException
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** Results already measured are never lost: an earlier result file is kept aside, never overwritten. */
class ResultFilesTest {
    @Test
    fun `an existing result file is moved aside under its own time, and a second one beside it`(@TempDir dir: File) {
        val file = File(dir, "results.json")
        file.writeText("[first]")
        file.setLastModified(1_700_000_000_000)
        val kept = assertNotNull(ResultFiles.keepPrevious(file.path))
        assertFalse(file.exists())
        assertEquals("[first]", File(kept).readText())
        assertTrue(Regex("""results\.\d{8}-\d{6}\.json""").matches(File(kept).name), kept)
        // Another file of the same time (a second session within the second): a numbered name, nothing overwritten.
        file.writeText("[second]")
        file.setLastModified(1_700_000_000_000)
        val again = assertNotNull(ResultFiles.keepPrevious(file.path))
        assertEquals(File(kept).nameWithoutExtension + "-1.json", File(again).name)
        assertEquals("[first]", File(kept).readText())
        assertEquals("[second]", File(again).readText())
    }

    @Test
    fun `a missing or empty file has nothing to keep, and a missing directory is made`(@TempDir dir: File) {
        assertNull(ResultFiles.keepPrevious(File(dir, "new/results.json").path))
        assertTrue(File(dir, "new").isDirectory)
        val empty = File(dir, "empty.json").apply { writeText("") }
        assertNull(ResultFiles.keepPrevious(empty.path))
        assertTrue(empty.exists())
    }

    @Test
    fun `a directory that cannot be written fails before anything runs`(@TempDir dir: File) {
        val blocked = File(dir, "file-not-dir").apply { writeText("x") }
        val e = runCatching { ResultFiles.keepPrevious(File(blocked, "results.json").path) }.exceptionOrNull()
        assertTrue(e is IOException && e.message!!.endsWith("file-not-dir is not a directory"), "$e")
    }

    @Test
    fun `results are written whole, with no temporary file left`(@TempDir dir: File) {
        val file = File(dir, "out.json")
        ResultFiles.write(emptyList(), file.path, org.openjdk.jmh.results.format.ResultFormatType.JSON)
        assertEquals("[]", file.readText().trim().replace(Regex("\\s"), ""))
        assertEquals(listOf("out.json"), dir.list()!!.toList())
    }
}
