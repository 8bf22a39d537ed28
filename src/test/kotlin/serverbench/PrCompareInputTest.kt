package serverbench

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.git
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * `scripts/pr-compare` refuses bad input in one line, exit 2, before it builds or starts anything: no worktree, no
 * output folder. A `mvn` that fails is first on PATH, so a case that got past the checks could not build a jar, let
 * alone run a benchmark (PrCompareIT runs the script for real).
 */
class PrCompareInputTest {
    private fun prCompare(dir: File, vararg args: String): Triple<Int, String, File> {
        val bin = File(dir, "bin").apply { mkdirs() }
        File(bin, "mvn").apply {
            writeText("#!/bin/sh\necho 'mvn must not run here' >&2\nexit 97\n")
            setExecutable(true)
        }
        val out = File(dir, "out")
        val run = runProcess(
            listOf("bash", "scripts/pr-compare") + args + listOf("--out", out.path),
            env = mapOf("PATH" to bin.path + File.pathSeparator + System.getenv("PATH")),
            mergeErr = true,
        )
        return Triple(run.exitCode, run.stdout, out)
    }

    private fun refused(dir: File, vararg args: String, says: String) {
        val worktrees = git("worktree", "list")
        // --out comes last: a case that sets its own puts it before a regex, where options go.
        val (status, text, out) = prCompare(dir, *args)
        assertEquals(2, status, text)
        assertEquals(1, text.trim().lines().size, text)
        assertTrue(text.startsWith("pr-compare: ") && text.contains(says), text)
        assertFalse(out.exists(), "$out was created")
        assertEquals(worktrees, git("worktree", "list"))
    }

    @Test
    fun `an unknown ref names the parameter`(@TempDir dir: File) {
        refused(dir, "no-such-ref-xyz", "HEAD", says = "BASE_REF 'no-such-ref-xyz': not a commit of this repository")
        refused(dir, "HEAD", "no-such-ref-xyz", says = "HEAD_REF 'no-such-ref-xyz': not a commit of this repository")
    }

    @Test
    fun `an unknown suite lists the suites of the head commit`(@TempDir dir: File) {
        refused(dir, "HEAD", "HEAD", "--suite", "no-such-suite", says = "--suite no-such-suite: no benchmarks/")
        val (_, text, _) = prCompare(dir, "HEAD", "HEAD", "--suite", "no-such-suite")
        val listed = text.substringAfter("suites there: ").substringBefore(" (or").split(", ").toSet()
        val files = File("benchmarks").list()!!.filter { it.endsWith(".suite") }.map { it.removeSuffix(".suite") }
        // The committed suites: a suite file not yet committed is not at HEAD.
        assertTrue(listed.containsAll(files.filter { git("ls-files", "benchmarks/$it.suite").isNotEmpty() }), text)
        refused(dir, "HEAD", "HEAD", "--suite", File(dir, "mine.suite").path, says = "no such suite file")
    }

    @Test
    fun `a suite and a regex, a bad fork count or an unknown option are refused`(@TempDir dir: File) {
        refused(dir, "HEAD", "HEAD", "--suite", "quick", "NoopBenchmark", says = "give one of them")
        refused(dir, "HEAD", "HEAD", "--forks", "many", says = "--forks 'many': an even number")
        // compare's rule, checked before the builds: an odd count or fewer than 4 would be refused after them.
        refused(dir, "HEAD", "HEAD", "--forks", "5", says = "--forks '5': an even number of forks a side, 4 or more")
        refused(dir, "HEAD", "HEAD", "--forks", "2", says = "--forks '2'")
        refused(dir, "HEAD", "HEAD", "--fork", "4", says = "unknown option '--fork'")
        refused(dir, "HEAD", "HEAD", "--suite", says = "--suite needs a value")
    }

    @Test
    fun `a head jar is taken only for the checked-out commit`(@TempDir dir: File) {
        refused(dir, "HEAD", "HEAD", "--head-jar", File(dir, "none.jar").path, says = "no such file")
        val jar = File(dir, "head.jar").apply { writeText("not a jar") }
        val parent = git("rev-parse", "--verify", "--quiet", "HEAD~1")
        if (parent.isNotEmpty()) {
            refused(
                dir,
                "HEAD",
                "HEAD~1",
                "--head-jar",
                jar.path,
                says = "only when HEAD_REF is the checked-out commit",
            )
        }
    }

    @Test
    fun `an output folder that holds files is not overwritten`(@TempDir dir: File) {
        val worktrees = git("worktree", "list")
        File(dir, "out").mkdirs()
        File(dir, "out/comment.md").writeText("an earlier comparison")
        val (status, text, _) = prCompare(dir, "HEAD", "HEAD")
        assertEquals(2, status, text)
        assertTrue(text.contains("not empty; give a new or empty directory"), text)
        assertEquals("an earlier comparison", File(dir, "out/comment.md").readText())
        assertEquals(worktrees, git("worktree", "list"))
    }
}
