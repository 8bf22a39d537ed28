package serverbench.compare

/*
 * The options of a command that measures a suite live (LiveFindingsMain, LiveCapacityMain) among the JMH options it
 * passes on: each of its own takes one value.
 */

/** The value after [option], or null. */
internal fun List<String>.ownValue(option: String): String? =
    indexOf(option).takeIf { it >= 0 }?.let { getOrNull(it + 1) }

/** The arguments without [own] options and their values: what JMH reads. */
internal fun List<String>.withoutOwn(own: Set<String>): List<String> {
    val out = ArrayList<String>()
    var i = 0
    while (i < size) {
        if (this[i] in own) i += 2 else out += this[i++]
    }
    return out
}
