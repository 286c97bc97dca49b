import PDFPipeCore
import XCTest

/// Finding fingerprints (CI-gate issue, 7 and 10): stable across message rewordings and object
/// renumbering, distinct per link, page and occurrence, and kept through a report's round trip.
final class FingerprintTests: XCTestCase {
    /// A stand-in for the link stages' rule (Core's tests do not see the stages).
    let nameNotFound = Rule("dest.name-not-found", severity: .error, summary: "no such name", hint: "define it")

    func link(_ page: Int, _ k: Int, _ message: String, object: String = "12 0 R") -> Finding {
        var f = Finding(rule: nameNotFound, page: page, object: object, message: message)
        f.details["annotationIndex"] = .int(k)
        return f
    }

    func testFingerprintsFollowTheProblemNotItsWording() throws {
        let a = DocumentResult(
            path: "guide.pdf",
            findings: [
                link(1, 0, "named destination 'x' does not exist"), link(1, 1, "named destination 'y' does not exist"),
                link(2, 0, "named destination 'x' does not exist"),
                Finding(rule: .pdfDamaged, message: "qpdf: file is damaged"),
                Finding(rule: .pdfDamaged, message: "qpdf: xref not found"),
            ])
        let fp = a.fingerprints
        XCTAssertEqual(Set(fp).count, fp.count, "distinct problems, distinct fingerprints: \(fp)")
        XCTAssertTrue(
            fp[4].hasSuffix(":2") && fp[4].hasPrefix(String(fp[3].prefix(16))), "alike findings by order: \(fp)")
        // Reworded messages and renumbered objects (a rebuilt document): the same fingerprints.
        let b = DocumentResult(
            path: "guide.pdf",
            findings: [
                link(1, 0, "the name 'x' is not defined", object: "40 0 R"),
                link(1, 1, "the name 'y' is not defined", object: "41 0 R"),
                link(2, 0, "the name 'x' is not defined", object: "57 0 R"),
                Finding(rule: .pdfDamaged, message: "qpdf: the file is damaged"),
                Finding(rule: .pdfDamaged, message: "qpdf: no xref"),
            ])
        XCTAssertEqual(b.fingerprints, fp)
        XCTAssertNotEqual(
            DocumentResult(path: "other.pdf", findings: a.findings).fingerprints, fp,
            "the document is part of the identity")
        // In report.json, and read back by merge without becoming a detail.
        let json = a.json
        XCTAssertEqual(json["findings"]?.arrayValue?.map { $0["fingerprint"]?.stringValue }, fp.map { Optional($0) })
        let back = try DocumentResult(json: json)
        XCTAssertNil(back.findings[0].details["fingerprint"])
        XCTAssertEqual(back.json, json)
    }

    /// (#42, 12) A baselined note (search term TODO) never hides a new error (term DRAFT) on the
    /// same page, and a level raised since the baseline is new (not fixed: the finding is there).
    func testAnAcceptedFindingCannotAbsorbANewOneOfHigherSeverity() throws {
        let match = Rule("text.match", severity: .warning, summary: "a search term matched", hint: "")
        func found(_ term: String, _ severity: Severity) -> Finding {
            var f = Finding(rule: match, severity: severity, page: 3, message: "found '\(term)'")
            f.details["term"] = .string(term)
            return f
        }
        var accepted = Baseline(documents: [:])
        accepted.add(DocumentResult(path: "a.pdf", findings: [found("TODO", .note)]))

        func judged(_ findings: [Finding]) -> DocumentResult {
            var d = DocumentResult(path: "a.pdf", findings: findings)
            ResultPolicy(suppressions: [], baseline: accepted, today: "2026-01-01").apply(&d)
            return d
        }
        // The note fixed, a new error of another term: new, and the note is fixed.
        let swapped = judged([found("DRAFT", .error)])
        XCTAssertEqual(swapped.findings.map(\.baseline), [.new])
        XCTAssertEqual(swapped.fixedSinceBaseline.count, 1)
        // The same term, its level raised: new, and nothing is fixed.
        let raised = judged([found("TODO", .error)])
        XCTAssertEqual(raised.findings.map(\.baseline), [.new])
        XCTAssertEqual(raised.fixedSinceBaseline.count, 0)
        // The same finding, or its level lowered: unchanged.
        XCTAssertEqual(judged([found("TODO", .note)]).findings.map(\.baseline), [.unchanged])
    }
}
