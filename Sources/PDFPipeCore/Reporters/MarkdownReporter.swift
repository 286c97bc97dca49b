/// `report.md`: a summary table and the links' totals, the broken targets across the batch, and the
/// errors and warnings by document, the worst first, each with its fix, fit for a CI job summary
/// (GitHub's `$GITHUB_STEP_SUMMARY`). With a baseline, only new findings are listed.
public struct MarkdownReporter: Reporter {
    public init() {}
    public var format: String { "markdown" }
    public var fileName: String { "report.md" }

    /// GitHub takes at most 1 MiB of step summary: stop well before, and say so.
    public static let byteBudget = 900_000

    /// What the comparison with the baseline found, and whether the ratchet wants it updated.
    func baselineLine(_ b: BaselineUse, _ report: RunReport) -> String {
        let s = report.summary
        var out =
            "**Baseline** `\(Escape.markdown(b.file))`: \(s.new) new, \(s.unchanged) unchanged (not listed below), \(s.fixed) fixed"
        if b.ratchet && s.fixed > 0 {
            out +=
                " — **the baseline must be updated** (ratchet): `pdfpipe baseline REPORT.json --out \(Escape.markdown(b.file))`"
        }
        if let removed = report.removedText {
            out += ". " + Escape.markdown(removed.prefix(1).uppercased() + removed.dropFirst())
        }
        return out + "\n\n"
    }

    public func render(_ report: RunReport) -> String {
        let s = report.summary
        var out = "# pdfpipe: \(Escape.markdown(report.pipeline))\n\n"
        if report.incomplete { out += "> **Incomplete:** \(RunReport.incompleteNote)\n\n" }
        out +=
            "| documents | failed | pages | errors | warnings | notes | suppressed |\n|---:|---:|---:|---:|---:|---:|---:|\n"
        out +=
            "| \(s.documents) | \(s.failedDocuments) | \(s.pages) | \(s.errors) | \(s.warnings) | \(s.notes) | \(s.suppressed) |\n\n"
        // The links' totals at the top too (and last, as the console ends).
        if let links = s.links { out += links.line.prefix(1).uppercased() + links.line.dropFirst() + "\n\n" }
        if let b = report.baseline { out += baselineLine(b, report) }
        if !report.findings.isEmpty {
            out += "## Pipeline\n\n| severity | rule | message |\n|---|---|---|\n"
            for f in report.findings {
                out += "| \(f.severity.rawValue) | `\(f.rule)` | \(Escape.markdown(f.message)) |\n"
            }
            out += "\n"
        }
        // With a baseline: what is new first (its broken targets, then its findings), then the
        // targets the baseline already has. Without one: the targets, then the findings.
        let (fresh, rest) = BrokenTarget.split(report)
        if !fresh.isEmpty {
            out += targetsTable(
                fresh, title: "New broken targets",
                intro:
                    "Broken by findings that are not in the baseline, each once, with every document that links to it")
        }
        if report.baseline == nil {
            out += targetsTable(rest, title: "Broken targets", intro: "Each once, with every document that links to it")
        }
        let cut = findingsSection(report, into: &out)
        if report.baseline != nil && !cut && !rest.isEmpty {
            if !out.hasSuffix("\n\n") { out += "\n" }
            out += targetsTable(
                rest, title: "Broken targets already in the baseline",
                intro: "Still broken, accepted by the baseline")
        }
        if cut { out += "\n… cut here to stay under GitHub's 1 MiB step summary; every finding is in report.json\n" }
        // The totals last, as the console ends: what a compliance record quotes.
        if let links = s.links {
            if !out.hasSuffix("\n\n") { out += "\n" }
            out += "**" + links.line.prefix(1).uppercased() + links.line.dropFirst() + "**\n"
        }
        return out
    }

