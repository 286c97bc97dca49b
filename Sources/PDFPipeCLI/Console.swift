import Foundation
import PDFPipeCore
import SystemIO

/// Where the CLI writes: standard output and error, or buffers in tests. One lock serializes all
/// writes, so lines from worker threads never interleave.
package final class Console: Sendable {
    private let out: @Sendable (String) -> Void
    private let err: @Sendable (String) -> Void
    private let lock = Locked(())
    /// Whether standard error is a terminal (progress is shown only then).
    package let interactive: Bool
    /// Whether severities are coloured: standard output is a terminal, `NO_COLOR` is not set
    /// (no-color.org) and `TERM` is not `dumb`.
    package let colored: Bool

    /// The terminal's width in columns, when standard error is a terminal that says (or
    /// `COLUMNS` does): the progress line is cut to it, so that it never wraps.
    package let columns: Int?

    package init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, interactive: Bool,
        colored: Bool = false, columns: Int? = nil
    ) {
        // Every line written passes the secret scrubber (docs/security.md): a URL a redirect
        // echoed a token into, a message, a file name.
        self.out = { out(Secrets.scrub($0)) }
        self.err = { err(Secrets.scrub($0)) }
        self.interactive = interactive
        self.colored = colored
        self.columns = columns
    }

    /// Standard error's terminal width (TIOCGWINSZ), else `COLUMNS`, else nil.
    static func terminalColumns() -> Int? {
        if let columns = Terminal.columns(.standardError) { return columns }
        return Environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The process's standard streams.
    package static func standard() -> Console {
        Console(
            out: { s in FileHandle.standardOutput.write(Data(s.utf8)) },
            err: { s in FileHandle.standardError.write(Data(s.utf8)) },
            interactive: Terminal.isTerminal(.standardError),
            colored: Terminal.isTerminal(.standardOutput)
                && (Environment["NO_COLOR"] ?? "").isEmpty
                && Environment["TERM"] != "dumb",
            columns: terminalColumns())
    }

    /// A finding's line, `before` + severity + `after`, each part escaped; the severity in its
    /// colour on a terminal (the escape sequences are pdfpipe's own, never a document's).
    package func print(_ before: String, severity: Severity, _ after: String) {
        let word = severity.rawValue
        let code = severity == .error ? "31" : severity == .warning ? "33" : "34"
        let shown = colored ? "\u{1B}[1;\(code)m\(word)\u{1B}[0m" : word
        lock.withLock { _ in out(ConsoleText.escape(before) + shown + ConsoleText.escape(after) + "\n") }
    }

    /// One line; whatever came from a document or a file name in it is escaped (`ConsoleText`).
    package func print(_ line: String) { lock.withLock { _ in out(ConsoleText.escape(line) + "\n") } }
    package func error(_ line: String) { lock.withLock { _ in err(ConsoleText.escape(line) + "\n") } }
    /// pdfpipe's own text of several lines (usage, help, validation messages): each line escaped.
    package func printLines(_ text: String) { lock.withLock { _ in out(Self.lines(text)) } }
    package func errorLines(_ text: String) { lock.withLock { _ in err(Self.lines(text)) } }
    private static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { ConsoleText.escape(String($0)) + "\n" }
            .joined()
    }

    /// Writes text to standard output as it is.
    package func write(_ text: String) { lock.withLock { _ in out(text) } }
    /// Writes without a newline (a progress line redrawn with `\r`).
    package func status(_ text: String) { lock.withLock { _ in err(text) } }
}
