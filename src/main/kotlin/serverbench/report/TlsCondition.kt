package serverbench.report

/** Whether a set of rows ran over HTTPS (`-p tls`, docs/tls.md), for the conditions and the tables to say so. */
internal object TlsCondition {
    private const val TLS = "tls"

    /** Every row with `tls=true`: their table says it once, in place of a column of `true`. */
    const val HTTPS = "Over HTTPS: `tls=true`, the client on TLS 1.3, the trial's self-signed certificate"

    /**
     * The findings' condition when every row shares one value of `tls`; null when it varies. A row without the
     * parameter ran plain HTTP: `tls=false` is dropped on reading ([Results]), and older results predate TLS.
     */
    fun of(runs: List<Run>): String? {
        val values = runs.map { it.params[TLS] ?: "false" }.distinct()
        return when (values.singleOrNull()) {
            "true" -> "over HTTPS (tls=true: TLS 1.3)"
            "false" -> "plain HTTP (tls=false)"
            else -> null
        }
    }

    fun allHttps(runs: List<Run>): Boolean = runs.isNotEmpty() && runs.all { it.params[TLS] == "true" }
}
