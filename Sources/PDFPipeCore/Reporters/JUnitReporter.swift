/// `junit.xml`: a test suite per document, a test case per stage; findings at or above the run's
/// fail-on level are the case's failure, the others its system output; stages skipped after a
/// failure are skipped cases. Valid against Jenkins' xUnit schema (`junit-10.xsd`, which pytest also
/// checks its output against): that schema has no `skipped` on `<testsuites>`, so skipped counts are
/// per `<testsuite>` only.
public struct JUnitReporter: StreamingReporter {
    public init() {}
    public var format: String { "junit" }
    public var fileName: String { "junit.xml" }

    /// Two passes over the documents, a document at a time: the totals that `<testsuites>` carries
    /// first, then the suites as they come.
    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        var totalTests = 0
        var totalFailures = 0
        for d in report.results {
            let s = suite(d, report)
            totalTests += s.tests
            totalFailures += s.failures
        }
        let run = runSuite(report)
        totalTests += run?.tests ?? 0
        totalFailures += run?.failures ?? 0
        sink(
            Array(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<testsuites name=\"\(Escape.xml("pdfpipe: \(report.pipeline)"))\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\">\n")
                    .utf8))
        sink(Array((totalsSuite(report) + "\n").utf8))
        for d in report.results { sink(Array((suite(d, report).text + "\n").utf8)) }
        if let run { sink(Array((run.text + "\n").utf8)) }
        sink(Array("</testsuites>\n".utf8))
    }

    /// A document's suite: a case per stage.
    func suite(_ d: DocumentResult, _ report: RunReport) -> (text: String, tests: Int, failures: Int) {
        let stages = d.timings.keys.sorted()
        let skipped = d.section(SkippedStagesSection.self)?.stages ?? []
        var cases: [String] = []
        var failures = 0
        let names = stages + skipped.filter { !stages.contains($0) }
        for stage in names {
            let time = JSONWriter.format(((d.timings[stage] ?? 0) * 1000).rounded() / 1000)
            var body = ""
            if skipped.contains(stage) {
                body = "      <skipped message=\"skipped: the document failed in an earlier stage\"/>\n"
            } else {
                // Findings carry the stage instance that made them (`id#2` for a second one).
                let findings = d.findings.filter { ($0.stage ?? "") == stage }
                let failing = findings.filter(report.fails)
                if !failing.isEmpty {
                    failures += 1
                    let worst = failing.map(\.severity).max() ?? .error
                    body +=
                        "      <failure message=\"\(Escape.xml("\(failing.count) finding\(failing.count == 1 ? "" : "s") at or above \(report.failOn.rawValue)"))\" type=\"\(worst.rawValue)\">"
                    body += Escape.xml(failing.map(Self.line).joined(separator: "\n"))
                    body += "</failure>\n"
                }
                let others = findings.filter { !report.fails($0) }
                if !others.isEmpty {
                    body +=
                        "      <system-out>\(Escape.xml(others.map(Self.line).joined(separator: "\n")))</system-out>\n"
                }
            }
            cases.append(
                "    <testcase classname=\"\(Escape.xml(ConsoleText.escape(d.displayPath)))\" name=\"\(Escape.xml(stage))\" time=\"\(time)\""
                    + (body.isEmpty ? "/>" : ">\n\(body)    </testcase>"))
        }
        if names.isEmpty {
            // A document no stage ran on (should not happen) still shows up.
            cases.append(
                "    <testcase classname=\"\(Escape.xml(ConsoleText.escape(d.displayPath)))\" name=\"document\"/>")
        }
        return (
            "  <testsuite name=\"\(Escape.xml(ConsoleText.escape(d.displayPath)))\" tests=\"\(max(names.count, 1))\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped.count)\">\n"
                + cases.joined(separator: "\n") + "\n  </testsuite>", max(names.count, 1), failures
        )
    }

    /// The run's totals as properties of a suite of no tests (the schema gives `<testsuites>`
    /// none): documents, pages and findings, and the links' verdicts (`summary.links`).
    func totalsSuite(_ report: RunReport) -> String {
        let s = report.summary
        var properties = [
            ("documents", s.documents), ("failedDocuments", s.failedDocuments), ("pages", s.pages),
            ("errors", s.errors), ("warnings", s.warnings), ("notes", s.notes),
        ]
        if let l = s.links {
            properties += [
                ("links.total", l.total), ("links.ok", l.ok), ("links.broken", l.broken), ("links.blocked", l.blocked),
                ("links.unverified", l.unverified), ("links.skipped", l.skipped), ("links.redirected", l.redirected),
            ]
        }
        return
            "  <testsuite name=\"pdfpipe: totals\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    <properties>\n"
            + properties.map { "      <property name=\"\($0.0)\" value=\"\($0.1)\"/>\n" }.joined()
            + "    </properties>\n  </testsuite>"
    }

    /// Findings about the run (its pipeline file's `ignore` list): one suite of their own.
    func runSuite(_ report: RunReport) -> (text: String, tests: Int, failures: Int)? {
        guard !report.findings.isEmpty else { return nil }
        let file = report.findings.first?.details["file"]?.stringValue ?? "pipeline"
        let failing = report.findings.filter(report.fails)
        let others = report.findings.filter { !report.fails($0) }
        var body = ""
        if !failing.isEmpty {
            body +=
                "      <failure message=\"\(failing.count) finding\(failing.count == 1 ? "" : "s") at or above \(report.failOn.rawValue)\" type=\"\((failing.map(\.severity).max() ?? .error).rawValue)\">"
            body += Escape.xml(failing.map(Self.line).joined(separator: "\n")) + "</failure>\n"
        }
        if !others.isEmpty {
            body += "      <system-out>\(Escape.xml(others.map(Self.line).joined(separator: "\n")))</system-out>\n"
        }
        return (
            "  <testsuite name=\"\(Escape.xml(ConsoleText.escape(file)))\" tests=\"1\" failures=\"\(failing.isEmpty ? 0 : 1)\" errors=\"0\" skipped=\"0\">\n"
                + "    <testcase classname=\"\(Escape.xml(ConsoleText.escape(file)))\" name=\"ignore\">\n\(body)    </testcase>\n  </testsuite>",
            1, failing.isEmpty ? 0 : 1
        )
    }

    static func line(_ f: Finding) -> String {
        var place = ""
        if let t = f.pageText { place = "page \(t): " }
        let baseline = f.baseline == .unchanged ? " (in the baseline)" : ""
        // The message, label and hint are safe already (Finding); the line is written as it is.
        return "\(place)\(f.severity.rawValue) [\(f.rule)] \(f.message)\(baseline)"
            + (f.hint.map { " — fix: \($0)" } ?? "")
    }
}
