import Foundation

/// One entry of a pipeline's `ignore` list: findings it matches are taken out of the counts and
/// listed, with the reason, under their document (`suppressed`). Every field but `reason` is
/// optional, and the ones given must all match.
public struct Suppression: Encodable, Sendable, Equatable {
    /// A rule id, or a glob over rule ids (`uri.*`).
    public var rule: String?
    /// A glob over the document's path, as report.json's `path` (relative to the input root) or
    /// `workingPath` (as the inputs were named) shows it: `legacy/**`, `build/pdf/old-*.pdf`.
    public var path: String?
    /// A regular expression searched for in the finding's target (`uri`, else `target`).
    public var uri: String?
    public var page: Int?
    /// Why: required, shown beside every finding it takes out.
    public var reason: String
    /// `YYYY-MM-DD`: from the day after, the entry no longer applies and is reported
    /// (`config.suppression-expired`).
    public var expires: String?
    /// Its place in the file (`ignore[3]`), for messages.
    public var index: Int

    private let compiled: CompiledRegex?

    enum CodingKeys: String, CodingKey {
        case rule, path, uri, page, reason, expires, index
    }

    public init(
        rule: String? = nil, path: String? = nil, uri: String? = nil, page: Int? = nil, reason: String,
        expires: String? = nil, index: Int = 0
    ) throws(PipelineError) {
        self.rule = rule
        self.path = path
        self.uri = uri
        self.page = page
        self.reason = reason
        self.expires = expires
        self.index = index
        do {
            compiled = try uri.map { CompiledRegex(try NSRegularExpression(pattern: $0)) }
        } catch {
            throw PipelineError(
                file: nil, path: "ignore[\(index)].uri", message: "not a valid regular expression: '\(uri ?? "")'")
        }
    }

    public static func == (a: Suppression, b: Suppression) -> Bool {
        a.json == b.json
    }

    public func matches(_ f: Finding, in document: DocumentResult) -> Bool {
        if let rule, rule != f.rule, !(Glob.hasWildcard(rule) && fnmatch(rule, f.rule, 0) == 0) { return false }
        if let page, f.page != page { return false }
        if let path, !Glob.match(pattern: path, path: document.path),
            !(document.workingPath.map { Glob.match(pattern: path, path: $0) } ?? false)
        {
            return false
        }
        if let compiled {
            guard let target = f.details["uri"]?.stringValue ?? f.details["target"]?.stringValue,
                compiled.matches(target)
            else { return false }
        }
        return true
    }

    /// Whether the entry no longer applies on `today` (`YYYY-MM-DD`).
    public func isExpired(today: String) -> Bool { expires.map { $0 < today } ?? false }

    public var label: String { "ignore[\(index)]" }

    /// As reports list it (the pipeline's entry with its place, `index`); read back with `init(json:…)`,
    /// which checks it as the pipeline's reader does.
    public var json: JSONValue { JSONValue(encoding: self) }

