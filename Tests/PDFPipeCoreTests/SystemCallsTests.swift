import Foundation
import PDFPipeCore
import SystemIO
import XCTest

/// (#48) The system calls on paths go through one table (`SystemCalls`), which a test replaces to
/// see what the program does when the system says no: here a full disk at the moment a report is
/// renamed over its target (the temporary file must go, the old report must stay, and the error
/// must name the file and the reason), and a FIFO reported as what it is.
final class SystemCallsTests: XCTestCase {
    func testAFailedRenameKeepsTheOldFileAndSaysWhy() throws {
        let dir = NSTemporaryDirectory() + "/pdfpipe-syscalls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/report.json"
        try AtomicFile.write("old", to: path)
        var failing = SystemCalls.live
        failing.rename = { _, _ in SystemCalls.fail(Errno(rawValue: ENOSPC)) }
        try SystemCalls.withReplaced(failing) {
            XCTAssertThrowsError(try AtomicFile.write("new", to: path)) { error in
                XCTAssertTrue("\(error)".contains("report.json"), "\(error)")
                XCTAssertTrue("\(error)".contains("No space left on device"), "\(error)")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["report.json"], "no temporary left")
        // Put back: the same write now works.
        try AtomicFile.write("new", to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new")
    }

    func testFileKindsComeFromTheTable() {
        var fake = SystemCalls.live
        fake.stat = { _, buffer in
            buffer.pointee = stat()
            buffer.pointee.st_mode = S_IFIFO | 0o644
            return 0
        }
        SystemCalls.withReplaced(fake) {
            XCTAssertEqual(FileKinds.notRegular("/any/path"), "a FIFO (named pipe)")
        }
        XCTAssertEqual(FileKinds.notRegular("/"), "a folder")
    }
}
