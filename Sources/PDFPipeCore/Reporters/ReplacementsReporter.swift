/// `replacements.json`: every link `fix-links` rewrote, across the run — document, page, object,
/// rule, the old and the new value, why, and the repaired copy — one entry each, a document at a
/// time (the list grows with the fixes, not with the batch). The document's `fixes.unfixed` in
/// report.json says what was left and why.
public struct ReplacementsReporter: StreamingReporter {
    public init() {}
    public var format: String { "replacements" }
    public var fileName: String { "replacements.json" }

    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        sink(Array("[".utf8))
        var first = true
        for d in report.results {
            guard let fixes = d.section(FixesSection.self) else { continue }
            for c in fixes.changed {
                let entry: JSONValue = [
                    "document": .string(d.path), "page": c.page.map { .int($0) } ?? .null,
                    "object": .string(c.object), "rule": .string(c.rule), "field": .string(c.field),
                    "from": .string(c.from), "to": .string(c.to), "why": .string(c.why),
                    "file": fixes.file.map { .string($0) } ?? .null,
                ]
                sink(Array(((first ? "\n" : ",\n") + JSONWriter.pretty(entry, indent: 2)).utf8))
                first = false
            }
        }
        sink(Array((first ? "]\n" : "\n]\n").utf8))
    }
}

/// `replacements.csv`: the same as `replacements.json`, for people (a spreadsheet): a header row,
/// then a row per rewritten link. Fields are quoted as RFC 4180 says; text from documents has its
/// control characters written as escapes, and a field that a spreadsheet would run as a formula
/// (`=`, `+`, `-`, `@` first) gets a `'` in front.
public struct ReplacementsCSVReporter: StreamingReporter {
    public init() {}
    public var format: String { "replacements-csv" }
    public var fileName: String { "replacements.csv" }

    public func emit(_ report: RunReport, _ sink: ([UInt8]) -> Void) {
        sink(Array("document,page,object,rule,field,from,to,why,file\r\n".utf8))
        for d in report.results {
            guard let fixes = d.section(FixesSection.self) else { continue }
            for c in fixes.changed {
                let row = [
                    d.path, c.page.map(String.init) ?? "", c.object, c.rule, c.field, c.from, c.to, c.why,
                    fixes.file ?? "",
                ]
                sink(Array((row.map(Self.field).joined(separator: ",") + "\r\n").utf8))
            }
        }
    }

    static func field(_ s: String) -> String {
        var v = ConsoleText.escape(s)
        if let c = v.first, "=+-@".contains(c) { v = "'" + v }
        guard v.contains(where: { $0 == "," || $0 == "\"" || $0 == "'" || $0 == " " }) else { return v }
        return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