    /// Reads an entry of a pipeline's `ignore` (`at`: its JSON path, for messages).
    /// `rules`: the rules an entry may name (nil: any id, for an entry read back from a report).
    public init(json v: JSONValue, index: Int, rules: RuleCatalog?) throws(PipelineError) {
        let at = "ignore[\(index)]"
        guard case .object(let o) = v else {
            throw PipelineError(
                file: nil, path: at,
                message:
                    "expected an object like {\"rule\": \"uri.http-error\", \"reason\": \"…\"}, got \(v.shortDescription)"
            )
        }
        let keys = Self.fields.map(\.key)
        for key in o.keys.sorted() where !keys.contains(key) && key != "index" {
            throw PipelineError(
                file: nil, path: "\(at).\(key)",
                message:
                    "unknown key '\(key)'\(Suggest.didYouMean(key, keys)) (known keys: \(keys.joined(separator: ", ")))"
            )
        }
        func text(_ key: String) throws(PipelineError) -> String? {
            guard let x = o[key] else { return nil }
            guard let s = x.stringValue, !s.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw PipelineError(
                    file: nil, path: "\(at).\(key)", message: "expected a non-empty string, got \(x.shortDescription)")
            }
            return s
        }
        guard let reason = try text("reason") else {
            throw PipelineError(
                file: nil, path: at,
                message: "missing key 'reason': say why these findings may be ignored (it is shown beside each)")
        }
        let rule = try text("rule")
        let expires = try text("expires")
        try Self.check(rule: rule, page: o["page"], expires: expires, at: at, rules: rules)
        try self.init(
            rule: rule, path: try text("path"), uri: try text("uri"), page: o["page"]?.intValue, reason: reason,
            expires: expires, index: index)
    }

    /// An entry's page (a number from 1), rule (known, or a glob) and expiry date (YYYY-MM-DD).
    static func check(rule: String?, page: JSONValue?, expires: String?, at: String, rules: RuleCatalog?)
        throws(PipelineError)
    {
        if let p = page, (p.intValue ?? 0) < 1 {
            throw PipelineError(
                file: nil, path: "\(at).page", message: "expected a page number 1 or more, got \(p.shortDescription)")
        }
        if let rule, let rules, !Glob.hasWildcard(rule), rules.rule(rule) == nil {
            throw PipelineError(
                file: nil, path: "\(at).rule",
                message:
                    "unknown rule '\(rule)'\(Suggest.didYouMean(rule, rules.ids)) (`pdfpipe rules` lists them; * matches part of an id)"
            )
        }
        if let expires, !Self.isDate(expires) {
            throw PipelineError(
                file: nil, path: "\(at).expires", message: "expected a date YYYY-MM-DD, got '\(expires)'")
        }
    }

    package static func isDate(_ s: String) -> Bool {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2, let m = Int(p[1]), let d = Int(p[2]),
            Int(p[0]) != nil
        else { return false }
        return (1...12).contains(m) && (1...31).contains(d)
    }
}

/// `NSRegularExpression` is immutable and documented as safe to share between threads.
final class CompiledRegex: @unchecked Sendable {
    let regex: NSRegularExpression
    init(_ regex: NSRegularExpression) { self.regex = regex }

    func matches(_ s: String) -> Bool {
        regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}

/// An `ignore` entry in a report, with how many findings it took out (what `merge` adds up).
public struct SuppressionUse: Codable, Sendable, Equatable {
    public var suppression: Suppression
    public var matched: Int

    public init(suppression: Suppression, matched: Int) {
        self.suppression = suppression
        self.matched = matched
    }

    enum CodingKeys: String, CodingKey { case matched }

    /// The entry's fields and `matched` in one object.
    public func encode(to encoder: any Encoder) throws {
        try suppression.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(matched, forKey: .matched)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        matched = try c.decodeIfPresent(Int.self, forKey: .matched) ?? 0
        guard case .object(var o) = try JSONValue(from: decoder), let index = o["index"]?.intValue else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an ignore entry (no index)"))
        }
        o[CodingKeys.matched.stringValue] = nil
        do {
            suppression = try Suppression(json: .object(o), index: index, rules: nil)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an ignore entry: \(error)"))
        }
    }

    /// The run's findings about its `ignore` list: an expired entry is a warning (its findings
    /// count again); one that matched nothing is a note — only when the whole batch was checked
    /// (a shard sees part of it, `merge` sees it all).
    public static func findings(_ uses: [SuppressionUse], today: String, wholeBatch: Bool, pipelineFile: String?)
        -> [Finding]
    {
        var out: [Finding] = []
        for u in uses {
            let s = u.suppression
            var f: Finding
            if s.isExpired(today: today) {
                f = Finding(
                    rule: .configSuppressionExpired,
                    message:
                        "\(s.label) expired on \(s.expires ?? ""); the findings it took out count again (reason given: '\(s.reason)')"
                )
            } else if u.matched == 0 && wholeBatch {
                f = Finding(
                    rule: .configSuppressionUnused,
                    message:
                        "\(s.label) matched no finding; remove it if the problem is gone (reason given: '\(s.reason)')")
            } else {
                continue
            }
            if let pipelineFile { f.details["file"] = .string(pipelineFile) }
            f.details["ignore"] = s.json
            out.append(f)
        }
        return out
    }
}

