// libFuzzer target for the destination and link parsers: the name tree and catalog /Dests
// (DestinationTable), explicit destinations, action chains, outlines and the open action, URI
// syntax and resolution (LinkAudit), over whatever pdfpipe's own reader makes of the input; and the
// HTML anchor tokenizer of the external check over the same bytes.
// Built by scripts/fuzz-links.sh from the real sources (PDFPipeCore, the reader, the link code) plus
// a stand-in for GoToR targets (FuzzRemoteDocuments.swift: no qpdf in this build).
import Foundation
import PDFPipeCore
import PDFPipeWeb
import PDFReader

let fuzzPath = "/dev/shm/pdfpipe-fuzz-links-\(getpid()).pdf"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The same bytes as a web page for the anchor tokenizer, and their start as a fragment.
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let anchors = HTMLAnchors.parse(bytes).sorted()
    _ = HTMLAnchors.indicates(String(decoding: bytes.prefix(32), as: UTF8.self), in: anchors)
    // And as a page whose title, heading and parking words are read (SilentPass), its start a URL.
    let page = SilentPass.Page(html: String(decoding: bytes.prefix(65536), as: UTF8.self))
    _ = page.saysNotFound
    let url = String(decoding: bytes.prefix(200), as: UTF8.self)
    _ = (SilentPass.probeURL(for: url), SilentPass.isSignIn(url), SilentPass.parkingService(url))
    // And as a web archive's index answer (its first 8 KB, as the checker keeps them).
    for c in WebArchive.captures(in: String(decoding: bytes.prefix(8192), as: UTF8.self)) {
        precondition(Timestamp.seconds(c.timestamp) != nil && !c.original.isEmpty)
        _ = WebArchive.sameResource(c.original, url)
    }
    guard FileManager.default.createFile(atPath: fuzzPath, contents: Data(bytes: data, count: size)),
        let reader = try? PDFReader(path: fuzzPath)
    else { return 0 }
    let pageObjects = PageTree.pages(reader)
    let pages = PageIndex(pageObjects)
    let table = DestinationTable(root: PDFObject.root(of: reader), pages: pages)
    var audit = LinkAudit(
        source: reader, pages: pageObjects, table: table, options: LinkAudit.Options(), sourcePath: fuzzPath,
        inputRoot: "/dev/shm", remote: RemoteDocuments())
    audit.run()
    // Everything the report would hold must be writable.
    for l in audit.links { _ = JSONWriter.compact(l.json) }
    for o in audit.outline { _ = JSONWriter.compact(o.json) }
    for f in audit.findings { _ = JSONWriter.compact(f.json) }
    return 0
}
