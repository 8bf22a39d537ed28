package serverbench.client

/**
 * A body that differs per response (a database's next number), checked by its shape instead of byte for byte. The
 * exact-body check stays everywhere else: a [Request] has a shape only when its family gives it one.
 */
fun interface BodyShape {
    /** A check for one connection: it may remember that connection's earlier answers. */
    fun newCheck(): BodyCheck

    companion object {
        /**
         * A positive integer larger than the last one on the same connection: a sequence's `nextval` or a new row's
         * id. One connection's requests run one after another, so each answer must be larger than the one before.
         */
        val increasingNumber = BodyShape {
            var last = 0L
            BodyCheck { body ->
                val n = body.toLongOrNull()
                when {
                    n == null || n <= 0 -> "not a positive integer"

                    n <= last -> "not larger than this connection's previous answer, $last"

                    else -> {
                        last = n
                        null
                    }
                }
            }
        }
    }
}

/** Returns null when [body] has the shape, or what is wrong with it. */
fun interface BodyCheck {
    fun check(body: String): String?
}
