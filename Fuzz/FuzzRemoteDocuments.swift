// Stand-in for Sources/PDFPipeStages/Links/RemoteDocuments.swift in the link fuzzer (which is built
// without qpdf): GoToR targets read through pdfpipe's own reader only.
import PDFBridge

public struct RemoteDocument: Sendable, Equatable {
    public var pageCount = 0
    public var error: String?
    public var tree: [[UInt8]: Int?] = [:]
    public var catalog: [String: Int?] = [:]

    public func lookup(_ key: DestinationKey) -> Int?? {
        switch key {
        case .string(let b): tree[b] ?? catalog[String(decoding: b, as: UTF8.self)]
        case .name(let n): catalog[n] ?? tree[Array(n.utf8)]
        }
    }
}

public final class RemoteDocuments: @unchecked Sendable {
    public init() {}

    public func document(at path: String) -> RemoteDocument {
        guard let reader = try? PDFReader(path: path) else { return RemoteDocument(error: "unreadable") }
        let pages = PageIndex(PageTree.pages(reader))
        var r = RemoteDocument()
        r.pageCount = pages.count
        _ = DestinationTable(root: PDFObject.root(of: reader), pages: pages)
        return r
    }
}
