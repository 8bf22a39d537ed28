package serverbench.benchmarks

/**
 * The server knobs moved to [serverbench.params.Knobs]; this name stays only for report/Report.kt, which issue 37's
 * metric catalogue is rewriting at the same time: switch its import there and delete this file.
 */
typealias Knobs = serverbench.params.Knobs