/// The baseline a run was compared with.
public struct BaselineUse: Sendable, Equatable {
    /// As named on the command line or in the pipeline.
    public var file: String
    /// Fail when findings of the baseline are gone (the baseline must be updated).
    public var ratchet: Bool

    public init(file: String, ratchet: Bool) {
        self.file = file
        self.ratchet = ratchet
    }
}

/// The findings a team has accepted for now: fingerprints by document path. Read from a baseline
/// file (`pdfpipe baseline`) or straight from a previous report.json.
public struct Baseline: Sendable {
    /// Per document (relative to the input root): fingerprint → the finding as the baseline lists it.
    public var documents: [String: [String: JSONValue]]
    /// Per document: its named destinations and page count, when the baseline records them (a
    /// report whose resolve-destinations listed them, `pdfpipe anchors`): what `dest.removed` is
    /// found against.
    public var anchors: [String: DocumentAnchors] = [:]

    public init(documents: [String: [String: JSONValue]], anchors: [String: DocumentAnchors] = [:]) {
        self.documents = documents
        self.anchors = anchors
    }

    public var count: Int { documents.values.reduce(0) { $0 + $1.count } }

    public static let format = "pdfpipe-baseline"
    /// `pdfpipe anchors`' file: anchors only, no accepted finding.
    public static let anchorsFormat = "pdfpipe-anchors"

    /// A baseline file's layout (`pdfpipe baseline`), declared once for writing and reading.
    struct File: Codable {
        var format = Baseline.format
        var version = 1
        var pipeline: String
        var findings: [Entry]
        /// The documents' anchors, when the report listed them.
        var anchors: [AnchorsEntry]?
    }

    /// `pdfpipe anchors`' layout (`files`, not a report's `documents`: which a reader takes for a report).
    struct AnchorsFile: Codable {
        var format = Baseline.anchorsFormat
        var version = 1
        var files: [AnchorsEntry]
    }

    /// A document's anchors as a file lists them.
    public struct AnchorsEntry: Codable, Sendable {
        public var path: String
        public var pages: Int?
        public var anchors: [Anchor]

        public init(path: String, _ a: DocumentAnchors) {
            self.path = path
            pages = a.pages
            anchors = a.names
        }

        var value: DocumentAnchors { DocumentAnchors(pages: pages, names: anchors) }  // bounded there
    }

    /// A finding as a baseline lists it.
    struct Entry: Codable {
        var fingerprint: String
        var path: String
        var rule: String
        var severity: Severity
        var message: String
        var page: Int?

        init(_ f: Finding, fingerprint: String, path: String) {
            self.fingerprint = fingerprint
            self.path = path
            rule = f.rule
            severity = f.severity
            message = f.message
            page = f.page
        }
    }

    /// Reads either form.
    public init(json v: JSONValue) throws(ReportDecodingError) {
        documents = [:]
        let format = v["format"]?.stringValue
        guard format == Self.format || format == Self.anchorsFormat else {
            for d in try RunReport(json: v).results { add(d) }
            return
        }
        do {
            if format == Self.anchorsFormat {
                let file: AnchorsFile = try v.decode()
                for e in file.files { anchors[e.path] = e.value }
                return
            }
            let file: File = try v.decode()
            for e in file.findings { documents[e.path, default: [:]][e.fingerprint] = JSONValue(encoding: e) }
            for e in file.anchors ?? [] { anchors[e.path] = e.value }
        } catch {
            throw ReportDecodingError(message: JSONValueDecoder.describe(error))
        }
    }

    /// Adds a report's document: its findings, as a baseline lists them, and its anchors when
    /// the report lists them.
    public mutating func add(_ d: DocumentResult) {
        for (f, fp) in zip(d.findings, d.fingerprints) {
            documents[d.path, default: [:]][fp] = Self.entry(f, fingerprint: fp, path: d.path)
        }
        if let a = DocumentAnchors(d) { anchors[d.path] = a }
    }

    static func entry(_ f: Finding, fingerprint: String, path: String) -> JSONValue {
        JSONValue(encoding: Entry(f, fingerprint: fingerprint, path: path))
    }

    /// The baseline file for a report: every finding it lists (suppressed ones aside), sorted, so
    /// that it diffs well under version control.
    public static func file(for report: RunReport) -> JSONValue {
        file(pipeline: report.pipeline, documents: report.results)
    }

