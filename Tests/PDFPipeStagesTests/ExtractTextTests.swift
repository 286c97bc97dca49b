import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
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
}
