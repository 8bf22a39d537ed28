package serverbench.client

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import kotlin.reflect.KClass
import kotlin.reflect.KType
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.primaryConstructor
import kotlin.test.assertEquals
import kotlin.test.assertNotEquals

/**
 * [ClientReport.merge] keeps every field: a field added to [ClientReport] but not to its merge took its default in a
 * multi-thread run and vanished from the results without a word. Built by reflection, so a new field is checked
 * without this test knowing it.
 */
class ClientReportMergeTest {
    /** The benchmark thread's own by design: JMH counted every thread's successes in it, and the window is its. */
    private val own = setOf("successes", "wallNanos", "opsWithoutSuccess", "requestBytes")

    @Test
    fun `merge carries every other thread's share of every field`() {
        val constructor = ClientReport::class.primaryConstructor!!
        val first = report(1)
        val merged = ClientReport.merge(first, listOf(report(2)))
        // What a field holds when the merge does not pass it on: its default.
        val defaults = constructor.callBy(
            constructor.parameters.filter { !it.isOptional }.associateWith { value(it.type, 1) },
        )
        for (p in constructor.parameters) {
            val property = ClientReport::class.memberProperties.single { it.name == p.name }
            val got = figure(property.get(merged))
            if (p.name in own) {
                assertEquals(figure(property.get(first)), got, "${p.name} is the benchmark thread's own")
                continue
            }
            val why = "ClientReport.merge drops the other threads' ${p.name}: merge it (sum, worst, any), or if " +
                "it is the benchmark thread's own say so in this test"
            assertNotEquals(figure(property.get(first)), got, why)
            assertNotEquals(figure(property.get(defaults)), got, why)
        }
    }

    /** A report whose every field is set from [k]: 1 for the benchmark thread's, 2 for another's. */
    private fun report(k: Int): ClientReport {
        val constructor = ClientReport::class.primaryConstructor!!
        return constructor.callBy(constructor.parameters.associateWith { value(it.type, k) })
    }

    private fun value(type: KType, k: Int): Any = when (val c = type.classifier as KClass<*>) {
        Long::class -> k.toLong()
        Int::class -> k
        Double::class -> k.toDouble()
        Boolean::class -> k > 1
        String::class -> "$k"
        Histogram::class -> Histogram(3).apply { repeat(k) { recordValue(100L * k) } }
        FailureCounts::class -> FailureCounts().apply { repeat(k) { add(FailureKind.TIMEOUT, "t") } }
        List::class -> listOf(value(type.arguments.single().type!!, k))
        else -> c.primaryConstructor!!.let { it.callBy(it.parameters.associateWith { p -> value(p.type, k) }) }
    }

    /** A field's value as something equal only to an equal value. */
    private fun figure(x: Any?): String = when (x) {
        null -> "null"
        is Histogram -> "histogram of ${x.totalCount}, max ${x.maxValue}"
        is FailureCounts -> "${x.total} failures"
        is List<*> -> x.joinToString(prefix = "[", postfix = "]") { figure(it) }
        is ClientReport.ThreadShare -> "${x.successes}/${x.cpuNanos}/${x.wallNanos}/${x.connections}"
        is H2Bytes -> "${x.written}/${x.read}"
        else -> x.toString()
    }
}
