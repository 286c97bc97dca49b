import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization

/// What a GoToR link needs to know about its target file: its page count and named destinations.
public struct RemoteDocument: Sendable, Equatable {
    public var pageCount = 0
    /// Why the file could not be read, if it could not.
    public var error: String?
    /// Name-tree keys → 0-based page (nil when the destination does not resolve to a page).
    public var tree: [[UInt8]: Int?] = [:]
    /// Catalog `/Dests` names → 0-based page.
    public var catalog: [String: Int?] = [:]

    /// The destination's page (`.some(nil)`: defined, but not on a page); nil when not defined.
    public func lookup(_ key: DestinationKey) -> Int?? {
        switch key {
        case .string(let b): tree[b] ?? catalog[String(decoding: b, as: UTF8.self)]
        case .name(let n): catalog[n] ?? tree[Array(n.utf8)]
        }
    }

    /// As JSON (for worker processes: keys of the name tree as hex, as they are bytes).
    public var json: JSONValue {
        var o: [String: JSONValue] = ["pageCount": .int(pageCount)]
        if let error { o["error"] = .string(error) }
        o["tree"] = .object(Dictionary(uniqueKeysWithValues: tree.map { k, v in
            (k.map { String(format: "%02x", $0) }.joined(), v.map { .int($0) } ?? .null)
        }))
        o["catalog"] = .object(catalog.mapValues { $0.map { .int($0) } ?? .null })
        return .object(o)
    }

    public init() {}

    public init(json: JSONValue) {
        pageCount = json["pageCount"]?.intValue ?? 0
        error = json["error"]?.stringValue
        for (k, v) in json["tree"]?.objectValue ?? [:] {
            var bytes: [UInt8] = []
            var i = k.startIndex
            while i < k.endIndex, let j = k.index(i, offsetBy: 2, limitedBy: k.endIndex), let b = UInt8(k[i..<j], radix: 16) {
                bytes.append(b)
                i = j
            }
            tree[bytes] = .some(v.intValue)
        }
        for (k, v) in json["catalog"]?.objectValue ?? [:] { catalog[k] = .some(v.intValue) }
    }

    static func load(_ path: String) -> RemoteDocument {
        var r = RemoteDocument()
        do {
            let (source, _) = try ObjectSources.open(path: path) { () throws(BridgeError) in try QPDFFile(path: path) }
            let pageObjects = PageTree.pages(source)
            let pages = PageIndex(pageObjects)
            r.pageCount = pages.count
            let table = DestinationTable(root: PDFObject.root(of: source), pages: pages)
            func page(_ n: NamedDestination) -> Int? {
                switch n.destination?.target {
                case .page(let i)?: i
                case .pageNumber(let i)? where i >= 0 && i < pages.count: i
                default: nil
                }
            }
            r.tree = table.tree.mapValues(page)
            r.catalog = table.catalog.mapValues(page)
        } catch {
            r.error = error.description
        }
        return r
    }
}

/// Target files of GoToR links, each read once per run whatever the number of links and workers.
public final class RemoteDocuments: Sendable {
    private final class Entry: Sendable {
        let value = Mutex<RemoteDocument?>(nil)
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// The document at an absolute path, read on first use (other workers asking for the same file
    /// wait for that read instead of repeating it).
    public func document(at path: String) -> RemoteDocument {
        let entry = entries.withLock { table -> Entry in
            if let e = table[path] { return e }
            let e = Entry()
            table[path] = e
            return e
        }
        return entry.value.withLock { v in
            if let v { return v }
            let d = RemoteDocument.load(path)
            v = d
            return d
        }
    }
}
