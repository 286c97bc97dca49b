import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// Every recipe of the README's "Using it in CI" runs, from the README's own text
/// (scripts/run-readme-recipes.py plays GitHub Actions), in a scratch repository whose build/pdf
/// holds the samples and that has nothing else (no pipeline files): the adoption path (first run, baseline, pull-request gate, nightly web links,
/// shards and merge) must pass where it should and fail where it should (CI-gate issue, "Done when").
final class ReadmeRecipeTests: XCTestCase {
    var repo = ""

    override func setUpWithError() throws {
        guard (try? ExternalTool.run("/usr/bin/python3", ["-c", "import yaml"]).status) == 0 else {
            throw Prerequisite.missing("python3 with yaml is missing (scripts/setup.sh --test installs python3-yaml)")
        }
        repo = Repo.temporaryFolder()
        let fm = FileManager.default
        // A user's repository: PDFs and nothing of pdfpipe's (no pipelines/): the recipes must
        // name built-in pipelines or files they write themselves.
        try fm.createDirectory(atPath: repo + "/build", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Repo.root + "/samples", toPath: repo + "/build/pdf")
        XCTAssertEqual(try ExternalTool.run("/usr/bin/git", ["-C", repo, "init", "-q"]).status, 0)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: repo) }

    struct Step {
        var job: String
        var command: String
        var status: Int?
        var output: String
    }

    /// Runs the section's blocks (all, or those given); returns each block's title, its jobs'
    /// verdicts, and its steps.
    func runRecipes(only: [Int] = []) throws -> [(title: String, jobs: [String: Bool], steps: [Step])] {
        let exe = try Repo.executable()
        let args =
            [
                Repo.root + "/scripts/run-readme-recipes.py", Repo.root + "/README.md", repo, "--bin",
                (exe as NSString).deletingLastPathComponent,
            ]
            + only.flatMap { ["--only", String($0)] }
        let r = try ExternalTool.run(
            "/usr/bin/python3", args, mergingErrors: false,
            // Every web request goes to a closed loopback port (a proxy that is not there): the
            // tests never reach the internet, and every web link is then unreachable.
            environment: [
                "all_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
                "http_proxy": "http://127.0.0.1:9", "no_proxy": "", "NO_PROXY": "",
            ])
        XCTAssertEqual(r.status, 0, r.output)
        return try (JSONParser.parse(r.output).arrayValue ?? []).map { b in
            let jobs = (b["jobs"]?.objectValue ?? [:]).compactMapValues(\.boolValue)
            let steps = (b["steps"]?.arrayValue ?? []).map { s in
                Step(
                    job: s["job"]?.stringValue ?? "",
                    command: s["run"]?.stringValue ?? s["uses"]?.stringValue ?? s["name"]?.stringValue ?? "",
                    status: s["status"]?.intValue, output: s["output"]?.stringValue ?? "")
            }
            return (b["title"]?.stringValue ?? "", jobs, steps)
        }
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: repo + "/" + path, encoding: .utf8) }

    func testTheCIRecipesOfTheReadmeWork() throws {
        let blocks = try runRecipes()
        XCTAssertEqual(
            blocks.map(\.title),
            [
                "pdfpipe run link-audit build/pdf --offline --out out/first --format json,markdown || true",
                "pdfpipe baseline out/first/report.json --out .pdfpipe/baseline.json",
                "GitHub Actions: pull-request gate", "GitHub Actions: nightly web links",
                "GitHub Actions: four shards, then one merge that is the gate",
                "GitLab CI: four shards, then one merge that is the gate, with Code Quality and JUnit",
                "pdfpipe run anchor-guard build/pdf --out out/anchors --fail-on never",
                #"jq -r '.documents[] | .links[]? | select(.check.outcome == "http-error") | "\(.check.status) \(.uri)"' out/links/report.json"#,
            ])
        for (title, _, steps) in blocks where !title.hasPrefix("GitHub") && !title.hasPrefix("GitLab") {
            for s in steps { XCTAssertEqual(s.status, 0, "\(s.command): \(s.output)") }
        }
        // 6 (anchors): the guard passes on the PDFs whose anchors it recorded.
        let anchors = try JSONParser.parse(try read(".pdfpipe/anchors.json"))
        XCTAssertGreaterThan(anchors["anchors"]?.arrayValue?.count ?? 0, 0, "documents with named destinations")
        XCTAssertTrue(blocks[6].steps.last?.output.contains("0 new") ?? false, blocks[6].steps.last?.output ?? "")

        // 1–2: the first run's findings are the baseline.
        let baseline = try JSONParser.parse(try read(".pdfpipe/baseline.json"))
        XCTAssertEqual(baseline["findings"]?.arrayValue?.count, 53)

        // 3: the pull-request gate passes on the baselined batch, with annotations and a summary.
        XCTAssertEqual(blocks[2].jobs, ["pdf-gate": true])
        XCTAssertEqual(blocks[2].steps.filter { $0.status == nil }.map(\.command), [], "the action needs no install")
        XCTAssertTrue(blocks[2].steps.contains { $0.command == "pdfpipe/pdfpipe" && $0.status == 0 })
        let outputs = try GitHubActionTests.outputs(repo + "/.github/output-pdf-gate")
        XCTAssertEqual(outputs["exit-code"], "0", "\(outputs)")
        XCTAssertEqual(outputs["new"], "0", "\(outputs)")
        XCTAssertNotNil(outputs["errors"].flatMap { Int($0) }, "\(outputs)")
        XCTAssertTrue(
            try read(".github/step-summary-pdf-gate").contains("0 new, 53 unchanged (not listed below), 0 fixed"))
        XCTAssertTrue(
            try read("out/gate/github.txt").contains("46 findings already in the baseline not annotated"),
            "its errors and warnings")

        // 4: the nightly check: every web link is unreachable here, but it is the first night —
        // with confirmRuns 3 each is uri.flaky (a warning) until it has failed three nights in a
        // row, so the job passes; each failing URL is listed once.
        XCTAssertEqual(blocks[3].jobs, ["web-links": true])
        let nightly = try XCTUnwrap(blocks[3].steps.first { $0.command.contains("--out out/links") })
        XCTAssertEqual(nightly.status, 0)
        XCTAssertTrue(nightly.output.contains("(baseline: 7 new, 53 unchanged, 0 fixed)"), nightly.output)
        let summary = try read(".github/step-summary-web-links")
        // (Targets as the documents write them: the scratch pipeline's remap is not the link.)
        XCTAssertTrue(
            summary.contains(
                "| https://example.com/ | `uri.flaky` | 2 | build/pdf/outlines.pdf, build/pdf/uri-links.pdf (page 1) |"
            ), summary)
        XCTAssertTrue(summary.contains("— failed in 1 run in a row; an error once it has failed in 3 (confirmRuns)"))
        XCTAssertEqual(blocks[3].steps.last?.status, 0, "the cache is saved")
        // The night is recorded in the ledger beside the cache, and its trend is in the summary.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: repo + "/.pdfpipe-cache/ledger").count, 1)
        XCTAssertTrue(summary.contains("# Link rot\n\n1 run from "), summary)

        // 5: four shards and the merge: the gate passes (nothing new), over the whole batch.
        XCTAssertEqual(blocks[4].jobs, ["audit": true, "gate": true])
        XCTAssertEqual(blocks[4].steps.filter { $0.job == "audit" && $0.command == "pdfpipe/pdfpipe" }.count, 4)
        XCTAssertEqual(
            (try? read(".github/step-summary-audit")) ?? "", "", "the shards leave the summary to the gate")
        XCTAssertTrue(try read(".github/step-summary-gate").contains("0 new, 53 unchanged"))
        let merged = try JSONParser.parse(try read("out/audit/report.json"))
        XCTAssertEqual(merged["summary"]?["documents"], 21)
        XCTAssertEqual(merged["baseline"]?["unchanged"], 53)

        // 6: GitLab: four parallel shards, the merge passes, its Code Quality and JUnit reports kept.
        XCTAssertEqual(blocks[5].jobs, ["audit": true, "gate": true])
        XCTAssertEqual(blocks[5].steps.filter { $0.job == "audit" }.count, 4)
        let quality = try JSONParser.parse(try read("out/audit/gl-code-quality-report.json"))
        XCTAssertEqual(
            quality.arrayValue?.count, 46, "every error and warning of the batch (all in the baseline); no notes")
        XCTAssertFalse(quality.arrayValue?.contains { $0["severity"] == "critical" } ?? true, "nothing new fails")

        // A pull request that adds a broken link: the gate and the sharded gate fail, and the
        // annotation points at the new file as the repository names it.
        try FileManager.default.copyItem(
            atPath: repo + "/build/pdf/broken-links.pdf", toPath: repo + "/build/pdf/new-chapter.pdf")
        let again = try runRecipes(only: [2, 4, 5])
        XCTAssertEqual(
            again.map(\.jobs), [["pdf-gate": false], ["audit": true, "gate": false], ["audit": true, "gate": false]])
        XCTAssertTrue(
            try read("out/audit/gl-code-quality-report.json").contains(#""severity":"critical""#),
            "the new findings fail the gate, and the Code Quality report was kept")
        let annotations = try read("out/gate/github.txt")
        XCTAssertTrue(annotations.hasPrefix("::error file=build/pdf/new-chapter.pdf,title="), annotations)
        let merge = try XCTUnwrap(again[1].steps.first { $0.job == "gate" && $0.command == "pdfpipe/pdfpipe" })
        XCTAssertEqual(merge.status, 1, merge.output)
        XCTAssertTrue(try read("out/audit/report.md").contains("## build/pdf/new-chapter.pdf"))
    }
}
