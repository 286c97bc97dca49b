import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// Pages shared among page workers and idle document workers (PageWorkers, PageHelpers): whatever
/// the concurrency, the same report and the same files.
final class PageWorkersTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-pageworkers-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A document of `pages` pages, each saying its number.
    func writeDocument(_ name: String, pages: Int) throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\(4 + 2 * $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for p in 1...pages {
            let content = "BT /F1 24 Tf 72 700 Td (Page \(p) of \(name)) Tj ET 72 100 \(p * 5) 20 re f"
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 800] /Contents \(5 + 2 * (p - 1)) 0 R /Resources << /Font << /F1 3 0 R >> >> >>"
            )
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        try TestPDF.write(dir + "/in/" + name, objects: objects)
    }

    func testTheReportAndFilesDoNotDependOnWhoDidWhichPage() throws {
        try writeDocument("big.pdf", pages: 60)
        try writeDocument("small.pdf", pages: 2)
        try writeDocument("mid.pdf", pages: 40)
        let stages = #"""
            [{"use": "thumbnails", "with": {"width": 60, "pages": "all", "incremental": false}},
             {"use": "extract-text", "with": {"format": "json", "words": true, "search": ["Page 3"]}}]
            """#
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let documents = ["big.pdf", "small.pdf", "mid.pdf"].map {
            InputDocument(path: dir + "/in/" + $0, relativePath: $0)
        }
        var outputs: [(results: [DocumentResult], files: [String: Data])] = []
        for jobs in [1, 2, 3] {
            let out = dir + "/out\(jobs)"
            var results = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: dir + "/in", jobs: jobs).run(
                documents)
            for i in results.indices { results[i].timings = [:] }
            var files: [String: Data] = [:]
            for r in results {
                for a in r.artifacts { files[a.path] = FileManager.default.contents(atPath: out + "/" + a.path) }
            }
            outputs.append((results, files))
        }
        XCTAssertEqual(outputs[0].results.map(\.pageCount), [60, 2, 40])
        XCTAssertEqual(outputs[0].files.count, 60 + 2 + 40 + 3, "thumbnails and text files")
        XCTAssertEqual(
            outputs[0].results[0].findings.filter { $0.rule == "text.match" }.map(\.page),
            [3, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39])
        for k in 1..<outputs.count {
            XCTAssertEqual(outputs[k].results, outputs[0].results, "jobs \(k + 1)")
            XCTAssertEqual(outputs[k].files, outputs[0].files, "jobs \(k + 1)")
        }
    }

    /// Regression (trust issue, 1): page-parallel stages over big and small documents with 2 to 4
    /// jobs, again and again while other threads keep the cores busy, never trap ("closure argument
    /// was escaped") and always give the one-job report and files.
    func testPageParallelStagesUnderLoadGiveTheOneJobResults() throws {
        try writeDocument("big.pdf", pages: 90)
        for k in 1...5 { try writeDocument("small\(k).pdf", pages: k) }
        try writeDocument("mid.pdf", pages: 40)
        let stages = #"""
            [{"use": "thumbnails", "with": {"width": 40, "pages": "all", "incremental": false}},
             {"use": "extract-text", "with": {"format": "txt"}}]
            """#
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let names = ["small1.pdf", "big.pdf", "small2.pdf", "mid.pdf", "small3.pdf", "small4.pdf", "small5.pdf"]
        let documents = names.map { InputDocument(path: dir + "/in/" + $0, relativePath: $0) }
        let helpers = PageHelpers()
        func run(_ jobs: Int) -> [DocumentResult] {
            var runner = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir + "/in", jobs: jobs)
            runner.pageHelpers = helpers
            var results = runner.run(documents)
            for i in results.indices { results[i].timings = [:] }
            return results
        }
        let expected = run(1)
        XCTAssertEqual(expected.map(\.pageCount), [1, 90, 2, 40, 3, 4, 5])
        XCTAssertTrue(expected.allSatisfy { $0.findings.isEmpty }, "\(expected.flatMap(\.findings))")
        let load = CoreLoad()
        defer { load.stop() }
        for round in 0..<4 {
            for jobs in 2...4 {
                XCTAssertEqual(run(jobs), expected, "round \(round), --jobs \(jobs)")
            }
        }
        // The point of the test: idle workers did join other documents' pages (the small documents
        // end first; big.pdf and mid.pdf offer their pages), and the results still did not change.
        XCTAssertGreaterThan(helpers.helped, 0, "no idle worker joined a document in 12 runs")
        print("PageWorkersTests: idle workers joined \(helpers.helped) times in 12 runs")
    }
}
