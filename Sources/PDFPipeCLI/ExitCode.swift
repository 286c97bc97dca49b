/// The exit codes of `pdfpipe`, documented in the README; stable.
package enum ExitCode: Int32, Sendable {
    /// No finding at or above the fail-on level.
    case clean = 0
    /// Findings at or above the fail-on level.
    case findings = 1
    /// A bad pipeline file, bad arguments, or an input that does not exist.
    case usage = 2
    /// pdfpipe itself failed (for example, it could not write the report).
    case internalFailure = 3
    /// Interrupted by SIGINT (Ctrl-C): the report lists the finished documents and is marked incomplete.
    case interrupted = 130
    /// Stopped by SIGTERM, likewise.
    case terminated = 143
}
