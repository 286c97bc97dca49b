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

    /// (#48) Every stage's section is written through a typed key: what a run writes reads back as
    /// the key's type, which encodes to the same JSON (the goldens hold the bytes).
    func testEachStageSectionReadsBackAsItsKeysType() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"""
        {"stages": [{"use": "normalize", "with": {"keep": true}}, {"use": "check"},
                    {"use": "inspect", "with": {"annotations": "list", "forms": true, "attachments": true, "layoutWidth": 600}},
                    {"use": "resolve-destinations", "with": {"list": true}}, {"use": "validate-links"},
                    {"use": "extract-text", "with": {"search": ["the"]}}]}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        _ = cli.run(
            ["run", "p.json", Repo.root + "/samples/links-internal.pdf", "--out", dir + "/out", "--offline"], in: dir)
        let report = try RunReport(
            json: JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8)))
        let d = try XCTUnwrap(report.documents.first, cli.stderr)

        func same<V: Equatable>(_ key: SectionKey<V>, _ check: (V) -> Void = { _ in }) {
            guard let v = d[key] else { return XCTFail("no section '\(key)' as \(V.self)") }
            check(v)
            var job = Job(source: "/x.pdf", relativePath: "x.pdf", outputDirectory: "/o", inputRoot: "/")
            job[key] = v
            XCTAssertEqual(
                job.sections[key.name], d.sections[key.name], "'\(key)' encodes to the JSON it was read from")
        }
        same(.normalize) { XCTAssertEqual($0.file.map { $0.hasSuffix(".pdf") }, true) }
        same(.check) { XCTAssertTrue($0.ok) }
        same(.info) { XCTAssertNotNil($0["pages"]) }
        same(.annotations)
        same(.forms)
        same(.attachments)
        same(.media)
        same(.layout)
        same(.destinations) { XCTAssertEqual($0.names?.count, $0.nameTree + $0.catalog) }
        same(.linkSummary) { XCTAssertEqual($0.checks?.total, $0.links + $0.bookmarks + 0) }
        same(.links) { XCTAssertFalse($0.isEmpty) }
        same(.outline)
        same(.text) { XCTAssertGreaterThan($0.characters, 0) }
        // A key of another type does not read the section as that type.
        XCTAssertNil(d[SectionKey<CheckSection>("text")])
    }
}
