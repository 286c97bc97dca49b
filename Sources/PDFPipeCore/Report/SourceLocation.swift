/// Maps a document's findings back to the source lines that made them (`report.sources`,
/// `--sources`): set on the runner by the command line, implemented beside the stages
/// (`SourceMapper`: SyncTeX, and search in the source files). Applied to each document's result
/// in the run's own process, whatever process ran the document.
public protocol SourceMapping: Sendable {
    /// Adds `details.source` to the findings it can place: `file` is the PDF that was read.
    /// `result.pageBoxes` has the media boxes the stages measured, when they ran in this process.
    func map(_ result: inout DocumentResult, file: String)
}

/// The media boxes of a document's pages as a stage measured them, four numbers a page
/// (`x1 y1 x2 y2`, page 1 first, one array for the document): a stage product (validate-links
/// gives it) the runner hands to the source mapping, so the mapping does not open the document again.
package struct PageBoxes: Sendable {
    package var flat: [Double]
    package init(flat: [Double]) { self.flat = flat }

    /// Page `page`'s (1-based) box, if measured.
    package static func box(_ flat: [Double], page: Int) -> [Double]? {
        guard page >= 1, page * 4 <= flat.count else { return nil }
        return Array(flat[(page - 1) * 4..<page * 4])
    }
}

/// A value a result carries inside one process only: never written, never compared (`==` holds
/// whatever it is), dropped when the result is read back from a report or a worker process.
package struct Transient<Value: Sendable>: Sendable, Equatable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
    package static func == (a: Self, b: Self) -> Bool { true }
}

extension Finding {
    /// The source line the finding was mapped to (`details.source`: `file`, `line`), when it was:
    /// where reports that point at files (SARIF, GitHub annotations, GitLab Code Quality) put it,
    /// the PDF and page kept beside it. Never part of the fingerprint.
    public var sourceLocation: (file: String, line: Int)? {
        guard let s = details["source"], let file = s["file"]?.stringValue, let line = s["line"]?.intValue, line >= 1
        else { return nil }
        return (file, line)
    }

    /// `file:line` for people (Markdown and HTML beside the page), or nil.
    public var sourceText: String? { sourceLocation.map { "\($0.file):\($0.line)" } }
}
