package serverbench.launcher

/** "# Run progress" for a session: which run of how many, and an ETA from the runs so far. */
object Progress {
    fun line(index: Int, runs: List<Plan.Run>, elapsedSeconds: Long): String =
        "# Run progress: run ${index + 1} of ${runs.size} (${"%.2f".format(100.0 * index / runs.size)}% complete), " +
            "ETA ${eta(index, runs, elapsedSeconds)}"

    /** Time left: the estimate of the runs to go, scaled by how the finished runs compared with theirs. */
    fun eta(index: Int, runs: List<Plan.Run>, elapsedSeconds: Long): String {
        val done = runs.take(index).sumOf { it.estimateSeconds }
        val left = runs.drop(index).sumOf { it.estimateSeconds }
        return duration(if (index == 0 || done == 0L) left else left * elapsedSeconds / done)
    }

    fun duration(seconds: Long) = "%02d:%02d:%02d".format(seconds / 3600, seconds / 60 % 60, seconds % 60)
}
