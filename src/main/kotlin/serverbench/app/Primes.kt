package serverbench.app

import kotlin.math.sqrt

/**
 * The CPU workload every CPU variant runs, on both stacks: trial division of each i in 2..limit by 2..floor(sqrt(i)),
 * collecting the primes into a list (allocation included, as user code does) and answering with their sum.
 *
 * It is the only copy. The cooperative variant needs to suspend between batches, so the function is `inline` with a
 * [checkpoint] lambda called every [batchSize] numbers: inlined into a `suspend` caller, that lambda may call
 * `yield()`; everywhere else it is the empty default and the loop compiles to the plain one.
 */
inline fun sumPrimes(limit: Int, batchSize: Int = Int.MAX_VALUE, checkpoint: () -> Unit = {}): Long {
    require(limit >= 2) { "limit must be >= 2, was $limit" }
    require(batchSize >= 1) { "batchSize must be >= 1, was $batchSize" }
    val primes = ArrayList<Int>()
    var sinceCheckpoint = 0
    for (i in 2..limit) {
        if (isPrime(i)) primes.add(i)
        if (++sinceCheckpoint == batchSize) {
            sinceCheckpoint = 0
            checkpoint()
        }
    }
    var sum = 0L
    for (p in primes) sum += p
    return sum
}

fun isPrime(n: Int): Boolean {
    val root = sqrt(n.toDouble()).toInt()
    for (d in 2..root) {
        if (n % d == 0) return false
    }
    return true
}
