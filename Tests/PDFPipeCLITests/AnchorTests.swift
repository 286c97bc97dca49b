import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#66) Anchors and their diff on LaTeX builds (Tests/Fixtures/sources/anchors, made by
/// scripts/make-source-fixtures.sh): v2 renames 3 labels, removes 2 and inserts a chapter.
final class AnchorTests: XCTestCase {
    var dir = ""
    let fixtures = Repo.root + "/Tests/Fixtures/sources/anchors"

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-anchors-\(UUID().uuidString)"
        for v in ["old", "new"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + v, withIntermediateDirectories: true)
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func anchorsFile(of folder: String) throws -> JSONValue {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["anchors", folder, "--out", dir + "/anchors.json"], in: dir), .clean, cli.stderr)
        return try JSONParser.parse(try String(contentsOfFile: dir + "/anchors.json", encoding: .utf8))
    }

    /// The guard's run over `version` against the baseline file: its document's findings.
    func guardRun(_ version: String, baseline: String) throws -> [JSONValue] {
        try? FileManager.default.removeItem(atPath: dir + "/new/manual.pdf")
        try FileManager.default.copyItem(atPath: version, toPath: dir + "/new/manual.pdf")
        let cli = CapturedCLI()
        _ = cli.run(["run", "anchor-guard", ".", "--baseline", baseline, "--out", dir + "/out"], in: dir + "/new")
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        return report["documents"]?[0]?["findings"]?.arrayValue ?? []
    }

    /// `pdfpipe anchors` lists what poppler lists (`pdfinfo -dests`): every name, on its page.
    func testAnchorsListWhatPopplerLists() throws {
        let file = try anchorsFile(of: fixtures + "/v1")
        XCTAssertEqual(file["format"], .string("pdfpipe-anchors"))
        let doc = try XCTUnwrap(file["files"]?[0])
        XCTAssertEqual(doc["path"], .string("manual.pdf"))
        XCTAssertEqual(doc["pages"], .int(6))
        var ours: [String: Int] = [:]
        for a in doc["anchors"]?.arrayValue ?? [] { ours[a["name"]!.stringValue!] = a["page"]?.intValue }
        let dests = try ExternalTool.run("/usr/bin/pdfinfo", ["-dests", fixtures + "/v1/manual.pdf"])
        var poppler: [String: Int] = [:]
        for line in dests.output.split(separator: "\n").dropFirst() {
            guard let page = Int(line.split(separator: " ").first ?? ""), let q = line.firstIndex(of: "\""),
                line.last == "\""
            else { continue }
            poppler[String(line[line.index(after: q)..<line.index(before: line.endIndex)])] = page
        }
        XCTAssertEqual(ours.count, 22)
        XCTAssertEqual(ours, poppler)
        let titles = Dictionary(
            uniqueKeysWithValues: (doc["anchors"]?.arrayValue ?? []).compactMap { a in
                a["title"]?.stringValue.map { (a["name"]!.stringValue!, $0) }
            })
        XCTAssertEqual(titles["sec:download"], "Download")
        XCTAssertEqual(titles["ch:ref"], "Reference")
        XCTAssertNil(titles["page.1"], "no bookmark goes to it")
    }

    /// Every removed or renamed destination found with its closest new name; nothing on a rebuild
    /// by another engine (XeTeX) or a qpdf re-save with object streams.
    func testARebuildThatRemovesAnchorsIsCaught() throws {
        _ = try anchorsFile(of: fixtures + "/v1")
        let findings = try guardRun(fixtures + "/v2/manual.pdf", baseline: dir + "/anchors.json")
        var closest: [String: String] = [:]
        for f in findings where f["rule"]?.stringValue == "dest.removed" {
            closest[f["anchor"]!.stringValue!] = f["closest"]?["name"]?.stringValue ?? "-"
            XCTAssertEqual(f["severity"], .string("error"), "anchor-guard makes it an error")
            XCTAssertEqual(f["baseline"], .string("new"))
        }
        XCTAssertEqual(
            closest,
            [
                "sec:download": "sec:downloading", "sec:env": "sec:environment", "ch:usage": "ch:using",
                // Its label removed, the section kept: hyperref names it by its counter.
                "sec:exit": "section.6.2",
                // The section is gone.
                "sec:examples": "-",
            ])
        let count = try XCTUnwrap(findings.first { $0["rule"]?.stringValue == "dest.page-count-changed" })
        XCTAssertEqual(count["movedFrom"], .int(4), "Configuration was page 4, after the inserted chapter")
        XCTAssertEqual(count["movedBy"], .int(1))
        XCTAssertEqual(findings.count, 6, "\(findings)")

        // A rebuild by XeTeX, and a qpdf re-save (renumbered objects in object streams): nothing.
        XCTAssertEqual(try guardRun(fixtures + "/rebuild/manual.pdf", baseline: dir + "/anchors.json"), [])
        let resaved = dir + "/resaved.pdf"
        let q = try ExternalTool.run(
            "/usr/bin/qpdf",
            ["--object-streams=generate", "--compress-streams=y", fixtures + "/v1/manual.pdf", resaved])
        XCTAssertEqual(q.status, 0, q.output)
        XCTAssertEqual(try guardRun(resaved, baseline: dir + "/anchors.json"), [])

        // The guard's own report.json is a baseline too; a team that publishes anchors makes
        // removing one an error.
        _ = try guardRun(fixtures + "/v1/manual.pdf", baseline: dir + "/anchors.json")
        try FileManager.default.copyItem(atPath: dir + "/out/report.json", toPath: dir + "/base-report.json")
        try
            #"{"version": 1, "stages": [{"use": "resolve-destinations", "with": {"list": true}}], "rules": {"dest.removed": "error"}}"#
            .write(toFile: dir + "/new/strict.json", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: dir + "/new/manual.pdf")
        try FileManager.default.copyItem(atPath: fixtures + "/v2/manual.pdf", toPath: dir + "/new/manual.pdf")
        let cli = CapturedCLI()
        let code = cli.run(
            ["run", "strict.json", "manual.pdf", "--baseline", dir + "/base-report.json", "--out", dir + "/strict"],
            in: dir + "/new")
        XCTAssertEqual(code, .findings, cli.stdout + cli.stderr)
        XCTAssertTrue(cli.stdout.contains("error: named destination 'sec:env'"), cli.stdout)

        // pdfpipe baseline keeps the report's anchors beside its findings.
        let b = CapturedCLI()
        XCTAssertEqual(b.run(["baseline", "base-report.json", "--out", "baseline.json"], in: dir), .clean, b.stderr)
        XCTAssertTrue(b.stdout.contains("and the named destinations of 1"), b.stdout)
        let removed = try guardRun(fixtures + "/v2/manual.pdf", baseline: dir + "/baseline.json").filter {
            $0["rule"]?.stringValue == "dest.removed"
        }
        XCTAssertEqual(removed.count, 5)
    }

    /// A document that leaves the batch takes all its anchors with it: one finding for the run.
    func testADocumentThatLeavesTheBatchTakesItsAnchors() throws {
        let recorded = try anchorsFile(of: fixtures + "/v1")
        let names = try XCTUnwrap(recorded["files"]?[0]?["anchors"]?.arrayValue?.count)
        XCTAssertGreaterThan(names, 10)
        // The batch now holds another document only (the manual was renamed).
        try FileManager.default.copyItem(atPath: fixtures + "/v1/manual.pdf", toPath: dir + "/new/guide.pdf")
        let cli = CapturedCLI()
        _ = cli.run(
            ["run", "anchor-guard", ".", "--baseline", dir + "/anchors.json", "--out", dir + "/out"], in: dir + "/new")
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        let run = report["findings"]?.arrayValue ?? []
        XCTAssertEqual(run.compactMap { $0["rule"]?.stringValue }, ["dest.removed"], "\(run)")
        XCTAssertEqual(run.first?["document"], "manual.pdf")
        XCTAssertEqual(run.first?["anchors"], .int(names))
        XCTAssertEqual(run.first?["severity"], "error", "anchor-guard's level")
        XCTAssertTrue(
            run.first?["message"]?.stringValue?.hasPrefix(
                "'manual.pdf' is no longer in the batch: the \(names) named destinations the baseline records for it are gone"
            )
                == true, "\(run)")
    }

    /// A baseline that records anchors, against a run that does not list them: said, not silent.
    func testARunThatDoesNotListAnchorsSaysSo() throws {
        _ = try anchorsFile(of: fixtures + "/v1")
        try FileManager.default.copyItem(atPath: fixtures + "/v2/manual.pdf", toPath: dir + "/new/manual.pdf")
        let cli = CapturedCLI()
        _ = cli.run(
            ["run", "link-audit", ".", "--offline", "--baseline", dir + "/anchors.json", "--out", dir + "/out"],
            in: dir + "/new")
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        XCTAssertEqual(
            report["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }, ["dest.anchors-not-compared"])
    }

    /// From a report: the anchors its resolve-destinations listed; a report that lists none says so.
    func testAnchorsFromAReport() throws {
        let listed = try guardRun(fixtures + "/v1/manual.pdf", baseline: try writeEmptyAnchors())
        XCTAssertEqual(listed, [])
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run(["anchors", dir + "/out/report.json", "--out", dir + "/from-report.json"], in: dir), .clean)
        let file = try JSONParser.parse(try String(contentsOfFile: dir + "/from-report.json", encoding: .utf8))
        XCTAssertEqual(file["files"]?[0]?["anchors"]?.arrayValue?.count, 22)
        XCTAssertEqual(file["files"]?[0]?["pages"], .int(6))

        let plain = CapturedCLI()
        _ = plain.run(["run", "link-audit", ".", "--offline", "--out", dir + "/plain"], in: dir + "/new")
        let refused = CapturedCLI()
        XCTAssertEqual(refused.run(["anchors", dir + "/plain/report.json"], in: dir), .usage)
        XCTAssertTrue(refused.stderr.contains("lists no document's named destinations"), refused.stderr)
    }

    func writeEmptyAnchors() throws -> String {
        try #"{"format": "pdfpipe-anchors", "version": 1, "files": []}"#.write(
            toFile: dir + "/empty.json", atomically: true, encoding: .utf8)
        return dir + "/empty.json"
    }

    /// Bad input: a missing folder, a report without anchors, a PDF that is not one; each named.
    func testBadInputIsNamed() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["anchors", "nowhere"], in: dir), .usage)
        XCTAssertTrue(cli.stderr.contains("nowhere"), cli.stderr)
        try "not a pdf".write(toFile: dir + "/old/broken.pdf", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: fixtures + "/v1/manual.pdf", toPath: dir + "/old/manual.pdf")
        let mixed = CapturedCLI()
        XCTAssertEqual(mixed.run(["anchors", "old", "--out", "a.json"], in: dir), .findings)
        XCTAssertTrue(mixed.stderr.contains("broken.pdf"), mixed.stderr)
        let file = try JSONParser.parse(try String(contentsOfFile: dir + "/a.json", encoding: .utf8))
        XCTAssertEqual(file["files"]?.arrayValue?.map { $0["path"] }, [.string("manual.pdf")])
    }
}
