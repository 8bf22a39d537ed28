package serverbench.testing

import serverbench.metrics.RunFiles
import java.io.File

/**
 * A jar run's result file and the files its forks wrote beside it (`<name>/`, [RunFiles]), removed together: a test
 * that deleted only the JSON left a directory of latency logs in /tmp for every run.
 */
fun deleteResults(json: File) {
    json.delete()
    RunFiles.root(json).deleteRecursively()
}
