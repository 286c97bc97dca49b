import Foundation
import XCTest

@testable import PDFPipeStages

/// (#66) The SyncTeX reader on hand-written records: settings, pages asked for, and what it
/// refuses (not SyncTeX, numbers too long, records past the bound).
final class SyncTeXTests: XCTestCase {
    func parse(_ text: String, pages: Set<Int>? = nil, kinds: String? = nil) -> SyncTeX {
        var s = SyncTeX()
        s.parse(Array(text.utf8), wanted: pages, kinds: kinds.map { Set($0.utf8) })
        return s
    }

    func testRecordsAreReadInPointsFromTheTopLeft() throws {
        let text = """
            SyncTeX Version:1
            Input:1:/work/./main.tex
            Output:pdf
            Magnification:2000
            Unit:1
            X Offset:0
            Y Offset:0
            Content:
            !100
            {1
            [1,9:0,0:65781760,0,0
            (1,4,7:657817,1315635:6578176,65781,0
            k1,5:1315635,1315635:131563
            g2,6:657817,657817
            x1,7:1,1
            $1,8:0,-6578176
            )
            ]
            }1
            Input:2:chapters/two.tex
            {2
            k2,3:0,0:1
            }2
            """
        let s = parse(text, pages: [1])
        // Reading stops after the last page asked for (an input opened later names no record on it).
        XCTAssertEqual(s.inputs, [1: "/work/./main.tex"])
        XCTAssertNil(s.pages[2], "a page not asked for is skipped")
        let whole = parse(text)
        XCTAssertEqual(whole.inputs, [1: "/work/./main.tex", 2: "chapters/two.tex"])
        XCTAssertEqual(whole.pages[2]?.map(\.line), [3])
        XCTAssertEqual(whole.pages[1], s.pages[1])
        let kept = parse(text, pages: [1, 2], kinds: "kg")
        XCTAssertEqual(kept.pages[1]?.map(\.line), [5, 6], "only the kinds asked for")
        XCTAssertEqual(kept.pages[2]?.map(\.line), [3])
        let r = try XCTUnwrap(s.pages[1])
        XCTAssertEqual(r.map { Character(UnicodeScalar($0.kind)) }, ["[", "(", "k", "g", "x", "$"])
        // Magnification 2000: twice the scaled points, 65781.76 sp to the point.
        XCTAssertEqual(r[1].tag, 1)
        XCTAssertEqual(r[1].line, 4, "a column after the line is read past")
        XCTAssertEqual(r[1].h, 20, accuracy: 0.001)
        XCTAssertEqual(r[1].v, 40, accuracy: 0.001)
        XCTAssertEqual(r[1].width, 200, accuracy: 0.001)
        XCTAssertEqual(r[2].line, 5)
        XCTAssertEqual(r[3].tag, 2)
        XCTAssertEqual(r[5].v, -200, accuracy: 0.001)
        XCTAssertNil(s.incomplete)
    }

    /// A gzip stream cut short is read as far as it goes, and says so (`incomplete`: the mapper
    /// gives it as the limit beside what it did not place).
    func testAFileCutShortIsReadAsFarAsItGoesAndSaysSo() throws {
        let fixture =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/Fixtures/sources/latex/pdflatex/manual.synctex.gz"
        let whole = try XCTUnwrap(SyncTeX.read(fixture, pages: nil))
        XCTAssertNil(whole.incomplete)
        let dir = NSTemporaryDirectory() + "synctex-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gz = try Data(contentsOf: URL(fileURLWithPath: fixture))
        try gz.prefix(gz.count / 3).write(to: URL(fileURLWithPath: dir + "/cut.synctex.gz"))
        let cut = try XCTUnwrap(SyncTeX.read(dir + "/cut.synctex.gz", pages: nil))
        XCTAssertEqual(cut.incomplete, "its gzip stream ends before its end (a file cut short); read as far as it goes")
        XCTAssertLessThan(cut.pages.count, whole.pages.count)
        let last = try XCTUnwrap(cut.pages.keys.max())
        for p in 1..<last { XCTAssertEqual(cut.pages[p], whole.pages[p], "page \(p): what it held is read as written") }
        let partial = try XCTUnwrap(cut.pages[last])
        XCTAssertFalse(partial.isEmpty)
        XCTAssertEqual(partial, Array(whole.pages[last]!.prefix(partial.count)), "the page cut short, up to the cut")
    }

    /// A file past the bound is not read at all, and says so (a sparse file: nothing written).
    func testAFileTooLargeIsNotReadAndSaysSo() throws {
        let dir = NSTemporaryDirectory() + "synctex-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/big.synctex"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("SyncTeX Version:1\n".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(SyncTeX.maxBytes) + 1)
        try handle.close()
        let s = try XCTUnwrap(SyncTeX.read(path, pages: [1]))
        XCTAssertEqual(s.incomplete, "it is larger than 256 MiB; not read")
        XCTAssertTrue(s.pages.isEmpty)
    }

    func testWhatIsNotSyncTeXIsRefused() throws {
        let dir = NSTemporaryDirectory() + "synctex-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "%PDF-1.4 not synctex".write(toFile: dir + "/a.synctex", atomically: true, encoding: .utf8)
        XCTAssertNil(SyncTeX.read(dir + "/a.synctex", pages: nil))
        try Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9]).write(
            to: URL(fileURLWithPath: dir + "/b.synctex.gz"))
        XCTAssertNil(SyncTeX.read(dir + "/b.synctex.gz", pages: nil), "corrupt gzip")
        XCTAssertEqual(SyncTeX.file(beside: dir + "/b.pdf"), dir + "/b.synctex.gz")
        XCTAssertEqual(SyncTeX.file(beside: dir + "/a.PDF"), dir + "/a.synctex")
        XCTAssertNil(SyncTeX.file(beside: dir + "/c.pdf"))
        // Damaged records are dropped one by one; numbers past 12 digits are refused.
        let s = parse("SyncTeX Version:1\n{1\nk1,2:3\nk1,2:1234567890123,4\nk:,\nk1,2:3,4\n}1\n")
        XCTAssertEqual(s.pages[1]?.count, 1)
    }
}