    public static func file(pipeline: String, documents: some Sequence<DocumentResult>) -> JSONValue {
        var entries: [Entry] = []
        var anchors: [AnchorsEntry] = []
        for d in documents {
            for (f, fp) in zip(d.findings, d.fingerprints) { entries.append(Entry(f, fingerprint: fp, path: d.path)) }
            if let a = DocumentAnchors(d) { anchors.append(AnchorsEntry(path: d.path, a)) }
        }
        return JSONValue(
            encoding: File(pipeline: pipeline, findings: entries, anchors: anchors.isEmpty ? nil : anchors))
    }

    /// `pdfpipe anchors`' file for documents whose named destinations were listed.
    public static func anchorsFile(_ documents: [AnchorsEntry]) -> JSONValue {
        JSONValue(encoding: AnchorsFile(files: documents))
    }
}

/// What is applied to each document's result as it finishes: its working-folder path, stored
/// fingerprints, the pipeline's `ignore` list, and the baseline. Per document, so that nothing
/// is kept for the end but counters.
public struct ResultPolicy: Sendable {
    public var suppressions: [Suppression]
    public var baseline: Baseline?
    /// `YYYY-MM-DD`: expired suppressions no longer apply.
    public var today: String
    /// Findings each suppression took out, by its index in `suppressions`.
    package let matched: Locked<[Int]>
    /// The pipeline's rule levels (`Pipeline.ruleLevels`), for the findings the baseline's
    /// anchors give.
    public var levels: [String: RuleLevel] = [:]
    /// With a ledger (`--ledger`): the links broken in the runs it recorded, still broken at the
    /// last of them (`Trend.streaks`), and this run's time: each broken link is said to be broken
    /// since then, in so many runs (`brokenSince`, `brokenRuns`).
    public var brokenBefore: [String: [String: LinkStreak]]?
    public var runTime = ""
    /// Documents whose anchors the baseline records but whose run did not list them: how many,
    /// and the first by path.
    package let anchorsNotCompared = Locked((count: 0, first: nil as String?))

    public init(suppressions: [Suppression], baseline: Baseline?, today: String) {
        self.suppressions = suppressions
        self.baseline = baseline
        self.today = String(today.prefix(10))
        matched = Locked(Array(repeating: 0, count: suppressions.count))
    }

    public var isEmpty: Bool { suppressions.isEmpty && baseline == nil && brokenBefore == nil }

    public func apply(_ d: inout DocumentResult) {
        compareAnchors(&d)
        if let brokenBefore { Self.sayHowLong(&d, brokenBefore[d.path] ?? [:], now: runTime) }
        d.assignFingerprints()
        let active = suppressions.enumerated().filter { !$0.element.isExpired(today: today) }
        if !active.isEmpty {
            var kept: [Finding] = []
            var counts: [Int: Int] = [:]
            for f in d.findings {
                if let (i, s) = active.first(where: { $0.element.matches(f, in: d) }) {
                    var f = f
                    var by: [String: JSONValue] = ["ignore": .string(s.label), "reason": .string(s.reason)]
                    if let e = s.expires { by["expires"] = .string(e) }
                    f.details["suppressedBy"] = .object(by)
                    d.suppressed.append(f)
                    counts[i, default: 0] += 1
                } else {
                    kept.append(f)
                }
            }
            d.findings = kept
            if !counts.isEmpty { matched.withLock { m in for (i, n) in counts { m[i] += n } } }
        }
        if let baseline {
            let known = baseline.documents[d.path] ?? [:]
            var present = Set<String>()
            for i in d.findings.indices {
                let fp = d.findings[i].fingerprint ?? ""
                // Accepted at its severity or above: a finding whose level was raised since is new.
                let inBaseline =
                    known[fp].map { entry in
                        (entry["severity"]?.stringValue.flatMap(Severity.init(rawValue:)) ?? .error)
                            >= d.findings[i].severity
                    } ?? false
                d.findings[i].baseline = inBaseline ? .unchanged : .new
                // Still there (a raised level is new, not a fix of the old one).
                if known[fp] != nil { present.insert(fp) }
            }
            // Suppressed findings are not gone: not fixed either.
            for f in d.suppressed { if let fp = f.fingerprint, known[fp] != nil { present.insert(fp) } }
            d.fixedSinceBaseline = known.keys.sorted().filter { !present.contains($0) }.map { known[$0]! }
        }
    }

