import Foundation
import PDFPipeCLI
import PDFPipeCore
import PDFPipeStages
import XCTest

/// (#33, 5) The sections Core reads are types shared by the writer and the reporters: what a stage
/// writes decodes as the type, and the type encodes to report.json's exact JSON.
final class ReportSectionTests: XCTestCase {
    func testSectionsWrittenByARunDecodeAndEncodeToTheSameJSON() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Thumbnails with the link overlay (labels for the links with findings), a review copy, and
        // a document that fails its first stage (the later ones skipped).
        try #"""
        {"stages": [{"use": "validate-links"}, {"use": "thumbnails", "with": {"overlay": "links", "pages": "all"}},
                    {"use": "review-copy"}]}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let samples = Repo.root + "/samples"
        let cli = CapturedCLI()
        _ = cli.run(
            [
                "run", "p.json", samples + "/broken-links.pdf", samples + "/empty.pdf", "--out", dir + "/out",
                "--offline",
            ],
            in: dir)
        let report = try RunReport(
            json: JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8)))
        let broken = try XCTUnwrap(report.documents.first { $0.path.hasSuffix("broken-links.pdf") })
        let empty = try XCTUnwrap(report.documents.first { $0.path.hasSuffix("empty.pdf") })

        let thumbnails = try XCTUnwrap(broken.section(ThumbnailsSection.self))
        XCTAssertGreaterThan(thumbnails.rendered, 0)
        XCTAssertFalse(thumbnails.labels.isEmpty, "the broken links are labelled on their thumbnails")
        XCTAssertEqual(thumbnails.json, broken.sections[ThumbnailsSection.key])
        let review = try XCTUnwrap(broken.section(ReviewCopySection.self))
        XCTAssertGreaterThan(review.marks, 0)
        XCTAssertEqual(review.json, broken.sections[ReviewCopySection.key])
        let skipped = try XCTUnwrap(empty.section(SkippedStagesSection.self))
        XCTAssertEqual(skipped.stages, ["thumbnails", "review-copy"])
        XCTAssertEqual(skipped.json, empty.sections[SkippedStagesSection.key])
        XCTAssertNil(empty.section(ThumbnailsSection.self))
    }
}
