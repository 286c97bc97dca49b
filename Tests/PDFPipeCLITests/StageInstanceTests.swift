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
        try #"{"version": 1, "stages": [{"use": "validate-links"}, {"use": "validate-links", "with": {"outlines": false}}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", dir + "/p.json", Samples.path("broken-links.pdf"), "--out", dir + "/out", "--format", "json,junit"], in: dir), .findings)
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
            let lines = ["error", "warning", "note"].map { body.components(separatedBy: "\($0) [").count - 1 }.reduce(0, +)
            XCTAssertEqual(lines, count, name)
        }
    }
}
