/// The batch a sharded run was cut from (report.json's `batch`, beside `shard`): every shard of one
/// run names the same; a merge of the whole set lists exactly `documents` documents.
package struct BatchPlan: Codable, Sendable, Equatable {
    package var documents: Int
    /// FNV-1a 64 of the batch's relative paths, in order (`ResultStore.configurationHash`).
    package var digest: String
}

/// report.json's layout, declared once for the JSON reporter and for `merge` and `--baseline`,
/// which read it back. The documents are left out when the reporter writes them one at a time.
struct ReportFile: Codable {
    struct Tool: Codable {
        var name = "pdfpipe"
        var version: String
    }
    /// The baseline with the run's counts against it.
    struct BaselineCounts: Codable {
        var file: String
        var ratchet: Bool
        var new: Int?
        var unchanged: Int?
        var fixed: Int?
    }

    var tool: Tool
    var pipeline: String
    /// Written, never read: a report's counts are made again from its documents.
    var summary: Summary?
    var generatedAt: String?
    var documents: [DocumentResult]?
    var incomplete: Bool?
    var failOn: FailOn?
    var pipelineFailOn: FailOn?
    var shard: String?
    var shardSource: String?
    var batch: BatchPlan?
    @OmittedWhenEmpty var findings: [Finding] = []
    var sections: [String: JSONValue]?
    var baseline: BaselineCounts?
    @OmittedWhenEmpty var removedSinceBaseline: [RunReport.RemovedDocument] = []
    @OmittedWhenEmpty var suppressions: [SuppressionUse] = []

    enum CodingKeys: String, CodingKey {
        case tool, pipeline, summary, generatedAt, documents, incomplete, failOn, pipelineFailOn, shard, shardSource
        case batch, findings, sections, baseline, removedSinceBaseline, suppressions
    }

    init(_ r: RunReport, includingDocuments: Bool) {
        let s = r.summary
        tool = Tool(version: r.toolVersion)
        pipeline = r.pipeline
        summary = s
        generatedAt = r.generatedAt
        documents = includingDocuments ? r.documents : nil
        incomplete = r.incomplete ? true : nil
        failOn = r.failOn
        pipelineFailOn = r.pipelineFailOn
        shard = r.shard
        shardSource = r.shardSource
        batch = r.batch
        findings = r.findings
        sections = r.sections.isEmpty ? nil : r.sections
        if let b = r.baseline {
            baseline = BaselineCounts(
                file: b.file, ratchet: b.ratchet, new: s.new, unchanged: s.unchanged, fixed: s.fixed)
            removedSinceBaseline = r.removedSinceBaseline
        }
        suppressions = r.suppressions
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tool = try c.decode(Tool.self, forKey: .tool)
        pipeline = try c.decode(String.self, forKey: .pipeline)
        summary = nil
        generatedAt = try c.decodeIfPresent(String.self, forKey: .generatedAt)
        documents = try c.decodeIfPresent([DocumentResult].self, forKey: .documents)
        incomplete = try c.decodeIfPresent(Bool.self, forKey: .incomplete)
        failOn = try c.decodeIfPresent(FailOn.self, forKey: .failOn)
        pipelineFailOn = try c.decodeIfPresent(FailOn.self, forKey: .pipelineFailOn)
        shard = try c.decodeIfPresent(String.self, forKey: .shard)
        shardSource = try c.decodeIfPresent(String.self, forKey: .shardSource)
        batch = try c.decodeIfPresent(BatchPlan.self, forKey: .batch)
        _findings = try c.decode(OmittedWhenEmpty<[Finding]>.self, forKey: .findings)
        sections = try c.decodeIfPresent([String: JSONValue].self, forKey: .sections)
        baseline = try c.decodeIfPresent(BaselineCounts.self, forKey: .baseline)
        _removedSinceBaseline = try c.decode(
            OmittedWhenEmpty<[RunReport.RemovedDocument]>.self, forKey: .removedSinceBaseline)
        _suppressions = try c.decode(OmittedWhenEmpty<[SuppressionUse]>.self, forKey: .suppressions)
    }
}

