/// `junit.xml`: a test suite per document, a test case per stage; findings at or above the run's
/// fail-on level are the case's failure, the others its system output; stages skipped after a
/// failure are skipped cases. Valid against Jenkins' xUnit schema (`junit-10.xsd`, which pytest also
/// checks its output against): that schema has no `skipped` on `<testsuites>`, so skipped counts are
/// per `<testsuite>` only.
public struct JUnitReporter: Reporter {
    public init() {}
    public var format: String { "junit" }
    public var fileName: String { "junit.xml" }

    public func render(_ report: RunReport) -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        for d in report.documents {
            let stages = d.timings.keys.sorted()
            let skipped = d.sections["skippedStages"]?.arrayValue?.compactMap(\.stringValue) ?? []
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
                    let failing = findings.filter { report.failOn.fails($0.severity) }
                    if !failing.isEmpty {
                        failures += 1
                        let worst = failing.map(\.severity).max() ?? .error
                        body += "      <failure message=\"\(Escape.xml("\(failing.count) finding\(failing.count == 1 ? "" : "s") at or above \(report.failOn.rawValue)"))\" type=\"\(worst.rawValue)\">"
                        body += Escape.xml(failing.map(Self.line).joined(separator: "\n"))
                        body += "</failure>\n"
                    }
                    let others = findings.filter { !report.failOn.fails($0.severity) }
                    if !others.isEmpty { body += "      <system-out>\(Escape.xml(others.map(Self.line).joined(separator: "\n")))</system-out>\n" }
                }
                cases.append(
                    "    <testcase classname=\"\(Escape.xml(d.path))\" name=\"\(Escape.xml(stage))\" time=\"\(time)\"" + (body.isEmpty ? "/>" : ">\n\(body)    </testcase>"))
            }
            if names.isEmpty {
                // A document no stage ran on (should not happen) still shows up.
                cases.append("    <testcase classname=\"\(Escape.xml(d.path))\" name=\"document\"/>")
            }
            totalTests += max(names.count, 1)
            totalFailures += failures
            suites.append(
                "  <testsuite name=\"\(Escape.xml(d.path))\" tests=\"\(max(names.count, 1))\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped.count)\">\n"
                    + cases.joined(separator: "\n") + "\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(Escape.xml("pdfpipe: \(report.pipeline)"))\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\">\n"
            + suites.joined(separator: "\n") + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    static func line(_ f: Finding) -> String {
        var place = ""
        if let p = f.page { place = "page \(p)" + (f.pageLabel.map { " (\($0))" } ?? "") + ": " }
        return "\(place)\(f.severity.rawValue) [\(f.rule)] \(f.message)" + (f.hint.map { " — fix: \($0)" } ?? "")
    }
}

/// `report.sarif`: SARIF 2.1.0, one rule per rule id (help text, default level), one result per
/// finding with the PDF as artifact location and page, label, rect and object as properties.
public struct SARIFReporter: Reporter {
    public init() {}
    public var format: String { "sarif" }
    public var fileName: String { "report.sarif" }

    public func render(_ report: RunReport) -> String {
        let rules: [JSONValue] = Rules.all.map { r in
            [
                "id": .string(r.id), "name": .string(r.id),
                "shortDescription": ["text": .string(r.summary)], "help": ["text": .string(r.hint)],
                "defaultConfiguration": ["level": .string(r.offByDefault ? "none" : r.severity.rawValue), "enabled": .bool(!r.offByDefault)],
            ]
        }
        let index = Dictionary(uniqueKeysWithValues: Rules.all.enumerated().map { ($1.id, $0) })
        var results: [JSONValue] = []
        for d in report.documents {
            for (f, fingerprint) in zip(d.findings, d.fingerprints) {
                var props = f.details
                if let p = f.page { props["page"] = .int(p) }
                if let l = f.pageLabel { props["pageLabel"] = .string(l) }
                if let r = f.rect { props["rect"] = .array(r.map { .double($0) }) }
                if let o = f.object { props["object"] = .string(o) }
                if let s = f.stage { props["stage"] = .string(s) }
                var location: [String: JSONValue] = ["physicalLocation": ["artifactLocation": ["uri": .string(d.path), "uriBaseId": "INPUTROOT"]]]
                if let p = f.page { location["logicalLocations"] = [["name": .string("page \(p)"), "kind": "page"]] }
                var result: [String: JSONValue] = [
                    "ruleId": .string(f.rule), "level": .string(f.severity.rawValue),
                    "message": ["text": .string(f.message + (f.hint.map { " Fix: \($0)" } ?? ""))],
                    "locations": [.object(location)], "properties": .object(props),
                    // Code scanning would otherwise hash the "line" of a binary PDF, and alerts
                    // would reopen on every rebuild.
                    "partialFingerprints": ["pdfpipe/v1": .string(fingerprint)],
                ]
                if let i = index[f.rule] { result["ruleIndex"] = .int(i) }
                results.append(.object(result))
            }
        }
        let sarif: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "pdfpipe", "version": .string(report.toolVersion), "semanticVersion": .string(report.toolVersion),
                    "rules": .array(rules),
                ]],
                "automationDetails": ["id": .string("pdfpipe/\(report.pipeline)/")],
                "invocations": [[
                    "executionSuccessful": .bool(!report.incomplete),
                    "toolExecutionNotifications": report.incomplete ? [["level": "warning", "message": ["text": .string("incomplete: " + RunReport.incompleteNote)]]] : [],
                ]],
                "artifacts": .array(report.documents.map { ["location": ["uri": .string($0.path), "uriBaseId": "INPUTROOT"]] }),
                "results": .array(results),
            ]],
        ]
        return JSONWriter.pretty(sarif)
    }
}

