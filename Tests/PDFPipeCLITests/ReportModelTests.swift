import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// report.json, the results file and the baseline file are declared once as `Codable` types
/// (#33, 5): what is written is what is read back. Every committed golden report (the link audit's
/// sections and finding details; the gated run's baseline, ignore list, suppressed and fixed
/// findings, run findings) reads back into the model and writes out to the same bytes — a key
/// written under one name and read under another would lose a field here.
final class ReportModelTests: XCTestCase {
    func testGoldenReportsReadBackToTheSameBytes() throws {
        for name in ["link-audit-report.json", "gate-report.json", "default-report.json"] {
            let path = Repo.root + "/Tests/PDFPipeCLITests/Golden/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let original = try JSONParser.parse(text)
            let report = try RunReport(json: original)
            XCTAssertFalse(report.documents.isEmpty, name)
            // The golden files leave out the volatile parts (`timings`, `generatedAt`): so does this.
            let again = JSONWriter.pretty(Self.stable(report.json))
            XCTAssert(again == text, "\(name):\n" + Golden.diff(expected: text, actual: again))
        }
    }

    static func stable(_ v: JSONValue) -> JSONValue {
        guard case .object(var top) = v, case .array(let docs)? = top["documents"] else { return v }
        top["generatedAt"] = nil
        top["documents"] = .array(
            docs.map { d in
                guard case .object(var o) = d else { return d }
                o["timings"] = nil
                return .object(o)
            })
        return .object(top)
    }

    func testGatedReportKeepsEveryPartOfTheModel() throws {
        let text = try String(
            contentsOfFile: Repo.root + "/Tests/PDFPipeCLITests/Golden/gate-report.json", encoding: .utf8)
        let report = try RunReport(json: JSONParser.parse(text))
        XCTAssertNotNil(report.baseline)
        XCTAssertFalse(report.suppressions.isEmpty)
        XCTAssertFalse(report.findings.isEmpty, "the expired and unused ignore entries")
        XCTAssertTrue(report.documents.contains { !$0.suppressed.isEmpty })
        XCTAssertTrue(report.documents.contains { !$0.fixedSinceBaseline.isEmpty })
        XCTAssertTrue(report.documents.flatMap(\.findings).contains { $0.baseline == .unchanged })
        XCTAssertTrue(report.documents.flatMap(\.findings).contains { !$0.details.isEmpty })
    }

    func testABaselineFileReadsBackToTheSameBytes() throws {
        let text = try String(
            contentsOfFile: Repo.root + "/Tests/PDFPipeCLITests/Golden/gate-report.json", encoding: .utf8)
        let report = try RunReport(json: JSONParser.parse(text))
        let file = Baseline.file(for: report)
        let baseline = try Baseline(json: file)
        XCTAssertEqual(baseline.count, report.documents.reduce(0) { $0 + $1.findings.count })
        let entries = file["findings"]?.arrayValue ?? []
        XCTAssertFalse(entries.isEmpty)
        for e in entries {
            let path = try XCTUnwrap(e["path"]?.stringValue)
            let fp = try XCTUnwrap(e["fingerprint"]?.stringValue)
            XCTAssertEqual(baseline.documents[path]?[fp], e)
        }
    }

    /// A report that cannot be read says where: the document, the finding and the field.
    func testAMalformedReportSaysWhichField() throws {
        let text = try String(
            contentsOfFile: Repo.root + "/Tests/PDFPipeCLITests/Golden/gate-report.json", encoding: .utf8)
        guard case .object(var o) = try JSONParser.parse(text), case .array(var docs) = o["documents"],
            case .object(var d) = docs[1], case .array(var findings) = d["findings"], findings.count > 0,
            case .object(var f) = findings[0]
        else { return XCTFail("the golden report has a second document with findings") }
        f["severity"] = "fatal"
        findings[0] = .object(f)
        d["findings"] = .array(findings)
        docs[1] = .object(d)
        o["documents"] = .array(docs)
        XCTAssertThrowsError(try RunReport(json: .object(o))) { error in
            XCTAssertTrue("\(error)".hasPrefix("documents[1].findings[0].severity: "), "\(error)")
        }
        d["pageCount"] = "three"
        docs[1] = .object(d)
        o["documents"] = .array(docs)
        XCTAssertThrowsError(try RunReport(json: .object(o))) { error in
            XCTAssertTrue("\(error)".contains("documents[1].pageCount: expected an integer"), "\(error)")
        }
    }
}
