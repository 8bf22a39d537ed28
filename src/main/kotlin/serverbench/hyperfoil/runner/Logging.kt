package serverbench.hyperfoil.runner

import java.io.File

/**
 * Hyperfoil's log (log4j 2, which Vert.x and Netty log through too) into one file and never onto the console, as JMH's
 * output goes to a log under jmh-results/: a failing server makes Hyperfoil log a warning per invalid response.
 */
object Logging {
    /** Must run before the first Hyperfoil class logs: log4j reads its configuration once, when it starts. */
    fun toFile(log: File) {
        val config = File.createTempFile("serverbench-hyperfoil-log4j2", ".xml").apply { deleteOnExit() }
        val path = log.absolutePath.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;")
        config.writeText(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Configuration status="warn">
              <Appenders>
                <File name="file" fileName="$path" append="true">
                  <PatternLayout pattern="%d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n"/>
                </File>
              </Appenders>
              <Loggers>
                <Root level="info"><AppenderRef ref="file"/></Root>
              </Loggers>
            </Configuration>
            """.trimIndent(),
        )
        System.setProperty("log4j2.configurationFile", config.absolutePath)
    }
}
