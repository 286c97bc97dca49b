import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

@testable import PDFPipeStages

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

extension FidelityTests {
    // MARK: - 2, 3. Links no viewer can open, mail links a person must fix

    /// docs/uri-schemes.md's table, row by row: a link with the URI, audited; the finding is the
    /// table's, and its hint holds the fix where the table gives one. Then the Zotero row with
    /// `customSchemes`, and the external check on: one finding per link still (no note beside
    /// the warning), and the mail outcomes.
    func testEveryRowOfTheSchemeTable() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/uri-schemes.md")
        var rows: [(uri: String, verdict: String, fix: String)] = []
        for line in try String(contentsOf: doc, encoding: .utf8).split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 6 else { continue }
            let unquote = { (s: String) in s.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            rows.append((unquote(cells[1]), cells[3], unquote(cells[4])))
        }
        XCTAssertGreaterThanOrEqual(rows.count, 30)
        var names: [String] = []
        for (i, row) in rows.enumerated() {
            let uri = row.uri.replacingOccurrences(of: "\\", with: "\\\\")
            try write(
                "row-\(i).pdf",
                HostilePDFs.onePage(annots: [
                    "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /A << /S /URI /URI (\(uri)) >> >>"
                ]))
            names.append("row-\(i).pdf")
        }
        let plain = try audit(names, stages: #"[{"use": "validate-links"}]"#)
        for (i, row) in rows.enumerated() {
            let findings = plain["row-\(i).pdf"] ?? []
            XCTAssertEqual(findings.map(\.rule), row.verdict == "ok" ? [] : [row.verdict], row.uri)
            if !row.fix.isEmpty {
                XCTAssert(findings.first?.hint?.contains(row.fix) == true, "\(row.uri): \(findings)")
            }
        }
        let zotero = try XCTUnwrap(rows.firstIndex { $0.uri.hasPrefix("zotero:") })
        let custom = try audit(
            ["row-\(zotero).pdf"], stages: #"[{"use": "validate-links", "with": {"customSchemes": ["Zotero:"]}}]"#)
        XCTAssertEqual(custom["row-\(zotero).pdf"]?.map(\.rule), [])
        let external = try audit(
            names, stages: #"[{"use": "validate-links", "with": {"external": {"enabled": true, "offline": true}}}]"#)
        for (i, row) in rows.enumerated() where row.verdict != "ok" {
            XCTAssertEqual(external["row-\(i).pdf"]?.map(\.rule), [row.verdict], "with external: \(row.uri)")
        }
    }

    func testNearMissesAreOneEditFromHttpHttpsOrMailto() {
        XCTAssertEqual(URISchemes.editDistance(Array("hhtp".utf8), Array("http".utf8)), 1)
        XCTAssertEqual(URISchemes.editDistance(Array("thtp".utf8), Array("http".utf8)), 1)
        XCTAssertEqual(URISchemes.editDistance(Array("htp".utf8), Array("http".utf8)), 1)
        XCTAssertEqual(URISchemes.editDistance(Array("rtsp".utf8), Array("http".utf8)), 2)
        // Real schemes near http are known first; programs' own are not near misses.
        for s in ["shttp", "https", "http", "ftp", "tftp", "nntp", "ws", "rtsp"] {
            XCTAssertEqual(URISchemes.verdict(scheme: s, of: s + "://x", custom: []), .known, s)
        }
        for s in ["zotero", "obsidian", "hxxp", "ipp2", "notes2"] {
            if case .misspelt = URISchemes.verdict(scheme: s, of: s + ":x", custom: []) { XCTFail(s) }
        }
    }
}
