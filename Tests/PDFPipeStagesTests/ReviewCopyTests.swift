import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import PDFReader
import TestSupport
import XCTest

final class ReviewCopyTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-review-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func run(_ path: String, name: String, _ stages: String, rules: String = "{}", root: String = Samples.folder) throws
        -> DocumentResult
    {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages), "rules": \#(rules)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: root, jobs: 1).process(
            InputDocument(path: path, relativePath: name))
    }

    func testBrokenLinksAreMarkedWhereTheySit() throws {
        let r = try run(
            Samples.path("broken-links.pdf"), name: "broken-links.pdf",
            #"[{"use": "validate-links"}, {"use": "review-copy"}]"#)
        let copy = out + "/review/broken-links.review.pdf"
        XCTAssertEqual(r.artifacts, [Artifact(kind: "review-copy", path: "review/broken-links.review.pdf")])
        XCTAssertEqual(
            r.sections["reviewCopy"], ["file": "review/broken-links.review.pdf", "marks": 14, "summaryPages": 1])

        // qpdf finds nothing wrong with the copy.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        p.arguments = ["--check", copy]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)

        // poppler sees a square over every finding's link rect on the original page 1 (page 2 now),
        // with the rule, the message and the fix in its note.
        let poppler = try PopplerFile(path: copy)
        XCTAssertEqual(poppler.pageCount, 4)
        let squares = try XCTUnwrap(poppler.page(1)).annotations.filter { $0.type == "square" }
        let onPage = r.findings.filter { f in
            guard let rect = f.rect, f.page == 1 else { return false }
            return PDFRect(rect[0], rect[1], rect[2], rect[3]).intersection(PDFRect(0, 0, 612, 792)) != nil
        }
        XCTAssertEqual(squares.count, onPage.count)
        for f in onPage {
            let rect = try XCTUnwrap(f.rect)
            let mark = squares.first {
                $0.contents?.hasPrefix("\(f.rule) (\(f.severity.rawValue)): \(f.message)") == true
            }
            XCTAssertNotNil(mark, f.message)
            if let mark, rect[2] - rect[0] >= 4, rect[3] - rect[1] >= 4 {
                XCTAssertEqual(mark.area, PDFRect(rect[0], rect[1], rect[2], rect[3]), f.message)
            }
            if let hint = f.hint { XCTAssertTrue(mark?.contents?.hasSuffix("Fix: \(hint)") == true) }
        }

        // The copy's links: the original's, on pages one further, and one per listed finding with a page.
        let original = try run(
            Samples.path("broken-links.pdf"), name: "broken-links.pdf", #"[{"use": "validate-links"}]"#)
        let reviewed = try run(
            copy, name: "broken-links.review.pdf", #"[{"use": "validate-links"}]"#, root: out + "/review")
        let theirLinks = reviewed.sections["links"]?.arrayValue ?? []
        let summaryLinks = theirLinks.filter { $0["page"] == 1 }
        XCTAssertEqual(summaryLinks.count, r.findings.filter { $0.page != nil }.count)
        XCTAssertTrue(
            summaryLinks.allSatisfy { $0["targetPage"] == 2 }, "every entry leads to the original page 1, now page 2")
        func shape(_ l: JSONValue, shift: Int) -> JSONValue {
            guard case .object(var o) = l else { return l }
            o["object"] = nil
            o["page"] = .int((o["page"]?.intValue ?? 0) + shift)
            if let t = o["targetPage"]?.intValue { o["targetPage"] = .int(t + shift) }
            return .object(o)
        }
        // A destination given as a page number (dest.integer-page) is the one exception: the summary
        // page in front makes number 1 mean another page. Such links are flagged already (one
        // finding for both: "integer page 1" and "integer page 2" of the sample, by their rects).
        XCTAssertEqual(original.findings.first { $0.rule == "dest.integer-page" }?.details["count"], 2)
        let integerRects: [JSONValue] = [[72, 566, 372, 582], [72, 280, 372, 296]]
        XCTAssertEqual(
            (original.sections["links"]?.arrayValue ?? []).filter { integerRects.contains($0["rect"]!) }.map {
                $0["targetPage"]
            }, [2, 3],
            "the two integer-page links")
        XCTAssertEqual(
            theirLinks.filter { $0["page"] != 1 && !integerRects.contains($0["rect"]!) }.map { shape($0, shift: 0) },
            (original.sections["links"]?.arrayValue ?? []).filter { !integerRects.contains($0["rect"]!) }.map {
                shape($0, shift: 1)
            })
    }

    func testNoFindingsNoCopy() throws {
        let r = try run(
            Samples.path("links-internal.pdf"), name: "links-internal.pdf",
            #"[{"use": "validate-links"}, {"use": "review-copy"}]"#)
        XCTAssertEqual(r.artifacts, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/review/links-internal.review.pdf"))
    }

    func testOptions() throws {
        let r = try run(
            Samples.path("broken-links.pdf"), name: "broken-links.pdf",
            #"[{"use": "validate-links"}, {"use": "review-copy", "with": {"summaryPage": false, "minimumSeverity": "error"}}]"#,
            rules: #"{"link.zero-area": "off"}"#)
        let poppler = try PopplerFile(path: out + "/review/broken-links.review.pdf")
        XCTAssertEqual(poppler.pageCount, 3, "no summary page")
        let squares = try XCTUnwrap(poppler.page(0)).annotations.filter { $0.type == "square" }
        XCTAssertEqual(
            squares.count, r.findings.filter { $0.severity == .error && $0.page == 1 && $0.rect != nil }.count)
        XCTAssertTrue(squares.allSatisfy { $0.contents?.contains("(error)") == true })
        XCTAssertThrowsError(
            try Pipeline.parse(
                #"{"stages": [{"use": "review-copy", "with": {"errorColor": "red"}}]}"#, file: "p.json",
                catalog: StageTable.all, formats: ["json"])
        ) { e in
            XCTAssertTrue(
                "\(e)".hasSuffix("stages[0].with.errorColor: expected a colour like '#E00000', got 'red'"), "\(e)")
        }
    }
}
