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

    /// A folder that cannot be made: the error names the folder and the nearest part of the path
    /// that exists, where permission was refused.
    func testAFolderThatCannotBeMadeSaysWhereAndWhy() throws {
        let dir = NSTemporaryDirectory() + "/pdfpipe-syscalls-" + UUID().uuidString
        try FileSystem.createFolder(dir)
        defer { FileSystem.removeTree(dir) }
        var failing = SystemCalls.live
        failing.mkdir = { path, mode in
            path.hasPrefix(dir + "/") ? SystemCalls.fail(Errno(rawValue: EACCES)) : SystemCalls.live.mkdir(path, mode)
        }
        try SystemCalls.withReplaced(failing) {
            XCTAssertThrowsError(try AtomicFile.makeDirectory(dir + "/out/thumbnails")) { error in
                XCTAssertTrue("\(error)".contains("out/thumbnails"), "\(error)")
                XCTAssertTrue("\(error)".contains("permission denied in '\(dir)'"), "\(error)")
            }
        }
        XCTAssertFalse(FileSystem.exists(dir + "/out"))
        try AtomicFile.makeDirectory(dir + "/out/thumbnails")
        XCTAssertTrue(FileSystem.isFolder(dir + "/out/thumbnails"))
    }

    /// Another worker (or shard) makes the folder between the check and `mkdir`: not an error.
    func testAFolderMadeMeanwhileIsFine() throws {
        let dir = NSTemporaryDirectory() + "/pdfpipe-syscalls-" + UUID().uuidString
        defer { FileSystem.removeTree(dir) }
        var racing = SystemCalls.live
        racing.mkdir = { path, mode in
            _ = SystemCalls.live.mkdir(path, mode)
            return SystemCalls.fail(Errno(rawValue: EEXIST))
        }
        try SystemCalls.withReplaced(racing) { try FileSystem.createFolder(dir + "/a/b") }
        XCTAssertTrue(FileSystem.isFolder(dir + "/a/b"))
        // A file in the way is still said.
        FileSystem.write([], to: dir + "/a/file")
        XCTAssertThrowsError(try FileSystem.createFolder(dir + "/a/file/c"))
    }

    /// The inputs are found through the table: a file the system says is gone is "no such file".
    func testInputsAreLookedUpThroughTheTable() throws {
        let dir = NSTemporaryDirectory() + "/pdfpipe-syscalls-" + UUID().uuidString
        try FileSystem.createFolder(dir)
        defer { FileSystem.removeTree(dir) }
        FileSystem.write(Array("%PDF-1.4".utf8), to: dir + "/a.pdf")
        XCTAssertEqual(try InputSet.expand(["a.pdf"], relativeTo: dir).documents.count, 1)
        var vanishing = SystemCalls.live
        vanishing.stat = { path, buffer in
            path.hasSuffix("/a.pdf") ? SystemCalls.fail(Errno(rawValue: ENOENT)) : SystemCalls.live.stat(path, buffer)
        }
        try SystemCalls.withReplaced(vanishing) {
            XCTAssertThrowsError(try InputSet.expand(["a.pdf"], relativeTo: dir)) { error in
                XCTAssertTrue("\(error)".contains("a.pdf"), "\(error)")
                XCTAssertTrue("\(error)".contains("no such file or folder"), "\(error)")
            }
            // A folder walk leaves it out too (as a link whose target is gone).
            XCTAssertEqual(try? InputSet.expand([dir], relativeTo: dir).documents.count, 0)
        }
    }
}
