/// A file a stage wrote for a document, with its path relative to the output folder.
public struct Artifact: Codable, Sendable, Equatable, JSONRepresentable {
    public var kind: String
    public var page: Int?
    public var path: String

    public init(kind: String, page: Int? = nil, path: String) {
        self.kind = kind
        self.page = page
        self.path = path
    }

    public var json: JSONValue { JSONValue(encoding: self) }
}

/// What happened to one document.
public enum DocumentStatus: String, Codable, Sendable {
    /// Every stage ran (findings may still have been reported).
    case ok
    /// The document could not be processed to the end: see its findings.
    case failed
}

/// The result of running the pipeline on one document. Only plain values: it crosses threads.
public struct DocumentResult: Sendable, Equatable {
    /// Relative to the input root, with `/` separators.
    public var path: String
    /// As the user named it: relative to the working folder when it is inside it, else absolute
    /// (report.json's `workingPath`). What people and CI see (console, GitHub annotations, SARIF,
    /// JUnit, Markdown, HTML): GitHub attaches annotations to repository paths only.
    public var workingPath: String?
    public var status: DocumentStatus
    public var pageCount: Int?
    public var findings: [Finding]
    public var artifacts: [Artifact]
    /// Seconds per stage id (volatile: excluded when comparing runs).
    public var timings: [String: Double]
    /// Stage-specific sections of the document's report entry (`info`, `links`, `outline`, …).
    public var sections: [String: JSONValue]
    /// Findings an `ignore` entry of the pipeline matched: listed with its reason, not counted.
    public var suppressed: [Finding] = []
    /// Findings of the baseline (`--baseline`) this document no longer has: fixed.
    public var fixedSinceBaseline: [JSONValue] = []
    /// The stages' page boxes (`PageBoxes`) until the runner has mapped the findings to their
    /// sources; then emptied. Not part of the result (see `Transient`).
    package var pageBoxes = Transient<[Double]>([])

    /// The path to show people and CI (see `workingPath`).
    public var displayPath: String { workingPath ?? path }

    public init(
        path: String, status: DocumentStatus = .ok, pageCount: Int? = nil, findings: [Finding] = [],
        artifacts: [Artifact] = [], timings: [String: Double] = [:], sections: [String: JSONValue] = [:]
    ) {
        self.path = path
        self.status = status
        self.pageCount = pageCount
        self.findings = findings
        self.artifacts = artifacts
        self.timings = timings
        self.sections = sections
    }

    public var json: JSONValue { JSONValue(encoding: self) }
}

extension Array where Element == Finding {
    var json: JSONValue { .array(map(\.json)) }
}

/// Counts over a whole run (report.json's `summary`: the baseline's counts are written under
/// `baseline`).
public struct Summary: Codable, Sendable, Equatable {
    public var documents = 0
    public var failedDocuments = 0
    public var pages = 0
    public var errors = 0
    public var warnings = 0
    public var notes = 0
    /// Findings an `ignore` entry took out (not in the counts above).
    public var suppressed = 0
    /// Against a baseline: findings not in it, findings in it, and its findings now gone.
    public var new = 0
    public var unchanged = 0
    public var fixed = 0
    /// The links' verdicts over the batch (validate-links' `linkSummary.checks` summed); nil when
    /// no document's links were checked.
    public var links: LinkTotals?
    /// The thumbnails rendered and kept over the batch; nil when no document ran the stage.
    public var thumbnails: ThumbnailTotals?

    public init() {}

    public init(documents: some Sequence<DocumentResult>, runFindings: [Finding] = []) {
        for d in documents { add(d) }
        add(runFindings: runFindings)
    }

    /// Counts one more document.
    public mutating func add(_ d: DocumentResult) {
        documents += 1
        if d.status == .failed { failedDocuments += 1 }
        pages += d.pageCount ?? 0
        count(d.findings)
        suppressed += d.suppressed.count
        fixed += d.fixedSinceBaseline.count
        if let t = d[LinkSummarySection.sectionKey]?.checks {
            links = (links ?? LinkTotals()).adding(t)
        }
        if let t = d.section(ThumbnailsSection.self) {
            var totals = thumbnails ?? ThumbnailTotals()
            totals.rendered += t.rendered
            totals.unchanged += t.skipped
            thumbnails = totals
        }
    }