    /// A table of broken targets (at most 50 rows), or nothing for none.
    func targetsTable(_ targets: [BrokenTarget], title: String, intro: String) -> String {
        guard !targets.isEmpty else { return "" }
        var out = "## \(title)\n\n\(intro) (\(targets.count) in all).\n\n"
        out += "| target | rule | links | used in |\n|---|---|---:|---|\n"
        let rows = Abridged(targets, limit: 50)
        for t in rows.shown {
            out +=
                "| \(Escape.markdown(t.target)) | `\(t.rule)` | \(t.count) | \(Escape.markdown(t.usesText(limit: 5))) |\n"
        }
        out += rows.tail { "\n… and \($0) more in report.html and report.json\n" }
        return out + "\n"
    }

    /// The errors and warnings (with a baseline, the new ones) by document, the worst first (most
    /// errors, then warnings, then report order), each with its fix, within the byte budget;
    /// returns whether it had to stop. Two passes over the documents: the counts, then the
    /// sections of the `shownDocuments` worst.
    func findingsSection(_ report: RunReport, into out: inout String) -> Bool {
        let listed: (Finding) -> Bool = { $0.severity >= .warning && $0.baseline != .unchanged }
        var ranked: [(position: Int, errors: Int, warnings: Int)] = []
        for (position, d) in report.results.enumerated() {
            let e = d.findings.count { $0.severity == .error && listed($0) }
            let w = d.findings.count { $0.severity == .warning && listed($0) }
            if e + w > 0 { ranked.append((position, e, w)) }
        }
        if ranked.isEmpty {
            out += report.baseline == nil ? "No errors or warnings.\n" : "No new errors or warnings.\n"
            return false
        }
        ranked.sort { ($0.errors, $0.warnings, -$0.position) > ($1.errors, $1.warnings, -$1.position) }
        var rank: [Int: Int] = [:]
        for (i, r) in ranked.prefix(Self.shownDocuments).enumerated() { rank[r.position] = i }
        var sections: [Int: [String]] = [:]
        for (position, d) in report.results.enumerated() {
            guard let i = rank[position] else { continue }
            let r = ranked[i]
            var parts = [
                "## \(Escape.markdown(d.displayPath))\(d.status == .failed ? " (failed)" : "")\n\n\(r.errors) \(report.baseline == nil ? "" : "new ")error\(r.errors == 1 ? "" : "s"), \(r.warnings) warning\(r.warnings == 1 ? "" : "s")\n\n"
                    + "| page | severity | rule | message | fix |\n|---|---|---|---|---|\n"
            ]
            for f in d.findings where listed(f) {
                parts.append(
                    "| \(Escape.markdown(Self.place(f))) | \(f.severity.rawValue) | `\(f.rule)` | \(Escape.markdown(f.message)) | \(Self.fixText(f)) |\n"
                )
            }
            sections[i] = parts
        }
        var lines = 0
        for i in sections.keys.sorted() {
            guard lines < 1000 else {
                out += "\n… more in report.json\n"
                return false
            }
            for part in sections[i]! {
                if out.utf8.count + part.utf8.count > Self.byteBudget { return true }
                out += part
                lines += 1
            }
            out += "\n"
        }
        if ranked.count > sections.count {
            out += "… and \(ranked.count - sections.count) more documents with errors or warnings in report.json\n"
        }
        return false
    }

    /// A finding's fix column: its hint, and the replacement it proposes when it has one.
    /// The page column: the page, and the source line the finding was mapped to (`file:line`).
    static func place(_ f: Finding) -> String {
        [f.pageText, f.sourceText].compactMap { $0 }.joined(separator: " · ")
    }

    static func fixText(_ f: Finding) -> String {
        var text = Escape.markdown(f.hint ?? "")
        if let fix = f.suggestedFix {
            text +=
                (text.isEmpty ? "" : " ") + "**Replace with** \(Escape.markdown(fix.to))"
                + (fix.why.isEmpty ? "" : " (\(Escape.markdown(fix.why)))")
        }
        return text
    }

    /// The documents a summary lists in full, the worst first.
    static let shownDocuments = 200
}
