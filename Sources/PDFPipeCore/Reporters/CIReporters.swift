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
        for d in report.results { sink(Array((suite(d, report).text + "\n").utf8)) }
        if let run { sink(Array((run.text + "\n").utf8)) }
        sink(Array("</testsuites>\n".utf8))
    }

    /// A document's suite: a case per stage.
    func suite(_ d: DocumentResult, _ report: RunReport) -> (text: String, tests: Int, failures: Int) {
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

/// `report.sarif`: SARIF 2.1.0 for code scanning: one rule per rule id (description, help in text
/// and Markdown, default level), one result per finding, located at the PDF's path as the inputs
/// were named (file-level: a PDF has no lines; page, label and rectangle are in the message and in
/// `properties`), with pdfpipe's fingerprint as `partialFingerprints`, the baseline state when
/// there was a baseline, and `ignore`d findings as suppressed results with their reason.
public struct SARIFReporter: StreamingReporter {
    public init() {}
    public var format: String { "sarif" }
    public var fileName: String { "report.sarif" }

    /// GitHub code scanning takes at most 25,000 results per run (and shows the first 5,000).
    public static let maxResults = 25_000

    /// Placeholders in the skeleton where the two arrays that grow with the batch are streamed.
    static let artifactsMark = "\u{0}pdfpipe-artifacts\u{0}", resultsMark = "\u{0}pdfpipe-results\u{0}"

    /// Writes the log in pieces: the skeleton (tool, rules, invocations) pretty-printed with two
    /// placeholders, and in their place the artifacts and the results, each rendered as it comes
    /// (a document at a time), in the layout `JSONWriter.pretty` gives.
    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        let rules = Self.ruleDescriptors
        let index = Dictionary(uniqueKeysWithValues: Rules.all.enumerated().map { ($1.id, $0) })
        let withBaseline = report.baseline != nil
        // Every finding, suppressed ones included: what the cap applies to.
        let s = report.summary
        let total = s.errors + s.warnings + s.notes + s.suppressed
        var written = 0
        var streamed = 0
        func element(_ v: JSONValue, _ n: Int) -> [UInt8] {
            Array(((n > 0 ? "," : "") + "\n        ").utf8) + Array(JSONWriter.pretty(v, indent: 4).utf8)
        }
        func add(_ f: Finding, path: String, fingerprint: String?, suppressedBy: JSONValue?) {
            guard written < Self.maxResults else { return }
            let result = Self.result(
                f, path: path, fingerprint: fingerprint, suppressedBy: suppressedBy, ruleIndex: index[f.rule],
                withBaseline: withBaseline)
            sink(element(result, written))
            written += 1
        }
        var notifications: [JSONValue] = []
        if report.incomplete {
            notifications.append([
                "level": "warning", "message": ["text": .string("incomplete: " + RunReport.incompleteNote)],
            ])
        }
        if total > Self.maxResults {
            notifications.append([
                "level": "warning",
                "message": [
                    "text": .string(
                        "\(total - Self.maxResults) of \(total) results left out: code scanning takes at most \(Self.maxResults) per run; every finding is in report.json"
                    )
                ],
            ])
        }
        let sarif: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "pdfpipe", "version": .string(report.toolVersion),
                            "semanticVersion": .string(report.toolVersion),
                            "rules": .array(rules),
                        ]
                    ],
                    "automationDetails": ["id": .string("pdfpipe/\(report.pipeline)/")],
                    "invocations": [
                        [
                            "executionSuccessful": .bool(!report.incomplete),
                            "toolExecutionNotifications": .array(notifications),
                        ]
                    ],
                    "artifacts": .string(Self.artifactsMark),
                    "results": .string(Self.resultsMark),
                ]
            ],
        ]
        let skeleton = Array(JSONWriter.pretty(sarif).utf8)
        let marks = [Self.artifactsMark, Self.resultsMark].map { Array(JSONWriter.compact(.string($0)).utf8) }
        guard let a = skeleton.firstRange(of: marks[0]), let r = skeleton.firstRange(of: marks[1]),
            a.upperBound <= r.lowerBound
        else { return }
        sink(Array(skeleton[..<a.lowerBound]))
        sink(Array("[".utf8))
        for d in report.results {
            sink(element(["location": Self.artifactLocation(d.displayPath)], streamed))
            streamed += 1
        }
        sink(Array((streamed == 0 ? "]" : "\n      ]").utf8))
        sink(Array(skeleton[a.upperBound..<r.lowerBound]))
        sink(Array("[".utf8))
        for f in report.findings {
            add(f, path: f.details["file"]?.stringValue ?? "pipeline", fingerprint: nil, suppressedBy: nil)
        }
        for d in report.results {
            for (f, fingerprint) in zip(d.findings, d.fingerprints) {
                add(f, path: d.displayPath, fingerprint: fingerprint, suppressedBy: nil)
            }
            for f in d.suppressed {
                add(f, path: d.displayPath, fingerprint: f.fingerprint, suppressedBy: f.details["suppressedBy"])
            }
        }
        sink(Array((written == 0 ? "]" : "\n      ]").utf8))
        sink(Array(skeleton[r.upperBound...]))
    }

    /// The rules as SARIF reporting descriptors (with help in Markdown).
    package static let ruleDescriptors: [JSONValue] = {
        Rules.all.map { r in
            let level = r.offByDefault ? "none" : r.severity.rawValue
            let markdown =
                "**`\(r.id)`** (default: \(r.offByDefault ? "off" : r.severity.rawValue))\n\n\(Escape.markdown(r.summary)).\n\n"
                + "**How to fix:** \(Escape.markdown(r.hint)).\n\n"
                + "Change its level, or turn it off, under `rules` in the pipeline file; take out accepted findings with `ignore` (each with a reason) or a baseline (`--baseline`)."
            return [
                "id": .string(r.id), "name": .string(r.id), "helpUri": .string(RulePages.baseURL + r.id + ".md"),
                "shortDescription": ["text": .string(r.summary)], "fullDescription": ["text": .string(r.summary)],
                "help": ["text": .string("\(r.summary). Fix: \(r.hint)."), "markdown": .string(markdown)],
                "defaultConfiguration": ["level": .string(level), "enabled": .bool(!r.offByDefault)],
                "properties": ["tags": ["pdfpipe", .string(String(r.id.prefix { $0 != "." }))]],
            ]
        }
    }()

    /// One finding as a SARIF result.
    static func result(
        _ f: Finding, path: String, fingerprint: String?, suppressedBy: JSONValue?, ruleIndex: Int?, withBaseline: Bool
    ) -> JSONValue {
        var props = f.details
        props["suppressedBy"] = nil
        if let p = f.page { props["page"] = .int(p) }
        if let l = f.pageLabel { props["pageLabel"] = .string(l) }
        if let r = f.rect { props["rect"] = .array(r.map { .double($0) }) }
        if let o = f.object { props["object"] = .string(o) }
        if let s = f.stage { props["stage"] = .string(s) }
        var location: [String: JSONValue] = ["physicalLocation": ["artifactLocation": Self.artifactLocation(path)]]
        if let p = f.page { location["logicalLocations"] = [["name": .string("page \(p)"), "kind": "page"]] }
        var place = ""
        if let t = f.pageText { place = "Page \(t)" }
        if let r = f.rect {
            place +=
                (place.isEmpty ? "At" : ", at") + " [" + r.map { JSONWriter.format($0) }.joined(separator: " ")
                + "]"
        }
        var result: [String: JSONValue] = [
            "ruleId": .string(f.rule), "level": .string(f.severity.rawValue),
            "message": [
                "text": .string(
                    (place.isEmpty ? "" : place + ": ") + f.message + (f.hint.map { ". Fix: \($0)" } ?? ""))
            ],
            "locations": [.object(location)], "properties": .object(props),
        ]
        // Code scanning would otherwise hash the "line" of a binary PDF, and alerts would
        // reopen on every rebuild.
        if let fingerprint { result["partialFingerprints"] = ["pdfpipe/v1": .string(fingerprint)] }
        if let i = ruleIndex { result["ruleIndex"] = .int(i) }
        if withBaseline, let b = f.baseline { result["baselineState"] = .string(b.rawValue) }
        if f.baseline == .unchanged {
            // Accepted by the baseline: code scanning shows a result without a suppression as an
            // open alert, whatever its baselineState; a suppressed one is closed.
            result["suppressions"] = [
                ["kind": "external", "justification": "in the baseline (pdfpipe baseline): accepted, not new"]
            ]
        }
        if let by = suppressedBy {
            result["suppressions"] = [
                [
                    "kind": "external",
                    "justification": .string(
                        (by["reason"]?.stringValue ?? "") + (by["ignore"]?.stringValue.map { " (\($0))" } ?? "")),
                ]
            ]
        }
        return .object(result)
    }

    /// A path as a SARIF artifact location: relative ones from the checkout root (`%SRCROOT%`,
    /// what code scanning resolves against the repository), absolute ones as `file://` URIs;
    /// percent-encoded either way (a URI may not hold a space or `#`).
    static func artifactLocation(_ path: String) -> JSONValue {
        let allowed = Escape.uriPath(path)
        if path.hasPrefix("/") { return ["uri": .string("file://" + allowed)] }
        return ["uri": .string(allowed), "uriBaseId": "%SRCROOT%"]
    }
}

