import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

@testable import PDFPipeStages

final class InspectTests: XCTestCase {
    func inspect(_ name: String, crossCheck: Bool = true) -> DocumentResult {
        let pipeline = try! Pipeline.parse(
            #"{"stages": [{"use": "inspect", "with": {"crossCheck": \#(crossCheck)}}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: "/tmp", jobs: 1).process(
            InputDocument(path: Samples.path(name), relativePath: name))
    }

    func pages(_ r: DocumentResult) -> [JSONValue] { r.sections["info"]?["pages"]?.arrayValue ?? [] }

    func testPageLabels() {
        let r = inspect("page-labels.pdf")
        XCTAssertEqual(pages(r).map { $0["label"]?.stringValue }, ["i", "ii", "iii", "1", "2", "A-1", "A-2", "aa"])
        XCTAssertEqual(r.findings, [])
    }

    func testRotationAndBoxes() {
        let r = inspect("rotated-cropped.pdf")
        let p = pages(r)
        XCTAssertEqual(p.map { $0["rotate"]?.intValue }, [0, 90, 180, 270, 270, 90])
        XCTAssertEqual(p[0]["cropBox"], [50, 60, 562, 742])
        XCTAssertEqual(p[0]["width"], 512)
        XCTAssertEqual(p[0]["height"], 682)
        XCTAssertEqual(p[1]["mediaBox"], [0, 0, 612, 792], "inherited from the /Pages node")
        XCTAssertEqual(p[1]["width"], 792, "turned 90 degrees")
        XCTAssertEqual(p[3]["width"], 300)
        XCTAssertEqual(p[3]["height"], 400)
        XCTAssertEqual(
            r.findings.map(\.message),
            [
                "the pages come in 4 sizes (512 x 682 pt (1 page), 792 x 612 pt (3 pages), 612 x 792 pt (1 page), 300 x 400 pt (1 page)) and 4 rotations (0, 90, 180, 270)"
            ])
    }

    func testDocumentConditions() {
        let owner = inspect("encrypted-owner.pdf")
        XCTAssertEqual(owner.status, .ok)
        XCTAssertEqual(owner.findings.map(\.rule), ["pdf.encrypted"])
        XCTAssertEqual(owner.sections["info"]?["producer"], "pdfpipe-samples")

        let user = inspect("encrypted-user.pdf")
        XCTAssertEqual(user.status, .failed)
        XCTAssertEqual(user.findings.map(\.rule), ["pdf.password-required"])
        XCTAssertEqual(user.findings[0].message, "the document needs a user password to open (qpdf: invalid password)")
        XCTAssertNil(user.pageCount)

        let unreadable = [
            "garbage.pdf":
                "not a PDF file: no '%PDF-' header in the first 1024 bytes (qpdf cannot open the file: unable to find trailer dictionary while recovering damaged file)",
            "empty.pdf": "the file is empty (0 bytes)",
        ]
        for (name, message) in unreadable {
            let r = inspect(name)
            XCTAssertEqual(r.status, .failed, name)
            XCTAssertEqual(r.findings.map(\.rule), ["pdf.unreadable"], name)
            XCTAssertEqual(r.findings[0].message, message)
        }

        let damaged = inspect("damaged-xref.pdf")
        XCTAssertEqual(damaged.status, .ok)
        XCTAssertEqual(damaged.pageCount, 2)
        // One problem, one finding: qpdf's messages with it.
        XCTAssertEqual(
            damaged.findings.map(\.message), ["qpdf: file is damaged (and 2 more qpdf warnings: see qpdfMessages)"])
        XCTAssertEqual(
            damaged.findings.first?.details["qpdfMessages"],
            ["file is damaged", "xref not found (offset 1073)", "Attempting to reconstruct cross-reference table"])
        XCTAssertEqual(damaged.findings.first?.details["count"], 3)
        XCTAssertEqual(Set(damaged.findings.map(\.rule)), ["pdf.damaged"])
    }

    func testPageLabelNumbering() {
        XCTAssertEqual(PageLabels.roman(1994), "mcmxciv")
        XCTAssertEqual(PageLabels.roman(4), "iv")
        XCTAssertEqual(PageLabels.letters(1), "a")
        XCTAssertEqual(PageLabels.letters(26), "z")
        XCTAssertEqual(PageLabels.letters(27), "aa")
        XCTAssertEqual(PageLabels.letters(53), "aaa")
        let ranges = [PageLabels.Range(start: 2, style: "R", prefix: "x-", first: 3)]
        XCTAssertEqual(PageLabels.labels(ranges, count: 4), ["1", "2", "x-III", "x-IV"])
    }

    func testRotationNormalization() {
        XCTAssertEqual(PageGeometry.normalize(rotate: -90), 270)
        XCTAssertEqual(PageGeometry.normalize(rotate: 450), 90)
        XCTAssertEqual(PageGeometry.normalize(rotate: -720), 0)
        XCTAssertEqual(PageGeometry.normalize(rotate: 45), 0)
    }
}

final class VanishingInputTests: XCTestCase {
    /// A file listed when the batch was expanded but gone when its turn comes (deleted by another
    /// job, an unmounted share) is that document's error, and the others are processed.
    func testAnInputThatDisappearsMidRunIsReportedNotFatal() throws {
        let dir = NSTemporaryDirectory() + "pdfpipe-vanish-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["a.pdf", "b.pdf", "c.pdf"] {
            try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: dir + "/" + name)
        }
        let set = try InputSet.expand([dir], relativeTo: "/")
        XCTAssertEqual(set.documents.map(\.relativePath), ["a.pdf", "b.pdf", "c.pdf"])
        try FileManager.default.removeItem(atPath: dir + "/b.pdf")
        for name in ["validate-links", "inspect", "thumbnails", "extract-text"] {
            let pipeline = try Pipeline.parse(
                #"{"stages": [{"use": "\#(name)"}]}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
            let results = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: set.root, jobs: 2).run(
                set.documents)
            XCTAssertEqual(results.map(\.status), [.ok, .failed, .ok], name)
            XCTAssertEqual(results[1].findings.map(\.rule), ["pdf.unreadable"], name)
            XCTAssertTrue(
                results[1].findings.first?.message.contains("b.pdf") == true
                    || results[1].findings.first?.message.lowercased().contains("no such file") == true,
                "\(name): \(results[1].findings.first?.message ?? "")")
        }
    }
}