    /// Counts findings about the run rather than a document.
    public mutating func add(runFindings: [Finding]) { count(runFindings) }

    private mutating func count(_ findings: [Finding]) {
        for f in findings {
            switch f.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
            switch f.baseline {
            case .new?: new += 1
            case .unchanged?: unchanged += 1
            case nil: break
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case documents, failedDocuments, pages, errors, warnings, notes, suppressed, links, thumbnails
    }

    public var json: JSONValue { JSONValue(encoding: self) }

    /// The number of findings at or above a threshold.
    public func count(atOrAbove failOn: FailOn) -> Int {
        switch failOn {
        case .never: 0
        case .error: errors
        case .warning: errors + warnings
        case .note: errors + warnings + notes
        }
    }
}

/// Everything a run produced: what reporters turn into files.
public struct RunReport: Sendable, Equatable {
    public var toolVersion: String
    public var pipeline: String
    public var documents: [DocumentResult]
    /// ISO 8601 (volatile).
    public var generatedAt: String
    /// Set when the run was cut short (interrupted); the report then lists only finished documents.
    public var incomplete: Bool = false
    /// The exit-code threshold of the run (reporters mark findings at or above it as failures).
    public var failOn: FailOn = .error
    /// The pipeline file's own `report.failOn` (what `merge` gates on): a shard run with
    /// `--fail-on never`, so that the matrix job does not stop early, must not pass that on.
    public var pipelineFailOn: FailOn?
    /// `K/N` when the run covered one shard of a batch.
    public var shard: String?
    /// With `--shard auto`: the engine's variable the shard came from (`SLURM_ARRAY_TASK_ID`, …).
    public var shardSource: String?
    /// A shard's (or a merge's) whole batch: its number of documents and a digest of their paths.
    package var batch: BatchPlan?
    /// A report read back: the documents its own `summary` counts (nil when it has none), which
    /// `merge` holds against the documents it lists.
    package var declaredDocuments: Int?
    /// Findings about the run rather than a document (`config.suppression-expired`, …).
    public var findings: [Finding] = []
    /// What stages say about the run as a whole besides findings (`Stage.runSections`), by key:
    /// validate-links' `web` (each host's requests, 429s, retries, pauses).
    public var sections: [String: JSONValue] = [:]
    /// The baseline the findings were compared with (`--baseline`), when there was one.
    public var baseline: BaselineUse?
    /// Documents the baseline lists that are not in the batch (removed or renamed): all their
    /// baseline findings are fixed (a ratchet fails until the baseline is updated). Found by a run
    /// over a whole batch, or by the merge of shards (a shard cannot tell); by path.
    public var removedSinceBaseline: [RemovedDocument] = []
    public struct RemovedDocument: Codable, Sendable, Equatable {
        public var path: String
        /// How many findings of the baseline it had.
        public var fixed: Int
        public init(path: String, fixed: Int) {
            self.path = path
            self.fixed = fixed
        }
    }

    /// The documents of `baseline` that `paths` (every document of the batch, by `path`) lacks.
    public static func removed(from baseline: Baseline, batch paths: Set<String>) -> [RemovedDocument] {
        baseline.documents.filter { !paths.contains($0.key) && !$0.value.isEmpty }
            .map { RemovedDocument(path: $0.key, fixed: $0.value.count) }.sorted { $0.path < $1.path }
    }

    /// What the removed documents are, for people: "2 documents of the baseline are no longer in the
    /// batch (a.pdf: 3 findings, b.pdf: 1 finding)", or nil.
    public var removedText: String? {
        guard !removedSinceBaseline.isEmpty else { return nil }
        let n = removedSinceBaseline.count
        let list = Abridged(removedSinceBaseline, limit: 5).joined {
            "\(ConsoleText.escape($0.path)): \($0.fixed) finding\($0.fixed == 1 ? "" : "s")"
        }
        return
            "\(n) document\(n == 1 ? "" : "s") of the baseline \(n == 1 ? "is" : "are") no longer in the batch (\(list)): \(n == 1 ? "its" : "their") findings count as fixed"
    }

    /// Why a ratchet fails, for people: how many findings are fixed, where, and the command that
    /// records it.
    public func ratchetText(report path: String) -> String {
        let fixed = summary.fixed
        var text =
            "ratchet: \(fixed) finding\(fixed == 1 ? "" : "s") of the baseline \(fixed == 1 ? "is" : "are") fixed"
        if let removed = removedText { text += "; " + removed }
        return text + "; record that: pdfpipe baseline \(path) --out \(baseline?.file ?? "BASELINE")"
    }
    /// The pipeline's `ignore` entries and how many findings each took out.
    public var suppressions: [SuppressionUse] = []

    /// The working folder the documents' paths are relative to, and the folder the report is
    /// written to (both absolute), when known: the HTML report links to each document's pages
    /// with a path relative to itself. Written to no report file.
    public var locations: Locations?
    public struct Locations: Sendable, Equatable {
        public var working: String
        public var report: String
        public init(working: String, report: String) {
            self.working = working
            self.report = report
        }
    }

    /// When set, the documents are in this results file (a run's `results.jsonl`), read back one
    /// at a time, and `documents` is empty: memory does not grow with the batch.
    package var store: ResultStore?

    /// The documents in report order, from the results file or from memory (with the findings a
    /// run finding stands for made notes: `collapseFindings`).
    public var results: AnySequence<DocumentResult> {
        if let store {
            if let collapse { return AnySequence(store.documents.lazy.map(collapse.apply)) }
            return AnySequence(store.documents)
        }
        return AnySequence(documents)
    }

    /// Findings that a run finding stands for (`Rule.collapses`: with `uri.network-down`, each
    /// link's `uri.unreachable` and `uri.timeout`). Such a finding says nothing about its link — no
    /// host answered anything — so it is a note that the link was not verified: not an error, not a
    /// broken target, not failing the run; the run finding is the one that does. Set by
    /// `collapseFindings`.
    package var collapse: Collapse?

    package struct Collapse: Sendable, Equatable {
        /// The rules, and the run finding that stands for them.
        var rules: [String: String]
        /// With the documents in a results file: the findings made notes, by their own severity,
        /// all and those not `unchanged` against a baseline (the store's counts are adjusted by them).
        var demoted: [Severity: Int] = [:]
        var demotedGating: [Severity: Int] = [:]

        func apply(_ d: DocumentResult) -> DocumentResult {
            guard d.findings.contains(where: { rules[$0.rule] != nil && $0.severity > .note }) else { return d }
            var d = d
            for i in d.findings.indices {
                guard let by = rules[d.findings[i].rule], d.findings[i].severity > .note else { continue }
                d.findings[i].severity = .note
                d.findings[i].message += "; not verified: the network looks down (\(by))"
            }
            return d
        }
    }

    /// Makes the findings run findings stand for notes (`collapse`), once the run findings are
    /// known. Documents in memory are rewritten; with a results file, they are as they are read.
    public mutating func collapseFindings() {
        var rules: [String: String] = [:]
        for f in findings {
            for r in self.rules.rule(f.rule)?.collapses ?? [] { rules[r.id] = f.rule }
        }
        guard !rules.isEmpty, collapse == nil else { return }
        var c = Collapse(rules: rules)
        if let store {
            for d in store.documents {
                for f in d.findings where rules[f.rule] != nil && f.severity > .note {
                    c.demoted[f.severity, default: 0] += 1
                    if f.baseline != .unchanged { c.demotedGating[f.severity, default: 0] += 1 }
                }
            }
        } else {
            documents = documents.map(c.apply)
        }
        collapse = c
    }

    /// The rules the run knew (`Pipeline.ruleCatalog`; SARIF lists them): set by whoever makes the
    /// report; Core's own until then.
    public var rules = RuleCatalog(stages: [])

    public init(toolVersion: String, pipeline: String, documents: [DocumentResult], generatedAt: String) {
        self.toolVersion = toolVersion
        self.pipeline = pipeline
        self.documents = documents
        self.generatedAt = generatedAt
    }

    public var summary: Summary {
        var s: Summary
        if let store {
            s = store.summary
            s.add(runFindings: findings)
            if let c = collapse {
                s.errors -= c.demoted[.error, default: 0]
                s.warnings -= c.demoted[.warning, default: 0]
                s.notes += c.demoted.values.reduce(0, +)
            }
        } else {
            s = Summary(documents: documents, runFindings: findings)
        }
        s.fixed += removedSinceBaseline.reduce(0) { $0 + $1.fixed }
        return s
    }

    /// Whether a finding makes the run fail: at or above `failOn`, and not already in the baseline.
    public func fails(_ f: Finding) -> Bool { failOn.fails(f.severity) && f.baseline != .unchanged }

    /// The findings that make the run fail (exit 1).
    public var failing: Int {
        var stored = store?.failing(failOn) ?? documents.reduce(0) { n, d in n + d.findings.count(where: fails) }
        if store != nil, let c = collapse {
            for (severity, n) in c.demotedGating {
                if failOn.fails(severity) { stored -= n }
                if failOn.fails(.note) { stored += n }
            }
        }
        return stored + findings.count(where: fails)
    }

    /// With a ratchet: the run also fails when findings of the baseline are gone but the baseline
    /// still lists them (update it with `pdfpipe baseline`).
    public var ratchetFails: Bool { baseline?.ratchet == true && summary.fixed > 0 }

    /// Rules whose findings people-facing reports (console, annotations) leave out because a run
    /// finding says what they all mean (`Rule.collapses`): with `uri.network-down`, each link's
    /// `uri.unreachable` and `uri.timeout` (they stay in report.json, and count).
    public var collapsedRules: Set<String> {
        Set(findings.compactMap { rules.rule($0.rule) }.flatMap { $0.collapses.map(\.id) })
    }

    /// What an incomplete report is, in every format that shows it.
    public static let incompleteNote =
        "it lists only the documents that finished (the run was interrupted, or shards were missing from the merge); the others were not checked"

    public var json: JSONValue { json(includingDocuments: true) }

    func json(includingDocuments: Bool) -> JSONValue {
        JSONValue(encoding: ReportFile(self, includingDocuments: includingDocuments))
    }

    /// Reads a report written by the JSON reporter (for `pdfpipe merge`).
    public init(json v: JSONValue) throws(ReportDecodingError) {
        guard v["tool"]?["name"] == "pdfpipe", v["pipeline"]?.stringValue != nil, v["documents"]?.arrayValue != nil
        else { throw ReportDecodingError(message: "not a pdfpipe report (no tool, pipeline or documents)") }
        let file: ReportFile
        do {
            file = try v.decode()
        } catch {
            throw ReportDecodingError(message: JSONValueDecoder.describe(error))
        }
        self.init(
            toolVersion: file.tool.version, pipeline: file.pipeline, documents: file.documents ?? [],
            generatedAt: file.generatedAt ?? "")
        incomplete = file.incomplete ?? false
        failOn = file.failOn ?? .error
        pipelineFailOn = file.pipelineFailOn
        shard = file.shard
        shardSource = file.shardSource
        findings = file.findings
        sections = file.sections ?? [:]
        baseline = file.baseline.map { BaselineUse(file: $0.file, ratchet: $0.ratchet) }
        removedSinceBaseline = file.removedSinceBaseline
        suppressions = file.suppressions
        declaredDocuments = v["summary"]?["documents"]?.intValue
        batch = file.batch
    }
}
