package serverbench.params

import org.junit.jupiter.api.Test
import org.openjdk.jmh.annotations.Param
import serverbench.benchmarks.OwnCode
import serverbench.benchmarks.PooledHttpBenchmark
import serverbench.benchmarks.TunableHttpBenchmark
import java.io.File
import java.lang.reflect.Modifier
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The `@Param` fields of the compiled benchmark classes and what `params` knows agree: a parameter without a rule
 * would be checked by no one, a knob missing from [Knobs.SERVER] would be silently passed to a target or Hyperfoil,
 * and a name spelled as a string outside `params` would drift from both. Pure: reads classes and sources only.
 */
class ParamNamesTest {
    /**
     * Every class of serverbench.benchmarks as compiled (JMH's generated ones left out), superclasses first; a user's
     * family put there declares its own `@Param`s, which need no rule ([OwnCode.isOwn]).
     */
    private val classes: List<Class<*>> = File("target/classes/serverbench/benchmarks").listFiles()!!
        .filter { it.extension == "class" && '$' !in it.name }
        .map { Class.forName("serverbench.benchmarks.${it.nameWithoutExtension}", false, javaClass.classLoader) }
        .filterNot { OwnCode.isOwn(it) }

    private fun declared(c: Class<*>): Set<String> =
        c.declaredFields.filter { it.isAnnotationPresent(Param::class.java) }.map { it.name }.toSet()

    private val declared: Set<String> = classes.flatMap { declared(it) }.toSet()

    @Test
    fun `the benchmarks' @Param names are the names params knows, each with a rule`() {
        assertEquals(ParamRules.names.sorted(), declared.sorted())
    }

    @Test
    fun `every name constant is a declared parameter`() {
        for (holder in listOf(ParamNames::class.java, Knobs::class.java)) {
            val names = holder.declaredFields.filter {
                Modifier.isStatic(it.modifiers) && it.type == String::class.java
            }
                .filter { it.name != "DEFAULT" && it.name != "NOT_APPLICABLE" && it.name != "INSTANCE" }
                .map { it.get(null) as String }
            assertTrue(names.isNotEmpty(), holder.name)
            assertEquals(emptyList(), names - declared, "${holder.simpleName}'s names no benchmark declares")
        }
    }

    @Test
    fun `the server knobs are the parameters of the tunable bases, so a target or Hyperfoil refuses each`() {
        val knobs = declared(TunableHttpBenchmark::class.java) + declared(PooledHttpBenchmark::class.java)
        assertEquals(knobs.sorted(), Knobs.SERVER.sorted())
    }

    @Test
    fun `no parameter map is read by a name spelled as a string outside params`() {
        val lookup = Regex("""params\s*(?:\[|\.getValue\(|\.containsKey\(|\.get\()\s*"(\w+)"""")
        val spelled = File("src/main/kotlin/serverbench").walk()
            .filter { it.extension == "kt" && "/params/" !in it.path }
            .flatMap { f -> lookup.findAll(f.readText()).map { "${f.name}: ${it.value}" } }.toList()
        assertEquals(emptyList(), spelled)
    }
}
