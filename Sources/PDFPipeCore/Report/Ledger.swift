/// One run's record in a link-rot ledger (`--ledger DIR`): when it ran, what it checked, its counts,
/// and each finding about a link (document, page, target, rule, severity, fingerprint, and the HTTP
/// status a web link answered: its outcome with the rule). Written once per
/// run, never changed; `Trend` reads a folder of them. Compact: documents are listed once and
/// links refer to them by position.
public struct LedgerRecord: Sendable, Equatable {
    public static let format = "pdfpipe-ledger-record"
    public static let version = 1
    /// Link findings kept in one record; past it the record says how many were left out (`cut`).
    public static let maxLinks = 1_000_000
    /// Counts kept from a record (`counts`).
    public static let maxCounts = 32

    /// The run's id (`PDFPIPE_RUN_ID`, `GITHUB_RUN_ID`, …) and its time (ISO 8601, UTC).
    public var run: String
    public var time: String
    public var pipeline: String
    /// The documents the run checked, by `path` (relative to the input root).
    public var documents: [String]
    public var links: [Link]
    /// Link findings left out past `maxLinks`.
    public var cut = 0
    /// The run's counts (report.json's `summary`: documents, pages, errors, warnings, notes and
    /// the links checked by outcome), when the record has them.
    public var counts: [String: Int] = [:]

    /// A finding about a link: its document (position in `documents`), page, target, rule,
    /// severity and fingerprint.
    public struct Link: Sendable, Equatable {
        public var document: Int
        public var page: Int?
        public var target: String
        public var rule: String
        public var severity: Severity
        public var fingerprint: String
        /// The HTTP status a web link answered (404, 500, …), when it answered one.
        public var status: Int?

        public init(
            document: Int, page: Int?, target: String, rule: String, severity: Severity, fingerprint: String,
            status: Int? = nil
        ) {
            self.document = document
            self.page = page
            self.target = target
            self.rule = rule
            self.severity = severity
            self.fingerprint = fingerprint
            self.status = status
        }
    }

    public init(run: String, time: String, pipeline: String, documents: [String], links: [Link], cut: Int = 0) {
        self.run = run
        self.time = time
        self.pipeline = pipeline
        self.documents = documents
        self.links = links
        self.cut = cut
    }

    /// The record of a run's documents: every finding that names a link's target (`uri`, `target`).
    public init(run: String, time: String, pipeline: String, results: some Sequence<DocumentResult>) {
        var documents: [String] = []
        var links: [Link] = []
        var cut = 0
        for d in results {
            let i = documents.count
            documents.append(d.path)
            for (f, fp) in zip(d.findings, d.fingerprints) {
                guard let target = f.details["uri"]?.stringValue ?? f.details["target"]?.stringValue else { continue }
                guard links.count < Self.maxLinks else {
                    cut += 1
                    continue
                }
                links.append(
                    Link(
                        document: i, page: f.page, target: target, rule: f.rule, severity: f.severity, fingerprint: fp,
                        status: f.details["status"]?.intValue))
            }
        }
        self.init(run: run, time: time, pipeline: pipeline, documents: documents, links: links, cut: cut)
    }

    /// A run's counts as a record keeps them: the summary's numbers, its links' by `links.OUTCOME`.
    public static func counts(of summary: Summary) -> [String: Int] {
        var out: [String: Int] = [:]
        for (k, v) in summary.json.objectValue ?? [:] {
            if let n = v.intValue {
                out[k] = n
            } else if let inner = v.objectValue {
                for (k2, v2) in inner { if let n = v2.intValue { out[k + "." + k2] = n } }
            }
        }
        return out
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "format": .string(Self.format), "version": .int(Self.version), "run": .string(run), "time": .string(time),
            "pipeline": .string(pipeline), "documents": .array(documents.map { .string($0) }),
            "links": .array(
                links.map { l in
                    var entry: [JSONValue] = [
                        .int(l.document), l.page.map { .int($0) } ?? .null, .string(l.target), .string(l.rule),
                        .string(l.severity.rawValue), .string(l.fingerprint),
                    ]
                    if let status = l.status { entry.append(.int(status)) }
                    return .array(entry)
                }),
        ]
        if cut > 0 { o["cut"] = .int(cut) }
        if !counts.isEmpty { o["counts"] = .object(counts.mapValues { .int($0) }) }
        return .object(o)
    }

    /// Reads a record; nil when it is not one (another file in the folder, a damaged one).
    public init?(json v: JSONValue) {
        guard v["format"]?.stringValue == Self.format, v["version"]?.intValue == Self.version,
            let run = v["run"]?.stringValue, let time = v["time"]?.stringValue,
            let documents = v["documents"]?.arrayValue?.compactMap(\.stringValue), let links = v["links"]?.arrayValue
        else { return nil }
        var read: [Link] = []
        for l in links.prefix(Self.maxLinks) {
            guard let a = l.arrayValue, a.count == 6 || a.count == 7, let d = a[0].intValue, d >= 0,
                d < documents.count,
                let target = a[2].stringValue, let rule = a[3].stringValue,
                let severity = a[4].stringValue.flatMap(Severity.init(rawValue:)), let fp = a[5].stringValue
            else { continue }
            let status = a.count == 7 ? a[6].intValue.flatMap { (100...999).contains($0) ? $0 : nil } : nil
            read.append(
                Link(
                    document: d, page: a[1].intValue, target: target, rule: rule, severity: severity, fingerprint: fp,
                    status: status))
        }
        self.init(
            run: run, time: time, pipeline: v["pipeline"]?.stringValue ?? "", documents: documents, links: read,
            cut: v["cut"]?.intValue ?? 0)
        // Counts: named numbers, at most `maxCounts` of them.
        for (k, n) in (v["counts"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }).prefix(Self.maxCounts) {
            if let n = n.intValue, n >= 0, k.count <= 40 { counts[k] = n }
        }
    }
}
