import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#65, 1) fix-links against the loopback server: permanent redirects rewritten to where they
/// lead, in a copy that is the original plus an incremental update of only those links.
extension ExternalLinkTests {
    func testFixLinksRewritesPermanentRedirectsInAnIncrementalUpdate() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let original = dir + "/in/moved.pdf"
        try writeLinks(
            original,
            [
                base + "/r/301/ok", base + "/r/308/page.html#intro", base + "/r/302/ok", base + "/chain", base + "/ok",
            ])
        let (_, report, stderr) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}"#,
            flags: ["--format", "json,replacements,replacements-csv,sarif,html"], then: #", {"use": "fix-links"}"#)
        let doc = try XCTUnwrap(report["documents"]?.arrayValue?.first, stderr)
        let changed = try XCTUnwrap(doc["fixes"]?["changed"]?.arrayValue, "\(doc)")
        XCTAssertEqual(
            changed.map { [$0["from"]?.stringValue ?? "", $0["to"]?.stringValue ?? "", $0["why"]?.stringValue ?? ""] },
            [
                [base + "/r/301/ok", base + "/ok", "moved permanently (301)"],
                [base + "/r/308/page.html#intro", base + "/page.html#intro", "moved permanently (308)"],
                // 301, then 302: the permanent move only (the next address may change back).
                [base + "/chain", base + "/chain2", "moved permanently (301)"],
            ])
        XCTAssertEqual(doc["fixes"]?["file"], "fixed/moved.pdf")
        // The run's lists of replacements: JSON, and CSV for people.
        let list = try JSONParser.parse(try String(contentsOfFile: dir + "/out/replacements.json", encoding: .utf8))
        XCTAssertEqual(list.arrayValue?.map { $0["to"] }, changed.map { $0["to"] })
        XCTAssertEqual(list.arrayValue?.first?["document"], "moved.pdf")
        XCTAssertEqual(list.arrayValue?.first?["file"], "fixed/moved.pdf")
        let csv = try String(contentsOfFile: dir + "/out/replacements.csv", encoding: .utf8)
        XCTAssertEqual(
            csv.components(separatedBy: "\r\n").prefix(2),
            [
                "document,page,object,rule,field,from,to,why,file",
                "moved.pdf,1,\"4 0 R\",uri.redirected,uri,\(base)/r/301/ok,\(base)/ok,\"moved permanently (301)\",fixed/moved.pdf",
            ])
        // Each finding says its fix; a temporary redirect (302) has neither a finding nor a fix.
        let moved = (doc["findings"]?.arrayValue ?? []).filter { $0["rule"] == "uri.redirected" }
        XCTAssertEqual(moved.compactMap { $0["fix"]?["to"]?.stringValue }.count, 3)

        // The copy: the original's bytes, then an update of the three annotations only.
        let before = try Data(contentsOf: URL(fileURLWithPath: original))
        let after = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/fixed/moved.pdf"))
        XCTAssertTrue(after.starts(with: before))
        let update = String(decoding: after.dropFirst(before.count), as: UTF8.self)
        XCTAssertEqual(update.components(separatedBy: " obj\n").count - 1, 3, update)
        let check = try ExternalTool.run("/usr/bin/qpdf", ["--check", dir + "/out/fixed/moved.pdf"])
        XCTAssertEqual(check.status, 0, check.output)
        // qpdf, the second opinion, reads the new targets.
        let shown = try ExternalTool.run(
            "/usr/bin/qpdf", ["--qdf", "--object-streams=disable", dir + "/out/fixed/moved.pdf", "-"])
        for c in changed { XCTAssertTrue(shown.output.contains("(" + (c["to"]?.stringValue ?? "") + ")"), "\(c)") }
        XCTAssertFalse(shown.output.contains("(" + base + "/r/301/ok)"))

        // SARIF proposes each change alone: inserted at the original's end, the bytes give a file
        // qpdf finds sound with that link, and only that one, rewritten.
        let sarif = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let results = sarif["runs"]?[0]?["results"]?.arrayValue ?? []
        let withFixes = results.filter { $0["fixes"] != nil }
        XCTAssertEqual(withFixes.count, 3, "\(results)")
        let first = try XCTUnwrap(
            withFixes.first { $0["properties"]?["uri"]?.stringValue == base + "/r/301/ok" }?["fixes"]?[0])
        let replacement = try XCTUnwrap(first["artifactChanges"]?[0]?["replacements"]?[0])
        XCTAssertEqual(
            first["artifactChanges"]?[0]?["artifactLocation"]?["uri"]?.stringValue.map {
                $0.hasSuffix("/in/moved.pdf")
            },
            true)
        XCTAssertEqual(replacement["deletedRegion"]?["byteOffset"]?.intValue, before.count)
        XCTAssertEqual(replacement["deletedRegion"]?["byteLength"]?.intValue, 0)
        let inserted = try XCTUnwrap(
            Data(base64Encoded: replacement["insertedContent"]?["binary"]?.stringValue ?? ""))
        try (before + inserted).write(to: URL(fileURLWithPath: dir + "/one.pdf"))
        XCTAssertEqual(try ExternalTool.run("/usr/bin/qpdf", ["--check", dir + "/one.pdf"]).status, 0)
        let one = try ExternalTool.run("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", dir + "/one.pdf", "-"])
        XCTAssertTrue(one.output.contains("(" + base + "/ok)"))
        XCTAssertFalse(one.output.contains("(" + base + "/r/301/ok)"))
        XCTAssertTrue(one.output.contains("(" + base + "/r/308/page.html#intro)"), "the other links stay")
        // The HTML report names the replacement beside the finding (a note: the Markdown summary
        // lists errors and warnings only; ReportSchemaTests checks it on an error).
        let html = try String(contentsOfFile: dir + "/out/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("replace with <span class=\"target\">\(base)/page.html#intro</span>"))

        // Checked again, the repaired copy has no permanent redirect left that a fix could take:
        // /chain2 answers 302 first (then 307, 308), so it has no fix, and is said as before.
        try FileManager.default.createDirectory(atPath: dir + "/again", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir + "/out/fixed/moved.pdf", toPath: dir + "/again/moved.pdf")
        let (_, again, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}"#,
            inputs: [dir + "/again"])
        let left = (again["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"] == "uri.redirected"
        }
        XCTAssertEqual(left.map { $0["uri"]?.stringValue ?? "" }, [base + "/chain2"])
        XCTAssertEqual(left.first?["fix"], nil)
    }
}

