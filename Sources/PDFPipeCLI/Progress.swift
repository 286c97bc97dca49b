import Foundation
import PDFPipeCore
import SystemIO

/// `run --progress`: `auto` redraws a line on a terminal and writes a line every 15 s to a log
/// (none with `--quiet`); `always` also with `--quiet`; `never` none.
enum ProgressMode: String, FlagChoice {
    case auto, always, never
}

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

/// Progress where no terminal shows it (a CI log, a Slurm log): one plain line on stderr at a
/// steady interval — documents done of all, links checked, time so far, an estimate of the time
/// left — so that a long run is seen to move (CircleCI stops a step that prints nothing for 10
/// minutes) and the log stays readable: never more than one line per `interval`, whatever the
/// batch. A timer asks `tick` once a second; tests call `tick` with their own clock.
package final class LogProgress: Sendable {
    /// The least time between two lines, in seconds.
    package static let interval = 15.0

    private let console: Console
    private let total: Int
    private let state = Locked<(latest: RunProgress?, lastLine: Double, doneAtLastLine: Int?, stopped: Bool)>(
        (nil, 0, nil, false))

    package init(console: Console, total: Int) {
        self.console = console
        self.total = total
    }

    /// The first report counts the documents a resumed run found done (all at once) and the one
    /// that just finished: the rate counts from there.
    package func update(_ p: RunProgress) {
        state.withLock { s in
            if s.latest == nil, s.doneAtLastLine == nil { s.doneAtLastLine = max(0, p.done - 1) }
            s.latest = p
        }
    }

    /// A line when `interval` has passed since the last one (or since the start); `now` is the
    /// run's elapsed time in seconds.
    package func tick(now: Double) {
        let line = state.withLock { s -> String? in
            guard !s.stopped, now - s.lastLine >= Self.interval else { return nil }
            let p = s.latest ?? RunProgress(done: 0, total: total, pages: 0, elapsed: now)
            // The estimate from the rate since the last line (documents resumed or done before it
            // do not make it promise too soon); none when nothing finished since.
            var left = ""
            if p.done > 0, p.done < p.total {
                let recent = p.done - (s.doneAtLastLine ?? 0)
                left =
                    recent > 0
                    ? ", about \(ProgressLine.duration((now - s.lastLine) / Double(recent) * Double(p.total - p.done))) left"
                    : ", no document finished in the last \(ProgressLine.duration(now - s.lastLine))"
            }
            s.lastLine = now
            s.doneAtLastLine = p.done
            // What the run does: links when it checks them, pages otherwise.
            let work =
                p.links > 0
                ? "\(p.links) link\(p.links == 1 ? "" : "s") checked" : "\(p.pages) page\(p.pages == 1 ? "" : "s")"
            return
                "pdfpipe: progress: \(p.done)/\(p.total) documents, \(work), \(ProgressLine.duration(now)) elapsed\(left)"
        }
        if let line { console.error(line) }
    }

    /// Ticks once a second, on a thread of its own, until `finish` (which waits for nothing).
    package func start() {
        let begin = SystemClock.uptimeNanoseconds
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                Thread.sleep(forTimeInterval: 1)
                tick(now: SystemClock.seconds(since: begin))
            }
        }
    }

    /// No line after this.
    package func finish() { state.withLock { $0.stopped = true } }
}
