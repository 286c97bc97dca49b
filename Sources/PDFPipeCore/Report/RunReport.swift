/// A file a stage wrote for a document, with its path relative to the output folder.
public struct Artifact: Sendable, Equatable, JSONRepresentable {
    public var kind: String
    public var page: Int?
    public var path: String

    public init(kind: String, page: Int? = nil, path: String) {
        self.kind = kind
        self.page = page
        self.path = path
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["kind": .string(kind), "path": .string(path)]
        if let page { o["page"] = .int(page) }
        return .object(o)
    }
}

/// What happened to one document.
public enum DocumentStatus: String, Sendable {
    /// Every stage ran (findings may still have been reported).
    case ok
    /// The document could not be processed to the end: see its findings.
    case failed
}

/// The result of running the pipeline on one document. Only plain values: it crosses threads.
public struct DocumentResult: Sendable, Equatable {
    /// Relative to the input root, with `/` separators.
    public var path: String
    public var status: DocumentStatus
    public var pageCount: Int?
    public var findings: [Finding]
    public var artifacts: [Artifact]
    /// Seconds per stage id (volatile: excluded when comparing runs).
    public var timings: [String: Double]
    /// Stage-specific sections of the document's report entry (`info`, `links`, `outline`, …).
    public var sections: [String: JSONValue]

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

    public var json: JSONValue {
        var o = sections
        o["path"] = .string(path)
        o["status"] = .string(status.rawValue)
        o["pageCount"] = pageCount.map { .int($0) } ?? .null
        o["findings"] = findings.json
        o["artifacts"] = .array(artifacts.map(\.json))
        o["timings"] = .object(timings.mapValues { .double(($0 * 1e6).rounded() / 1e6) })
        return .object(o)
    }
}

extension Array where Element == Finding {
    var json: JSONValue { .array(map(\.json)) }
}

/// Counts over a whole run.
public struct Summary: Sendable, Equatable {
    public var documents = 0
    public var failedDocuments = 0
    public var pages = 0
    public var errors = 0
    public var warnings = 0
    public var notes = 0

    public init(documents: [DocumentResult]) {
        self.documents = documents.count
        for d in documents {
            if d.status == .failed { failedDocuments += 1 }
            pages += d.pageCount ?? 0
            for f in d.findings {
                switch f.severity {
                case .error: errors += 1
                case .warning: warnings += 1
                case .note: notes += 1
                }
            }
        }
    }

    public var json: JSONValue {
        [
            "documents": .int(documents), "failedDocuments": .int(failedDocuments), "pages": .int(pages),
            "errors": .int(errors), "warnings": .int(warnings), "notes": .int(notes),
        ]
    }

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

    public init(toolVersion: String, pipeline: String, documents: [DocumentResult], generatedAt: String) {
        self.toolVersion = toolVersion
        self.pipeline = pipeline
        self.documents = documents
        self.generatedAt = generatedAt
    }

    public var summary: Summary { Summary(documents: documents) }

    public var json: JSONValue { json(includingDocuments: true) }

    func json(includingDocuments: Bool) -> JSONValue {
        var o: [String: JSONValue] = [
            "tool": ["name": "pdfpipe", "version": .string(toolVersion)],
            "pipeline": .string(pipeline),
            "summary": summary.json,
            "generatedAt": .string(generatedAt),
        ]
        if includingDocuments { o["documents"] = .array(documents.map(\.json)) }
        if incomplete { o["incomplete"] = true }
        return .object(o)
    }
}