/// (#65) A named destination written in another encoding than its definition (poppler compares
/// bytes): rewritten in the definition's, after which no finding is left.
extension ExternalLinkTests {
    func testANameInAnotherEncodingIsRewrittenAsItsDefinitionWritesIt() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repo.root + "/Tests/Fixtures/rules/dest-name-encoding.pdf", toPath: dir + "/in/names.pdf")
        try #"{"stages": [{"use": "validate-links"}, {"use": "fix-links"}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let r = try ExternalTool.run(
            try Repo.executable(), ["run", dir + "/p.json", dir + "/in", "--out", dir + "/out", "--quiet"])
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        let doc = try XCTUnwrap(report["documents"]?[0], r.output)
        let finding = try XCTUnwrap(doc["findings"]?.arrayValue?.first { $0["rule"] == "dest.name-encoding" })
        XCTAssertEqual(finding["fixes"]?[0]?["fromHex"], "FEFF00630068006100700032")
        XCTAssertEqual(finding["fixes"]?[0]?["toHex"], "6368617032")
        XCTAssertEqual(doc["fixes"]?["changed"]?.arrayValue?.count, 1)
        // qpdf reads the link's name as the definition's bytes; checked again, nothing is left.
        let shown = try ExternalTool.run(
            "/usr/bin/qpdf", ["--qdf", "--object-streams=disable", dir + "/out/fixed/names.pdf", "-"])
        XCTAssertTrue(shown.output.contains("/D (chap2)"), shown.output)
        try FileManager.default.createDirectory(atPath: dir + "/again", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir + "/out/fixed/names.pdf", toPath: dir + "/again/names.pdf")
        _ = try ExternalTool.run(
            try Repo.executable(), ["run", dir + "/p.json", dir + "/again", "--out", dir + "/out2", "--quiet"])
        let again = try JSONParser.parse(try String(contentsOfFile: dir + "/out2/report.json", encoding: .utf8))
        XCTAssertEqual(again["documents"]?[0]?["findings"]?.arrayValue?.count, 0, "\(again)")
        // pdfpipe fix applies a grouped finding's fixes the same way.
        let later = try ExternalTool.run(
            try Repo.executable(), ["fix", dir + "/out/report.json", "--out", dir + "/later"])
        XCTAssertTrue(later.output.contains("1 link rewritten"), later.output)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: dir + "/later/fixed/names.pdf")),
            try Data(contentsOf: URL(fileURLWithPath: dir + "/out/fixed/names.pdf")))
    }
}
