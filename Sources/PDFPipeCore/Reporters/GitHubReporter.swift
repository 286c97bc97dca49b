/// `github.txt`: GitHub Actions workflow commands (`::error file=…,title=…::…`), one per error or
/// warning; `cat` it in a step to annotate the run.
public struct GitHubReporter: Reporter {
    public init() {}
    public var format: String { "github" }
    public var fileName: String { "github.txt" }

    /// GitHub shows at most 10 error and 10 warning annotations per step (and 50 per job), and drops
    /// the rest without a word.
    public static let perLevel = 10

    public func render(_ report: RunReport) -> String {
        var out =
            report.incomplete
            ? "::warning title=pdfpipe::\(Escape.githubData("the report is incomplete: " + RunReport.incompleteNote))\n"
            : ""
        // Why a ratchet fails the step although nothing new is wrong; documents of the baseline
        // no longer in the batch either way.
        if report.ratchetFails {
            out += "::error title=pdfpipe ratchet::\(Escape.githubData(report.ratchetText(report: "REPORT.json")))\n"
        } else if let removed = report.removedText {
            out += "::notice title=pdfpipe baseline::\(Escape.githubData(removed))\n"
        }
        let (problems, baselined, collapsedCount) = Self.problems(report)
        // Errors first, then warnings, then notices; in input order within each.
        var left = 0
        for severity in [Severity.error, .warning, .note] {
            let these = problems.filter { $0.finding.severity == severity }
            for p in these.prefix(Self.perLevel) { out += Self.annotation(p) }
            left += max(0, these.count - Self.perLevel)
        }
        var notes: [String] = []
        if left > 0 {
            notes.append(
                "\(left) more distinct problem\(left == 1 ? "" : "s") not shown as annotations (GitHub shows \(Self.perLevel) errors and \(Self.perLevel) warnings per step)"
            )
        }
        if baselined > 0 {
            notes.append("\(baselined) finding\(baselined == 1 ? "" : "s") already in the baseline not annotated")
        }
        if collapsedCount > 0 {
            notes.append(
                "\(collapsedCount) unreachable web link\(collapsedCount == 1 ? "" : "s") not annotated: the network looks down"
            )
        }
        if !notes.isEmpty {
            out +=
                "::notice title=pdfpipe::\(Escape.githubData(notes.joined(separator: "; ") + "; every finding is in report.md (the step summary) and report.json"))\n"
        }
        return out
    }

    /// A problem's workflow command: its level, file, rule, pages, message and fix.
    static func annotation(_ p: Problem) -> String {
        let f = p.finding
        let command = f.severity == .error ? "error" : (f.severity == .warning ? "warning" : "notice")
        var message = f.message
        if !p.pages.isEmpty {
            let pages = Abridged(p.pages, limit: 5).joined { $0 }
            message = "page\(p.pages.count == 1 ? "" : "s") \(pages): " + message
        }
        if let pdf = p.pdf { message = "\(pdf), " + message }
        if let h = f.hint { message += " (fix: \(h))" }
        let line = p.line.map { ",line=\($0)" } ?? ""
        return
            "::\(command) file=\(Escape.githubProperty(p.path))\(line),title=\(Escape.githubProperty(f.rule))::\(Escape.githubData(message))\n"
    }

    /// One annotation per distinct problem (document, rule, message) with the pages it is on.
    struct Problem {
        var path: String
        var finding: Finding
        var pages: [String] = []
        /// On a source line (`path` is then the source file, `pdf` the document).
        var line: Int?
        var pdf: String?
    }

    /// The problems to annotate, in input order; how many findings the baseline already has and
    /// how many a run finding says for them (`RunReport.collapsedRules`): counted, not annotated.
    static func problems(_ report: RunReport) -> (problems: [Problem], baselined: Int, collapsed: Int) {
        var problems: [Problem] = []
        var index: [String: Int] = [:]
        var baselined = 0
        for f in report.findings where f.severity >= .warning || report.fails(f) {
            problems.append(Problem(path: f.details["file"]?.stringValue ?? "pipeline", finding: f))
        }
        let collapsed = report.collapsedRules
        var collapsedCount = 0
        for d in report.results {
            for f in d.findings {
                // Said once by a run finding (the network looks down): counted, not annotated.
                if collapsed.contains(f.rule) {
                    if f.baseline != .unchanged { collapsedCount += 1 }
                    continue
                }
                guard f.severity >= .warning || report.fails(f) else { continue }
                // Findings already in the baseline are not news: counted, not annotated.
                if f.baseline == .unchanged {
                    baselined += 1
                    continue
                }
                // Mapped to its source (report.sources): annotated on that line, in the diff people read.
                let source = f.sourceLocation
                let key = "\(d.displayPath)\u{0}\(f.rule)\u{0}\(f.message)\u{0}\(f.sourceText ?? "")"
                let page = f.pageText
                if let k = index[key] {
                    if let page, problems[k].pages.last != page { problems[k].pages.append(page) }
                } else {
                    index[key] = problems.count
                    var p = Problem(path: source?.file ?? d.displayPath, finding: f, pages: page.map { [$0] } ?? [])
                    if let source {
                        p.line = source.line
                        p.pdf = d.displayPath
                    }
                    problems.append(p)
                }
            }
        }
        return (problems, baselined, collapsedCount)
    }
}
