import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// Real-world accuracy (issue 19): judgements held to what viewers do, on files made the way real
/// producers make them.
final class AccuracyTests: XCTestCase {
    var dir = ""
    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-accuracy-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func run(_ path: String, _ stages: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir, jobs: 1).process(
            InputDocument(path: path, relativePath: (path as NSString).lastPathComponent))
    }

    /// (7) /Title and /Producer in UTF-16BE with a BOM (hyperref with `unicode`, every LibreOffice
    /// producer string) were reported as "��".
    func testInfoStringsInUTF16AreDecoded() throws {
        let body =
            "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
            + "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n"
            + "4 0 obj\n<< /Title <FEFF004300610066006500202014002000DC00620065007200730069006300680074> /Producer <FEFF004C0069006200720065004F0066006600690063006500200037002E0034> /Creator (Writer) >>\nendobj\n"
            + "trailer\n<< /Root 1 0 R /Info 4 0 R /Size 5 >>\n%%EOF\n"
        try body.write(toFile: dir + "/u.pdf", atomically: true, encoding: .isoLatin1)
        let r = try run(dir + "/u.pdf", #"[{"use": "inspect"}]"#)
        XCTAssertEqual(r.sections["info"]?["title"], "Cafe — Übersicht")
        XCTAssertEqual(r.sections["info"]?["producer"], "LibreOffice 7.4")
        XCTAssertEqual(r.sections["info"]?["creator"], "Writer")
    }

    /// (5) AES-256 (R6) with a user password and an empty owner password: qpdf opens it with the
    /// empty owner password, PDFium and MuPDF ask for the user password. It was "opens without a
    /// password".
    func testAnEmptyOwnerPasswordDoesNotMakeADocumentOpen() throws {
        let qpdf = "/usr/bin/qpdf"
        guard FileManager.default.isExecutableFile(atPath: qpdf) else {
            throw Prerequisite.missing("qpdf is not installed (scripts/setup.sh --test)")
        }
        let r6 = dir + "/r6.pdf"
        XCTAssertEqual(
            try ExternalTool.run(
                qpdf,
                ["--encrypt", "secret", "", "256", "--allow-insecure", "--", Samples.path("links-internal.pdf"), r6]
            ).status, 0)
        let r = try run(r6, #"[{"use": "inspect"}]"#)
        XCTAssertEqual(r.findings.map(\.rule), ["pdf.password-required"])
        XCTAssertTrue(r.findings[0].message.contains("PDFium and MuPDF ask for it"), r.findings[0].message)
        XCTAssertEqual(r.status, .ok, "qpdf could read it: the other stages still run")
        // An owner password only: opens everywhere, restricted.
        XCTAssertEqual(
            try run(Samples.path("encrypted-owner.pdf"), #"[{"use": "inspect"}]"#).findings.map(\.rule),
            ["pdf.encrypted"])
    }

    /// (8) htmldoc writes Launch actions to local HTML pages with fragments; a missing file or
    /// anchor got only the generic Launch warning.
    func testLaunchTargetsAreCheckedLikeFiles() throws {
        try #"<html><body><h1 id="starting-xfig">Starting</h1><a name="legacy">x</a></body></html>"#.write(
            toFile: dir + "/introduction.html", atomically: true, encoding: .utf8)
        let launches = [
            "introduction.html#starting-xfig", "introduction.html#legacy", "introduction.html#no-such-part",
            "missing.html#x", "tool.exe", "#nowhere",
        ]
        try TestPDF.write(
            dir + "/manual.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Annots [\((0..<launches.count).map { "\($0 + 4) 0 R" }.joined(separator: " "))] >>",
            ]
                + launches.enumerated().map { i, f in
                    "<< /Type /Annot /Subtype /Link /Rect [0 \(i * 30) 100 \(i * 30 + 20)] /A << /S /Launch /F (\(f)) >> >>"
                })
        let r = try run(dir + "/manual.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertEqual(
            r.findings.filter { $0.rule == "action.launch-target-missing" }.map(\.message),
            [
                "the Launch action's page 'introduction.html' has no element with the id 'no-such-part' (nor an <a> with that name)",
                "the Launch action's file 'missing.html' does not exist",
                "the Launch action's file 'tool.exe' does not exist",
                "the Launch action names only '#nowhere', and this document has no destination of that name",
            ])
        XCTAssertEqual(r.findings.filter { $0.rule == "action.launch" }.count, 6)
    }

    /// (4) What browsers repair is a warning that says how; what nobody can follow stays an error.
    func testBrowserRepairs() {
        func form(_ s: String) -> String? { URIReference.browserForm(s)?.repaired }
        XCTAssertEqual(form("https://example.org/B\u{E9}zier curves"), "https://example.org/B%C3%A9zier%20curves")
        XCTAssertEqual(form("https://example.org/a\u{2013}b"), "https://example.org/a%E2%80%93b")
        XCTAssertEqual(form("https:///example.org/x"), "https://example.org/x")
        XCTAssertEqual(form("https://example.org/p?q=a^b#frag ment"), "https://example.org/p?q=a%5Eb#frag%20ment")
        XCTAssertEqual(form("https://example.org/100%"), "https://example.org/100%25")
        XCTAssertEqual(form(" https://example.org/ "), "https://example.org/")
        XCTAssertNil(form("https://example.org/fine"))
        // The host is not repaired: still an error.
        XCTAssertNotNil(URIReference.problem(in: form("http://exa mple.com/") ?? "http://exa mple.com/"))
    }

    /// #63 (3): a `mailto:` whose subject holds a space was `uri.malformed` (an error), though every
    /// viewer opens it (the browser's URL parser writes the space as %20). Now a warning that says
    /// how it is read; a space in the address itself is still not repaired.
    func testAMailtoWithASpaceInItsQueryIsReadAsBrowsersReadIt() throws {
        XCTAssertEqual(
            URIReference.browserForm("mailto:team@example.org?subject=Broken link&body=Hi there")?.repaired,
            "mailto:team@example.org?subject=Broken%20link&body=Hi%20there")
        XCTAssertNil(URIReference.browserForm("mailto:john doe@example.org"), "the address is not repaired")
        XCTAssertNil(URIReference.browserForm("news:comp.text pdf"), "other schemes are not repaired")
        let link = { (uri: String) in
            "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Border [0 0 0] /A << /S /URI /URI (\(uri)) >> >>"
        }
        let path = dir + "/mailto.pdf"
        try Data(
            HostilePDFs.classic(
                HostilePDFs.onePage(
                    page: "/MediaBox [0 0 200 200]",
                    annots: [link("mailto:team@example.org?subject=Broken link"), link("mailto:john doe@example.org")]))
        ).write(to: URL(fileURLWithPath: path))
        let r = try run(path, #"[{"use": "validate-links"}]"#)
        let rules = r.findings.map(\.rule)
        XCTAssertTrue(rules.contains("uri.browser-repaired"), "\(r.findings.map(\.message))")
        XCTAssertFalse(
            r.findings.contains { $0.rule == "uri.malformed" && $0.message.contains("subject") },
            "\(r.findings.map(\.message))")
        XCTAssertTrue(
            r.findings.contains { $0.message.contains("john doe") && $0.severity == .error },
            "a space inside the address stays an error: \(r.findings.map(\.message))")
    }

    /// #63 (4): a path from the root written without `file:` (`/usr/local/share/…`) got only notes;
    /// viewers open that path on the reader's machine, as they do the same path as a `file:` URI.
    func testAnAbsolutePathWithoutFileSchemeIsAnAbsoluteFile() throws {
        XCTAssertEqual(URIReference.absolutePath("/usr/local/share/doc/r%20x.html"), "/usr/local/share/doc/r x.html")
        XCTAssertNil(URIReference.absolutePath("//server/share/x.pdf"), "a network path")
        XCTAssertNil(URIReference.absolutePath("chapter2.html"))
        XCTAssertNil(URIReference.absolutePath("file:///usr/x"))
        let link = { (uri: String) in
            "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Border [0 0 0] /A << /S /URI /URI (\(uri)) >> >>"
        }
        let path = dir + "/abs.pdf"
        try Data(
            HostilePDFs.classic(
                HostilePDFs.onePage(
                    page: "/MediaBox [0 0 200 200]",
                    annots: [link("/usr/local/share/doc/R/manual.html"), link("chapter2.html")]))
        ).write(to: URL(fileURLWithPath: path))
        let r = try run(path, #"[{"use": "validate-links"}]"#)
        let absolute = r.findings.filter { $0.rule == "uri.absolute-file" }
        XCTAssertEqual(absolute.count, 1, "\(r.findings.map(\.message))")
        XCTAssertEqual(absolute.first?.severity, .warning)
        XCTAssertTrue(absolute.first?.message.contains("/usr/local/share/doc/R/manual.html") ?? false)
        XCTAssertEqual(
            r.findings.filter { $0.rule == "uri.relative" }.map(\.message).count, 1,
            "only chapter2.html stays relative: \(r.findings.map(\.message))")
        XCTAssertFalse(
            r.findings.contains { $0.message.contains("/usr/local") && $0.rule != "uri.absolute-file" },
            "nothing else is said of the absolute path (not looked up on this machine): \(r.findings.map(\.message))")
        // With a /URI /Base the same path is a path on that site, as viewers resolve it.
        let based = dir + "/abs-base.pdf"
        try Data(
            HostilePDFs.classic(
                HostilePDFs.onePage(
                    catalog: "/URI << /Base (https://example.org/) >>", page: "/MediaBox [0 0 200 200]",
                    annots: [link("/usr/local/share/doc/R/manual.html")]))
        ).write(to: URL(fileURLWithPath: based))
        let b = try run(based, #"[{"use": "validate-links"}]"#)
        XCTAssertFalse(b.findings.contains { $0.rule == "uri.absolute-file" }, "\(b.findings.map(\.message))")
    }

    /// #63 (6): a destination whose top lies below the bottom of its page names where each viewer
    /// lands, as `bench/viewers.sh` measured: Chrome's PDF viewer on the next page (Chromium writes
    /// headings that moved to the next page so), MuPDF at the bottom of the page.
    func testAPositionBelowThePageNamesWhereEachViewerLands() throws {
        let path = dir + "/below.pdf"
        try TestPDF.write(
            path,
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [5 0 R] >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
                "<< /Type /Annot /Subtype /Link /Rect [72 700 200 712] /Border [0 0 0] /Dest [3 0 R /XYZ 0 -120 null] >>",
            ])
        let r = try run(path, #"[{"use": "validate-links"}]"#)
        let off = r.findings.filter { $0.rule == "dest.position-off-page" }
        XCTAssertEqual(
            off.map(\.message),
            [
                "the destination: /XYZ top -120 lies 120 pt below the bottom of page 1 (y from 0 to 792): viewers land apart: Chrome's PDF viewer (pages in one scroll) shows page 2, 120 pt down it; MuPDF (one page at a time) stays at the bottom of page 1"
            ])
    }

    /// #63 (9): a PDF 2.0 structure destination (`[structElem /Fit]`, veraPDF's pass file for
    /// PDF/UA-2 8.2.5.20) was "not a page of this document" and "without a structure destination":
    /// it goes to the element's page (its /Pg), a warning naming the viewer that does not follow it.
    func testAPDF20StructureDestinationGoesToItsElementsPage() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/verapdf").path
        let r = try run(fixtures + "/8.2.5.20-t02-pass-b.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertFalse(r.findings.contains { $0.rule == "dest.page-not-in-document" }, "\(r.findings.map(\.message))")
        XCTAssertFalse(r.findings.contains { $0.rule == "access.dest-not-structure" }, "\(r.findings.map(\.message))")
        let structure = r.findings.filter { $0.rule == "dest.viewer-dependent" }
        XCTAssertEqual(structure.count, 1, "one finding with the count: \(structure.map(\.message))")
        XCTAssertTrue(structure.first?.message.contains("on page 1") ?? false, "\(structure.map(\.message))")
        XCTAssertEqual(structure.first?.details["count"], .int(3))
        // A dictionary that is no structure element is still no page.
        let path = dir + "/not-element.pdf"
        try Data(
            HostilePDFs.classic(
                HostilePDFs.onePage(
                    page: "/MediaBox [0 0 200 200]",
                    annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Border [0 0 0] /Dest [5 0 R /Fit] >>",
                        "<< /Type /Foo /Pg 3 0 R >>",
                    ]))
        ).write(to: URL(fileURLWithPath: path))
        let n = try run(path, #"[{"use": "validate-links"}]"#)
        XCTAssertTrue(n.findings.contains { $0.rule == "dest.page-not-in-document" }, "\(n.findings.map(\.message))")
    }

    /// #63 (2): a name in UTF-8 without a byte-order mark, the same bytes in the link and in the
    /// name tree (XeTeX's labels past ASCII), matched by bytes and said of nothing; MuPDF finds no
    /// page for it. A UTF-16 action /D for an ASCII key stays the warning it was.
    func testANameInUTF8WithoutABOMIsSaidToBreakInMuPDF() throws {
        func file(_ d: String, key: String) -> [UInt8] {
            HostilePDFs.classic(
                HostilePDFs.onePage(
                    catalog: "/Names << /Dests 5 0 R >>", page: "/MediaBox [0 0 200 200]",
                    annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /Border [0 0 0] /A << /S /GoTo /D \(d) >> >>",
                        "<< /Names [\(key) [3 0 R /Fit]] >>",
                    ]))
        }
        let utf8 = "(séc3)"  // written as UTF-8: the bytes C3 A9 for é
        let cases: [(String, [UInt8], String?)] = [
            ("utf8.pdf", file(utf8, key: utf8), "MuPDF reads the link's name as PDFDocEncoding"),
            ("utf16.pdf", file("<FEFF0073006500630033>", key: "(sec3)"), "written as a UTF-16BE string"),
            ("ascii.pdf", file("(sec3)", key: "(sec3)"), nil),
        ]
        for (name, bytes, expected) in cases {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let r = try run(path, #"[{"use": "validate-links"}]"#)
            let found = r.findings.filter { $0.rule == "dest.name-encoding" }
            if let expected {
                XCTAssertEqual(found.count, 1, "\(name): \(r.findings.map(\.message))")
                XCTAssertTrue(found.first?.message.contains(expected) ?? false, "\(name): \(found.map(\.message))")
                XCTAssertEqual(found.first?.severity, .warning)
            } else {
                XCTAssertTrue(r.findings.isEmpty, "\(name): \(r.findings.map(\.message))")
            }
        }
    }

    /// #63 (6): a URL as a link's alternate text that is the link's own target tells a person
    /// where it goes (WCAG 2.4.4, in context): not access.link-purpose; another address is.
    func testAURLAsAlternateTextIsAPurposeWhenItIsTheTarget() throws {
        XCTAssertTrue(LinkAccessibility.sameAddress("www.example.org/", "https://www.example.org"))
        XCTAssertTrue(LinkAccessibility.sameAddress("HTTPS://Example.org/a", "https://example.org/a/"))
        XCTAssertFalse(LinkAccessibility.sameAddress("https://example.org/", "https://example.com/other"))
        XCTAssertFalse(LinkAccessibility.sameAddress("the report", "https://example.org"), "not an address")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let same = try run(
            root.appendingPathComponent("Fixtures/verapdf/7.18.5-t02-pass-a.pdf").path, #"[{"use": "validate-links"}]"#)
        XCTAssertFalse(same.findings.contains { $0.rule == "access.link-purpose" }, "\(same.findings.map(\.message))")
        let other = try run(
            root.appendingPathComponent("Fixtures/rules/access-link-purpose.pdf").path, #"[{"use": "validate-links"}]"#)
        let purpose = other.findings.filter { $0.rule == "access.link-purpose" }
        XCTAssertEqual(purpose.count, 1, "\(other.findings.map(\.message))")
        XCTAssertTrue(purpose.first?.message.contains("https://example.com/other") ?? false)
    }

    /// (6) "looks like a web address without https://" was said of file names.
    func testHostGuessesAreNotMadeOnFileNames() {
        for name in ["transapp.cs", "INSTALL.nut", "XDGA.3.man", "notes.txt", "guide.html", "setup.py", "example.de"] {
            XCTAssertNil(ExternalLinks.looksLikeHost(name), name)
        }
        for (written, host) in [
            ("www.ctan.org/pkg/x", "www.ctan.org"), ("github.com/user/repo", "github.com"),
            ("mathworld.wolfram.com/topics/SimpleGraphs.html", "mathworld.wolfram.com"),
            ("www.example.de", "www.example.de"),
        ] {
            XCTAssertEqual(ExternalLinks.looksLikeHost(written), host, written)
        }
    }

    /// Debian's r-doc-pdf installs its manuals as symbolic links into /usr/share/R: R-FAQ.pdf's
    /// GoToR links to its siblings were all gotor.outside-root (48 false errors on 163 real PDFs).
    /// A sibling of the document's real file may be opened; a file elsewhere outside the root not.
    func testFilesBesideADocumentsRealLocationAreReachable() throws {
        let real = dir + "/real"
        let root = dir + "/root"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: real + "/other.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: dir + "/elsewhere.pdf")
        let links = ["other.pdf", "missing.pdf", "../elsewhere.pdf"]
        try TestPDF.write(
            real + "/faq.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Annots [4 0 R 5 0 R 6 0 R] >>",
            ]
                + links.enumerated().map { i, f in
                    "<< /Type /Annot /Subtype /Link /Rect [0 \(i * 30) 100 \(i * 30 + 20)] /A << /S /GoToR /F (\(f)) /D [0 /Fit] >> >>"
                })
        for name in ["faq.pdf", "other.pdf"] {
            try FileManager.default.createSymbolicLink(
                atPath: root + "/" + name, withDestinationPath: real + "/" + name)
        }
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}]}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: root, jobs: 1).process(
            InputDocument(path: root + "/faq.pdf", relativePath: "faq.pdf"))
        XCTAssertEqual(r.findings.map(\.rule), ["gotor.file-missing", "gotor.outside-root"])
        XCTAssertEqual(r.sections["links"]?.arrayValue?.map { $0["targetPage"]?.intValue }, [1, nil, nil])
    }

    /// An address written without `mailto:` is looked for as a file; the finding says why.
    func testMailAddressesWithoutMailtoAreNamed() {
        XCTAssertTrue(ExternalLinks.looksLikeMailAddress("rsieger@awi-bremerhaven.de"))
        XCTAssertFalse(ExternalLinks.looksLikeMailAddress("user@host"))
        XCTAssertFalse(ExternalLinks.looksLikeMailAddress("docs/a@b.pdf"))
    }

    /// (12) A file qpdf cannot open but poppler can (a broken trailer dictionary, as fuzzed files
    /// in the corpus have) was "not readable" without a word about it; and one whose catalog qpdf
    /// could not find passed the link audit with 0 pages and no error — a silent pass.
    func testWhatQPDFCannotReadIsSaidAndNeverPasses() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.path("links-internal.pdf"))))
        // The trailer's closing '>' (the last one before `startxref`), by bytes: the file is not UTF-8.
        let marker = Array("startxref".utf8)
        let startxref = try XCTUnwrap(
            (0...(bytes.count - marker.count)).reversed().first { Array(bytes[$0..<$0 + marker.count]) == marker })
        let at = try XCTUnwrap(bytes[..<startxref].lastIndex(of: UInt8(ascii: ">")))
        bytes.replaceSubrange(at...at, with: Array("/URI".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/bad-trailer.pdf"))
        // Issue 29 (5): poppler reads it, as viewers do, so it is damaged, not unreadable: audited
        // as far as poppler reads it, and the warning says what was not checked.
        let r = try run(dir + "/bad-trailer.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertEqual(r.status, .ok)
        XCTAssertEqual(r.findings.map(\.rule), ["pdf.damaged"])
        XCTAssertTrue(
            r.findings[0].message.hasSuffix(
                "; poppler reads it (4 pages), so viewers may show it: its 9 links were checked as poppler reads them (destinations, files, URI syntax; 0 findings), bookmarks, the open action and the link inventory were not"
            ),
            r.findings[0].message)
        // inspect does not check links: it says only that poppler reads the file.
        let i = try run(dir + "/bad-trailer.pdf", #"[{"use": "inspect"}]"#)
        XCTAssertEqual(i.status, .ok)
        XCTAssertEqual(i.findings.map(\.rule), ["pdf.damaged"])
        XCTAssertTrue(
            i.findings[0].message.hasSuffix(
                "; poppler reads it (4 pages), so viewers may show it, but its boxes, labels and inventory could not be read"
            ), i.findings[0].message)

        // A catalog that cannot be found: the audit fails instead of passing with no page.
        try TestPDF.write(
            dir + "/no-root.pdf",
            objects: [
                "<< /Type /Pages /Kids [2 0 R] /Count 1 >>", "<< /Type /Page /Parent 1 0 R /MediaBox [0 0 200 200] >>",
            ])
        let text2 = try String(contentsOfFile: dir + "/no-root.pdf", encoding: .ascii).replacingOccurrences(
            of: "/Root 1 0 R", with: "/Root 9 0 R")
        try text2.write(toFile: dir + "/no-root.pdf", atomically: true, encoding: .ascii)
        let n = try run(dir + "/no-root.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertEqual(n.status, .failed)
        XCTAssertTrue(
            n.findings.contains {
                $0.rule == "pdf.unreadable"
                    && $0.message.hasPrefix("the document has no catalog (/Root) that can be read")
            }, "\(n.findings)")
    }

    /// (12) Before giving up on a file qpdf cannot open, its links are checked as poppler reads
    /// them. The file: broken-links.pdf with its cross-reference table cut and its trailer moved
    /// onto the last object's line (qpdf's recovery looks for `trailer` at the start of a line;
    /// poppler, MuPDF and PDFium find it anywhere, as in two fuzzed files of the corpus).
    func testLinksOfAFileOnlyPopplerReadsAreCheckedByPoppler() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.path("broken-links.pdf"))))
        func find(_ s: String) throws -> Int {
            let m = Array(s.utf8)
            return try XCTUnwrap((0...(bytes.count - m.count)).first { Array(bytes[$0..<$0 + m.count]) == m }, s)
        }
        let (xref, trailer, startxref) = (try find("\nxref"), try find("trailer"), try find("startxref"))
        let path = dir + "/no-xref.pdf"
        try Data(Array(bytes[..<xref]) + Array(" ".utf8) + Array(bytes[trailer..<startxref])).write(
            to: URL(fileURLWithPath: path))
        // The premise, from the two libraries' own tools: qpdf gives up, poppler reads 3 pages.
        XCTAssertNotEqual(try ExternalTool.run("/usr/bin/qpdf", ["--check", path]).status, 0)
        XCTAssertTrue(try ExternalTool.run("/usr/bin/pdfinfo", [path]).output.contains("Pages:           3"))

        let r = try run(path, #"[{"use": "resolve-destinations"}, {"use": "validate-links"}]"#)
        XCTAssertEqual(r.status, .ok, "damaged, not unreadable: poppler reads it")
        // What poppler exposes of broken-links.pdf's ten broken links on page 1: the three names
        // that do not exist ('bad.value' names an integer, so poppler finds no destination either),
        // and the two destinations that are not pages of the document (object 6 0 R, page 7).
        XCTAssertEqual(
            r.findings.map { "\($0.rule) \($0.page ?? 0) \($0.details["target"]?.stringValue ?? "")" },
            [
                "dest.name-not-found 1 no.such.name", "dest.name-not-found 1 missing.too",
                "dest.page-not-in-document 1 ",
                "dest.page-not-in-document 1 ", "dest.name-not-found 1 bad.value", "pdf.damaged 0 ",
            ])
        XCTAssertTrue(
            r.findings.dropLast().allSatisfy {
                $0.details["reader"]?.stringValue == "poppler" && $0.message.hasSuffix("(read by poppler)")
            })
        XCTAssertTrue(
            r.findings.last!.message.hasSuffix(
                "; poppler reads it (3 pages), so viewers may show it: its 19 links were checked as poppler reads them (destinations, files, URI syntax; 5 findings), bookmarks, the open action and the link inventory were not"
            ), r.findings.last!.message)
        // Checked once, although both link stages asked.
        XCTAssertEqual(r.findings.filter { $0.rule == "pdf.damaged" }.count, 1)
    }

    /// Found on PyPI sdists' test PDFs: veraPDF's files carry six bookmarks without targets each
    /// (six findings), a DoD form the same repaired URI on two links (two findings, and its
    /// U+2029 printed as `' '`). One problem, one finding; invisible characters named.
    func testRepeatsAreOneFindingAndInvisibleCharactersAreNamed() throws {
        try TestPDF.write(
            dir + "/form.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R 9 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 0 50 20] /A << /S /URI /URI (https://example.com/a/\\342\\200\\251b) >> >>",
                "<< /Type /Outlines /First 6 0 R /Last 8 0 R /Count 3 >>",
                "<< /Title (clause 1) /Parent 5 0 R /Next 7 0 R >>",
                "<< /Title (topic 2) /Parent 5 0 R /Prev 6 0 R /Next 8 0 R >>",
                "<< /Title (result) /Parent 5 0 R /Prev 7 0 R >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 40 50 60] /A << /S /URI /URI (https://example.com/a/\\342\\200\\251b) >> >>",
            ])
        let r = try run(dir + "/form.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertEqual(r.findings.map(\.rule), ["uri.browser-repaired", "outline.no-target"])
        XCTAssertEqual(
            r.findings[0].message,
            "'https://example.com/a/\\u{2029}b': non-ASCII character U+2029 at position 23; browsers read it as 'https://example.com/a/%E2%80%A9b', other tools and strict viewers may not (2 links, bookmarks or actions in all, on page 1)"
        )
        XCTAssertEqual(
            r.findings[1].message,
            "bookmark 'clause 1': no target (no /Dest, no /A) and no children: clicking it does nothing (3 bookmarks in all)"
        )
        XCTAssertEqual(r.findings[1].details["count"]?.intValue, 3)
        XCTAssertEqual(ConsoleText.character("é"), "'é'")
        XCTAssertEqual(ConsoleText.character("\u{A0}"), "U+00A0")
        XCTAssertEqual(ConsoleText.character("\u{200B}"), "U+200B")
    }

    /// A leaf of the page tree with a misspelt /Type is a page for qpdf, poppler and viewers; the
    /// reader skipped it, and with it the links on it (found by mutating the samples: 1 of 600).
    func testALeafWithAWrongTypeIsStillAPage() throws {
        try TestPDF.write(
            dir + "/rage.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
                "<< /Type /Rage /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [<< /Subtype /Link /Rect [0 0 50 20] /Dest (nowhere) >>] >>",
            ])
        let r = try run(dir + "/rage.pdf", #"[{"use": "validate-links"}]"#)
        XCTAssertEqual(r.pageCount, 2)
        XCTAssertEqual(r.findings.map { "\($0.rule) p\($0.page ?? 0)" }, ["dest.name-not-found p2"])
    }
}
