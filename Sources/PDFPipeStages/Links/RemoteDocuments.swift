import Foundation
import PDFBridge
import PDFPipeCore

extension RemoteDocument {
    /// Link targets larger than this are not read (a GoToR to a disk image, say).
    static let maxBytes = 1 << 30

    /// Opens a file (pdfpipe's reader, qpdf for what it refuses) and reads its facts. Only a regular
    /// file is opened: a FIFO or a device (a symlink to /dev/zero) would block or never end.
    static func load(_ path: String) -> RemoteDocument {
        do {
            try PDFReader.checkRegularFile(path, maxBytes: maxBytes)
            let (source, _) = try ObjectSources.open(path: path) { () throws(BridgeError) in try QPDFFile(path: path) }
            return RemoteDocument(source: source)
        } catch {
            var r = RemoteDocument()
            r.error = "\(error)"
            return r
        }
    }
}

/// Target files of GoToR links, each read once per run whatever the number of links and workers.
public final class RemoteDocuments: Sendable {
    private final class Entry: Sendable {
        let value = Locked<RemoteDocument?>(nil)
    }

    private let entries = Locked<[String: Entry]>([:])

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
