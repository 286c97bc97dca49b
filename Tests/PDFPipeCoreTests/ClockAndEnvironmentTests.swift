import Foundation
import SystemIO
import XCTest

/// (#64) The clocks and the environment have one door each (`SystemClock`, `Environment`):
/// they read what the C library says, and a debug build's test can put a value in place.
final class ClockAndEnvironmentTests: XCTestCase {
    func testEnvironmentReadsWhatTheProcessHasAndTakesReplacements() {
        setenv("PDFPIPE_TEST_DOOR", "open", 1)
        defer { unsetenv("PDFPIPE_TEST_DOOR") }
        XCTAssertEqual(Environment["PDFPIPE_TEST_DOOR"], "open")
        XCTAssertEqual(Environment.all["PDFPIPE_TEST_DOOR"], "open")
        XCTAssertEqual(Environment.all["PATH"], String(cString: getenv("PATH")))
        XCTAssertNil(Environment["PDFPIPE_TEST_NOT_SET_ANYWHERE"])
        Environment.withVariables(["PDFPIPE_TEST_DOOR": nil, "PDFPIPE_TEST_OTHER": "x=y"]) {
            XCTAssertNil(Environment["PDFPIPE_TEST_DOOR"], "replaced by unset")
            XCTAssertNil(Environment.all["PDFPIPE_TEST_DOOR"])
            XCTAssertEqual(Environment["PDFPIPE_TEST_OTHER"], "x=y")
            XCTAssertEqual(Environment.all["PDFPIPE_TEST_OTHER"], "x=y")
        }
        XCTAssertEqual(Environment["PDFPIPE_TEST_DOOR"], "open", "put back")
        XCTAssertNil(Environment["PDFPIPE_TEST_OTHER"])
    }

    func testTheClocksAgreeWithFoundationsAndTheWallClockCanBeStopped() {
        XCTAssertEqual(SystemClock.now.timeIntervalSince1970, Date().timeIntervalSince1970, accuracy: 2)
        let start = SystemClock.uptimeNanoseconds
        usleep(20_000)
        XCTAssertGreaterThanOrEqual(SystemClock.seconds(since: start), 0.019, "monotonic, in seconds")
        XCTAssertEqual(SystemClock.seconds(since: SystemClock.uptimeNanoseconds + 1_000_000_000), 0, "never negative")
        SystemClock.withWallClock(86_400) {
            XCTAssertEqual(SystemClock.now.ISO8601Format(), "1970-01-02T00:00:00Z")
        }
        XCTAssertGreaterThan(SystemClock.now.timeIntervalSince1970, 1_700_000_000)
    }
}
