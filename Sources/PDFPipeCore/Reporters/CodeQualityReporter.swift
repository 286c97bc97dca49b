/// `gl-code-quality-report.json`: GitLab's Code Quality report (a subset of the Code Climate issue
/// format that GitLab reads: `description`, `check_name`, `fingerprint`, `severity`,
/// `location.path`, `location.lines.begin`), for `artifacts:reports:codequality`. One issue per
/// finding: the merge request widget compares the issues of the source and target branches by
/// fingerprint, so each carries the finding's stable fingerprint (unique in the batch: the path is
/// part of it), and a finding on page N is on "line" N of the PDF (GitLab shows a location, a PDF
/// has pages). Severities: error → `major`, warning → `minor`, note → `info`; a finding that fails
/// the gate (`failOn`) is `critical`. Notes are left out unless the run fails on them (`failOn`
/// note): a merge request is no place for 192 "use https" items. Written document by document.
public struct CodeQualityReporter: StreamingReporter {
    public init() {}
    public var format: String { "codequality" }
    public var fileName: String { "gl-code-quality-report.json" }

    static func severity(_ f: Finding, in report: RunReport) -> String {
        if report.fails(f) { return "critical" }
        switch f.severity {
        case .error: return "major"
        case .warning: return "minor"
        case .note: return "info"
        }
    }

    static func issue(_ f: Finding, path: String, fingerprint: String, report: RunReport) -> JSONValue {
        var description = f.message
        if let h = f.hint { description += " (fix: \(h))" }
        // Mapped to its source (report.sources): on that line; the document and page said.
        var location: JSONValue = ["path": .string(path), "lines": ["begin": .int(max(1, f.page ?? 1))]]
        if let source = f.sourceLocation {
            location = ["path": .string(source.file), "lines": ["begin": .int(source.line)]]
            description = "\(path)" + (f.pageText.map { ", page \($0)" } ?? "") + ": " + description
        }
        return [
            "type": "issue",
            "description": .string(description),
            "check_name": .string(f.rule),
            "fingerprint": .string(fingerprint),
            "severity": .string(severity(f, in: report)),
            "location": location,
        ]
    }

    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        var first = true
        func add(_ v: JSONValue) {
            sink(Array(((first ? "[\n  " : ",\n  ") + JSONWriter.compact(v)).utf8))
            first = false
        }
        // Problems of the pipeline file itself (an expired suppression, say) are on the pipeline.
        for (i, f) in report.findings.enumerated() {
            let path = f.details["file"]?.stringValue ?? "pipeline"
            add(Self.issue(f, path: path, fingerprint: f.fingerprint ?? "pipeline:\(f.rule):\(i)", report: report))
        }
        let notes = report.failOn == .note
        for d in report.results {
            let prints = d.fingerprints
            for (f, fingerprint) in zip(d.findings, prints) where notes || f.severity > .note {
                add(Self.issue(f, path: d.displayPath, fingerprint: fingerprint, report: report))
            }
        }
        sink(Array((first ? "[]\n" : "\n]\n").utf8))
    }
}