/// Written as one object: the declared fields over the stages' sections.
extension DocumentResult: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case path, workingPath, status, pageCount, findings, artifacts, timings, suppressed, fixedSinceBaseline
    }

    /// The keys of a document's entry that are not stage sections.
    public static let knownKeys = Set(CodingKeys.allCases.map(\.rawValue))

    public func encode(to encoder: any Encoder) throws {
        try encoder.encodeMembers(sections, besides: CodingKeys.self)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encodeIfPresent(workingPath, forKey: .workingPath)
        try c.encode(status, forKey: .status)
        try c.encode(pageCount, forKey: .pageCount)
        let withFingerprints = zip(findings, fingerprints).map { f, fp in
            var f = f
            f.fingerprint = fp
            return f
        }
        try c.encode(withFingerprints, forKey: .findings)
        if !suppressed.isEmpty { try c.encode(suppressed, forKey: .suppressed) }
        if !fixedSinceBaseline.isEmpty { try c.encode(fixedSinceBaseline, forKey: .fixedSinceBaseline) }
        try c.encode(artifacts, forKey: .artifacts)
        try c.encode(timings.mapValues { ($0 * 1e6).rounded() / 1e6 }, forKey: .timings)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try c.decode(String.self, forKey: .path), status: try c.decode(DocumentStatus.self, forKey: .status),
            pageCount: try c.decodeIfPresent(Int.self, forKey: .pageCount),
            findings: try c.decodeIfPresent([Finding].self, forKey: .findings) ?? [],
            artifacts: try c.decodeIfPresent([Artifact].self, forKey: .artifacts) ?? [],
            timings: try c.decodeIfPresent([String: Double].self, forKey: .timings) ?? [:])
        workingPath = try c.decodeIfPresent(String.self, forKey: .workingPath)
        suppressed = try c.decodeIfPresent([Finding].self, forKey: .suppressed) ?? []
        fixedSinceBaseline = try c.decodeIfPresent([JSONValue].self, forKey: .fixedSinceBaseline) ?? []
        sections = try decoder.members(besides: CodingKeys.self)
    }

    /// Reads a document entry of a report; keys stages added come back as sections.
    public init(json v: JSONValue) throws(ReportDecodingError) {
        do {
            self = try v.decode()
        } catch {
            throw ReportDecodingError(message: "a document entry: " + JSONValueDecoder.describe(error))
        }
    }
}

extension DocumentResult {
    /// A stable identity for each finding (report.json's `fingerprint`, SARIF's
    /// `partialFingerprints`): the same problem in the same document keeps it across runs,
    /// machines, pdfpipe versions and message rewordings. Made from the rule, the document's path,
    /// the page, the link's identity (`annotationIndex`) and target (`uri`) — never the message,
    /// nor object numbers, which change when a document is rebuilt. Findings alike in all of these
    /// are told apart by their order (`:2`, `:3`, …). 16 hex digits of FNV-1a 64.
    /// A finding that already carries one (assigned before `ignore` took some out, or read back from
    /// a report) keeps it.
    public var fingerprints: [String] {
        zip(findings, Self.fingerprints(of: findings, path: path)).map { f, computed in f.fingerprint ?? computed }
    }

    /// Stores every finding's fingerprint in it, so that taking findings out (suppressions) does
    /// not renumber the others.
    public mutating func assignFingerprints() {
        let all = fingerprints
        for i in findings.indices { findings[i].fingerprint = all[i] }
    }

    static func fingerprints(of findings: [Finding], path: String) -> [String] {
        var seen: [String: Int] = [:]
        return findings.map { f in
            var parts = [f.rule, path, f.page.map(String.init) ?? "-"]
            if let k = f.annotationIndex { parts.append("annotation \(k)") }
            if let u = f.details["uri"]?.stringValue { parts.append(u) }
            // What makes it this finding besides the place: the search term (text.match). Not the
            // object number, which a rebuild of the PDF renumbers (the link is its annotation's
            // index and target), nor the severity, which the baseline compares apart (a level
            // raised since the baseline is new; one lowered is not).
            if let t = f.details["term"]?.stringValue { parts.append("term " + t) }
            // The named destination a baseline comparison is about (dest.removed, dest.changed).
            if let a = f.details["anchor"]?.stringValue { parts.append("anchor " + a) }
            let base = parts.joined(separator: "\u{1F}")
            let n = seen[base, default: 0] + 1
            seen[base] = n
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in base.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            let hex = String(h, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + (n > 1 ? ":\(n)" : "")
        }
    }
}
