import Foundation
import PDFReader
import TestSupport
import XCTest

@testable import PDFPipeStages

/// (#65) uri.text-mismatch and uri.unlinked: what counts as the same address, and which words of
/// a page's text are web addresses.
final class LinkTextChecksTests: XCTestCase {
    func testAnAddressIsComparedWithoutWhatDoesNotChangeWhereItLeads() {
        XCTAssertEqual(LinkTextChecks.comparable("https://WWW.Example.org/Docs/"), "example.org/Docs")
        XCTAssertEqual(LinkTextChecks.comparable("www.example.org/a#intro"), "example.org/a")
        XCTAssertEqual(LinkTextChecks.comparable("http://example.org/very/long…"), "example.org/very/long")
        XCTAssertNil(LinkTextChecks.comparable("example.org"))
        XCTAssertNil(LinkTextChecks.comparable("ftp://example.org"))
    }

    func testOnlyAnotherAddressIsAMismatch() {
        func link(_ uri: String) -> LinkRecord {
            var l = LinkRecord()
            l.kind = .uri
            l.uri = uri
            l.page = 1
            return l
        }
        // Another site, another path: said.
        XCTAssertNotNil(LinkTextChecks.mismatch(link("https://example.com/login"), under: "https://example.org/login"))
        XCTAssertNotNil(LinkTextChecks.mismatch(link("https://example.org/b"), under: "www.example.org/a"))
        // The same address written differently, or cut short by a line break or an ellipsis.
        for text in [
            "http://example.org/a/", "www.example.org/a", "https://example.org/a/b/c?x=1#top",
            "https://example.org/a/b/c…",
            "https://example.org/a/b",
        ] {
            XCTAssertNil(LinkTextChecks.mismatch(link("https://example.org/a/b/c?x=1"), under: text), text)
        }
        // Words, not an address; or a link that is not to the web.
        XCTAssertNil(LinkTextChecks.mismatch(link("https://example.com/"), under: "see the manual"))
        XCTAssertNil(LinkTextChecks.mismatch(link("mailto:a@example.org"), under: "https://example.org"))
    }

    func testAddressesInTextAreFoundAtWordStarts() {
        let text = Array(
            "See https://example.org/a, (www.example.net/b). not-http://x.org nohttps://y.org http:// www."
                .unicodeScalars)
        XCTAssertEqual(
            LinkTextChecks.addresses(in: text).map(\.1), ["https://example.org/a", "www.example.net/b"])
        XCTAssertEqual(LinkTextChecks.addresses(in: text).first?.0, 4)
    }

    /// The rule sample, with pdftotext as the second opinion on the page's text.
    func testTheSampleIsReadAsPopplerReadsIt() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let path = tests + "/Fixtures/rules/uri-text.pdf"
        let reader = try PDFReader(path: path)
        let pageObjects = PageTree.pages(reader)
        var audit = LinkAudit(
            source: reader, pages: pageObjects,
            table: DestinationTable(root: PDFObject.root(of: reader), pages: PageIndex(pageObjects)),
            options: .init(), sourcePath: path, inputRoot: tests, remote: RemoteDocuments())
        audit.run()
        let findings = LinkTextChecks.run(path: path, links: audit.links, geometries: audit.geometries).findings
        XCTAssertEqual(findings.map { $0.rule }, ["uri.text-mismatch", "uri.unlinked"])
        XCTAssertEqual(findings[1].details["addresses"]?[0]?["address"], "https://example.net/page")
        let text = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"]).output
        XCTAssertTrue(text.contains("Visit https://example.net/page today."), text)
    }
}
