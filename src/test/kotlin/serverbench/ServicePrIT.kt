package serverbench

import org.junit.jupiter.api.MethodOrderer
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestMethodOrder
import serverbench.testing.interruptAtThirdFork
import serverbench.testing.runProcess
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * The service's pull-request workflow on the example service's own history: `examples/orders-service` copied into a
 * repository of its own with two commits, the second with a planted slowdown, then its own serverbench-pr script as
 * its workflow runs it: each side built with the service's own build, each fork against its side's jar started fresh.
 * Needs serverbench's artifact in the local Maven repository, which `-Pfull` installs (the invoker's `install`) before
 * the end-to-end tests. A tiny workload: 4 forks a side of one 2 s iteration after one of warmup, whose cold JIT
 * spreads base's forks by a third or more (445-818 req/s here); so the slowdown is a wait of 500 ms in each request,
 * as a slow downstream's, which holds head's 64 connections below 128 req/s on any machine. (A CPU-bound one, 1,500
 * digests a request, overlapped base's slowest fork.)
 */
@Full
@TestMethodOrder(MethodOrderer.OrderAnnotation::class)
class ServicePrIT {
    private val repo = File("target/service-pr-it/orders-service").absoluteFile

    /** The example as a repository of its own: the service as it is, then the same with a planted slowdown. */
    private fun history() {
        if (File(repo, ".git").isDirectory) return
        repo.parentFile.deleteRecursively()
        File("examples/orders-service").copyRecursively(repo)
        listOf("target", "app/target", "bench/target").forEach { File(repo, it).deleteRecursively() }
        git("init", "-q", "-b", "main")
        git("add", "-A")
        git("commit", "-q", "-m", "orders-service")
        val pricing = File(repo, "app/src/main/java/com/example/orders/Pricing.java")
        val fast = "byte[] digest = sha256(sku);"
        val slow = "try {\n            Thread.sleep(500);\n        } catch (InterruptedException e) {\n" +
            "            Thread.currentThread().interrupt();\n        }\n        byte[] digest = sha256(sku);"
        assertTrue(pricing.readText().contains(fast), "Pricing.listPrice changed: plant the slowdown anew")
        pricing.writeText(pricing.readText().replace(fast, slow))
        git("commit", "-q", "-am", "Pricing: a planted slowdown (a wait of 500 ms, as a slow downstream)")
    }

    private fun git(vararg args: String): String {
        val r = runProcess(
            listOf("git", "-c", "user.name=it", "-c", "user.email=it@example.com") + args,
            dir = repo,
            mergeErr = true,
        )
        assertEquals(0, r.exitCode, r.stdout)
        return r.stdout.trim()
    }

    private val script = File(repo, "scripts").resolve("serverbench-pr").path

    private fun script(base: String, head: String, out: File) = listOf(
        "bash", script, base, head, "--forks", "4", "--budget", "0", "--out", out.path, "--",
        "-Dserverbench.warmup=off", "-wi", "1", "-w", "2s", "-i", "1", "-r", "2s",
    )

    /**
     * The build as the workflow's. Not offline: run alone on a fresh machine, the example's dependencies (its JDBC
     * starter, say) are not yet in the local repository; under `-Pfull` the examples' own build has put them there.
     */
    private val env = mapOf("SERVERBENCH_BUILD" to "mvn -B -q package -Dmaven.test.skip=true")

    /** Nothing of a run outlives it: no service, supervisor or PostgreSQL started from this repository's jars. */
    private fun assertNothingLeft() {
        val left = ProcessHandle.allProcesses().filter { p ->
            p.info().commandLine().orElse("").let { it.contains("serverbench-pr.") || it.contains(repo.path) }
        }.toList()
        assertTrue(left.isEmpty(), "left running: ${left.map { it.info().commandLine().orElse("?") }}")
        assertEquals(
            listOf(repo.path),
            git("worktree", "list", "--porcelain").lines().filter {
                it.startsWith("worktree ")
            }.map { it.removePrefix("worktree ") },
        )
    }

    @Test
    @Order(1)
    fun `the planted slowdown is marked slower, each fork against a service of its own`() {
        history()
        val out = File(repo.parentFile, "slowdown").apply { deleteRecursively() }
        val run = runProcess(
            script("HEAD~1", "HEAD", out),
            dir = repo,
            env = env,
            outputTo = File(repo.parentFile, "slowdown.out") to File(repo.parentFile, "slowdown.err"),
            timeout = 20.minutes,
            name = "serverbench-pr",
        )
        assertEquals(0, run.exitCode, run.stderr.takeLast(4000))
        assertNothingLeft()

        val artifacts = File(out, "artifacts")
        val rows = JsonMapper.builder().build().readTree(File(artifacts, "compare.json"))
        val throughput = rows.single { it["metric"].asString() == "score" }
        assertTrue(throughput["significant"].asBoolean(), "$throughput")
        assertEquals("slower", throughput["verdict"].asString(), "$throughput")
        val forks = File(artifacts, "forks").list()!!.toSet()
        for (side in listOf("base", "head")) {
            for (n in 1..4) {
                assertTrue("$side-$n.json" in forks, "$side-$n.json missing: $forks")
                // Each fork had its own service, whose output is kept beside it.
                assertTrue(File(artifacts, "forks/$side-$n-service.log").length() > 0, "$side-$n-service.log")
            }
        }
        val comment = File(out, "comment.md").readText()
        assertTrue(comment.startsWith("<!-- serverbench-pr -->\n"), comment)
        assertTrue(comment.contains("**slower**"), comment)
        assertTrue(comment.contains("```sh\n${File("scripts", "serverbench-pr").path} "), comment)
        assertTrue(File(artifacts, "build-head.log").isFile, "${artifacts.list()!!.toList()}")
        // Each side said by its commit and the rows' workload by its place in head's tree, not by temporary paths
        // (the worktrees are gone); the artifact keeps the workload that was sent.
        val sha = { ref: String -> runProcess(listOf("git", "rev-parse", "--short=7", ref), dir = repo).stdout.trim() }
        assertTrue(comment.contains("- base: `${sha("HEAD~1")}`, "), comment)
        assertTrue(comment.contains("- head: `${sha("HEAD")}`, "), comment)
        assertTrue(comment.contains("workload=head-tree/orders.http"), comment)
        assertTrue(!comment.contains("serverbench-pr."), "a temporary path in the comment: $comment")
        assertTrue(File(artifacts, "head-tree/orders.http").isFile, "${artifacts.list()!!.toList()}")
    }

    /** The workflow's cancel or timeout, as Ctrl-C: the finished forks' results are in the artifact's folder. */
    @Test
    @Order(2)
    fun `an interrupted run keeps the finished forks' results and stops every service`() {
        history()
        val out = File(repo.parentFile, "interrupted").apply { deleteRecursively() }
        val log = File(repo.parentFile, "interrupted.log")
        interruptAtThirdFork(script("HEAD", "HEAD", out), log, repo, env)
        val forks = File(out, "artifacts/forks").list().orEmpty().toSet()
        assertTrue(forks.containsAll(listOf("base-1.json", "head-1.json")), "$forks; ${log.readText().takeLast(3000)}")
        assertNothingLeft()
    }
}
