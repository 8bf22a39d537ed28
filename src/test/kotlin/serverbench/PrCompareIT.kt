package serverbench

import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import serverbench.benchmarks.Jar
import serverbench.testing.git
import serverbench.testing.interruptAtThirdFork
import serverbench.testing.runProcess
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * `scripts/pr-compare` on this repository's own history, as the pull-request workflow runs it: the checked-out commit
 * against itself (A/A). The base jar is built from git in a worktree; the head is the jar this build made (--head-jar),
 * which keeps the test to one build. A tiny workload: 4 forks a side of one 1 s iteration, no steady warmup.
 */
@Full
class PrCompareIT {
    @Test
    fun `an AA comparison of the checked-out commit writes the comment and the artifacts`() {
        // scripts/pr-compare builds the base from git history: a source archive has none, and this is skipped there.
        val clone = runCatching { git("rev-parse", "--is-inside-work-tree") }.getOrNull() == "true"
        val why = "skipped: not a git clone (scripts/pr-compare builds each side from a commit)"
        if (!clone) println("serverbench tests: PrCompareIT $why")
        assumeTrue(clone, why)
        val out = File("target/pr-compare-it").absoluteFile.apply { deleteRecursively() }
        val worktrees = git("worktree", "list")
        val run = runProcess(
            listOf(
                "bash", "scripts/pr-compare", "HEAD", "HEAD", "--head-jar", Jar.path.path, "--forks", "4", "--budget",
                "0", "--out", out.path, "NoopBenchmark.hello$", "-p", "server=netty", "-wi", "0", "-i", "1", "-r", "1s",
            ),
            env = mapOf("JAVA_TOOL_OPTIONS" to "-Dserverbench.warmup=off"),
            outputTo = Jar.outputFiles("pr-compare"),
            timeout = 15.minutes,
            name = "scripts/pr-compare",
        )
        val err = run.stderr
        assertEquals(0, run.exitCode, err.takeLast(4000))
        // Its worktrees are gone.
        assertEquals(worktrees, git("worktree", "list"))

        val sha = git("rev-parse", "HEAD")
        val comment = File(out, "comment.md").readText()
        assertTrue(comment.startsWith("<!-- serverbench-pr -->\n"), comment)
        assertTrue(comment.contains("## serverbench: head `${sha.take(7)}` against base `${sha.take(7)}`"), comment)
        assertTrue(comment.contains("### Findings"), comment)
        for (metric in listOf("req/s", "p99", "server CPU/req")) {
            assertTrue(comment.contains("| NoopBenchmark.hello | $metric |"), comment)
        }
        val reproduce = "scripts/pr-compare $sha $sha --forks 4 --budget 0 NoopBenchmark.hello\\$ -p server=netty"
        assertTrue(comment.contains(reproduce), comment)
        assertTrue(Regex("""- \d+ cores""").containsMatchIn(comment), comment)
        assertTrue(comment.contains("\n- Java: "), comment)
        assertTrue(comment.contains("- base: `${sha.take(7)}`, "), comment)
        assertTrue(!comment.contains("pr-compare."), "a temporary path in the comment: $comment")
        assertTrue(comment.contains("forks interleaved in one sitting on one machine (`scripts/pr-compare`)"), comment)

        val artifacts = File(out, "artifacts")
        val rows = JsonMapper.builder().build().readTree(File(artifacts, "compare.json"))
        assertEquals(3, rows.size(), "$rows")
        assertEquals(4, rows[0]["baseForks"].asInt(), "${rows[0]}")
        assertEquals(
            (1..4).flatMap { listOf("base-$it.json", "head-$it.json") }.toSet(),
            File(artifacts, "forks").list()!!.filter { it.endsWith(".json") }.toSet(),
        )
        for (f in listOf("compare.md", "report.md", "build-base.log", "compare.log")) {
            assertTrue(File(artifacts, f).isFile, "$f missing: ${artifacts.list()!!.toList()}")
        }
        assertTrue(File(artifacts, "report.md").readText().contains("| hello | netty |"), "report.md")
        // The comment lists only what the folder holds: no -prof flame, no profiles.
        assertTrue(!comment.contains("profiles/"), comment)
    }

    /**
     * Fails before: the forks' results stayed in the head worktree under the temporary directory, which the exit trap
     * deleted, so an interrupted run (Ctrl-C, a cancelled or timed-out workflow) left no fork's results to upload.
     */
    @Test
    fun `an interrupted run keeps the finished forks' results in the artifacts`() {
        val clone = runCatching { git("rev-parse", "--is-inside-work-tree") }.getOrNull() == "true"
        assumeTrue(clone, "skipped: not a git clone")
        val out = File("target/pr-compare-interrupted-it").absoluteFile.apply { deleteRecursively() }
        val log = File("target/pr-compare-interrupted-it.log").absoluteFile
        val worktrees = git("worktree", "list")
        // Its own process group, which Ctrl-C signals as a whole: the script, compare and the running fork.
        interruptAtThirdFork(
            listOf(
                "bash", "scripts/pr-compare", "HEAD", "HEAD", "--head-jar", Jar.path.path, "--forks", "4", "--budget",
                "0", "--out", out.path, "NoopBenchmark.hello$", "-p", "server=netty", "-wi", "0", "-i", "1", "-r", "1s",
            ),
            log,
            env = mapOf("JAVA_TOOL_OPTIONS" to "-Dserverbench.warmup=off"),
        )
        val forks = File(out, "artifacts/forks").list().orEmpty().toSet()
        assertTrue(forks.containsAll(listOf("base-1.json", "head-1.json")), "$forks; ${log.readText().takeLast(3000)}")
        assertEquals(worktrees, git("worktree", "list"))
    }
}
