import XCTest

@testable import PDFPipeCore

/// SARIF within code scanning's limits, and the broken-targets list (CI-gate issue, 7 and 14).
final class CIReporterUnitTests: XCTestCase {
    /// Stand-ins for the link stages' rules (Core's tests do not see the stages), as they declare them.
    let nameNotFound = Rule("dest.name-not-found", severity: .error, summary: "no such name", hint: "define it")
    let httpError = Rule("uri.http-error", severity: .error, summary: "the link fails", hint: "fix it")
    let redirected = Rule("uri.redirected", severity: .note, summary: "moved", hint: "update it")

    func finding(_ rule: Rule, page: Int, uri: String? = nil, target: String? = nil) -> Finding {
        var f = Finding(rule: rule, page: page, rect: [1, 2, 3, 4], message: "m")
        if let uri { f.details["uri"] = .string(uri) }
        if let target { f.details["target"] = .string(target) }
        return f
    }

    func testSARIFStaysWithinCodeScanningsLimitsAndLocatesEveryResult() throws {
        let many = (1...(SARIFReporter.maxResults + 7)).map { finding(nameNotFound, page: $0) }
        var report = RunReport(
            toolVersion: "1", pipeline: "p", documents: [DocumentResult(path: "a.pdf", findings: many)], generatedAt: ""
        )
        report.documents[0].workingPath = "docs/a.pdf"
        let sarif = try JSONParser.parse(SARIFReporter().render(report))
        let run = try XCTUnwrap(sarif["runs"]?[0])
        let results = run["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, SARIFReporter.maxResults)
        XCTAssertEqual(
            run["invocations"]?[0]?["toolExecutionNotifications"]?[0]?["message"]?["text"],
            "7 of 25007 results left out: code scanning takes at most 25000 per run; every finding is in report.json")
        for r in results.prefix(100) {
            XCTAssertEqual(r["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"], "docs/a.pdf")
            XCTAssertNotNil(r["partialFingerprints"]?["pdfpipe/v1"])
        }
        XCTAssertEqual(results[0]["message"]?["text"]?.stringValue?.hasPrefix("Page 1, at [1 2 3 4]: m"), true)
        for rule in run["tool"]?["driver"]?["rules"]?.arrayValue ?? [] {
            XCTAssertEqual(rule["help"]?["markdown"]?.stringValue?.contains("**How to fix:**"), true, "\(rule)")
        }
    }

    func testBrokenTargetsAreListedOnceWithEveryDocumentAndPage() {
        let a = DocumentResult(
            path: "a.pdf",
            findings: [
                finding(httpError, page: 3, uri: "https://x.example/gone"),
                finding(httpError, page: 7, uri: "https://x.example/gone"),
                finding(nameNotFound, page: 2, target: "#intro"),
                finding(redirected, page: 1, uri: "https://x.example/moved"),
            ])
        var b = DocumentResult(
            path: "b.pdf", findings: [finding(httpError, page: 1, uri: "https://x.example/gone")])
        b.workingPath = "docs/b.pdf"
        let targets = BrokenTarget.collect(
            RunReport(toolVersion: "1", pipeline: "p", documents: [a, b], generatedAt: ""))
        XCTAssertEqual(
            targets.map(\.target), ["https://x.example/gone", "#intro"], "notes are not broken; most used first")
        XCTAssertEqual(targets[0].count, 3)
        XCTAssertEqual(targets[0].usesText(), "a.pdf (pages 3, 7), docs/b.pdf (page 1)")
    }
}

/// (#65) replacements.csv's fields: values from documents are hostile — a spreadsheet runs a
/// field that begins with `=`, `+`, `-` or `@` as a formula, and a line break starts a new row.
final class ReplacementsCSVTests: XCTestCase {
    func testFieldsAreQuotedAndFormulasDefused() {
        XCTAssertEqual(ReplacementsCSVReporter.field("https://example.org/a"), "https://example.org/a")
        XCTAssertEqual(ReplacementsCSVReporter.field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"")
        XCTAssertEqual(ReplacementsCSVReporter.field("-1+1"), "\"'-1+1\"")
        XCTAssertEqual(ReplacementsCSVReporter.field("a,b"), "\"a,b\"")
        XCTAssertEqual(ReplacementsCSVReporter.field("line\nbreak"), "line\\nbreak")
    }
}
