// serverbench's end-to-end test of this example (maven-invoker-plugin, `mvn verify -Pfull` at serverbench's root):
// after `mvn package` here, one short run of each of the service's benchmarks from its own jar must succeed with 0
// errors on Netty: the whole WebFlux application on R2DBC (ReactiveOrdersBenchmark, whose R2DBC URL pointed at the
// service's own localhost:5432 before @EmbeddedPostgres set spring.r2dbc.*), and its controller alone
// (ReactiveOrderControllerBenchmark, which had no DatabaseClient before the harness kept a team's R2DBC modules).
import groovy.json.JsonSlurper

def java = new File(System.getProperty('java.home'), 'bin/java').path
def results = new File(basedir, 'target/e2e.json')
def names = ['ReactiveOrdersBenchmark', 'ReactiveOrderControllerBenchmark']
def command = [java, '-Dserverbench.warmup=off', '-jar', 'bench/target/benchmarks.jar'] + names +
        ['-i', '1', '-r', '3s', '-rf', 'json', '-rff', results.path]
def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
def output = new StringBuilder()
process.inputStream.eachLine { line ->
    println line
    output.append(line).append('\n')
}
def exit = process.waitFor()
assert exit == 0: "the benchmark run exited with $exit"
def text = output.toString()
assert text.contains('spring.r2dbc.url too'): 'no PostgreSQL was started for the service over R2DBC'
// The default stacks include tomcat; a reactive application and reactive endpoints skip it with a notice.
assert text.contains('ReactiveOrdersBenchmark.createOrder on tomcat'): text
def parsed = new JsonSlurper().parse(results)
for (name in names) {
    def run = parsed.find { it.benchmark.endsWith("${name}.createOrder") }
    assert run != null: "no ${name}.createOrder result in $results"
    assert run.params.server == 'netty': "$name ran on ${run.params.server}"
    assert run.primaryMetric.score > 0: "$name req/s: ${run.primaryMetric.score}"
    assert run.secondaryMetrics.errors.score == 0: "$name errors: ${run.secondaryMetrics.errors.score}"
    println "reactive-orders end to end: ${name}.createOrder ${run.primaryMetric.score} req/s, 0 errors"
}
return true
