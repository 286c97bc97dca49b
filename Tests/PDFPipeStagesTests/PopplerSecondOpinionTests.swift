import PDFBridge
import PDFPipeStages
import PDFReader
import TestSupport
import XCTest

/// pdfpipe reads links from the raw objects through qpdf; poppler's link mapping and
/// `poppler_document_find_dest` are the second opinion. Every link of every sample is compared:
/// kind, rectangle (through `LinkGeometry`, which must put it where poppler does), target page and
/// URI. Where the two differ on purpose, the difference is listed below with its reason.
final class PopplerSecondOpinionTests: XCTestCase {
    /// (file, page, index of the link on the page, 1-based) → why poppler differs.
    let intended: [String: String] = [
        "broken-links.pdf 1 7": "unknown fit type /Bogus: poppler drops the action; pdfpipe reports dest.malformed",
        "broken-links.pdf 1 11": "GoTo without /D: poppler drops the action; pdfpipe reports action.malformed",
        "gotor.pdf 1 1": "poppler does not resolve names in other files (page 0)",
        "gotor.pdf 1 3": "poppler does not resolve names in other files (page 0)",
        "gotor.pdf 1 8": "poppler does not resolve names in other files (page 0)",
        "gotor.pdf 1 4":
            "missing.pdf: poppler gives the page without looking at the file; pdfpipe reports gotor.file-missing",
        "gotor.pdf 1 6":
            "remote page 99 of 4: poppler gives page 100 without looking; pdfpipe reports gotor.page-out-of-range",
        "gotor.pdf 1 7":
            "outside the input root: poppler gives page 1; pdfpipe does not follow it (gotor.outside-root)",
        "uri-links.pdf 1 3": "poppler puts /URI /Base in front without RFC 3986 resolution ('manual/../index.html')",
        "uri-links.pdf 1 8": "an empty URI: poppler gives the base URI; pdfpipe reports uri.malformed",
        "uri-links.pdf 1 9": "a URI action without /URI: poppler drops the action; pdfpipe reports uri.malformed",
        "uri-links.pdf 1 10":
            "'https//…' (colon forgotten): poppler resolves it against /URI /Base; pdfpipe reports uri.malformed with the fix",
        "uri-links.pdf 1 11":
            "'^' and a space: poppler gives the URI as written; pdfpipe gives what browsers request (percent-encoded) and reports uri.browser-repaired",
        "uri-targets.pdf 1 6":
            "poppler puts http:// in front of a relative URI that starts with 'www.'; pdfpipe keeps it relative (and its external check says the scheme was forgotten)",
    ]

    func testEveryLinkOfEverySampleAgreesWithPoppler() throws {
        var differences: [String: String] = [:]
        var compared = 0
        for name in Samples.readable {
            let q = try QPDFFile(path: Samples.path(name))
            let p = try PopplerFile(path: Samples.path(name))
            // pdfpipe's own object reader where it accepts the file, qpdf where it does not.
            let source = try ObjectSources.open(path: Samples.path(name)) { () throws(BridgeError) in q }
            let pageObjects = PageTree.pages(source)
            let pages = PageIndex(pageObjects)
            var audit = LinkAudit(
                source: source, pages: pageObjects,
                table: DestinationTable(root: PDFObject.root(of: source), pages: pages),
                options: .init(), sourcePath: Samples.path(name), inputRoot: Samples.folder, remote: RemoteDocuments())
            audit.run()
            for i in 0..<pages.count {
                let page = try XCTUnwrap(p.page(i))
                let ours = audit.links.filter { $0.page == i + 1 }
                let theirs = page.links
                XCTAssertEqual(ours.count, theirs.count, "\(name) page \(i + 1): poppler keeps every link annotation")
                let geometry = PageGeometry(page: pageObjects[i])
                let height = page.size.height
                for (n, (a, b)) in zip(ours, theirs).enumerated() {
                    compared += 1
                    let key = "\(name) \(i + 1) \(n + 1)"
                    // Rectangles: ours through LinkGeometry (pixels, y down) against poppler's area (y up).
                    let px = LinkGeometry.pixelRect(try XCTUnwrap(a.rect), on: geometry, scale: 1)
                    XCTAssertEqual(px.x, b.area.x1, accuracy: 0.01, key)
                    XCTAssertEqual(px.y, height - b.area.y2, accuracy: 0.01, key)
                    XCTAssertEqual(px.width, b.area.width, accuracy: 0.01, key)
                    XCTAssertEqual(px.height, b.area.height, accuracy: 0.01, key)

                    var theirPage: Int? = b.destination?.page
                    if b.kind == .goto, let bytes = b.name { theirPage = p.findDestination(bytes: bytes)?.page }
                    if theirPage == 0 { theirPage = nil }
                    let mismatch =
                        a.kind != b.kind
                        ? "kind \(a.kind.rawValue) vs \(b.kind.rawValue)"
                        : a.targetPage != theirPage
                            ? "page \(a.targetPage.map(String.init) ?? "none") vs \(theirPage.map(String.init) ?? "none")"
                            : a.kind == .uri && a.uri != b.uri ? "uri \(a.uri ?? "none") vs \(b.uri ?? "none")" : nil
                    if let mismatch { differences[key] = mismatch }
                }
            }
        }
        XCTAssertEqual(compared, 104)
        let unexplained = differences.filter { intended[$0.key] == nil }
        XCTAssertEqual(unexplained, [:], "differences from poppler without a stated reason")
        let gone = Set(intended.keys).subtracting(differences.keys)
        XCTAssertEqual(gone, [], "listed differences that no longer occur")
    }
}
