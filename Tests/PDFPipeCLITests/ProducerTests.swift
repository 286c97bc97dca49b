import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// Evidence from a real producer (issue 19): Chromium's print-to-PDF of an HTML page with an
/// internal anchor, a missing anchor, a link to a missing file, to a PDF fragment past its end and
/// to the web. The findings must be exactly the real breakage, as Chromium wrote it.
final class ProducerTests: XCTestCase {
    func testChromiumPrintToPDF() throws {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(
            atPath: Repo.root + "/samples/links-internal.pdf", toPath: dir + "/links-internal.pdf")
        try """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>Chromium sample</title></head><body>
        <h1>Contents</h1>
        <p><a href="#chapter-2">Chapter 2</a> · <a href="#nowhere">a missing anchor</a> · <a href="missing.pdf">a missing file</a> ·
        <a href="links-internal.pdf#page=9">page 9 of a 4-page PDF</a> · <a href="https://example.com/">the web</a></p>
        <div style="page-break-before: always"></div>
        <h2 id="chapter-2">Chapter 2</h2><p>Text.</p>
        </body></html>
        """.write(toFile: dir + "/doc.html", atomically: true, encoding: .utf8)
        let made = try ExternalTool.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(dir)/profile",
                "--no-pdf-header-footer", "--print-to-pdf=\(dir)/chromium.pdf", "file://\(dir)/doc.html",
            ])
        XCTAssertEqual(made.status, 0, made.output)
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run([
                "run", "pipelines/link-audit.json", dir + "/chromium.pdf", "--offline", "--out", dir + "/out",
                "--quiet",
            ]), .findings)
        let report = try Repo.stableReport(dir + "/out/report.json")
        let doc = try XCTUnwrap(report["documents"]?[0])
        XCTAssertEqual(doc["pageCount"], 2)
        // Chromium writes internal links as named destinations, relative links as absolute file:
        // URIs of the machine it ran on, and drops a link to an anchor that does not exist.
        let links = doc["links"]?.arrayValue ?? []
        XCTAssertEqual(links.map { $0["kind"]?.stringValue ?? "" }, ["goto", "uri", "uri", "uri"])
        XCTAssertEqual(links[0]["destination"], "chapter-2")
        XCTAssertEqual(links[0]["targetPage"], 2)
        XCTAssertEqual(
            links.dropFirst().map { $0["uri"]?.stringValue ?? "" },
            ["file://\(dir)/missing.pdf", "file://\(dir)/links-internal.pdf#page=9", "https://example.com/"])
        let all = doc["findings"]?.arrayValue ?? []
        let findings = all.filter { $0["rule"]?.stringValue?.hasPrefix("access.") == false }.map {
            "\($0["rule"]?.stringValue ?? "") \($0["message"]?.stringValue ?? "")"
        }
        // (#47) Chromium tags its PDFs (each link in a Link element, /Tabs /S) but gives no link
        // /Contents: a tagged document that claims nothing gets one warning for its links (#63, 6:
        // with their count and every location), and nothing else.
        XCTAssertEqual(doc["linkSummary"]?["accessibility"], "PDF/UA-1 (tagged, no claim)")
        let access = all.filter { $0["rule"]?.stringValue?.hasPrefix("access.") == true }
        XCTAssertEqual(access.map { $0["rule"]?.stringValue ?? "" }, ["access.link-no-alt"])
        XCTAssertEqual(access.first?["count"], .int(4))
        XCTAssertEqual(access.first?["locations"]?.arrayValue?.count, 4)
        XCTAssertEqual(Set(access.map { $0["severity"]?.stringValue ?? "" }), ["warning"])
        XCTAssertEqual(
            findings,
            [
                "uri.absolute-file 'file://\(dir)/missing.pdf' names a file by its absolute path on the machine the PDF was made on; it works for no other reader",
                "uri.absolute-file 'file://\(dir)/links-internal.pdf#page=9' names a file by its absolute path on the machine the PDF was made on; it works for no other reader",
                "uri.file-missing the file 'missing.pdf' does not exist",
                "uri.fragment-missing the link asks for page 9 of 'links-internal.pdf', which has 4 pages",
            ])
    }
}
