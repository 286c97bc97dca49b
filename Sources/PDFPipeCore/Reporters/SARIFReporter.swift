/// `report.sarif`: SARIF 2.1.0 for code scanning: one rule per rule id that fired (description, help
/// in text and Markdown, default level), one result per finding, located at the PDF's path as the inputs
/// were named (file-level: a PDF has no lines; page, label and rectangle are in the message and in
/// `properties`), with pdfpipe's fingerprint as `partialFingerprints`, the baseline state when
/// there was a baseline, `ignore`d findings as suppressed results with their reason, and the change
/// `fix-links` made for a finding as its `fixes`.
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
        let rules = Self.rulesThatFired(report)
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let withBaseline = report.baseline != nil
        // Every finding, suppressed ones included: what the cap applies to.
        let s = report.summary
        let total = s.errors + s.warnings + s.notes + s.suppressed
        var written = 0
        func add(
            _ f: Finding, path: String, fingerprint: String?, suppressedBy: JSONValue?, fixes: FixesSection? = nil
        ) {
            guard written < Self.maxResults else { return }
            var result = Self.result(
                f, path: path, fingerprint: fingerprint, suppressedBy: suppressedBy, ruleIndex: index[f.rule],
                withBaseline: withBaseline)
            if let fix = Self.fix(for: f, in: fixes, path: path) { result["fixes"] = [fix] }
            sink(Self.element(.object(result), written))
            written += 1
        }
        let skeleton = Array(JSONWriter.pretty(Self.skeleton(report, rules: rules, total: total)).utf8)
        let marks = [Self.artifactsMark, Self.resultsMark].map { Array(JSONWriter.compact(.string($0)).utf8) }
        guard let a = skeleton.firstRange(of: marks[0]), let r = skeleton.firstRange(of: marks[1]),
            a.upperBound <= r.lowerBound
        else { return }
        sink(Array(skeleton[..<a.lowerBound]))
        Self.emitArtifacts(report, sink)
        sink(Array(skeleton[a.upperBound..<r.lowerBound]))
        sink(Array("[".utf8))
        for f in report.findings {
            add(f, path: f.details["file"]?.stringValue ?? "pipeline", fingerprint: nil, suppressedBy: nil)
        }
        for d in report.results {
            let fixes = d.section(FixesSection.self)
            for (f, fingerprint) in zip(d.findings, d.fingerprints) {
                add(f, path: d.displayPath, fingerprint: fingerprint, suppressedBy: nil, fixes: fixes)
            }
            for f in d.suppressed {
                add(f, path: d.displayPath, fingerprint: f.fingerprint, suppressedBy: f.details["suppressedBy"])
            }
        }
        sink(Array((written == 0 ? "]" : "\n      ]").utf8))
        sink(Array(skeleton[r.upperBound...]))
    }

    /// An element of a streamed array, laid out as `JSONWriter.pretty` lays out the log.
    static func element(_ v: JSONValue, _ n: Int) -> [UInt8] {
        Array(((n > 0 ? "," : "") + "\n        ").utf8) + Array(JSONWriter.pretty(v, indent: 4).utf8)
    }

    /// The artifacts array: each document's location.
    static func emitArtifacts(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        sink(Array("[".utf8))
        var streamed = 0
        for d in report.results {
            sink(element(["location": artifactLocation(d.displayPath)], streamed))
            streamed += 1
        }
        sink(Array((streamed == 0 ? "]" : "\n      ]").utf8))
    }

    /// The log without its artifacts and results (placeholders where they are streamed): the tool
    /// with its rules, the invocation with its notifications (an incomplete run, results left out).
    static func skeleton(_ report: RunReport, rules: [Rule], total: Int) -> JSONValue {
        var notifications: [JSONValue] = []
        if report.incomplete {
            notifications.append([
                "level": "warning", "message": ["text": .string("incomplete: " + RunReport.incompleteNote)],
            ])
        }
        if total > maxResults {
            notifications.append([
                "level": "warning",
                "message": [
                    "text": .string(
                        "\(total - maxResults) of \(total) results left out: code scanning takes at most \(maxResults) per run; every finding is in report.json"
                    )
                ],
            ])
        }
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "pdfpipe", "version": .string(report.toolVersion),
                            "semanticVersion": .string(report.toolVersion),
                            "rules": .array(ruleDescriptors(rules)),
                        ]
                    ],
                    "automationDetails": ["id": .string("pdfpipe/\(report.pipeline)/")],
                    "invocations": [
                        [
                            "executionSuccessful": .bool(!report.incomplete),
                            "toolExecutionNotifications": .array(notifications),
                        ]
                    ],
                    "artifacts": .string(artifactsMark),
                    "results": .string(resultsMark),
                ]
            ],
        ]
    }

    /// The rules of the catalog that a result of this log names (suppressed ones included), in the
    /// catalog's order. Only these: the log describes what it reports (as ESLint's and Semgrep's
    /// SARIF do), stays small, and a new rule in the catalog changes no log where it does not fire.
    /// A finding of a rule the catalog does not know (a merged report of another version) is a
    /// result without `ruleIndex`, as before.
    static func rulesThatFired(_ report: RunReport) -> [Rule] {
        var fired = Set(report.findings.map(\.rule))
        for d in report.results {
            for f in d.findings { fired.insert(f.rule) }
            for f in d.suppressed { fired.insert(f.rule) }
        }
        return report.rules.all.filter { fired.contains($0.id) }
    }

    /// Rules as SARIF reporting descriptors (with help in Markdown).
    package static func ruleDescriptors(_ rules: [Rule]) -> [JSONValue] {
        rules.map { r in
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
    }

    /// One finding as a SARIF result.
    /// A result's properties: the finding's details and where it is, in the PDF's terms.
    static func properties(_ f: Finding) -> [String: JSONValue] {
        var props = f.details
        props["suppressedBy"] = nil
        if let p = f.page { props["page"] = .int(p) }
        if let l = f.pageLabel { props["pageLabel"] = .string(l) }
        if let r = f.rect { props["rect"] = .array(r.map { .double($0) }) }
        if let o = f.object { props["object"] = .string(o) }
        if let s = f.stage { props["stage"] = .string(s) }
        return props
    }

    /// A result's message: where on the page, what, and the fix.
    static func text(_ f: Finding) -> String {
        var place = ""
        if let t = f.pageText { place = "Page \(t)" }
        if let r = f.rect {
            place +=
                (place.isEmpty ? "At" : ", at") + " [" + r.map { JSONWriter.format($0) }.joined(separator: " ")
                + "]"
        }
        return (place.isEmpty ? "" : place + ": ") + f.message + (f.hint.map { ". Fix: \($0)" } ?? "")
    }

    static func result(
        _ f: Finding, path: String, fingerprint: String?, suppressedBy: JSONValue?, ruleIndex: Int?, withBaseline: Bool
    ) -> [String: JSONValue] {
        var location: [String: JSONValue] = ["physicalLocation": ["artifactLocation": Self.artifactLocation(path)]]
        if let p = f.page { location["logicalLocations"] = [["name": .string("page \(p)"), "kind": "page"]] }
        var message = text(f)
        var related: [JSONValue] = []
        // Mapped to its source (report.sources): the alert opens on the source line people edit,
        // the PDF kept as a related location.
        if let source = f.sourceLocation {
            related = [.object(location.merging(["id": 1, "message": ["text": .string("the PDF")]]) { a, _ in a })]
            location["physicalLocation"] = [
                "artifactLocation": Self.artifactLocation(source.file), "region": ["startLine": .int(source.line)],
            ]
            message = "[\(path)](1) " + message
        }
        var result: [String: JSONValue] = [
            "ruleId": .string(f.rule), "level": .string(f.severity.rawValue), "message": ["text": .string(message)],
            "locations": [.object(location)], "properties": .object(properties(f)),
        ]
        if !related.isEmpty { result["relatedLocations"] = .array(related) }
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
        return result
    }

    /// The SARIF fix for a finding that `fix-links` fixed: the change alone, as bytes to insert at
    /// the end of the original (an incremental update of the one link, `insertedContent.binary`;
    /// a PDF has no lines to replace). nil for a finding without a change (its proposed fix, if
    /// any, is in the result's properties: `fix`).
    static func fix(for f: Finding, in section: FixesSection?, path: String) -> JSONValue? {
        guard let section, let size = section.size, case .object(let proposed)? = f.details["fix"] else {
            return nil
        }
        guard
            let change = section.changed.first(where: {
                $0.object == f.object && $0.rule == f.rule && $0.from == proposed["from"]?.stringValue
                    && $0.to == proposed["to"]?.stringValue
            }), let update = change.update
        else { return nil }
        let page = change.page.map { " on page \($0)" } ?? ""
        return [
            "description": [
                "text": .string(
                    "Rewrite the link's \(change.field)\(page) (object \(change.object)) from '\(change.from)' to '\(change.to)': \(change.why). Appends an incremental update to the original; \(section.file ?? "the repaired copy") has every fix of the document."
                )
            ],
            "artifactChanges": [
                [
                    "artifactLocation": artifactLocation(path),
                    "replacements": [
                        [
                            "deletedRegion": ["byteOffset": .int(size), "byteLength": 0],
                            "insertedContent": ["binary": .string(update)],
                        ]
                    ],
                ]
            ],
        ]
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
