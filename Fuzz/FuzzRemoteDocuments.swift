// Stand-in for the RemoteDocuments class of Sources/PDFPipeStages/Links/RemoteDocuments.swift in the
// link fuzzer, which is built without qpdf: GoToR targets are read through pdfpipe's own reader.
// (RemoteDocument itself, in PDFPipeWeb, and Links/RemoteDocument+Source.swift are compiled as they are.)
import PDFPipeWeb
import PDFReader

package final class RemoteDocuments: @unchecked Sendable {
    package init() {}

    package func document(at path: String) -> RemoteDocument {
        guard let reader = try? PDFReader(path: path) else {
            var r = RemoteDocument()
            r.error = "unreadable"
            return r
        }
        return RemoteDocument(source: reader)
    }
}
