import Dispatch

/// Turns a run report into one file. Reporters are pure: no I/O, no clock, no absolute paths.
public protocol Reporter: Sendable {
    /// The name used in `--format` and `report.formats`.
    var format: String { get }
    /// The file written in the output folder.
    var fileName: String { get }
    func render(_ report: RunReport) -> String
    /// The file's bytes (by default, `render` as UTF-8).
    func renderBytes(_ report: RunReport) -> [UInt8]
}

extension Reporter {
    public func renderBytes(_ report: RunReport) -> [UInt8] { Array(render(report).utf8) }
}

/// Every reporter, in one table.
public enum Reporters {
    public static let all: [any Reporter] = [JSONReporter(), JUnitReporter(), SARIFReporter(), MarkdownReporter(), GitHubReporter(), HTMLReporter()]

    public static var formats: [String] { all.map(\.format) }

    public static func reporter(for format: String) -> (any Reporter)? { all.first { $0.format == format } }
}

/// `report.json`: the contract CI scripts read.
public struct JSONReporter: Reporter {
    public init() {}
    public var format: String { "json" }
    public var fileName: String { "report.json" }

    public func render(_ report: RunReport) -> String { String(decoding: renderBytes(report), as: UTF8.self) }

    /// The same bytes as `JSONWriter.pretty(report.json)`, with the documents (the bulk of a big
    /// report: tens of thousands of links) turned into JSON and written in parallel.
    public func renderBytes(_ report: RunReport) -> [UInt8] {
        guard case .object(var top) = report.json(includingDocuments: false) else { return [] }
        let documents = report.documents
        let rendered = Locked([[UInt8]](repeating: [], count: documents.count))
        DispatchQueue.concurrentPerform(iterations: documents.count) { i in
            let text = Array(JSONWriter.pretty(documents[i].json, indent: 2).utf8)
            rendered.withLock { $0[i] = text }
        }
        top["documents"] = nil
        var parts: [(String, [UInt8])] = top.map { ($0.key, Array(JSONWriter.pretty($0.value, indent: 1).utf8)) }
        var docs: [UInt8] = []
        if documents.isEmpty {
            docs = Array("[]".utf8)
        } else {
            docs = Array("[\n".utf8)
            for (i, d) in rendered.withLock({ $0 }).enumerated() {
                if i > 0 { docs += Array(",\n".utf8) }
                docs += Array("    ".utf8)
                docs += d
            }
            docs += Array("\n  ]".utf8)
        }
        parts.append(("documents", docs))
        parts.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var out = Array("{\n".utf8)
        for (i, (key, value)) in parts.enumerated() {
            if i > 0 { out += Array(",\n".utf8) }
            out += Array("  \(JSONWriter.compact(.string(key))): ".utf8)
            out += value
        }
        out += Array("\n}\n".utf8)
        return out
    }
}