    /// Against a baseline that records the document's anchors: what its rebuild removed or moved
    /// (`AnchorDiff`), at the pipeline's levels. A document that failed is not compared (its
    /// names were not all read).
    func compareAnchors(_ d: inout DocumentResult) {
        // Compared afresh (a merge given --baseline): the shards' comparison goes.
        if baseline != nil { d.findings.removeAll { AnchorDiff.rules.contains($0.rule) } }
        guard let was = baseline?.anchors[d.path], d.status == .ok else { return }
        guard let now = DocumentAnchors(d) else {
            anchorsNotCompared.withLock { n in
                n.count += 1
                if n.first.map({ d.path < $0 }) ?? true { n.first = d.path }
            }
            return
        }
        d.findings += AnchorDiff.findings(old: was, new: now).compactMap { RuleLevel.applied(levels, to: $0) }
    }

    /// Each broken link (an error naming its target): since when, and in how many runs in a row,
    /// this one included.
    static func sayHowLong(_ d: inout DocumentResult, _ before: [String: LinkStreak], now: String) {
        for i in d.findings.indices where d.findings[i].severity == .error {
            guard let t = d.findings[i].details["uri"]?.stringValue ?? d.findings[i].details["target"]?.stringValue
            else { continue }
            let s = before[t].map { LinkStreak(since: $0.since, runs: $0.runs + 1) } ?? LinkStreak(since: now, runs: 1)
            d.findings[i].details["brokenSince"] = .string(s.since)
            d.findings[i].details["brokenRuns"] = .int(s.runs)
        }
    }

    /// The run's finding when documents' anchors could not be compared (`dest.anchors-not-compared`).
    public var anchorFindings: [Finding] {
        let n = anchorsNotCompared.withLock { $0 }
        guard n.count > 0, let first = n.first else { return [] }
        let f = Finding(
            rule: .destAnchorsNotCompared,
            message:
                "the baseline records the named destinations of \(n.count) document\(n.count == 1 ? "" : "s") this run did not list (\(first)\(n.count > 1 ? " and others" : "")): removed ones could not be found"
        )
        return [RuleLevel.applied(levels, to: f)].compactMap { $0 }
    }

    /// Documents whose anchors the baseline records that are no longer in the batch (`batch`: the
    /// paths of the whole batch): all their named destinations are gone, one `dest.removed` a
    /// document (at most `AnchorDiff.findingLimit`, then one counting the rest), at the pipeline's levels.
    public func removedDocumentAnchors(batch: Set<String>) -> [Finding] {
        guard let baseline else { return [] }
        let gone = baseline.anchors.filter { !batch.contains($0.key) && !$0.value.names.isEmpty }.sorted {
            $0.key < $1.key
        }
        var out: [Finding] = gone.prefix(AnchorDiff.findingLimit).map { path, anchors in
            let n = anchors.names.count
            var f = Finding(
                rule: .destRemoved,
                message:
                    "'\(ConsoleText.escape(path))' is no longer in the batch: the \(n) named destination\(n == 1 ? "" : "s") the baseline records for it \(n == 1 ? "is" : "are") gone, and links to \(n == 1 ? "it" : "them") from other documents fail"
            )
            f.details["document"] = .string(path)
            f.details["anchors"] = .int(n)
            return f
        }
        if gone.count > AnchorDiff.findingLimit {
            out.append(
                Finding(
                    rule: .destRemoved,
                    message:
                        "\(gone.count - AnchorDiff.findingLimit) more documents of the baseline with named destinations are no longer in the batch"
                ))
        }
        return out.compactMap { RuleLevel.applied(levels, to: $0) }
    }

    /// The suppressions with their counts so far.
    public var uses: [SuppressionUse] {
        let m = matched.withLock { $0 }
        return suppressions.enumerated().map { SuppressionUse(suppression: $1, matched: m[$0]) }
    }
}
