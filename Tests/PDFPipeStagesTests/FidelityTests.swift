import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// Issue 45 (trust and fidelity, round 3): destination names compared as text, and links no viewer
/// can open, each class over all its variants, on files the test writes.
final class FidelityTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-fidelity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ name: String, _ objects: [String]) throws {
        try Data(HostilePDFs.classic(objects)).write(to: URL(fileURLWithPath: dir + "/in/" + name))
    }

    func audit(_ names: [String], stages: String = HostileInputTests.linkStages) throws -> [String: [Finding]] {
        let results = try HostileInputTests.run(stages, dir + "/in", names, out: dir + "/out")
        return Dictionary(uniqueKeysWithValues: results.map { ($0.path, $0.findings) })
    }

    // MARK: - 1. Names are text

    /// A name in each way PDF writes one: UTF-16BE with a BOM, UTF-8 with a BOM (PDF 2.0), ASCII /
    /// PDFDocEncoding bytes, and a name object (ASCII names only: a name object is UTF-8).
    static func spellings(_ text: String) -> [(label: String, pdf: String)] {
        let utf16 = text.utf16.map { String(format: "%04X", $0) }.joined()
        let utf8 = text.utf8.map { String(format: "%02X", $0) }.joined()
        let doc = text.unicodeScalars.map { String(format: "%02X", $0.value) }.joined()  // Latin-1 = PDFDoc here
        var out = [("utf16", "<FEFF\(utf16)>"), ("utf8", "<EFBBBF\(utf8)>"), ("pdfdoc", "<\(doc)>")]
        if text.utf8.allSatisfy({ $0 < 0x80 }) { out.append(("name", "/\(text)")) }
        return out
    }

    /// One page whose name tree defines `key` (a PDF string) as page 1, and links to `link`.
    static func named(key: String, link: String?) -> [String] {
        HostilePDFs.onePage(
            catalog: "/Names << /Dests << /Names [\(key) [3 0 R /Fit]] >> >>",
            annots: link.map { ["<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /A << /S /GoTo /D \($0) >> >>"] }
                ?? [])
    }

    /// Every link spelling against every key spelling, of an ASCII name and a Latin one: a name
    /// that matches as text is never missing; it is `dest.name-encoding` exactly where poppler (the
    /// installed libpoppler-glib, asked for the link's own bytes) does not find it, and nothing
    /// where poppler does.
    func testNamesMatchAsTextAndTheWarningIsWherePopplerFails() throws {
        var cases: [(file: String, link: String, key: String)] = []
        for text in ["chap2", "café"] {
            let spellings = Self.spellings(text)
            for key in spellings where key.label != "name" {
                for link in spellings {
                    let file = "\(text == "chap2" ? "ascii" : "latin")-\(link.label)-to-\(key.label).pdf"
                    try write(file, Self.named(key: key.pdf, link: link.pdf))
                    cases.append((file, link.label, key.label))
                }
            }
        }
        let results = try audit(cases.map(\.file))
        var warned = 0
        for c in cases {
            let rules = (results[c.file] ?? []).map(\.rule)
            let poppler = try PopplerFile(path: dir + "/in/" + c.file)
            let link = try XCTUnwrap(poppler.page(0)?.links.first, c.file)
            let popplerFollows = try poppler.findDestination(bytes: XCTUnwrap(link.name, c.file)) != nil
            XCTAssertEqual(rules, popplerFollows ? [] : ["dest.name-encoding"], c.file)
            if !popplerFollows {
                warned += 1
                let message = results[c.file]?.first?.message ?? ""
                XCTAssert(message.contains("poppler"), message)
            }
        }
        // 12 ASCII cases, of which 4 match byte for byte (each spelling itself, a name and its ASCII
        // string); 9 Latin ones, of which 3 (each spelling itself).
        XCTAssertEqual(warned, 14)
    }

    /// Across files (Prawn writes GoToR names as UTF-16BE): the same verdicts, the file named in the
    /// warning, and a name missing in every encoding still `gotor.dest-missing`.
    func testRemoteNamesMatchAsText() throws {
        try write("target.pdf", Self.named(key: "(chap2)", link: nil))
        var files: [String] = []
        for link in Self.spellings("chap2") + [("missing", "<FEFF006E006F006E0065>")] {
            let file = "from-\(link.label).pdf"
            try write(
                file,
                HostilePDFs.onePage(annots: [
                    "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /A << /S /GoToR /F (target.pdf) /D \(link.pdf) >> >>"
                ]))
            files.append(file)
        }
        let stages = #"[{"use": "validate-links", "with": {"gotor": true}}]"#
        let results = try audit(files + ["target.pdf"], stages: stages)
        XCTAssertEqual(results["from-pdfdoc.pdf"]?.map(\.rule), [])
        XCTAssertEqual(results["from-name.pdf"]?.map(\.rule), [])
        for spelling in ["utf16", "utf8"] {
            let findings = results["from-\(spelling).pdf"] ?? []
            XCTAssertEqual(findings.map(\.rule), ["dest.name-encoding"], spelling)
            XCTAssert(
                findings.first?.message.contains("defined in 'target.pdf' as an ASCII string") == true, "\(findings)")
        }
        XCTAssertEqual(results["from-missing.pdf"]?.map(\.rule), ["gotor.dest-missing"])
    }
}
