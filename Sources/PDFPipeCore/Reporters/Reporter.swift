import Dispatch
import Synchronization

/// Turns a run report into one file. Reporters are pure: no I/O, no clock, no absolute paths.
public protocol Reporter: Sendable {
    /// The name used in `--format` and `report.formats`.
    var format: String { get }
    /// The file written in the output folder.
    var fileName: String { get }
    func render(_ report: RunReport) -> String
}

/// Every reporter, in one table.
public enum Reporters {
    public static let all: [any Reporter] = [JSONReporter()]

    public static var formats: [String] { all.map(\.format) }

    public static func reporter(for format: String) -> (any Reporter)? { all.first { $0.format == format } }
}

/// `report.json`: the contract CI scripts read.
public struct JSONReporter: Reporter {
    public init() {}
    public var format: String { "json" }
    public var fileName: String { "report.json" }
    /// The same text as `JSONWriter.pretty(report.json)`, with the documents (the bulk of a big
    /// report: tens of thousands of links) rendered in parallel.
    public func render(_ report: RunReport) -> String {
        guard case .object(var top) = report.json, case .array(let documents)? = top["documents"], documents.count > 1 else {
            return JSONWriter.pretty(report.json)
        }
        let rendered = Mutex([String](repeating: "", count: documents.count))
        DispatchQueue.concurrentPerform(iterations: documents.count) { i in
            let text = "    " + JSONWriter.pretty(documents[i], indent: 2)
            rendered.withLock { $0[i] = text }
        }
        top["documents"] = nil
        var parts: [(String, String)] = top.map { ($0.key, JSONWriter.pretty($0.value, indent: 1)) }
        parts.append(("documents", "[\n" + rendered.withLock { $0 }.joined(separator: ",\n") + "\n  ]"))
        parts.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{\n" + parts.map { "  " + JSONWriter.compact(.string($0.0)) + ": " + $0.1 }.joined(separator: ",\n") + "\n}\n"
    }
}
