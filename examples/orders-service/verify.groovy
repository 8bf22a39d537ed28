// serverbench's end-to-end test of this example (maven-invoker-plugin, `mvn verify -Pfull` at serverbench's root):
// after `mvn package` here, one short run of each of the service's benchmarks from its own jar must succeed with 0
// errors: the whole application (OrdersServiceBenchmark), and its controller alone in the harness's server on a
// database of its own (OrderControllerBenchmark, which failed to start before the built-in application kept a team's
// JDBC auto-configuration for @EmbeddedPostgres).
import groovy.json.JsonSlurper

def java = new File(System.getProperty('java.home'), 'bin/java').path

// No benchmark named: the service's own run, not the built-in ones the jar also holds (checked, nothing started).
def check = new ProcessBuilder([java, '-Dserverbench.checkOnly=true', '-jar', 'bench/target/benchmarks.jar'])
        .directory(basedir).redirectErrorStream(true).start()
def checked = check.inputStream.text
assert check.waitFor() == 0: "the check of a run with no benchmark named failed:\n$checked"
assert checked.contains("running this project's own (OrderControllerBenchmark, OrdersServiceBenchmark)"): checked
// Both are servlet code: Netty, which the default names too, is skipped for each with a notice.
assert checked.contains('OrderControllerBenchmark.createOrder on netty: OrderController, OrderRepository: endpoints ' +
        'for servlet (Spring MVC) stacks'): checked

def results = new File(basedir, 'target/e2e.json')
def command = [java, '-Dserverbench.warmup=off', '-jar', 'bench/target/benchmarks.jar', 'OrdersServiceBenchmark',
               'OrderControllerBenchmark', '-p', 'server=tomcat', '-i', '1', '-r', '3s', '-rf', 'json', '-rff',
               results.path]
def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
def output = new StringBuilder()
process.inputStream.eachLine { line ->
    println line
    output.append(line).append('\n')
}
def exit = process.waitFor()
assert exit == 0: "the benchmark run exited with $exit"
def text = output.toString()
assert text.contains('PostgreSQL on port'): 'no PostgreSQL was started for the service'
assert !text.contains('could not make the forks\' class-data archive'): 'the built-in NoopBenchmark failed in this jar'
def parsed = new JsonSlurper().parse(results)
for (name in ['OrdersServiceBenchmark', 'OrderControllerBenchmark']) {
    def run = parsed.find { it.benchmark.endsWith("${name}.createOrder") }
    assert run != null: "no ${name}.createOrder result in $results"
    assert run.primaryMetric.score > 0: "$name req/s: ${run.primaryMetric.score}"
    assert run.secondaryMetrics.errors.score == 0: "$name errors: ${run.secondaryMetrics.errors.score}"
    println "orders-service end to end: ${name}.createOrder ${run.primaryMetric.score} req/s, 0 errors"
}
return true
