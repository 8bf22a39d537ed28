package serverbench.client

/** The one way the fork reads a whole number from a `-D` property, so every bad value gets the same kind of line. */
object Properties {
    /**
     * The value of `-D[name]`, null when it is not set; otherwise an integer of at least [min] (in [unit], when
     * given) or an [IllegalArgumentException] naming the property, what it allows and what it was.
     */
    fun long(name: String, min: Long, unit: String? = null): Long? {
        val raw = System.getProperty(name) ?: return null
        val value = raw.trim().toLongOrNull()
        require(value != null && value >= min) {
            "-D$name must be an integer >= $min${unit?.let { " ($it)" } ?: ""}, was '$raw'"
        }
        return value
    }
}