/// `report.md`: a summary table, the broken targets across the batch, and the errors and warnings
/// by document, fit for a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`). With a baseline, only
/// new findings are listed.
public struct MarkdownReporter: Reporter {
    public init() {}
    public var format: String { "markdown" }
    public var fileName: String { "report.md" }

    /// GitHub takes at most 1 MiB of step summary: stop well before, and say so.
    public static let byteBudget = 900_000

    public func render(_ report: RunReport) -> String {
        let s = report.summary
        var out = "# pdfpipe: \(Escape.markdown(report.pipeline))\n\n"
        if report.incomplete { out += "> **Incomplete:** \(RunReport.incompleteNote)\n\n" }
        out +=
            "| documents | failed | pages | errors | warnings | notes | suppressed |\n|---:|---:|---:|---:|---:|---:|---:|\n"
        out +=
            "| \(s.documents) | \(s.failedDocuments) | \(s.pages) | \(s.errors) | \(s.warnings) | \(s.notes) | \(s.suppressed) |\n\n"
        if let b = report.baseline {
            out +=
                "**Baseline** `\(Escape.markdown(b.file))`: \(s.new) new, \(s.unchanged) unchanged (not listed below), \(s.fixed) fixed"
            if b.ratchet && s.fixed > 0 {
                out +=
                    " — **the baseline must be updated** (ratchet): `pdfpipe baseline REPORT.json --out \(Escape.markdown(b.file))`"
            }
            if let removed = report.removedText {
                out += ". " + Escape.markdown(removed.prefix(1).uppercased() + removed.dropFirst())
            }
            out += "\n\n"
        }
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

    /// The errors and warnings (with a baseline, the new ones) by document, within the byte
    /// budget; returns whether it had to stop.
    func findingsSection(_ report: RunReport, into out: inout String) -> Bool {
        let listed: (Finding) -> Bool = { $0.severity >= .warning && $0.baseline != .unchanged }
        let shown = report.results.lazy.filter { d in d.findings.contains(where: listed) }
        if shown.first(where: { _ in true }) == nil {
            out += report.baseline == nil ? "No errors or warnings.\n" : "No new errors or warnings.\n"
            return false
        }
        var lines = 0
        documents: for d in shown {
            guard lines < 1000 else {
                out += "\n… more in report.json\n"
                break
            }
            let e = d.findings.count { $0.severity == .error && listed($0) }
            let w = d.findings.count { $0.severity == .warning && listed($0) }
            let heading =
                "## \(Escape.markdown(d.displayPath))\(d.status == .failed ? " (failed)" : "")\n\n\(e) \(report.baseline == nil ? "" : "new ")error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s")\n\n"
                + "| page | severity | rule | message |\n|---|---|---|---|\n"
            if out.utf8.count + heading.utf8.count > Self.byteBudget { return true }
            out += heading
            for f in d.findings where listed(f) {
                let page = f.pageText ?? ""
                let row =
                    "| \(Escape.markdown(page)) | \(f.severity.rawValue) | `\(f.rule)` | \(Escape.markdown(f.message)) |\n"
                if out.utf8.count + row.utf8.count > Self.byteBudget { return true }
                out += row
                lines += 1
            }
            out += "\n"
        }
        return false
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
        // One annotation per distinct problem (document, rule, message) with the pages it is on;
        // errors first, then warnings, then notices; in input order within each.
        struct Problem {
            var path: String
            var finding: Finding
            var pages: [String] = []
        }
        var problems: [Problem] = []
        var index: [String: Int] = [:]
        var baselined = 0
        for f in report.findings where f.severity >= .warning || report.fails(f) {
            problems.append(Problem(path: f.details["file"]?.stringValue ?? "pipeline", finding: f))
        }
        let collapsed = report.collapsedRules
        var collapsedCount = 0
        for d in report.results {
            for f in d.findings where f.severity >= .warning || report.fails(f) {
                // Said once by a run finding (the network looks down): counted, not annotated.
                if collapsed.contains(f.rule) {
                    collapsedCount += 1
                    continue
                }
                // Findings already in the baseline are not news: counted, not annotated.
                if f.baseline == .unchanged {
                    baselined += 1
                    continue
                }
                let key = "\(d.displayPath)\u{0}\(f.rule)\u{0}\(f.message)"
                let page = f.pageText
                if let k = index[key] {
                    if let page, problems[k].pages.last != page { problems[k].pages.append(page) }
                } else {
                    index[key] = problems.count
                    problems.append(Problem(path: d.displayPath, finding: f, pages: page.map { [$0] } ?? []))
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
                    let pages = Abridged(p.pages, limit: 5).joined { $0 }
                    message = "page\(p.pages.count == 1 ? "" : "s") \(pages): " + message
                }
                if let h = f.hint { message += " (fix: \(h))" }
                out +=
                    "::\(command) file=\(Escape.githubProperty(p.path)),title=\(Escape.githubProperty(f.rule))::\(Escape.githubData(message))\n"
            }
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
}

/// `gl-code-quality-report.json`: GitLab's Code Quality report (a subset of the Code Climate issue
/// format that GitLab reads: `description`, `check_name`, `fingerprint`, `severity`,
/// `location.path`, `location.lines.begin`), for `artifacts:reports:codequality`. One issue per
/// finding: the merge request widget compares the issues of the source and target branches by
/// fingerprint, so each carries the finding's stable fingerprint (unique in the batch: the path is
/// part of it), and a finding on page N is on "line" N of the PDF (GitLab shows a location, a PDF
/// has pages). Severities: error → `major`, warning → `minor`, note → `info`; a finding that fails
/// the gate (`failOn`) is `critical`. Written document by document.
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
        return [
            "type": "issue",
            "description": .string(description),
            "check_name": .string(f.rule),
            "fingerprint": .string(fingerprint),
            "severity": .string(severity(f, in: report)),
            "location": ["path": .string(path), "lines": ["begin": .int(max(1, f.page ?? 1))]],
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
        for d in report.results {
            let prints = d.fingerprints
            for (f, fingerprint) in zip(d.findings, prints) {
                add(Self.issue(f, path: d.displayPath, fingerprint: fingerprint, report: report))
            }
        }
        sink(Array((first ? "[]\n" : "\n]\n").utf8))
    }
}
