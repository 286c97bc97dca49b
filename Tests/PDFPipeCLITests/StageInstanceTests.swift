import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// Regression (trust issue, 7c): with a stage listed twice, each JUnit test case carried both
/// runs' findings (72 error lines for 48 errors). Findings carry the stage instance that made them.
final class StageInstanceTests: XCTestCase {
    func testAStageListedTwiceReportsEachRunsFindingsOnce() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try
            #"{"version": 1, "stages": [{"use": "validate-links"}, {"use": "validate-links", "with": {"outlines": false}}]}"#
            .write(
                toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run(
                [
                    "run", dir + "/p.json", Samples.path("broken-links.pdf"), "--out", dir + "/out", "--format",
                    "json,junit",
                ], in: dir), .findings)
        let report = try Repo.stableReport(dir + "/out/report.json")
        let findings = report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []
        let first = findings.filter { $0["stage"] == "validate-links" }.count
        let second = findings.filter { $0["stage"] == "validate-links#2" }.count
        XCTAssertGreaterThan(first, 5)
        XCTAssertEqual(first + second, findings.count)
        let junit = try String(contentsOfFile: dir + "/out/junit.xml", encoding: .utf8)
        let cases = junit.components(separatedBy: "<testcase ").dropFirst()
        XCTAssertEqual(cases.count, 2)
        for (name, count) in [("\"validate-links\"", first), ("\"validate-links#2\"", second)] {
            let body = try XCTUnwrap(cases.first { $0.contains("name=\(name)") })
            let lines = ["error", "warning", "note"].map { body.components(separatedBy: "\($0) [").count - 1 }.reduce(
                0, +)
            XCTAssertEqual(lines, count, name)
        }
    }
}

/// Regression (CI-gate issue, 4): `--offline` needed the web check's secrets — a `${DOCS_TOKEN}`
/// header that a fork's pull request does not have stopped the run (exit 2), although offline
/// nothing is sent.
final class OfflineSecretsTests: XCTestCase {
    func testOfflineRunsDoNotNeedHeaderSecrets() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        unsetenv("PDFPIPE_TEST_UNSET_TOKEN")
        let external =
            #"{"enabled": true, "headers": [{"name": "Authorization", "value": "Bearer ${PDFPIPE_TEST_UNSET_TOKEN}", "hosts": "a.example"}]}"#
        try #"{"version": 1, "stages": [{"use": "validate-links", "with": {"external": \#(external)}}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let online = CapturedCLI()
        XCTAssertEqual(
            online.run(["run", dir + "/p.json", Samples.path("uri-links.pdf"), "--out", dir + "/a"], in: dir), .usage)
        XCTAssertTrue(
            online.stderr.contains("the variable 'PDFPIPE_TEST_UNSET_TOKEN' is not handed to pipeline files"),
            online.stderr)
        let offline = CapturedCLI()
        let code = offline.run(
            ["run", dir + "/p.json", Samples.path("uri-links.pdf"), "--out", dir + "/b", "--quiet", "--offline"],
            in: dir)
        XCTAssertTrue(code == .clean || code == .findings, "\(code) \(offline.stderr)")
        var links =
            try Repo.stableReport(dir + "/b/report.json")["documents"]?.arrayValue?.first?["links"]?.arrayValue ?? []
        XCTAssertTrue(links.contains { $0["check"]?["outcome"] == "skipped" }, "web links skipped offline")
        // Isolated, the worker processes load the pipeline the same way (the real executable).
        let isolated = try ExternalTool.run(
            try Repo.executable(),
            [
                "run", dir + "/p.json", Samples.path("uri-links.pdf"), "--out", dir + "/i", "--quiet", "--offline",
                "--isolate",
            ])
        XCTAssertTrue(isolated.status == 0 || isolated.status == 1, isolated.output)
        links =
            try Repo.stableReport(dir + "/i/report.json")["documents"]?.arrayValue?.first?["links"]?.arrayValue ?? []
        XCTAssertTrue(links.contains { $0["check"]?["outcome"] == "skipped" }, "isolated: web links skipped offline")
        // The pipeline's own `offline: true` needs no secret either.
        try
            #"{"version": 1, "stages": [{"use": "validate-links", "with": {"external": \#(external.replacingOccurrences(of: "\"enabled\": true", with: "\"enabled\": true, \"offline\": true"))}}]}"#
            .write(
                toFile: dir + "/q.json", atomically: true, encoding: .utf8)
        let fileOffline = CapturedCLI()
        XCTAssertNotEqual(
            fileOffline.run(
                ["run", dir + "/q.json", Samples.path("uri-links.pdf"), "--out", dir + "/c", "--quiet"], in: dir),
            .usage, fileOffline.stderr)
    }
}
