import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// Issue 44: no document can lose, stall or exhaust a batch, by default (no `--isolate`). The
/// hostile files of `SurvivalPDFs` run in one batch with good documents through the real program:
/// the batch finishes, the good documents' results are those of a clean run, and each hostile one
/// has a finding naming what stopped it.
final class SurvivalTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let good = ["links-internal.pdf", "text-search.pdf", "rotated-cropped.pdf", "outlines.pdf"]

    func pdfpipe(_ args: [String]) throws -> Int32 { try Repo.status(args) }

    func documents(_ report: String) throws -> [String: JSONValue] {
        let r = try Repo.stableReport(report)
        var out: [String: JSONValue] = [:]
        for case .object(var d) in r["documents"]?.arrayValue ?? [] {
            d["workingPath"] = nil  // the folder differs
            out[d["path"]?.stringValue ?? ""] = .object(d)
        }
        return out
    }

    /// `batch` and `clean` in the test's folder, each with a copy of the good samples.
    func twoFoldersOfTheGoodSamples() throws -> (batch: String, clean: String) {
        let (batch, clean) = (dir + "/batch", dir + "/clean")
        for folder in [batch, clean] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for g in good {
                try FileManager.default.copyItem(atPath: Samples.folder + "/" + g, toPath: folder + "/" + g)
            }
        }
        return (batch, clean)
    }

    func testHostileFilesCostOneDocumentEachByDefault() throws {
        let (hostile, clean) = try twoFoldersOfTheGoodSamples()
        let files: [(String, [UInt8])] = [
            ("type3-recursion.pdf", SurvivalPDFs.type3Recursion), ("huge-pages.pdf", SurvivalPDFs.hugePages),
            ("operator-bomb.pdf", SurvivalPDFs.operatorBomb()), ("search-bomb.pdf", SurvivalPDFs.searchBomb()),
            ("xref-columns.pdf", SurvivalPDFs.xrefColumns),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: hostile + "/" + name)) }
        // Budgets lowered so that the test is quick: the defaults are 10 s a page, 10 s of search.
        let pipeline = dir + "/p.json"
        try #"""
        {"stages": [
          {"use": "thumbnails", "with": {"dpi": 150, "pages": "all", "renderSeconds": 3, "incremental": false}},
          {"use": "extract-text", "with": {"format": "none", "searchSeconds": 1,
                                            "search": [{"term": "(a+)+$", "regex": true, "severity": "note"}]}}
        ]}
        """#.write(toFile: pipeline, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try pdfpipe(["run", pipeline, hostile, "--out", dir + "/o1", "--quiet", "--fail-on", "never"]), 0)
        XCTAssertEqual(try pdfpipe(["run", pipeline, clean, "--out", dir + "/o2", "--quiet", "--fail-on", "never"]), 0)
        let batch = try documents(dir + "/o1/report.json")
        let alone = try documents(dir + "/o2/report.json")
        XCTAssertEqual(batch.count, good.count + files.count, "every document is in the report")
        for g in good { XCTAssertEqual(batch[g], alone[g], g) }

        func findings(_ name: String) -> [JSONValue] { batch[name]?["findings"]?.arrayValue ?? [] }
        func budgets(_ name: String) -> [String] { findings(name).compactMap { $0["budget"]?.stringValue } }
        // A crash inside cairo: that document only (the default runs it in a worker process).
        XCTAssertEqual(findings("type3-recursion.pdf").map { $0["rule"] }, ["pdf.crashed"])
        XCTAssertTrue(
            findings("type3-recursion.pdf").first?["message"]?.stringValue?.contains("SIGSEGV") == true,
            "\(findings("type3-recursion.pdf"))")
        // 30000 x 30000 pixels at 150 dpi: rendered smaller, said for both pages.
        XCTAssertEqual(budgets("huge-pages.pdf"), ["thumbnails.maxPixels", "thumbnails.maxPixels"])
        XCTAssertEqual(batch["huge-pages.pdf"]?["artifacts"]?.arrayValue?.count, 2)
        // Five million operators: stopped at the render budget, not rendered.
        XCTAssertEqual(budgets("operator-bomb.pdf"), ["thumbnails.renderSeconds"])
        XCTAssertEqual(batch["operator-bomb.pdf"]?["artifacts"]?.arrayValue?.count, 0)
        // A backtracking pattern over ten pages: one second for the whole document, then listed.
        XCTAssertEqual(budgets("search-bomb.pdf"), ["extract-text.searchSeconds"])
        XCTAssertTrue(
            findings("search-bomb.pdf").contains { ($0["message"]?.stringValue ?? "").contains("-10)") },
            "the pages left are listed: \(findings("search-bomb.pdf"))")
        // A cross-reference stream of 10^12-byte rows is never handed to qpdf as it is.
        let xref = findings("xref-columns.pdf").compactMap { $0["message"]?.stringValue }.joined(separator: "\n")
        XCTAssertTrue(
            xref.contains("cross-reference stream") || xref.contains("no page could be read"), xref)
    }

    /// Issue 62: the pages of a big document run on the cores the other worker processes leave
    /// idle (lent by the parent), and a crash in the middle of a document still costs that document
    /// only: a 40-page document whose page 30 kills cairo gets `pdf.crashed` and nothing else; a
    /// 40-page document beside it, and the samples, get the report and the thumbnails (byte for
    /// byte) of a run without worker processes.
    func testACrashMidDocumentCostsThatDocumentOnlyWithPagesOnLentCores() throws {
        let (batch, clean) = try twoFoldersOfTheGoodSamples()
        for folder in [batch, clean] {
            try Data(SurvivalPDFs.pages(40)).write(to: URL(fileURLWithPath: folder + "/long.pdf"))
        }
        try Data(SurvivalPDFs.pages(40, crashOn: 30)).write(to: URL(fileURLWithPath: batch + "/crash-mid.pdf"))
        let pipeline = dir + "/p.json"
        try #"""
        {"stages": [
          {"use": "thumbnails", "with": {"width": 120, "pages": "all", "incremental": false}},
          {"use": "extract-text", "with": {"format": "txt"}}
        ]}
        """#.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let common = ["--quiet", "--fail-on", "never", "--jobs", "2"]
        XCTAssertEqual(try pdfpipe(["run", pipeline, batch, "--out", dir + "/o1"] + common), 0)
        XCTAssertEqual(try pdfpipe(["run", pipeline, clean, "--out", dir + "/o2", "--no-isolate"] + common), 0)
        let isolated = try documents(dir + "/o1/report.json")
        let inProcess = try documents(dir + "/o2/report.json")
        XCTAssertEqual(isolated.count, good.count + 2)
        for g in good + ["long.pdf"] { XCTAssertEqual(isolated[g], inProcess[g], g) }
        let crashed = isolated["crash-mid.pdf"]?["findings"]?.arrayValue ?? []
        XCTAssertEqual(crashed.map { $0["rule"] }, ["pdf.crashed"], "\(crashed)")
        XCTAssertEqual(isolated["crash-mid.pdf"]?["status"], "failed")
        for page in 1...40 {
            let name = "/thumbnails/long/\(page).png"
            let a = FileManager.default.contents(atPath: dir + "/o1" + name)
            XCTAssertNotNil(a, name)
            XCTAssertEqual(a, FileManager.default.contents(atPath: dir + "/o2" + name), name)
        }
        XCTAssertEqual(
            FileManager.default.contents(atPath: dir + "/o1/text/long.txt"),
            FileManager.default.contents(atPath: dir + "/o2/text/long.txt"))
    }

    /// `--no-isolate` keeps every document in the one process (and `isolation: auto` resolves to
    /// none for a pipeline without a page engine): the report is the same for good documents.
    func testNoIsolateRunsInProcess() throws {
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for g in good { try FileManager.default.copyItem(atPath: Samples.folder + "/" + g, toPath: folder + "/" + g) }
        let pipeline = dir + "/p.json"
        try #"{"stages": [{"use": "thumbnails", "with": {"incremental": false}}]}"#.write(
            toFile: pipeline, atomically: true, encoding: .utf8)
        XCTAssertEqual(try pdfpipe(["run", pipeline, folder, "--out", dir + "/a", "--quiet"]), 0)
        XCTAssertEqual(try pdfpipe(["run", pipeline, folder, "--out", dir + "/b", "--quiet", "--no-isolate"]), 0)
        XCTAssertEqual(try documents(dir + "/a/report.json"), try documents(dir + "/b/report.json"))
        XCTAssertEqual(
            try pdfpipe(["run", pipeline, folder, "--out", dir + "/c", "--quiet", "--isolate", "--no-isolate"]), 2)
    }
}
