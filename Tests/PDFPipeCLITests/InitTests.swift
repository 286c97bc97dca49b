import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// `pdfpipe init`: every starter is a valid pipeline that runs, with its schema beside it.
final class InitTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testEveryStarterValidatesAndRuns() throws {
        try FileManager.default.createDirectory(atPath: dir + "/pdf", withIntermediateDirectories: true)
        for name in ["broken-links.pdf", "page-labels.pdf"] {
            try FileManager.default.copyItem(atPath: Samples.path(name), toPath: dir + "/pdf/" + name)
        }
        let schema = CapturedCLI()
        XCTAssertEqual(schema.run(["schema"]), .clean)
        for kind in ["link-audit", "thumbnails", "text", "ci"] {
            let file = kind + ".json"
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(["init", "--for", kind, "--out", file], in: dir), .clean, kind)
            XCTAssertTrue(cli.stdout.hasPrefix("pdfpipe: wrote \(file) ("), cli.stdout)
            XCTAssertTrue(cli.stdout.contains("next: pdfpipe run \(file) PDF-FOLDER"), cli.stdout)
            let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            let value = try JSONParser.parse(text)
            XCTAssertEqual(value["$schema"], "./pipeline.schema.json")
            XCTAssertNotNil(value["$comment"]?.arrayValue?.first)
            XCTAssertEqual(try String(contentsOfFile: dir + "/pipeline.schema.json", encoding: .utf8), schema.stdout)
            let validate = CapturedCLI()
            XCTAssertEqual(validate.run(["validate", file], in: dir), .clean, validate.stderr)
            // Its inputs ("pdf") and output folder, as written.
            let run = CapturedCLI()
            let code = run.run(["run", file, "--offline", "--quiet"], in: dir)
            XCTAssertTrue(code == .clean || code == .findings, "\(kind): \(code) \(run.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/\(kind)/report.json"), kind)
            if kind == "thumbnails" {
                // (#32, 8) Regression: the thumbnails starter was a link audit (validate-links with an
                // overlay: red boxes on every thumbnail, link errors on the console).
                XCTAssertEqual(
                    value["stages"]?.arrayValue?.compactMap { $0["use"]?.stringValue }, ["thumbnails"], text)
                XCTAssertNil(value["stages"]?[0]?["with"]?["overlay"])
                let report = try JSONParser.parse(
                    String(contentsOfFile: dir + "/out/thumbnails/report.json", encoding: .utf8))
                XCTAssertEqual(report["summary"]?["errors"], 0, "thumbnails, not a link audit")
                // (#61, 9) Not out/thumbnails/thumbnails/: the folder is the starter's own.
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: dir + "/out/thumbnails/images/broken-links/1.png"))
            }
            if kind == "text" {
                XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/text/documents/broken-links.txt"))
            }
        }
        // (#32, 8) A flat layout: one file per document when one page is rendered.
        try #"{"inputs": ["pdf"], "stages": [{"use": "thumbnails", "with": {"pages": "1", "template": "{stem}.png"}}]}"#
            .write(toFile: dir + "/flat.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(CapturedCLI().run(["run", "flat.json", "--out", "out/flat", "--quiet"], in: dir), .clean)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/out/flat/thumbnails").filter {
                $0.hasSuffix(".png")
            }
            .sorted(),
            ["broken-links.png", "page-labels.png"])
        try #"{"stages": [{"use": "thumbnails", "with": {"pages": "1-2", "template": "{stem}.png"}}]}"#
            .write(toFile: dir + "/flat2.json", atomically: true, encoding: .utf8)
        let two = CapturedCLI()
        XCTAssertEqual(two.run(["validate", "flat2.json"], in: dir), .usage)
        XCTAssertTrue(two.stderr.contains("(without it, render one page: pages \"1\")"), two.stderr)
        // An existing file is kept.
        let again = CapturedCLI()
        XCTAssertEqual(again.run(["init", "--out", "ci.json"], in: dir), .usage)
        XCTAssertEqual(again.stderr, "ci.json: error: exists already; --force replaces it\n")
        XCTAssertEqual(CapturedCLI().run(["init", "--out", "ci.json", "--force"], in: dir), .clean)
        let bad = CapturedCLI()
        XCTAssertEqual(bad.run(["init", "--for", "thumbnail"], in: dir), .usage)
        XCTAssertTrue(bad.stderr.contains("unknown kind 'thumbnail'; did you mean 'thumbnails'?"), bad.stderr)
    }

    /// (#42, 3) The link-audit starter checks local file links and #page=/#nameddest= fragments:
    /// on the samples it finds every error the full link audit finds offline (the starter once
    /// turned the external check off and hid 5 of them).
    func testTheLinkAuditStarterChecksFilesAndFragments() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["init", "--for", "link-audit", "--out", "p.json"], in: dir), .clean)
        let samples = Repo.root + "/samples"
        XCTAssertEqual(cli.run(["run", "p.json", samples, "--out", "starter", "--quiet"], in: dir), .findings)
        XCTAssertEqual(
            cli.run(
                ["run", Repo.root + "/pipelines/link-audit.json", samples, "--offline", "--out", "full", "--quiet"],
                in: dir),
            .findings)
        func errors(_ out: String) throws -> [String] {
            let r = try JSONParser.parse(String(contentsOfFile: dir + "/" + out + "/report.json", encoding: .utf8))
            return (r["documents"]?.arrayValue ?? []).flatMap { d in
                (d["findings"]?.arrayValue ?? []).filter { $0["severity"] == "error" }.map {
                    "\(d["path"]?.stringValue ?? ""): \($0["rule"]?.stringValue ?? "") \($0["message"]?.stringValue ?? "")"
                }
            }
        }
        let full = try errors("full")
        XCTAssertTrue(full.contains { $0.contains("uri.file-missing") }, "\(full)")
        XCTAssertTrue(full.contains { $0.contains("uri.fragment-missing") }, "\(full)")
        XCTAssertEqual(try errors("starter"), full)
        let comment = try JSONParser.parse(String(contentsOfFile: dir + "/p.json", encoding: .utf8))["$comment"]
        XCTAssertTrue("\(comment ?? .null)".contains("external.offline to false"), "\(comment ?? .null)")
    }
}
