import Foundation
import PDFPipeCLI
import PDFPipeCore
import PDFPipeStages
import XCTest

// (#33, 8) The recipes of docs/development.md ("Adding a stage", "Adding a rule", "Adding an
// option", "Adding a report format"): a toy stage with a toy rule and two options, and a toy report
// format (Recipe/), handed to the CLI as a program embedding pdfpipe would
// (`CLI(stages:reporters:)`). Each assertion is a step of a recipe working end to end.
// `scripts/recipe-check.sh` (#48) follows the recipes literally instead: the same files moved into
// Sources/, one line in `StageTable.all` and `Reporters.all`, and the fast tier run with them there
// (where this test runs too, with the toy already in the table).

final class ContributorRecipeTests: XCTestCase {
    /// True where the recipe check has put the toy into pdfpipe's own tables.
    static let joined = StageTable.all.contains { $0.id == ToyStage.descriptor.id }
    let stages = joined ? StageTable.all : StageTable.all + [ToyStage.descriptor]
    let reporters: [any Reporter] = joined ? Reporters.all : Reporters.all + [ToyReporter()]

    func cli() -> CapturedCLI { CapturedCLI() }

    func testTheToyStageIsListedWithItsOptionsRulesAndSchema() throws {
        let list = cli()
        XCTAssertEqual(list.run(["stages"], stages: stages, reporters: reporters), .clean)
        XCTAssertTrue(list.stdout.contains("toy"), list.stdout)
        XCTAssertTrue(list.stdout.contains("maxBytes"), "the option, declared once, is listed")
        let rules = cli()
        XCTAssertEqual(rules.run(["rules"], stages: stages, reporters: reporters), .clean)
        XCTAssertTrue(rules.stdout.contains("toy.large-file"), "the rule is in the catalog")
        let page = cli()
        XCTAssertEqual(page.run(["rules", "toy.large-file"], stages: stages, reporters: reporters), .clean)
        XCTAssertTrue(page.stdout.contains("file has more bytes than `maxBytes`"), page.stdout)
        let schema = cli()
        XCTAssertEqual(schema.run(["schema"], stages: stages, reporters: reporters), .clean)
        let json = try JSONParser.parse(schema.stdout)
        XCTAssertNotNil(json["properties"]?["rules"]?["properties"]?["toy.large-file"])
        XCTAssertTrue(schema.stdout.contains("bytes a file may have before toy.large-file"))
    }

    func testAnOptionOutOfItsRangeIsRejectedWithItsPath() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"stages": [{"use": "toy", "with": {"maxBytes": -1}}], "rules": {"toy.large-file": "error"}}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let c = cli()
        XCTAssertEqual(c.run(["validate", "p.json"], in: dir, stages: stages, reporters: reporters), .usage)
        XCTAssertTrue(c.stderr.contains("stages[0].with.maxBytes"), c.stderr)
        // Without the toy stage, neither the stage nor its rule is known.
        if Self.joined { return }
        let plain = cli()
        XCTAssertEqual(plain.run(["validate", "p.json"], in: dir), .usage)
        XCTAssertTrue(plain.stderr.contains("unknown rule 'toy.large-file'"), plain.stderr)
    }

    func testARunReportsTheToyRuleInEveryFormatAndItsOwn() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"""
        {"stages": [{"use": "toy", "with": {"maxBytes": 2000, "label": "size"}}],
         "rules": {"toy.large-file": "error"},
         "report": {"formats": ["json", "sarif", "toy"]}}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let samples = Repo.root + "/samples"
        let small = samples + "/empty.pdf"
        let large = samples + "/actions.pdf"
        let sizes = try [small, large].map {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int)
        }
        XCTAssertLessThan(sizes[0], 2000)
        XCTAssertGreaterThan(sizes[1], 2000)
        let c = cli()
        let code = c.run(
            ["run", "p.json", small, large, "--out", dir + "/out"], in: dir, stages: stages, reporters: reporters)
        XCTAssertEqual(code, .findings, "the rule's level from `rules` fails the run: \(c.stderr)")

        let report = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        let docs = try XCTUnwrap(report["documents"]?.arrayValue)
        let byPath = Dictionary(uniqueKeysWithValues: docs.map { ($0["path"]?.stringValue ?? "", $0) })
        let big = try XCTUnwrap(byPath.first { $0.key.hasSuffix("actions.pdf") }?.value)
        XCTAssertEqual(big["findings"]?[0]?["rule"], "toy.large-file")
        XCTAssertEqual(big["findings"]?[0]?["severity"], "error")
        XCTAssertEqual(big["findings"]?[0]?["stage"], "toy")
        XCTAssertEqual(big["findings"]?[0]?["hint"], "make the file smaller, or raise maxBytes")
        XCTAssertEqual(big["toy"]?["bytes"], .int(sizes[1]))
        XCTAssertEqual(big["toy"]?["label"], "size")
        let clean = try XCTUnwrap(byPath.first { $0.key.hasSuffix("empty.pdf") }?.value)
        XCTAssertEqual(clean["findings"]?.arrayValue?.count, 0)

        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let run = try XCTUnwrap(sarif["runs"]?[0])
        let ids = (run["tool"]?["driver"]?["rules"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        let index = try XCTUnwrap(ids.firstIndex(of: "toy.large-file"))
        XCTAssertEqual(run["results"]?[0]?["ruleId"], "toy.large-file")
        XCTAssertEqual(run["results"]?[0]?["ruleIndex"], .int(index))

        let toy = try String(contentsOfFile: dir + "/out/toy.txt", encoding: .utf8)
        XCTAssertEqual(
            toy, "\(big["path"]?.stringValue ?? "") toy.large-file the file has \(sizes[1]) bytes, more than 2000\n")
    }
}
