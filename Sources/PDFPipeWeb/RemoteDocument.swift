import PDFPipeCore
import PDFReader

/// What a GoToR link or a `#nameddest=` fragment needs to know about its target file: its page count and named destinations.
package struct RemoteDocument: Codable, Sendable, Equatable {
    package var pageCount = 0
    /// Why the file could not be read, if it could not.
    package var error: String?
    /// Name-tree keys → 0-based page (nil when the destination does not resolve to a page).
    package var tree: [[UInt8]: Int?] = [:] { didSet { byText = NameText.index(tree: tree, catalog: catalog) } }
    /// Catalog `/Dests` names → 0-based page.
    package var catalog: [String: Int?] = [:] { didSet { byText = NameText.index(tree: tree, catalog: catalog) } }
    /// Keys whose text is not their bytes, by that text (`NameText.index`; not encoded).
    private var byText: [String: DestinationKey] = [:]

    /// The destination's page (`.some(nil)`: defined, but not on a page); nil when not defined.
    package func lookup(_ key: DestinationKey) -> Int?? {
        // Not `find(key)?.value`: optional chaining flattens, and a missing name would come back
        // as `.some(nil)`, "defined, not on a page".
        guard let found = find(key) else { return nil }
        return .some(found.value)
    }

    /// The destination's page, and the key it matched when only their text is the same
    /// (`NameText.find`).
    package func find(_ key: DestinationKey) -> (value: Int?, asText: DestinationKey?)? {
        NameText.find(key, tree: tree, catalog: catalog, byText: byText)
    }

    /// As JSON (for worker processes: keys of the name tree as hex, as they are bytes).
    package var json: JSONValue {
        var o: [String: JSONValue] = ["pageCount": .int(pageCount)]
        if let error { o["error"] = .string(error) }
        o["tree"] = .object(
            Dictionary(
                uniqueKeysWithValues: tree.map { k, v in
                    (k.map { String(format: "%02x", $0) }.joined(), v.map { .int($0) } ?? .null)
                }))
        o["catalog"] = .object(catalog.mapValues { $0.map { .int($0) } ?? .null })
        return .object(o)
    }

    package init() {}

    package init(pageCount: Int, tree: [[UInt8]: Int?], catalog: [String: Int?]) {
        self.pageCount = pageCount
        self.tree = tree
        self.catalog = catalog
        byText = NameText.index(tree: tree, catalog: catalog)  // observers do not run in an initializer
    }

    /// As `json` (the name tree's keys are bytes, written as hex).
    package init(from decoder: any Decoder) throws { self.init(json: try JSONValue(from: decoder)) }
    package func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    package init(json: JSONValue) {
        pageCount = json["pageCount"]?.intValue ?? 0
        error = json["error"]?.stringValue
        var tree: [[UInt8]: Int?] = [:]
        for (k, v) in json["tree"]?.objectValue ?? [:] {
            var bytes: [UInt8] = []
            var i = k.startIndex
            while i < k.endIndex, let j = k.index(i, offsetBy: 2, limitedBy: k.endIndex),
                let b = UInt8(k[i..<j], radix: 16)
            {
                bytes.append(b)
                i = j
            }
            tree[bytes] = .some(v.intValue)
        }
        self.tree = tree
        catalog = (json["catalog"]?.objectValue ?? [:]).mapValues { v -> Int? in v.intValue }
        byText = NameText.index(tree: tree, catalog: catalog)  // observers do not run in an initializer
    }
}
