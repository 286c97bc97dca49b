import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#65) `pdfpipe fix REPORT`: a report's fixes applied later, as the fix-links stage applies them.
extension ExternalLinkTests {
    func testFixCommandAppliesAReportsFixesAsTheStageDoes() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/moved.pdf", [base + "/r/301/ok", base + "/r/308/page.html#intro", base + "/ok"])
        let external = #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}"#
        // The stage's copy, for comparison.
        _ = try run(external, then: #", {"use": "fix-links"}"#)
        let staged = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/fixed/moved.pdf"))
        try FileManager.default.removeItem(atPath: dir + "/out")

        // A run that only checks; the fixes applied afterwards from its report.
        _ = try run(external)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/fixed"))
        let fixed = try ExternalTool.run(
            try Repo.executable(), ["fix", dir + "/out/report.json", "--out", dir + "/later"])
        XCTAssertEqual(fixed.status, 0, fixed.output)
        XCTAssertTrue(fixed.output.contains("2 links rewritten in 1 repaired copy"), fixed.output)
        let later = try Data(contentsOf: URL(fileURLWithPath: dir + "/later/fixed/moved.pdf"))
        XCTAssertEqual(later, staged, "the same bytes as fix-links writes")
        let list = try JSONParser.parse(try String(contentsOfFile: dir + "/later/replacements.json", encoding: .utf8))
        XCTAssertEqual(
            list.arrayValue?.compactMap { $0["to"]?.stringValue }, [base + "/ok", base + "/page.html#intro"])
        XCTAssertEqual(try ExternalTool.run("/usr/bin/qpdf", ["--check", dir + "/later/fixed/moved.pdf"]).status, 0)

        // The document changed since the report: a link that no longer says what the report read
        // is left, saying so; the others are still fixed.
        try writeLinks(dir + "/in/moved.pdf", [base + "/elsewhere", base + "/r/308/page.html#intro", base + "/ok"])
        let again = try ExternalTool.run(
            try Repo.executable(), ["fix", dir + "/out/report.json", "--out", dir + "/again"])
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("1 link rewritten in 1 repaired copy"), again.output)
        XCTAssertTrue(again.output.contains("1 left as they are"), again.output)

        // An output folder that cannot be written: pdfpipe's own failure (3), naming the document.
        try "".write(toFile: dir + "/a-file", atomically: true, encoding: .utf8)
        let blocked = try ExternalTool.run(
            try Repo.executable(), ["fix", dir + "/out/report.json", "--out", dir + "/a-file/below"])
        XCTAssertEqual(blocked.status, 3, blocked.output)
        XCTAssertTrue(blocked.output.contains("moved.pdf"), blocked.output)

        // A report that is not one, and a missing one: errors naming the file.
        try "{}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        for (name, said) in [("bad.json", "not a pdfpipe report"), ("missing.json", "no such file")] {
            let r = try ExternalTool.run(try Repo.executable(), ["fix", dir + "/" + name])
            XCTAssertEqual(r.status, 2, r.output)
            XCTAssertTrue(r.output.contains(name) && r.output.contains(said), r.output)
        }
    }
}
