import Foundation
import PDFBridge
import XCTest

final class FileReplacerTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-replacer-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// New files, replaced files, and the old inode recycled as the next file's: after the writer
    /// goes, only the targets are in the folder.
    func testReplacesThroughASpareAndLeavesNothingBehind() throws {
        do {
            let w = FileReplacer()
            try w.write(Array("one".utf8), to: dir + "/a.png")
            try w.write(Array("two".utf8), to: dir + "/b.png")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["a.png", "b.png"],
                "new files: plain renames")
            let oldA = inode(dir + "/a.png")
            try w.write(Array("one, again".utf8), to: dir + "/a.png")
            XCTAssertEqual(text(dir + "/a.png"), "one, again")
            XCTAssertNotEqual(inode(dir + "/a.png"), oldA)
            try w.write(Array("two, again".utf8), to: dir + "/b.png")
            XCTAssertEqual(text(dir + "/b.png"), "two, again")
            XCTAssertEqual(inode(dir + "/b.png"), oldA, "a.png's old inode came back as b.png's new one")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".pdfpipe-spare-") }
                    .count, 1)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["a.png", "b.png"],
            "the spare went with the writer")
    }

    /// An old file that has another hard link keeps its content there: it is never the spare.
    func testAHardLinkedOldFileIsNotWrittenInto() throws {
        try "snapshot".write(toFile: dir + "/a.png", atomically: false, encoding: .utf8)
        try "other".write(toFile: dir + "/b.png", atomically: false, encoding: .utf8)
        XCTAssertEqual(link(dir + "/a.png", dir + "/kept.png"), 0)
        let w = FileReplacer()
        try w.write(Array("new a".utf8), to: dir + "/a.png")
        try w.write(Array("new b".utf8), to: dir + "/b.png")
        XCTAssertEqual(text(dir + "/a.png"), "new a")
        XCTAssertEqual(text(dir + "/b.png"), "new b")
        XCTAssertEqual(text(dir + "/kept.png"), "snapshot")
    }

    func testAMissingFolderIsAnError() {
        XCTAssertThrowsError(try FileReplacer().write([1, 2, 3], to: dir + "/no/such/x.png")) { error in
            XCTAssertEqual("\(error)", "\(self.dir)/no/such/x.png: cannot write: No such file or directory")
        }
    }
}
