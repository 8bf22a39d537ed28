package serverbench.app

/**
 * Where the proxy family's downstream stub listens; null when no stub was started (the proxy endpoints then answer
 * 503).
 */
class Downstream(val url: String?) {
    companion object {
        const val URL_PROPERTY = "serverbench.downstream.url"
    }
}
