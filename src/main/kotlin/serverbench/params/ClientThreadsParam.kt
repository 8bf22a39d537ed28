package serverbench.params

/**
 * `-p clientThreads` as typed: `auto` (the client sizes it per machine, client.LoadSplit.auto) or a count of
 * load-client threads.
 */
object ClientThreadsParam {
    const val AUTO = "auto"

    /** Most client threads: far more than any machine needs to load one server. */
    const val MAX_THREADS = 256

    /** The count [value] asks for, null for [AUTO]; throws [IllegalArgumentException] naming the parameter. */
    fun count(value: String): Int? {
        if (value == AUTO) return null
        return value.toIntOrNull()?.takeIf { it in 1..MAX_THREADS }
            ?: throw IllegalArgumentException(
                "${ParamNames.CLIENT_THREADS} must be $AUTO or an integer from 1 to $MAX_THREADS, was '$value'",
            )
    }
}