/// `report.md`: a summary table and the errors and warnings by document, fit for a CI job summary
/// (GitHub's `$GITHUB_STEP_SUMMARY`).
public struct MarkdownReporter: Reporter {
    public init() {}
    public var format: String { "markdown" }
    public var fileName: String { "report.md" }

    public func render(_ report: RunReport) -> String {
        let s = report.summary
        var out = "# pdfpipe: \(Escape.markdown(report.pipeline))\n\n"
        if report.incomplete { out += "> **Incomplete:** \(RunReport.incompleteNote)\n\n" }
        out += "| documents | failed | pages | errors | warnings | notes |\n|---:|---:|---:|---:|---:|---:|\n"
        out += "| \(s.documents) | \(s.failedDocuments) | \(s.pages) | \(s.errors) | \(s.warnings) | \(s.notes) |\n\n"
        let shown = report.documents.filter { d in d.findings.contains { $0.severity >= .warning } }
        if shown.isEmpty {
            out += "No errors or warnings.\n"
            return out
        }
        // GitHub takes at most 1 MiB of step summary: stop well before, and say so.
        let byteBudget = 900_000
        var lines = 0
        var cut = false
        documents: for d in shown {
            guard lines < 1000 else {
                out += "\n… more in report.json\n"
                break
            }
            let e = d.findings.count { $0.severity == .error }
            let w = d.findings.count { $0.severity == .warning }
            out += "## \(Escape.markdown(d.path))\(d.status == .failed ? " (failed)" : "")\n\n\(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s")\n\n"
            out += "| page | severity | rule | message |\n|---|---|---|---|\n"
            for f in d.findings where f.severity >= .warning {
                let page = f.page.map { "\($0)" + (f.pageLabel.map { " (\($0))" } ?? "") } ?? ""
                let row = "| \(Escape.markdown(page)) | \(f.severity.rawValue) | `\(f.rule)` | \(Escape.markdown(f.message)) |\n"
                if out.utf8.count + row.utf8.count > byteBudget {
                    cut = true
                    break documents
                }
                out += row
                lines += 1
            }
            out += "\n"
        }
        if cut { out += "\n… cut here to stay under GitHub's 1 MiB step summary; every finding is in report.json\n" }
        return out
    }
}

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
        var out = report.incomplete ? "::warning title=pdfpipe::\(Escape.githubData("the report is incomplete: " + RunReport.incompleteNote))\n" : ""
        // One annotation per distinct problem (document, rule, message) with the pages it is on;
        // errors first, then warnings, then notices; in input order within each.
        struct Problem {
            var path: String
            var finding: Finding
            var pages: [String] = []
        }
        var problems: [Problem] = []
        var index: [String: Int] = [:]
        for d in report.documents {
            for f in d.findings where f.severity >= .warning || report.failOn.fails(f.severity) {
                let key = "\(d.path)\u{0}\(f.rule)\u{0}\(f.message)"
                let page = f.page.map { "\($0)" + (f.pageLabel.map { " (\($0))" } ?? "") }
                if let k = index[key] {
                    if let page { problems[k].pages.append(page) }
                } else {
                    index[key] = problems.count
                    problems.append(Problem(path: d.path, finding: f, pages: page.map { [$0] } ?? []))
                }
            }
        }
        var left = 0
        for severity in [Severity.error, .warning, .note] {
            let these = problems.filter { $0.finding.severity == severity }
            for p in these.prefix(Self.perLevel) {
                let f = p.finding
                let command = severity == .error ? "error" : (severity == .warning ? "warning" : "notice")
                var message = f.message
                if !p.pages.isEmpty {
                    let shown = p.pages.prefix(5).joined(separator: ", ")
                    let more = p.pages.count > 5 ? " and \(p.pages.count - 5) more" : ""
                    message = "page\(p.pages.count == 1 ? "" : "s") \(shown)\(more): " + message
                }
                if let h = f.hint { message += " (fix: \(h))" }
                out += "::\(command) file=\(Escape.githubProperty(p.path)),title=\(Escape.githubProperty(f.rule))::\(Escape.githubData(message))\n"
            }
            left += max(0, these.count - Self.perLevel)
        }
        if left > 0 {
            let text = "\(left) more distinct problem\(left == 1 ? "" : "s") not shown as annotations (GitHub shows \(Self.perLevel) errors and \(Self.perLevel) warnings per step); every finding is in report.md (the step summary) and report.json"
            out += "::notice title=pdfpipe::\(Escape.githubData(text))\n"
        }
        return out
    }
}
