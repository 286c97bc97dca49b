import Foundation
import PDFPipeCore

/// The progress line on a terminal: documents done/total, time so far, pages per second, time
/// left, and the document that just finished.
/// Redrawn at most five times a second; nothing at all when stderr is not a terminal.
package final class ProgressLine: Sendable {
    private let console: Console
    private let lastDraw = Locked<Double>(-1)

    package init(console: Console) { self.console = console }

    package func update(_ p: RunProgress) {
        let due = lastDraw.withLock { last -> Bool in
            guard p.done == p.total || p.elapsed - last >= 0.2 else { return false }
            last = p.elapsed
            return true
        }
        guard due else { return }
        let rate = p.elapsed > 0 ? Double(p.pages) / p.elapsed : 0
        let left = p.done > 0 ? p.elapsed / Double(p.done) * Double(p.total - p.done) : 0
        var name = ConsoleText.escape(p.document)
        if name.count > 50 { name = "…" + name.suffix(49) }
        var text =
            "[\(p.done)/\(p.total)] \(Self.duration(p.elapsed)), \(rate.isFinite ? String(format: "%.0f", rate) : "?") pages/s, \(Self.duration(left)) left \(name)"
        // Never wider than the terminal: a wrapped line is not redrawn in place by \r, and each
        // update would leave a line behind.
        let width = max((console.columns ?? 80) - 1, 10)
        if text.count > width { text = String(text.prefix(width - 1)) + "…" }
        console.status("\r\u{1B}[K" + text)
    }

    func finish() { console.status("\r\u{1B}[K") }

    package static func duration(_ s: Double) -> String {
        // An estimate can be anything before the first document ends: no Int conversion may trap.
        guard s.isFinite, s >= 0, s < 1e9 else { return "?" }
        let t = Int(s.rounded())
        if t < 60 { return "\(t)s" }
        if t < 3600 { return "\(t / 60)m\(String(format: "%02d", t % 60))s" }
        return "\(t / 3600)h\(String(format: "%02d", t / 60 % 60))m"
    }
}
