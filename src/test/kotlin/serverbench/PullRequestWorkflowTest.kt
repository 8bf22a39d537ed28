package serverbench

import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.yaml.snakeyaml.Yaml
import serverbench.compare.CommentWriter
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertNotEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * `.github/workflows/serverbench-pr.yml` and the example service's `serverbench.yml`, the workflows users copy:
 * actionlint (rhysd/actionlint, the workflow checker: syntax, expressions, action inputs, shellcheck of `run:` when
 * installed) passes on them, and each holds together with the script whose comment it posts.
 */
class PullRequestWorkflowTest {
    private val workflow = File(".github/workflows/serverbench-pr.yml")
    private val serviceWorkflow = File("examples/orders-service/.github/workflows/serverbench.yml")
    private val serviceScript = File("examples/orders-service/scripts/serverbench-pr")

    /** `ACTIONLINT`, else on PATH, else where `go install` puts it. .ci/run installs it when Go is there. */
    private fun actionlint(): File? {
        val home = System.getProperty("user.home")
        val candidates = listOfNotNull(System.getenv("ACTIONLINT")) +
            System.getenv("PATH").orEmpty().split(File.pathSeparator).map { "$it/actionlint" } +
            listOfNotNull(System.getenv("GOBIN")?.let { "$it/actionlint" }) +
            listOfNotNull(System.getenv("GOPATH")?.let { "$it/bin/actionlint" }) + "$home/go/bin/actionlint"
        return candidates.map(::File).firstOrNull { it.isFile && it.canExecute() }
    }

    private fun lint(binary: File, file: File): Pair<Int, String> {
        val run = runProcess(
            listOf(binary.path, "-no-color", file.path),
            mergeErr = true,
            timeout = 2.minutes,
            name = "actionlint",
        )
        return run.exitCode to run.stdout
    }

    @Test
    fun `actionlint passes on the workflows, and fails on a planted mistake`(@TempDir dir: File) {
        val binary = actionlint()
        assumeTrue(
            binary != null,
            "actionlint not found (ACTIONLINT, PATH, ~/go/bin): the workflow is not checked. Install it with " +
                "`go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`, as .ci/run does when Go is there",
        )
        for (file in listOf(workflow, serviceWorkflow)) {
            val (status, out) = lint(binary!!, file)
            assertEquals(0, status, "${file.path}: $out")
            // The check is real: a misspelt input of actions/checkout is refused.
            val planted = File(dir, "planted.yml")
            planted.writeText(file.readText().replace("fetch-depth:", "fetch-deepth:"))
            assertNotEquals(0, lint(binary, planted).first, "actionlint accepted the planted mistake in ${file.path}")
        }
    }

    @Test
    @Suppress("UNCHECKED_CAST")
    fun `the workflow runs scripts-pr-compare on the pull request and posts the comment it writes`() {
        val doc = Yaml().load<Map<Any, Any>>(workflow.readText())

        // YAML 1.1 reads the key `on` as true.
        val on = (doc["on"] ?: doc[true]) as Map<*, *>
        assertTrue("pull_request" in on.keys, "$on")
        val steps = ((doc["jobs"] as Map<*, *>).values.single() as Map<*, *>)["steps"] as List<Map<*, *>>

        fun step(uses: String) = steps.single { (it["uses"] as String?)?.startsWith(uses) == true }
        fun with(uses: String) = step(uses)["with"] as Map<*, *>
        assertEquals(0, with("actions/checkout")["fetch-depth"], "the base commit must be in the clone")
        assertEquals("temurin", with("actions/setup-java")["distribution"])
        assertEquals("17", with("actions/setup-java")["java-version"])
        assertEquals("maven", with("actions/setup-java")["cache"])
        assertTrue(steps.any { (it["run"] as String?)?.contains("scripts/pr-compare ") == true }, "$steps")
        assertEquals("pr-compare/", with("actions/upload-artifact")["path"])

        // The comment it updates is found by the marker the comment's writer, which pr-compare runs, puts first.
        val script = File("scripts/pr-compare").readText()
        val marker = CommentWriter.MARKER
        assertTrue(script.contains("serverbench.compare.PullRequestComment"), "pr-compare writes its comment so")
        assertTrue((with("actions/github-script")["script"] as String).contains("const marker = '$marker';"))

        // No suite by default: pr-compare's own row, the one its defaults can show a 3 % change on.
        val suite = Regex("""SERVERBENCH_SUITE: \$\{\{ vars.SERVERBENCH_SUITE \|\| '([\w-]*)' }}""")
            .find(workflow.readText())!!.groupValues[1]
        assertEquals("", suite)
        val row = Regex("""default_args=\('CpuBenchmark.direct\$' """)
        assertTrue(row.containsMatchIn(script), "pr-compare's default row")
    }

    @Test
    @Suppress("UNCHECKED_CAST")
    fun `the service's workflow runs its serverbench-pr script and keeps the folder it writes, also when cancelled`() {
        val doc = Yaml().load<Map<Any, Any>>(serviceWorkflow.readText())
        val steps = ((doc["jobs"] as Map<*, *>).values.single() as Map<*, *>)["steps"] as List<Map<*, *>>
        val run = steps.mapNotNull { it["run"] as String? }.single {
            it.contains("${serviceScript.parentFile.name}/${serviceScript.name} ")
        }
        val out = Regex("""--out (\S+)""").find(run)!!.groupValues[1]
        val upload = steps.single { (it["uses"] as String?)?.startsWith("actions/upload-artifact") == true }
        assertEquals("$out/", (upload["with"] as Map<*, *>)["path"])
        assertEquals("always()", upload["if"], "a cancelled or timed-out run uploads the forks that finished")
        assertTrue(serviceScript.canExecute(), "${serviceScript.path} is not executable")
        // The marker the comment writer puts first, which the step finds its comment by.
        val marker = Regex("""const marker = '(.+)';""").find(serviceWorkflow.readText())!!.groupValues[1]
        assertEquals(CommentWriter.MARKER, marker)
    }
}
