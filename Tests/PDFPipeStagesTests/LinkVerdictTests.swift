import PDFPipeCore
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// (#64) A link's verdict is typed from the checker to the report's edge, and findings name their
/// link by a typed id: report.json's `check` and `details.annotationIndex` are written in one place.
final class LinkVerdictTests: XCTestCase {
    func testACheckIsWrittenAsReportJSONSaysAndCountedByItsVerdict() {
        var check = LinkCheck()
        check.outcome = .httpError
        check.status = 404
        check.attempts = 2
        check.finalURL = "https://example.org/b"
        check.redirects = [URLFetch.Hop(url: "https://example.org/a", status: 301)]
        check.confirmed = true
        XCTAssertEqual(
            JSONWriter.compact(check.json),
            #"{"attempts":2,"confirmed":true,"finalURL":"https://example.org/b","fromCache":false,"outcome":"http-error","redirects":[{"status":301,"url":"https://example.org/a"}],"status":404}"#
        )
        XCTAssertEqual(check.verdict, .broken)
        check.outcome = .okAfterRetry
        XCTAssertEqual(check.verdict, .ok)
        check.outcome = .overBudget
        XCTAssertEqual(check.verdict, .unverified)
        var record = LinkRecord()
        record.check = check
        XCTAssertEqual(record.json["check"]?["outcome"], "over-budget")
    }

    func testAFindingNamesItsLinkByPageAndPlaceInAnnots() {
        var f = Finding(rule: .uriMalformed, page: 3, message: "m")
        XCTAssertNil(f.link)
        f.annotationIndex = 7
        XCTAssertEqual(f.details["annotationIndex"], .int(7), "report.json's key")
        XCTAssertEqual(f.link, LinkID(page: 3, annotationIndex: 7))
        f.annotationIndex = nil
        XCTAssertNil(f.details["annotationIndex"])
    }
}
