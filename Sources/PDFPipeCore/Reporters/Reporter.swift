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
    /// Writes the file piece by piece (by default, `renderBytes` at once). Reporters whose output
    /// grows with the documents' contents stream it, so that no report is held whole in memory.
    func write(_ report: RunReport, to file: AtomicFile.Writer)
}

extension Reporter {
    public func renderBytes(_ report: RunReport) -> [UInt8] { Array(render(report).utf8) }
    public func write(_ report: RunReport, to file: AtomicFile.Writer) { file.write(renderBytes(report)) }
}

/// A reporter that writes its file in pieces (`emit`): rendering to memory and writing to a file
/// are both that.
public protocol StreamingReporter: Reporter {
    func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void)
}

extension StreamingReporter {
    public func render(_ report: RunReport) -> String { String(decoding: renderBytes(report), as: UTF8.self) }

    public func renderBytes(_ report: RunReport) -> [UInt8] {
        var out: [UInt8] = []
        emit(report) { out.append(contentsOf: $0) }
        return out
    }

    public func write(_ report: RunReport, to file: AtomicFile.Writer) { emit(report) { file.write($0) } }
}

/// Every reporter, in one table.
public enum Reporters {
    public static let all: [any Reporter] = [
        JSONReporter(), JUnitReporter(), SARIFReporter(), MarkdownReporter(), GitHubReporter(), HTMLReporter(),
        CodeQualityReporter(), ReplacementsReporter(), ReplacementsCSVReporter(),
    ]

    public static var formats: [String] { all.map(\.format) }

    public static func reporter(for format: String) -> (any Reporter)? { all.first { $0.format == format } }
}

/// `report.json`: the contract CI scripts read.
public struct JSONReporter: StreamingReporter {
    public init() {}
    public var format: String { "json" }
    public var fileName: String { "report.json" }

    /// Writes the report in pieces (the same bytes as `JSONWriter.pretty(report.json)`): the documents (the bulk of a big report: tens of thousands of
    /// links) are read one batch at a time — from the results file when the run has one — turned
    /// into JSON in parallel, and handed on in order; only a batch is in memory at once.
    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        guard case .object(let top) = report.json(includingDocuments: false) else { return }
        var keys = Array(top.keys) + ["documents"]
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let positions = report.store?.positions ?? Array(report.documents.indices)
        sink(Array("{\n".utf8))
        for (n, key) in keys.enumerated() {
            sink(Array(((n > 0 ? ",\n" : "") + "  \(JSONWriter.compact(.string(key))): ").utf8))
            guard key == "documents" else {
                sink(Array(JSONWriter.pretty(top[key]!, indent: 1).utf8))
                continue
            }
            if positions.isEmpty {
                sink(Array("[]".utf8))
                continue
            }
            sink(Array("[\n".utf8))
            let batch = 64
            var start = 0
            while start < positions.count {
                let slice = Array(positions[start..<min(start + batch, positions.count)])
                let rendered = Locked([[UInt8]](repeating: [], count: slice.count))
                DispatchQueue.concurrentPerform(iterations: slice.count) { k in
                    let text: [UInt8]
                    if let store = report.store, let collapse = report.collapse {
                        // Findings made notes: the document decoded, not copied.
                        text =
                            store.document(slice[k]).map {
                                Array(JSONWriter.pretty(collapse.apply($0).json, indent: 2).utf8)
                            } ?? Array("null".utf8)
                    } else {
                        text =
                            report.store.map { $0.documentText(slice[k], indent: 2) ?? Array("null".utf8) }
                            ?? Array(JSONWriter.pretty(report.documents[slice[k]].json, indent: 2).utf8)
                    }
                    rendered.withLock { $0[k] = text }
                }
                for (k, text) in rendered.withLock({ $0 }).enumerated() {
                    sink(Array(((start + k > 0 ? ",\n" : "") + "    ").utf8))
                    sink(text)
                }
                start += batch
            }
            sink(Array("\n  ]".utf8))
        }
        sink(Array("\n}\n".utf8))
    }
}
