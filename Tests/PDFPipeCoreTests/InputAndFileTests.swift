import Foundation
import XCTest

@testable import PDFPipeCore

final class InputAndFileTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-inputs-\(UUID().uuidString)"
        for f in ["b.pdf", "a.PDF", "notes.txt", "sub/c.pdf", "sub/deeper/d.pdf", "other/e.pdf"] {
            let path = dir + "/" + f
            try FileManager.default.createDirectory(atPath: Paths.parent(path), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data("%PDF".utf8))
        }
        // A symbolic link loop must not hang the walk.
        try FileManager.default.createSymbolicLink(atPath: dir + "/sub/loop", withDestinationPath: dir + "/sub")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testFoldersAreSearchedRecursivelyAndSorted() throws {
        let set = try InputSet.expand(["."], relativeTo: dir)
        XCTAssertEqual(set.root, dir)
        XCTAssertEqual(
            set.documents.map(\.relativePath), ["a.PDF", "b.pdf", "other/e.pdf", "sub/c.pdf", "sub/deeper/d.pdf"])
    }

    func testGlobsAndFilesAndRepeats() throws {
        let set = try InputSet.expand(["sub/**/*.pdf", "b.pdf", "sub/c.pdf"], relativeTo: dir)
        XCTAssertEqual(set.root, dir, "the common folder of all inputs")
        XCTAssertEqual(set.documents.map(\.relativePath), ["b.pdf", "sub/c.pdf", "sub/deeper/d.pdf"])
        let one = try InputSet.expand(["sub/*.pdf"], relativeTo: dir)
        XCTAssertEqual(one.documents.map(\.relativePath), ["c.pdf"])
        let none = try InputSet.expand(["nothing/**/*.pdf"], relativeTo: dir)
        XCTAssertEqual(none.emptyPatterns, ["nothing/**/*.pdf"])
    }

    func testMissingInputIsAnError() {
        XCTAssertThrowsError(try InputSet.expand(["missing.pdf"], relativeTo: dir)) { e in
            XCTAssertEqual((e as? PipelineError)?.description, "missing.pdf: error: no such file or folder")
        }
    }

    func testGlobMatching() {
        XCTAssertTrue(Glob.match(pattern: "**/*.pdf", path: "a.pdf"))
        XCTAssertTrue(Glob.match(pattern: "**/*.pdf", path: "x/y/a.pdf"))
        XCTAssertTrue(Glob.match(pattern: "x/**/a?.pdf", path: "x/a1.pdf"))
        XCTAssertFalse(Glob.match(pattern: "*.pdf", path: "x/a.pdf"))
        XCTAssertFalse(Glob.match(pattern: "*.pdf", path: ".hidden.pdf"))
    }

    func testAtomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let path = dir + "/out/deep/report.json"
        try AtomicFile.write("one", to: path)
        try AtomicFile.write("two", to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/out/deep"), ["report.json"])
        XCTAssertThrowsError(try AtomicFile.write("x", to: dir + "/b.pdf/report.json"))
    }
}
