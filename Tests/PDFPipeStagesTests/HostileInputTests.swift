import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// The trust issue's hostile inputs (numbers that trapped the process, cross-reference tables that
/// lie, nesting past the reader's limit) through every stage, in-process: a trap here would end the
/// test run. And the fast reader against qpdf's: it may decline, never guess.
final class HostileInputTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-hostile-\(UUID().uuidString)"
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let allStages = #"""
        [{"use": "inspect", "with": {"crossCheck": true}}, {"use": "resolve-destinations"},
         {"use": "validate-links", "with": {"inventory": true}},
         {"use": "thumbnails", "with": {"width": 40, "pages": "all", "overlay": "links", "incremental": false}},
         {"use": "extract-text"}]
        """#
    static let linkStages = #"[{"use": "resolve-destinations"}, {"use": "validate-links", "with": {"inventory": true}}]"#

    func run(_ stages: String, _ folder: String, _ names: [String], reader: String? = nil) throws -> [DocumentResult] {
        let pipeline = try Pipeline.parse(#"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        if let reader { setenv("PDFPIPE_READER", reader, 1) } else { unsetenv("PDFPIPE_READER") }
        defer { unsetenv("PDFPIPE_READER") }
        let documents = names.map { InputDocument(path: folder + "/" + $0, relativePath: $0) }
        return Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: folder, jobs: 2).run(documents)
    }

    func testEveryStageFinishesOnEveryHostileFile() throws {
        let names = try HostilePDFs.write(to: dir + "/in")
        let results = try run(Self.allStages, dir + "/in", names)
        XCTAssertEqual(results.map(\.path), names, "every document has its result")
        func rules(_ name: String) -> [String] { results.first { $0.path == name }?.findings.map(\.rule) ?? [] }
        // qpdf reads an object with a 64-bit overflow as null, with a warning; so does pdfpipe now
        // (it hands the object over instead of reading 1e19 as a real).
        for name in ["rect-1e19.pdf", "mediabox-2e63.pdf"] {
            XCTAssertTrue(rules(name).contains("pdf.damaged"), "\(name): \(rules(name))")
            XCTAssertFalse(rules(name).contains("stage.failed"), "\(name): \(rules(name))")
        }
        // Reals of 24 and 400 digits are reals: a 400-digit /Rect is no rectangle, the link is malformed.
        XCTAssertEqual(rules("rect-24-digits.pdf"), ["uri.insecure-scheme"])
        XCTAssertEqual(rules("rect-400-digits.pdf"), ["link.malformed", "dest.malformed"])
        // A page 10^400 points wide cannot be rendered: the thumbnail says so, the batch goes on.
        // (poppler takes a 2^64-point box for a damaged one and renders US Letter.)
        for name in ["mediabox-400-digits.pdf"] {
            let result = try XCTUnwrap(results.first { $0.path == name })
            XCTAssertTrue(result.findings.contains { $0.rule == "stage.failed" && $0.message.contains("cannot render") }, "\(result.findings)")
        }
        // Page labels past 2^31 are read as absent (as poppler does): no mismatch between the two.
        XCTAssertFalse(rules("labels-st-max.pdf").contains("pdf.page-mismatch"), "\(rules("labels-st-max.pdf"))")
        XCTAssertFalse(rules("labels-st-roman.pdf").contains("pdf.page-mismatch"))
        XCTAssertTrue(rules("dest-page-int-max.pdf").contains("dest.page-out-of-range"))
    }

    /// Regression (trust issue, 3): one wrong offset, every offset shifted, keys nested 300-400
    /// levels deep. Before, the reader read the objects as null: no links, no finding, exit 0.
    func testALyingOrDeepFileIsReadThroughQPDFAndSaysSo() throws {
        let names = ["xref-one-offset-wrong.pdf", "xref-shifted.pdf", "nested-deep.pdf"]
        try HostilePDFs.write(to: dir + "/in")
        for result in try run(Self.linkStages, dir + "/in", names) {
            let rules = result.findings.map(\.rule)
            XCTAssertEqual(result.sections["links"]?.arrayValue?.count, 2, result.path)
            XCTAssertTrue(rules.contains("dest.page-not-in-document"), "\(result.path): \(rules)")
            XCTAssertTrue(rules.contains("action.launch"), "\(result.path): \(rules)")
            XCTAssertTrue(rules.contains("pdf.damaged"), "\(result.path): \(rules)")
        }
        let deep = try run(Self.linkStages, dir + "/in", ["nested-deep.pdf"])[0]
        let declined = try XCTUnwrap(deep.findings.first { $0.rule == "pdf.damaged" })
        XCTAssertTrue(declined.message.contains("2 objects") && declined.message.contains("nested deeper than 256"), declined.message)
    }

    /// The two readers give the same links and findings (qpdf's damage warnings aside) on every
    /// sample, every fuzz regression input and every hostile file.
    func testTheFastReaderAndQPDFAgree() throws {
        try HostilePDFs.write(to: dir + "/in")
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/Fuzz/reader"
        var sets: [(String, [String])] = [(Samples.folder, Samples.all), (dir + "/in", HostilePDFs.all.map(\.name))]
        sets.append((fuzz, try FileManager.default.contentsOfDirectory(atPath: fuzz).filter { $0.hasSuffix(".pdf") }.sorted()))
        var compared = 0
        for (folder, names) in sets {
            let fast = try run(Self.linkStages, folder, names)
            let careful = try run(Self.linkStages, folder, names, reader: "qpdf")
            for (a, b) in zip(fast, careful) {
                XCTAssertEqual(a.sections["links"], b.sections["links"], a.path)
                XCTAssertEqual(a.sections["bookmarks"], b.sections["bookmarks"], a.path)
                func comparable(_ r: DocumentResult) -> [String] {
                    r.findings.filter { $0.rule != "pdf.damaged" }.map { "\($0.rule) p\($0.page ?? 0) \($0.message)" }
                }
                XCTAssertEqual(comparable(a), comparable(b), a.path)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 40)
    }
}
