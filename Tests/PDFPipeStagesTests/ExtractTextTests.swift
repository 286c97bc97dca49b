import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import PDFReader
import TestSupport
import XCTest

final class ExtractTextTests: XCTestCase {
    var out = ""

    override func setUp() {
        out = NSTemporaryDirectory() + "pdfpipe-text-\(UUID().uuidString)"
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func run(_ name: String, _ with: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path(name), relativePath: name))
    }

    func words(_ s: String) -> [String] { s.split(whereSeparator: { $0.isWhitespace }).map(String.init) }

    /// pdftotext (poppler-utils) is the second opinion: the same words in the same order.
    /// (#44, 5) The regular-expression search's time is a budget per document: each page gets at
    /// most 2 s of what is left, and once it is spent the pages are listed, not searched. Time is
    /// passed in (`spend`), so the test needs no clock.
    func testTheSearchBudgetIsPerDocument() {
        var b = SearchBudget(seconds: 3)
        XCTAssertEqual(b.forPage(1), 2, "a page gets at most 2 s")
        b.spend(2)
        XCTAssertEqual(b.forPage(2), 1, "and no more than is left")
        b.spend(1.2)
        XCTAssertTrue(b.isSpent)
        XCTAssertEqual(b.forPage(2), 0)
        XCTAssertEqual(b.forPage(3), 0)
        XCTAssertEqual(b.forPage(3), 0, "a page is listed once")
        XCTAssertEqual(b.unsearched, [2, 3])
        var unlimited = SearchBudget(seconds: 0)
        unlimited.spend(1e6)
        XCTAssertFalse(unlimited.isSpent, "0: no limit")
        XCTAssertEqual(Finding.pageList([5, 6, 7, 9, 2]), "2, 5-7, 9")
    }

    func testTextAgreesWithPdftotextOnEverySample() throws {
        for name in Samples.readable {
            let r = try run(name, #"{"format": "txt"}"#)
            XCTAssertEqual(r.status, .ok, name)
            let ours = try String(
                contentsOfFile: out + "/text/" + name.replacingOccurrences(of: ".pdf", with: ".txt"), encoding: .utf8)
            let theirs = try ExternalTool.run("/usr/bin/pdftotext", [Samples.path(name), "-"], mergingErrors: false)
                .output
            XCTAssertEqual(words(ours), words(theirs), name)
            XCTAssertEqual(ours.filter { $0 == "\u{0C}" }.count, r.pageCount, "\(name): a form feed after every page")
        }
    }

    func testTextFileAndSection() throws {
        let r = try run("text-search.pdf", #"{}"#)
        let text = try String(contentsOfFile: out + "/text/text-search.txt", encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            Release notes
            This manual is a DRAFT and not for release.
            Do not keep lists of forbidden
            words in the source tree.
            Open the file dialog to see the final flow of work.
            Contact: build.internal.example.com (an internal host name).
            \u{0C}Accents
            Café, résumé and naïve keep their accents.
            The second draft is due in May.
            \u{0C}\u{0C}Appendix
            Nothing to report here.
            \u{0C}
            """)
        XCTAssertEqual(r.artifacts, [Artifact(kind: "text", path: "text/text-search.txt")])
        XCTAssertEqual(
            r.sections["text"], ["pages": 4, "pagesWithText": 3, "characters": 341, "file": "text/text-search.txt"])
        XCTAssertEqual(r.findings.map(\.rule), ["text.no-text-layer"])
        XCTAssertEqual(r.findings.first?.page, 3)
        XCTAssertEqual(
            r.findings.first?.message,
            "the page draws an image but has no text: a scan without OCR, or text drawn as pictures")
    }

    func testSearchHitsExactly() throws {
        let r = try run(
            "text-search.pdf",
            """
            {"format": "none", "search": [
              "DRAFT",
              {"term": "forbidden words", "severity": "warning"},
              {"term": "ﬁle", "severity": "note"},
              {"term": "cafe", "ignoreDiacritics": true, "severity": "note"},
              {"term": "cafe", "severity": "note"},
              {"term": "draft", "caseSensitive": true, "severity": "note"},
              {"term": "\\\\b[a-z]+\\\\.internal\\\\.example\\\\.com\\\\b", "regex": true, "severity": "warning"}
            ]}
            """)
        let hits = r.findings.map { "\($0.severity.rawValue) p\($0.page ?? 0) \($0.message)" }
        XCTAssertEqual(
            hits,
            [
                "error p1 found 'DRAFT' (search term 'DRAFT'): …notes This manual is a DRAFT and not for release. Do not…",
                // Across a line break.
                "warning p1 found 'forbidden words' (search term 'forbidden words'): …release. Do not keep lists of forbidden words in the source tree. Open the…",
                // The fi ligature in the term (NFKC) finds the text poppler gives as 'fi'.
                "note p1 found 'file' (search term 'ﬁle'): …in the source tree. Open the file dialog to see the final flow…",
                "warning p1 found 'build.internal.example.com' (search term '\\b[a-z]+\\.internal\\.example\\.com\\b'): …final flow of work. Contact: build.internal.example.com (an internal host name).",
                // Case-insensitive by default; the terms are checked in order on each page.
                "error p2 found 'draft' (search term 'DRAFT'): …their accents. The second draft is due in May.",
                // Only with ignoreDiacritics: the plain 'cafe' term finds nothing.
                "note p2 found 'Café' (search term 'cafe'): Accents Café, résumé and naïve keep their…",
                "note p2 found 'draft' (search term 'draft'): …their accents. The second draft is due in May.",
                "warning p3 the page draws an image but has no text: a scan without OCR, or text drawn as pictures",
            ])
        XCTAssertNil(r.artifacts.first, "format none writes no file")
        // The box of 'DRAFT': the line is drawn at (72, 680) in 12 pt Helvetica.
        let box = try XCTUnwrap(r.findings.first?.rect)
        XCTAssertGreaterThan(box[0], 72 + 80)
        XCTAssertLessThan(box[2], 72 + 160)
        XCTAssertLessThanOrEqual(box[1], 680)
        XCTAssertGreaterThan(box[3], 680 + 6)
        XCTAssertEqual(r.sections["text"]?["matches"]?.arrayValue?.count, 7)
    }

    func testWordBoxesAndParallelPagesGiveTheSameResult() throws {
        let one = try run("rotated-cropped.pdf", #"{"format": "json", "words": true, "pageWorkers": 1}"#)
        let json1 = try String(contentsOfFile: out + "/text/rotated-cropped.json", encoding: .utf8)
        let four = try run("rotated-cropped.pdf", #"{"format": "json", "words": true, "pageWorkers": 4}"#)
        let json4 = try String(contentsOfFile: out + "/text/rotated-cropped.json", encoding: .utf8)
        XCTAssertEqual(json1, json4)
        XCTAssertEqual(one.sections, four.sections)
        let doc = try JSONParser.parse(json1)
        let pages = try XCTUnwrap(doc["pages"]?.arrayValue)
        XCTAssertEqual(pages.count, 6)
        // Every page says "to page 1" inside its link, 100 pt in from the crop box corner (user
        // space [x1+100, y1+100, x1+250, y1+140]): the word boxes must land there, on every rotation.
        let q = try QPDFFile(path: Samples.path("rotated-cropped.pdf"))
        let pageObjects = PageTree.pages(QPDFSource(q))
        for (i, page) in pages.enumerated() {
            let to = try XCTUnwrap(page["words"]?.arrayValue?.first { $0["text"] == "to" }, "page \(i + 1)")
            let box = try XCTUnwrap(to["box"]?.arrayValue?.compactMap(\.doubleValue))
            let g = PageGeometry(page: pageObjects[i])
            let link = PDFRect(
                g.visibleBox.x1 + 100, g.visibleBox.y1 + 100, g.visibleBox.x1 + 250, g.visibleBox.y1 + 140)
            XCTAssertNotNil(
                PDFRect(box[0], box[1], box[2], box[3]).intersection(link), "page \(i + 1): \(box) outside \(link)")
            XCTAssertGreaterThanOrEqual(box[0], link.x1 - 1, "page \(i + 1)")
            XCTAssertLessThanOrEqual(box[3], link.y2 + 1, "page \(i + 1)")
        }
    }

    /// Runs extract-text (`with`) on a document written from `objects` into the output folder's
    /// `in/` as `name`; returns the result and the document's path.
    func runWritten(_ name: String, objects: [String], with: String = "{}") throws -> (DocumentResult, String) {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let path = out + "/in/" + name
        try TestPDF.write(path, objects: objects)
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
            InputDocument(path: path, relativePath: name))
        return (r, path)
    }

    /// Runs extract-text on the annotation fixture (#34, 1) written to the output folder.
    func runForm(_ with: String, needAppearances: Bool = false) throws -> (DocumentResult, String) {
        try runWritten("form.pdf", objects: AnnotationTextPDF.objects(needAppearances: needAppearances), with: with)
    }

    /// Text that annotations draw (form-field values, a check mark, a FreeText note, a stamp, a
    /// signature's appearance) is read where it sits, as pdftotext reads it; a hidden note is not.
    func testTextDrawnByAnnotations() throws {
        let (r, path) = try runForm(#"{"format": "txt", "search": ["Lovelace"]}"#)
        XCTAssertEqual(r.status, .ok)
        let text = try String(contentsOfFile: out + "/text/form.txt", encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            Application form
            Name: Ada Lovelace \u{2714}
            Comments follow below.
            Please reply by Friday
            APPROVED
            Digitally signed by Ada
            End of form.
            \u{0C}Page two has one field.
            Springfield
            \u{0C}
            """)
        // The second opinion: pdftotext draws the annotations too (the same words, the same order).
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"], mergingErrors: false).output
        XCTAssertEqual(words(text), words(theirs))
        XCTAssertFalse(theirs.contains(AnnotationTextPDF.hiddenWord))
        // A search finds a filled-in value.
        XCTAssertEqual(r.findings.map(\.rule), ["text.match"])
        XCTAssertEqual(r.findings.first?.page, 1)
        XCTAssertEqual(r.sections["text"]?["pagesWithText"], 2)

        // Left out on request: the content's text alone.
        _ = try runForm(#"{"format": "txt", "annotations": false}"#)
        let content = try String(contentsOfFile: out + "/text/form.txt", encoding: .utf8)
        XCTAssertEqual(
            content,
            "Application form\nName:\nComments follow below.\nEnd of form.\n\u{0C}Page two has one field.\n\u{0C}")
    }

    /// A form that asks viewers to make its fields' appearances (/NeedAppearances) shows its values.
    func testFieldValuesOfAFormThatAsksForAppearances() throws {
        _ = try runForm(#"{"format": "txt"}"#, needAppearances: true)
        let text = try String(contentsOfFile: out + "/text/form.txt", encoding: .utf8)
        XCTAssertTrue(text.contains("Name: Ada Lovelace"), text)
        XCTAssertTrue(text.contains("Springfield"), text)
        // pdftotext shows the same values. (poppler also remakes the check box and the unsigned
        // signature, which qpdf's appearances leave as they are: a check mark and the signature's
        // own text; PDF 32000-1 asks viewers to make the appearances, not how they look.)
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [out + "/in/form.pdf", "-"], mergingErrors: false)
            .output
        XCTAssertTrue(theirs.contains("Ada Lovelace") && theirs.contains("Springfield"), theirs)
        XCTAssertEqual(
            Set(words(theirs)).subtracting(words(text)), ["\u{2713}"], "every word pdftotext shows but its check mark")
    }

    /// JSON words from an annotation say so, with boxes inside the annotation's rectangle (the
    /// stamp's form has a /Matrix: placed by PDF 32000-1 §12.5.5 it fits [350 400 450 420]).
    func testJSONWordsFromAnnotationsAreMarked() throws {
        _ = try runForm(#"{"format": "json", "words": true}"#)
        let doc = try JSONParser.parse(try String(contentsOfFile: out + "/text/form.json", encoding: .utf8))
        let words = try XCTUnwrap(doc["pages"]?.arrayValue?.first?["words"]?.arrayValue)
        let marked = words.filter { $0["annotation"] == true }.compactMap { $0["text"]?.stringValue }
        XCTAssertEqual(
            marked,
            [
                "Ada", "Lovelace", "\u{2714}", "Please", "reply", "by", "Friday", "APPROVED", "Digitally", "signed",
                "by", "Ada",
            ])
        XCTAssertNil(words.first { $0["text"] == "Name:" }?["annotation"])
        let stamp = try XCTUnwrap(
            words.first { $0["text"] == "APPROVED" }?["box"]?.arrayValue?.compactMap(\.doubleValue))
        XCTAssertGreaterThanOrEqual(stamp[0], 350)
        XCTAssertGreaterThanOrEqual(stamp[1], 400 - 0.5)
        XCTAssertLessThanOrEqual(stamp[2], 450)
        XCTAssertLessThanOrEqual(stamp[3], 420 + 0.5)
        XCTAssertGreaterThan(stamp[3] - stamp[1], 9, "14 pt text, not shrunk to 7 pt")
    }

    /// (#34, 2) Scripts word assembly must know: Chinese set with extra space, Latin kerned apart,
    /// relation signs set apart without space characters, vertical Japanese and Chinese. pdftotext
    /// reads them with poppler's own layout analysis; the same words in the same order. (A space
    /// character the document draws stays a space: "a > b" drawn with spaces is read so here and
    /// by mutool, where pdftotext gives "a>b".)
    func testScriptsAgreeWithPdftotext() throws {
        let (r, path) = try runWritten("scripts.pdf", objects: ScriptTextPDF.objects())
        XCTAssertEqual(r.status, .ok)
        let ours = try String(contentsOfFile: out + "/text/scripts.txt", encoding: .utf8)
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"], mergingErrors: false).output
        XCTAssertEqual(words(ours), words(theirs))
        // What that means: no space inside Chinese set up to 0.15 em apart, spaces at 0.3 em (each
        // line is read with the next one's label); kerning of 0.1 em joins; vertical text reads
        // top to bottom.
        XCTAssertTrue(ours.hasPrefix("gap 0\n发票中文测试 gap 50\n发票中文测试 gap 150\n发票中文测试 gap 300\n发 票 中 文 测 试"), ours)
        for line in ["represented words", "x>y", "α>β", "日本語のテキスト", "中文测试"] {
            XCTAssertTrue(ours.contains(line), "\(line) in \(ours)")
        }
    }

    /// (#34, 2) Right-to-left and vertical text: poppler-glib's page text (a selection from the
    /// top left) reads nothing of a page mostly in Hebrew or of vertical Japanese, and drops the
    /// first and last lines of an Arabic one; pdfpipe reads the page three ways and merges the
    /// lines: every word pdftotext reads.
    /// Vertical Japanese beside horizontal Latin (#45, 4): the first read finds only Latin, so the
    /// page's fonts decide the re-read (an `Identity-V` font in the page's resources, or in a form
    /// it draws): both directions are read, as pdftotext reads them.
    func testVerticalWritingBesideHorizontalTextIsRead() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": {"format": "json"}}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        for inForm in [false, true] {
            for at in [(520, 700), (300, 780), (72, 200)] {  // (300, 780): first in poppler's order
                let name = (inForm ? "mixed-form" : "mixed") + "-\(at.0)-\(at.1)"
                try TestPDF.write(
                    out + "/in/\(name).pdf", objects: ScriptTextPDF.latinAndVertical(inForm: inForm, at: at))
                let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
                    InputDocument(path: out + "/in/\(name).pdf", relativePath: "\(name).pdf"))
                XCTAssertEqual(r.status, .ok, "\(r.findings)")
                let doc = try JSONParser.parse(try String(contentsOfFile: out + "/text/\(name).json", encoding: .utf8))
                let text = try XCTUnwrap(doc["pages"]?.arrayValue?.first?["text"]?.stringValue)
                XCTAssert(text.contains("日本語のテキスト"), "\(name): \(text)")
                XCTAssert(text.contains("Hello World") && text.contains("horizontal text"), "\(name): \(text)")
                let theirs = try ExternalTool.run(
                    "/usr/bin/pdftotext", [out + "/in/\(name).pdf", "-"], mergingErrors: false
                )
                .output
                XCTAssertEqual(words(text).sorted(), words(theirs).sorted(), name)
            }
        }
    }

    /// (#63, 7) Right-to-left words as producers draw them come out whole, in logical order, with
    /// each point after its letter: a word drawn in two runs (XeTeX), points drawn after their
    /// letters from the left (Chromium, Typst), a word drawn glyph by glyph on a Latin line
    /// (LuaTeX). pdftotext, the second opinion, reads the first and third the same and puts the
    /// points before their letters.
    func testRightToLeftWordsComeOutWholeAndInOrder() throws {
        let (r, path) = try runWritten("rtl-words.pdf", objects: RightToLeftWordsPDF.rightToLeftPage())
        XCTAssertEqual(r.status, .ok)
        let text = try String(contentsOfFile: out + "/text/rtl-words.txt", encoding: .utf8)
        XCTAssertEqual(
            text.precomposedStringWithCanonicalMapping.split(separator: "\n").map(String.init),
            ["בראשית ברא", "שָׁלוֹם עולם".precomposedStringWithCanonicalMapping, "עוד שם", "\u{0C}"])
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"], mergingErrors: false).output
        XCTAssertTrue(theirs.contains("בראשית"), theirs)
        let (r2, path2) = try runWritten("ltr-words.pdf", objects: RightToLeftWordsPDF.leftToRightPage())
        XCTAssertEqual(r2.status, .ok)
        let text2 = try String(contentsOfFile: out + "/text/ltr-words.txt", encoding: .utf8)
        XCTAssertEqual(text2.split(separator: "\n").first.map(String.init), "Glyph by glyph: שלום ends the line.")
        let theirs2 = try ExternalTool.run("/usr/bin/pdftotext", [path2, "-"], mergingErrors: false).output
        XCTAssertTrue(theirs2.contains("שלום"), theirs2)
    }

    func testRightToLeftLinesAreNotDropped() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let path = out + "/in/hebrew.pdf"
        try TestPDF.write(path, objects: ScriptTextPDF.rightToLeft())
        try TestPDF.write(out + "/in/vertical.pdf", objects: ScriptTextPDF.verticalOnly())
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": {"format": "json", "words": true}}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
            InputDocument(path: path, relativePath: "hebrew.pdf"))
        XCTAssertEqual(r.status, .ok)
        let doc = try JSONParser.parse(try String(contentsOfFile: out + "/text/hebrew.json", encoding: .utf8))
        let text = try XCTUnwrap(doc["pages"]?.arrayValue?.first?["text"]?.stringValue)
        XCTAssertEqual(text, "שלום עולם\nBetween.\nמבחן טקסט")
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"], mergingErrors: false).output
        let bidi = CharacterSet(charactersIn: "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}")
        XCTAssertEqual(
            words(text).sorted(), words(theirs.components(separatedBy: bidi).joined()).sorted())
        // Every word has its box (text and boxes pair up once poppler's embedding marks are out).
        let boxes = try XCTUnwrap(doc["pages"]?.arrayValue?.first?["words"]?.arrayValue)
        XCTAssertEqual(boxes.count, 5)
        let shalom = try XCTUnwrap(boxes.first { $0["text"] == "שלום" }?["box"]?.arrayValue?.compactMap(\.doubleValue))
        XCTAssertEqual(shalom[2], 540, accuracy: 1, "the first word sits at the right")
        // A page of vertical writing only (nothing, read from the top left): its three columns.
        _ = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
            InputDocument(path: out + "/in/vertical.pdf", relativePath: "vertical.pdf"))
        let vertical = try JSONParser.parse(try String(contentsOfFile: out + "/text/vertical.json", encoding: .utf8))
        XCTAssertEqual(vertical["pages"]?.arrayValue?.first?["text"]?.stringValue, "日本語のテキスト\n中文测试\n发票中文")
        // Text drawn off the page is none a viewer shows: left out, as pdftotext leaves it out.
        try TestPDF.write(out + "/in/offpage.pdf", objects: ScriptTextPDF.offPage())
        _ = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
            InputDocument(path: out + "/in/offpage.pdf", relativePath: "offpage.pdf"))
        let offPage = try JSONParser.parse(try String(contentsOfFile: out + "/text/offpage.json", encoding: .utf8))
        XCTAssertEqual(offPage["pages"]?.arrayValue?.first?["text"]?.stringValue, "Inside")
    }

    /// #63 (8): files of public packages that the generated look-alikes passed and pdfpipe still
    /// failed: pdfminer's simple3.pdf writes its vertical Japanese with Adobe-Japan1's plain `V`
    /// CMap, which was not taken for vertical writing (only `…-V` names were), so its column was
    /// lost. Read with poppler-data installed (scripts/setup.sh), as pdftotext reads it.
    func testPublicFilesReadAsPdftotextReadsThem() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/public").path
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": {"format": "txt"}}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: fixtures, jobs: 1).process(
            InputDocument(path: fixtures + "/pdfminer-simple3.pdf", relativePath: "pdfminer-simple3.pdf"))
        XCTAssertNotEqual(r.status, .failed, "\(r.findings)")
        let text = try String(contentsOfFile: out + "/text/pdfminer-simple3.txt", encoding: .utf8)
        let theirs = try ExternalTool.run(
            "/usr/bin/pdftotext", [fixtures + "/pdfminer-simple3.pdf", "-"], mergingErrors: false
        ).output
        XCTAssertTrue(theirs.contains("あいうえお"), "poppler-data is installed: \(theirs)")
        XCTAssertTrue(text.contains("あいうえおあいうえお"), text)
        XCTAssertEqual(words(text).sorted(), words(theirs).sorted())
        // Without poppler-data that column is dropped without a word; poppler says why, and the
        // stage turns it into text.extraction-incomplete.
        XCTAssertEqual(
            ExtractTextStage.missingLanguagePacks([
                "Syntax Error: Missing language pack for 'Adobe-Japan1' mapping", "Syntax Error: Unknown font tag 'F2'",
                "Syntax Error: Missing language pack for 'Adobe-Japan1' mapping",
            ]), ["Adobe-Japan1"])
    }

    /// #63 (1, 7): lines that mix directions come out in logical order, as pdftotext reads them
    /// (poppler's selection gave a Latin line on a Hebrew page from right to left, with a line
    /// break at each word); and no space is added beside a combining mark.
    func testMixedDirectionLinesAreReadInLogicalOrder() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let path = out + "/in/mixed.pdf"
        try TestPDF.write(path, objects: ScriptTextPDF.mixedDirections())
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "extract-text", "with": {"format": "txt"}}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out + "/in", jobs: 1).process(
            InputDocument(path: path, relativePath: "mixed.pdf"))
        XCTAssertEqual(r.status, .ok)
        let text = try String(contentsOfFile: out + "/text/mixed.txt", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        // On a page mostly in Hebrew a line of both directions is read right to left, as
        // pdftotext reads it; a line of one direction in its own.
        XCTAssertEqual(
            lines,
            [
                "שלום עולם מבחן טקסט XeTeX run", "are Hebrew. עולם שלום The words", "Engine: XeTeX using texnegar and",
                "מבחן טקסט שלום עולם מבחן", "עולם מבחן טקסט שלום טקסט", "טקסט שלום עולם", "\u{0C}",
            ],
            text)
        XCTAssertTrue(r.findings.isEmpty, "\(r.findings.map(\.message))")
        // pdftotext's lines, its embedding marks taken out: the same lines.
        let theirs = try ExternalTool.run("/usr/bin/pdftotext", [path, "-"], mergingErrors: false).output
        let bidi = CharacterSet(charactersIn: "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}")
        let theirLines = theirs.components(separatedBy: bidi).joined().split(separator: "\n").map {
            $0.split(separator: " ").joined(separator: " ")
        }
        // (Its words, as characters: pdftotext runs "Hebrew.עולם" together.)
        XCTAssertEqual(
            lines.prefix(6).map { $0.filter { $0 != " " }.sorted() },
            theirLines.prefix(6).map { $0.filter { $0 != " " }.sorted() }, theirs)
        // A combining mark is no word of its own: no space is added beside it.
        let letter = PDFRect(100, 0, 110, 12)
        let (marked, _) = TextAssembler.respace(
            ["ب", "\u{0650}", "س"], [letter, PDFRect(112, 12, 116, 14), PDFRect(88, 0, 99, 12)])
        XCTAssertEqual(String(String.UnicodeScalarView(marked)), "بِس")
    }

    /// Hostile annotations: numbers past any page, an appearance that is the annotation itself, a
    /// form that draws itself, a state that names nothing. The page's own text is read; nothing of
    /// theirs is guessed, and nothing crashes.
    func testHostileAnnotationsLeaveThePageText() throws {
        let content = "BT /F1 12 Tf 72 700 Td (Page text.) Tj ET"
        let selfDrawing = "/Tx BMC BT /F1 12 Tf 2 5 Td (Drawn) Tj ET /Me Do EMC"
        let (r, _) = try runWritten(
            "hostile.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R 7 0 R 8 0 R 9 0 R] >>",
                "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                "<< /Type /Annot /Subtype /Stamp /Rect [0 0 1e308 -1e308] /AP << /N 10 0 R >> >>",
                "<< /Type /Annot /Subtype /Stamp /Rect [72 600 200 620] /AP << /N 7 0 R >> /AS /N >>",
                "<< /Type /Annot /Subtype /Widget /Rect [72 500 200 520] /AP << /N << /On 10 0 R >> >> /AS /Missing >>",
                "<< /Type /Annot /Subtype /Stamp /Rect [72 400 200 420] /AP << /N 11 0 R >> >>",
                "<< /Length 0 /Type /XObject /Subtype /Form /BBox [0 0 1e300 1e300] /Matrix [1e308 0 0 1e308 0 0] >>\nstream\n\nendstream",
                "<< /Length \(selfDrawing.utf8.count) /Type /XObject /Subtype /Form /BBox [0 0 128 20] /Resources << /Font << /F1 5 0 R >> /XObject << /Me 11 0 R >> >> >>\nstream\n\(selfDrawing)\nendstream",
            ])
        XCTAssertNotEqual(r.status, .failed)
        let text = try String(contentsOfFile: out + "/text/hostile.txt", encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("Page text.\n"), text)
        // The self-drawing stamp's own text, drawn once before poppler's recursion guard stops it.
        XCTAssertTrue(text.contains("Drawn"), text)
    }

    func testBadOptionsAreStagePipelineErrors() {
        func message(_ with: String) -> String? {
            do {
                _ = try Pipeline.parse(
                    #"{"stages": [{"use": "extract-text", "with": \#(with)}]}"#, file: "p.json",
                    catalog: StageTable.all, formats: ["json"])
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            message(#"{"search": ["ok", {"term": "(unclosed", "regex": true}]}"#),
            "p.json:1:72: error: stages[0].with.search[1].term: invalid regular expression '(unclosed'")
        XCTAssertEqual(
            message(#"{"search": [{"severity": "note"}]}"#),
            "p.json:1:57: error: stages[0].with.search[0].term: a search term needs a non-empty 'term'")
        XCTAssertEqual(
            message(#"{"pages": "3-1"}"#),
            "p.json:1:55: error: stages[0].with.pages: range '3-1' runs backwards in '3-1'; expected a page list like '1-3,7,10-' or 'all'"
        )
        XCTAssertEqual(
            message(#"{"search": [{"term": "x", "severity": "fatal"}]}"#),
            "p.json:1:83: error: stages[0].with.search[0].severity: expected one of 'error' | 'warning' | 'note', got 'fatal'"
        )
        XCTAssertEqual(
            message(#"{"folder": "../.."}"#),
            "p.json:1:56: error: stages[0].with.folder: expected a folder name inside the output folder")
    }

    func testGeometryRoundTrip() {
        var g = PageGeometry(page: nil as PDFObject?)
        g.cropBox = PDFRect(10, 20, 200, 100)
        let r = PDFRect(20, 30, 60, 40)
        for rotate in [0, 90, 180, 270] {
            g.rotate = rotate
            XCTAssertEqual(
                LinkGeometry.userRect(LinkGeometry.pixelRect(r, on: g, scale: 2), on: g, scale: 2), r,
                "rotate \(rotate)")
        }
    }
}

final class TextAssemblerTests: XCTestCase {
    /// Boxes for characters laid out left to right: (text, x, line) with 6-point-wide glyphs.
    func layout(_ runs: [(String, Double, Double)]) -> ([Unicode.Scalar], [PDFRect]) {
        var text: [Unicode.Scalar] = []
        var boxes: [PDFRect] = []
        for (s, x, y) in runs {
            for (i, c) in s.unicodeScalars.enumerated() {
                text.append(c)
                boxes.append(PDFRect(x + Double(i) * 6, y, x + Double(i) * 6 + 6, y + 12))
            }
        }
        return (text, boxes)
    }

    func assembled(_ runs: [(String, Double, Double)]) -> String {
        let (t, b) = layout(runs)
        let (out, boxes) = TextAssembler.respace(t, b)
        XCTAssertEqual(out.count, boxes.count)
        return String(String.UnicodeScalarView(out))
    }

    func testBreaksPopplerLeavesOut() {
        // A table of contents line: the title, then the page number far to the right.
        XCTAssertEqual(assembled([("Contents", 72, 100), ("2", 400, 100)]), "Contents 2")
        // Letters that touch stay one word.
        XCTAssertEqual(assembled([("Con", 72, 100), ("tents", 90, 100)]), "Contents")
        // The next line starts without a break.
        XCTAssertEqual(assembled([("page 3", 72, 100), ("Tutorial", 72, 120)]), "page 3\nTutorial")
        // A word hyphenated at the line end is joined, as pdftotext does.
        XCTAssertEqual(assembled([("indepen-", 72, 100), ("dently", 72, 114)]), "independently")
        XCTAssertEqual(assembled([("a -", 72, 100), ("b", 72, 114)]), "a -\nb", "a lone hyphen is no word split")
        // (#34, 7: bench/fidelity.sh found groff's footer joined as "-2Page two.") A page number
        // between hyphens is no split word; nor is a hyphen before a capital.
        XCTAssertEqual(assembled([("-2-", 72, 100), ("Page two.", 72, 114)]), "-2-\nPage two.")
        XCTAssertEqual(assembled([("Jean-", 72, 100), ("Pierre", 72, 114)]), "Jean-\nPierre")
    }

    /// A control character is a glyph the engine could not map (a Type 3 font without
    /// /ToUnicode; MuPDF reads ZapfDingbats' check mark as U+0014): U+FFFD, never a control code.
    func testControlCharactersAreUnmappedGlyphs() {
        XCTAssertEqual(assembled([("a\u{14}b", 72, 100)]), "a\u{FFFD}b")
        XCTAssertEqual(assembled([("\u{19}\u{12}", 72, 100), ("next", 72, 114)]), "\u{FFFD}\u{FFFD}\nnext")
        XCTAssertEqual(assembled([("a\tb\u{7F}", 72, 100)]), "a\tb\u{FFFD}")
    }

    func merged(_ content: [(String, Double, Double)], _ annotations: [(String, Double, Double)]) -> String {
        let c = layout(content)
        let a = layout(annotations)
        let m = TextAssembler.merge(
            content: TextAssembler.respace(c.0, c.1), annotations: TextAssembler.respace(a.0, a.1))
        XCTAssertEqual(m.text.count, m.boxes.count)
        XCTAssertEqual(m.text.count, m.fromAnnotation.count)
        return String(String.UnicodeScalarView(m.text))
    }

    /// Annotation text goes beside the content on its line, in x order, or on a line of its own
    /// before the first content line below it (the one under it first).
    func testAnnotationTextGoesWhereItSits() {
        // Between a label and the text right of it; two fields on one line in x order.
        XCTAssertEqual(
            merged([("Name:", 72, 100), ("Date:", 300, 100)], [("Ada", 130, 100), ("today", 350, 100)]),
            "Name: Ada Date: today")
        // Over a word: before the word, never inside it.
        XCTAssertEqual(merged([("Submit now", 72, 100)], [("Go", 80, 100)]), "Go Submit now")
        // The same text the content draws at the same place (a button's caption the page prints
        // too): read once, as pdftotext reads it.
        XCTAssertEqual(merged([("Name Submit", 72, 100)], [("Submit", 102, 100)]), "Name Submit")
        // Not beside any line: before the first line below it that it is above.
        XCTAssertEqual(
            merged([("Top", 72, 100), ("Bottom", 72, 300)], [("note", 80, 200)]), "Top\nnote\nBottom")
        // Below everything: at the end; a page with no content text: the annotations alone, in order.
        XCTAssertEqual(merged([("Top", 72, 100)], [("end", 72, 500)]), "Top\nend")
        XCTAssertEqual(merged([], [("second", 72, 200), ("first", 72, 100)]), "first\nsecond")
        // A column: the note in the right column goes before the right column's next line.
        XCTAssertEqual(
            merged(
                [("left one", 72, 100), ("left two", 72, 300), ("right one", 400, 100), ("right two", 400, 300)],
                [("note", 400, 200)]),
            "left one\nleft two\nright one\nnote\nright two")
        // Beside two lines (the engine read the right column first): into the nearer one.
        XCTAssertEqual(
            merged([("right one", 400, 100), ("left one", 72, 100)], [("value", 470, 100)]),
            "right one value\nleft one")
    }
}
