import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import PDFReader

extension RemoteDocument {
    /// Link targets larger than this are not read (a GoToR to a disk image, say).
    static let maxBytes = 1 << 30

    /// Opens a file (pdfpipe's reader, qpdf for what it refuses) and reads its facts. Only a regular
    /// file is opened: a FIFO or a device (a symlink to /dev/zero) would block or never end.
    static func load(_ path: String) -> RemoteDocument {
        do {
            try PDFReader.checkRegularFile(path, maxBytes: maxBytes)
            let source = try ObjectSources.open(path: path) { () throws(BridgeError) in try QPDFFile(path: path) }
            return RemoteDocument(source: source)
        } catch {
            var r = RemoteDocument()
            r.error = "\(error)"
            return r
        }
    }
}

/// Target files of GoToR links, read once while they are in use whatever the number of links and
/// workers. At most `capacity` are kept (the least recently used one goes first): a cache for the
/// whole run would grow with the batch (at 20,000 documents it held the destination names of every
/// manual the batch links to). The batch goes in input order, folder by folder, so the documents
/// that link to each other are checked close together.
package final class RemoteDocuments: Sendable {
    private final class Entry: Sendable {
        let value = Locked<RemoteDocument?>(nil)
    }

    private struct Table {
        var entries: [String: (entry: Entry, used: Int)] = [:]
        var clock = 0
    }

    private let table = Locked(Table())
    package let capacity: Int

    package init(capacity: Int = 256) { self.capacity = max(1, capacity) }

    /// How many documents are held.
    package var count: Int { table.withLock { $0.entries.count } }

    /// The document at an absolute path, read on first use (other workers asking for the same file
    /// wait for that read instead of repeating it).
    package func document(at path: String) -> RemoteDocument {
        let entry = table.withLock { t -> Entry in
            t.clock += 1
            if let e = t.entries[path] {
                t.entries[path]!.used = t.clock
                return e.entry
            }
            if t.entries.count >= capacity, let oldest = t.entries.min(by: { $0.value.used < $1.value.used })?.key {
                t.entries[oldest] = nil
            }
            let e = Entry()
            t.entries[path] = (e, t.clock)
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
