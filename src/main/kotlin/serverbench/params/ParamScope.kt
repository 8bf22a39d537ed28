package serverbench.params

import serverbench.params.ParamNames as N

/**
 * Where a parameter means something: a knob on its own stack, `sslProvider` with `tls=true`, `streams` with
 * `protocol=h2`, virtual threads from JDK 21. The launcher sets a parameter outside its scope to [Knobs.NOT_APPLICABLE]
 * so that one run stands for all of its values.
 */
object ParamScope {
    /** What [name] defaults to in the `@Param` that declares it, where a notice must not name the default. */
    private val DEFAULTS = mapOf(N.STREAMS to "1")

    /**
     * Why [name] does not apply to a run with [params], as a notice's words after the name ("applies to tls=true runs
     * only"); null where it applies. A value at its default needs no notice, [quiet].
     */
    fun outside(name: String, params: Map<String, String>): String? {
        if (name == Knobs.SSL_PROVIDER && params[N.TLS] != ParamValues.TRUE) {
            return "applies to ${N.TLS}=${ParamValues.TRUE} runs only"
        }
        if (name == N.STREAMS && params[N.PROTOCOL] != ParamValues.H2) {
            return "applies to ${N.PROTOCOL}=${ParamValues.H2} runs only"
        }
        val stack = Knobs.stackOf(name) ?: return null
        val server = params[N.SERVER]
        return "applies to $stack only; $server runs show $name=${Knobs.NOT_APPLICABLE}"
            .takeIf { server != null && server != stack }
    }

    /** [value] is [name]'s default: setting it outside its scope says nothing worth a notice. */
    fun quiet(name: String, value: String): Boolean = value == (DEFAULTS[name] ?: Knobs.DEFAULT)

    /** (JDK feature version, why) the run's parameters need, or null. */
    fun requiredJdk(params: Map<String, String>): Pair<Int, String>? =
        if (params[Knobs.VIRTUAL_THREADS] == ParamValues.TRUE) {
            21 to "${Knobs.VIRTUAL_THREADS}=${ParamValues.TRUE} (virtual threads)"
        } else {
            null
        }
}
