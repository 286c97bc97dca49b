import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import PDFPipeWeb
import TestSupport
import XCTest

/// Issue 29 (trust on documents nobody here has seen): each class of silent pass, false error and
/// unbounded read, reproduced on files the test writes, over all its variants.
final class TrustTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Writes `files` (name → objects of a classic file) and runs the link stages on them.
    func audit(_ files: [(String, [String])], stages: String = HostileInputTests.linkStages) throws -> [String:
        DocumentResult]
    {
        for (name, objects) in files {
            try Data(HostilePDFs.classic(objects)).write(to: URL(fileURLWithPath: dir + "/in/" + name))
        }
        let results = try HostileInputTests.run(stages, dir + "/in", files.map(\.0), out: dir + "/out")
        return Dictionary(uniqueKeysWithValues: results.map { ($0.path, $0) })
    }

    static let page = [
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]

    // MARK: - 3. Limits are not defects

    /// A catalog whose open action is a /Next chain of `count` distinct actions (objects 4…),
    /// the last a GoTo to a name that does not exist; `loop` points the last one back at the first.
    static func chain(_ count: Int, loop: Bool = false) -> [String] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>"] + page
        for i in 0..<count {
            let n = 4 + i
            if i == count - 1 {
                objects.append("<< /S /GoTo /D (missing.name)\(loop ? " /Next 4 0 R" : "") >>")
            } else {
                objects.append("<< /S /Named /N /NextPage /Next \(n + 1) 0 R >>")
            }
        }
        return objects
    }

    /// A catalog whose outline nests `depth` bookmarks, each the only child of the one before; the
    /// deepest names a destination that does not exist.
    static func deepOutline(_ depth: Int) -> [String] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>"] + page + ["<< /First 5 0 R /Count 1 >>"]
        for i in 0..<depth {
            let n = 5 + i
            let child = i == depth - 1 ? "/Dest (missing.name)" : "/First \(n + 1) 0 R /Dest [3 0 R /Fit]"
            objects.append("<< /Title (level \(i + 1)) /Parent \(i == 0 ? 4 : n - 1) 0 R \(child) >>")
        }
        return objects
    }

    func testLongChainsAndDeepOutlinesAreWalkedWholeAndOnlyRealRevisitsAreCycles() throws {
        var files: [(String, [String])] = []
        for n in [1, 63, 64, 65, 200, 3000] { files.append(("chain-\(n).pdf", Self.chain(n))) }
        for d in [63, 64, 65, 101, 3000] { files.append(("outline-\(d).pdf", Self.deepOutline(d))) }
        files.append(("chain-loop.pdf", Self.chain(5, loop: true)))
        // Two branches of an array /Next share an action (a diamond): read once, no cycle.
        files.append(
            (
                "chain-diamond.pdf",
                ["<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>"] + Self.page + [
                    "<< /S /Named /N /NextPage /Next [5 0 R 6 0 R] >>", "<< /S /Named /N /NextPage /Next 7 0 R >>",
                    "<< /S /Named /N /PrevPage /Next 7 0 R >>", "<< /S /GoTo /D (missing.name) >>",
                ]
            ))
        files.append(
            (
                "outline-loop.pdf",
                ["<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>"] + Self.page + [
                    "<< /First 5 0 R /Count 2 >>", "<< /Title (a) /Parent 4 0 R /Dest [3 0 R /Fit] /Next 6 0 R >>",
                    "<< /Title (b) /Parent 4 0 R /Dest [3 0 R /Fit] /Next 5 0 R >>",
                ]
            ))
        let results = try audit(files)
        func rules(_ name: String) -> [String] { results[name]?.findings.map(\.rule) ?? ["(no result)"] }
        for n in [1, 63, 64, 65, 200, 3000] {
            XCTAssertEqual(rules("chain-\(n).pdf"), ["dest.name-not-found"], "a chain of \(n) actions")
        }
        for d in [63, 64, 65, 101, 3000] {
            XCTAssertEqual(rules("outline-\(d).pdf"), ["dest.name-not-found"], "an outline \(d) levels deep")
            XCTAssertEqual(results["outline-\(d).pdf"]?.sections["outline"]?.arrayValue?.count, d)
        }
        XCTAssertEqual(rules("chain-loop.pdf"), ["dest.name-not-found", "action.cycle"])
        XCTAssertEqual(rules("chain-diamond.pdf"), ["dest.name-not-found"])
        XCTAssertEqual(rules("outline-loop.pdf"), ["outline.cycle"])
    }

    /// Past its size limit a walk stops with a note that says where, never a cycle.
    func testAWalkStoppedByItsLimitSaysSo() throws {
        let results = try audit([("chain-long.pdf", Self.chain(10_050))])
        let rules = results["chain-long.pdf"]?.findings.map(\.rule) ?? []
        XCTAssertEqual(rules, ["pdf.walk-limit"], "the broken action past the limit is not seen, and the note says so")
        XCTAssertTrue(
            results["chain-long.pdf"]?.findings.first?.message.contains("more than 10000 actions") == true,
            "\(results["chain-long.pdf"]?.findings ?? [])")
    }

    /// A name tree deeper than the walk goes, and more names than maxDestinations: a link to a name
    /// that was not read is unverified, never "does not exist".
    func testNamesPastALimitAreUnverifiedNotMissing() throws {
        let depth = 70
        var objects =
            ["<< /Type /Catalog /Pages 2 0 R /Names << /Dests 5 0 R >> >>"] + Self.page.dropLast() + [
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Dest (deep.name) >>",
            ]
        for i in 0..<depth {
            let n = 5 + i
            objects.append(
                i == depth - 1
                    ? "<< /Names [(deep.name) [3 0 R /Fit]] >>"
                    : "<< /Kids [\(n + 1) 0 R] >>")
        }
        let results = try audit([("deep-tree.pdf", objects)])
        let rules = results["deep-tree.pdf"]?.findings.map(\.rule) ?? []
        XCTAssertEqual(
            rules.sorted(), ["dest.name-unverified", "pdf.walk-limit"], "\(results["deep-tree.pdf"]?.findings ?? [])")

        let two =
            ["<< /Type /Catalog /Pages 2 0 R /Dests << /a [3 0 R /Fit] /b [3 0 R /Fit] >> >>"] + Self.page.dropLast()
            + [
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R 5 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Dest /a >>",
                "<< /Type /Annot /Subtype /Link /Rect [10 40 100 60] /Dest /b >>",
            ]
        let limited = try audit(
            [("two-names.pdf", two)],
            stages: #"[{"use": "resolve-destinations", "with": {"maxDestinations": 1}}, {"use": "validate-links"}]"#)
        let r = limited["two-names.pdf"]?.findings.map(\.rule) ?? []
        XCTAssertEqual(
            r.sorted(), ["dest.name-unverified", "pdf.limit-exceeded"], "\(limited["two-names.pdf"]?.findings ?? [])")
    }

    // MARK: - 4. Destinations viewers accept

    /// docs/destinations.md's table, row by row: pdfpipe's finding is the last column, the
    /// viewers that fail are named in it, and poppler's column is what the installed poppler does.
    func testEveryRowOfTheDestinationTable() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/destinations.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        var rows: [(dest: String, viewers: [String], verdict: String)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6 else { continue }
            rows.append((String(cells[0].dropFirst().dropLast()), Array(cells[1...4]), cells[5]))
        }
        XCTAssertGreaterThanOrEqual(rows.count, 30)
        var files: [(String, [String])] = []
        for (i, row) in rows.enumerated() {
            let dest = row.dest.replacingOccurrences(of: "page", with: "3 0 R")
            files.append(
                (
                    "row-\(i).pdf",
                    ["<< /Type /Catalog /Pages 2 0 R >>"] + Self.page.dropLast() + [
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
                        "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Dest \(dest) >>",
                    ]
                ))
        }
        let results = try audit(files)
        let viewers = ["PDFium", "MuPDF", "poppler", "pdf.js"]
        for (i, row) in rows.enumerated() {
            let findings = results["row-\(i).pdf"]?.findings ?? []
            let rules = findings.map(\.rule)
            XCTAssertEqual(rules, row.verdict == "ok" ? [] : [row.verdict], row.dest)
            if row.verdict == "dest.viewer-dependent", let message = findings.first?.message {
                for (k, v) in viewers.enumerated() where k >= 2 {
                    XCTAssertEqual(
                        message.contains(": \(v) do") || message.contains(" and \(v) do")
                            || message.contains(": \(v) and"),
                        row.viewers[k] == "✗", "\(row.dest): \(message)")
                }
            }
            // The page and the view swapped: one error that says so (no warning that a viewer
            // goes to a page there is not).
            if row.dest.hasPrefix("[/") {
                XCTAssert(findings.first?.message.contains("the view comes before the page") == true, "\(findings)")
            }
            // The poppler column against poppler itself.
            let poppler = try PopplerFile(path: dir + "/in/row-\(i).pdf")
            let link = poppler.page(0)?.links.first
            let follows = link?.kind == .goto && link?.destination != nil
            XCTAssertEqual(follows, row.viewers[2] == "✓", "poppler on \(row.dest): \(String(describing: link))")
        }
    }

    // MARK: - 5. Files viewers open are never pdf.unreadable

    /// `bytes` with the number after `startxref` moved by `by` bytes (bytes, not text: the
    /// cross-reference stream is binary).
    static func movingStartxref(_ bytes: [UInt8], by: Int) throws -> [UInt8] {
        let key = Array("startxref\n".utf8)
        let at = try XCTUnwrap(
            (0...(bytes.count - key.count)).reversed().first { bytes[$0..<$0 + key.count].elementsEqual(key) })
        let start = at + key.count
        let digits = bytes[start...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        let value = try XCTUnwrap(Int(String(decoding: digits, as: UTF8.self)))
        return Array(bytes[..<start]) + Array(String(value + by).utf8) + Array(bytes[(start + digits.count)...])
    }

    /// A file of cross-reference streams whose startxref is a few bytes off (qpdf's and poppler's
    /// recovery cannot rebuild it; MuPDF and PDFium open it), and a trailer whose /Encrypt is not a
    /// dictionary (qpdf refuses it; MuPDF, PDFium and poppler read the file as not encrypted): each
    /// is audited and inspected, with a pdf.damaged warning that says what was repaired.
    func testFilesViewersOpenAreAuditedAndDamagedNotUnreadable() throws {
        var files: [(String, [UInt8])] = []
        for shift in [-6, -5, -4, 4, 5, 6] {
            files.append(("startxref\(shift).pdf", try Self.movingStartxref(HostilePDFs.objectStream(), by: shift)))
        }
        let plain = HostilePDFs.classic(HostilePDFs.onePage(annots: [HostilePDFs.launchLink]))
        for (name, value) in [
            ("int", "5"), ("string", "(x)"), ("name", "/None"), ("array", "[1 2]"), ("bool", "true"),
            ("ref-to-missing", "99 0 R"),
        ] {
            var text = String(decoding: plain, as: UTF8.self)
            text = text.replacingOccurrences(of: "/Root 1 0 R", with: "/Root 1 0 R /Encrypt \(value)")
            files.append(("encrypt-\(name).pdf", Array(text.utf8)))
        }
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir + "/in/" + name)) }
        let stages =
            #"[{"use": "inspect", "with": {"crossCheck": true}}, {"use": "resolve-destinations"}, {"use": "validate-links"}]"#
        let results = try HostileInputTests.run(stages, dir + "/in", files.map(\.0), out: dir + "/out")
        for r in results {
            let rules = r.findings.map(\.rule)
            XCTAssertEqual(r.status, .ok, "\(r.path): \(r.findings)")
            XCTAssertFalse(rules.contains("pdf.unreadable"), "\(r.path): \(rules)")
            XCTAssertTrue(rules.contains("action.launch-target-missing"), "\(r.path): the link was checked: \(rules)")
            XCTAssertEqual(r.pageCount, 1, r.path)
            if r.path != "encrypt-ref-to-missing.pdf" {
                // qpdf opens none of the others: the reader did the work.
                XCTAssertEqual(r.sections["linkSummary"]?["reader"]?.stringValue, "pdfpipe", r.path)
            }
            let damage = r.findings.filter { $0.rule == "pdf.damaged" }.map(\.message)
            if r.path.hasPrefix("startxref") {
                XCTAssertTrue(damage.contains { $0.contains("startxref gives offset") }, "\(r.path): \(damage)")
            } else if r.path != "encrypt-ref-to-missing.pdf" {
                XCTAssertTrue(damage.contains { $0.contains("/Encrypt is") }, "\(r.path): \(damage)")
            }
        }
    }

    // MARK: - 6. URIs browsers repair

    /// Each URI (as written in a PDF literal string) and the one finding it gives.
    static let uriCases: [(written: String, rule: String)] = [
        (#"https://example.com/doc\000"#, "uri.browser-repaired"),
        (#"https://example.com/doc\000\000"#, "uri.browser-repaired"),
        (#"https://example.com/doc\r\n"#, "uri.browser-repaired"),
        (#"https://example.com/doc "#, "uri.browser-repaired"),
        (#"\thttps://example.com/doc"#, "uri.browser-repaired"),
        (#"https://example.com/a\nb"#, "uri.browser-repaired"),
        (#"https://example.com/a\\b"#, "uri.browser-repaired"),
        (#"https://exa\000mple.com/"#, "uri.malformed"),
        (#"https://example.com/a\001b"#, "uri.malformed"),
        (#"file://C:\\Users\\me\\doc.pdf"#, "uri.absolute-file"),
        (#"file:///C:/Users/me/doc.pdf"#, "uri.absolute-file"),
        (#"file:C:\\Users\\me\\doc.pdf"#, "uri.absolute-file"),
        (#"C:\\Users\\me\\doc.pdf"#, "uri.absolute-file"),
        (#"d|/docs/x.pdf"#, "uri.absolute-file"),
        (#"file:///home/me/doc.pdf"#, "uri.absolute-file"),
        (#"https://example.com/fine"#, ""),
    ]

    func testURIsBrowsersRepairAreWarningsAndWindowsPathsAreAbsoluteFiles() throws {
        var files: [(String, [String])] = []
        for (i, c) in Self.uriCases.enumerated() {
            files.append(
                (
                    "uri-\(i).pdf",
                    HostilePDFs.onePage(annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /A << /S /URI /URI (\(c.written)) >> >>"
                    ])
                ))
        }
        let results = try audit(files)
        for (i, c) in Self.uriCases.enumerated() {
            let findings = results["uri-\(i).pdf"]?.findings ?? []
            XCTAssertEqual(
                findings.map(\.rule), c.rule.isEmpty ? [] : [c.rule], "\(c.written): \(findings.map(\.message))")
        }
        let nul = results["uri-0.pdf"]?.findings.first?.message ?? ""
        XCTAssertTrue(
            nul.contains("a NUL byte at its end") && nul.contains("browsers read it as 'https://example.com/doc'"), nul)
        let windows = results["uri-9.pdf"]?.findings.first?.message ?? ""
        XCTAssertTrue(windows.contains(#"absolute Windows path (C:\Users\me\doc.pdf)"#), windows)
        XCTAssertEqual(
            URIReference.browserForm("https://example.com/a\\b?x=\\")?.repaired, "https://example.com/a/b?x=%5C")
    }
}
