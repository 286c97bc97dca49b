// Stand-in for the RemoteDocuments class of Sources/PDFPipeStages/Links/RemoteDocuments.swift in the
// link fuzzer, which is built without qpdf: GoToR targets are read through pdfpipe's own reader.
// (RemoteDocument itself, Links/RemoteDocument.swift, is compiled as it is.)
import PDFReader

public final class RemoteDocuments: @unchecked Sendable {
    public init() {}

    public func document(at path: String) -> RemoteDocument {
        guard let reader = try? PDFReader(path: path) else {
            var r = RemoteDocument()
            r.error = "unreadable"
            return r
        }
        return RemoteDocument(source: reader)
    }
}
