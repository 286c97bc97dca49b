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
    static let linkStages =
        #"[{"use": "resolve-destinations"}, {"use": "validate-links", "with": {"inventory": true}}]"#

    func run(_ stages: String, _ folder: String, _ names: [String], reader: String? = nil) throws -> [DocumentResult] {
        try Self.run(stages, folder, names, reader: reader, out: dir + "/out")
    }

    static func run(_ stages: String, _ folder: String, _ names: [String], reader: String? = nil, out: String) throws
        -> [DocumentResult]
    {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        if let reader { setenv("PDFPIPE_READER", reader, 1) } else { unsetenv("PDFPIPE_READER") }
        defer { unsetenv("PDFPIPE_READER") }
        let documents = names.map { InputDocument(path: folder + "/" + $0, relativePath: $0) }
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: folder, jobs: 2).run(documents)
    }

    func testEveryStageFinishesOnEveryHostileFile() throws {
        let names = try HostilePDFs.write(to: dir + "/in")
        let results = try run(Self.allStages, dir + "/in", names)
        XCTAssertEqual(results.map(\.path), names, "every document has its result")
        func rules(_ name: String) -> [String] { results.first { $0.path == name }?.findings.map(\.rule) ?? [] }
        // An integer with a 64-bit overflow is read as a real (as poppler and MuPDF read it), and
        // said as damage; qpdf would read the whole object as null.
        for name in ["rect-1e19.pdf", "mediabox-2e63.pdf"] {
            XCTAssertTrue(rules(name).contains("pdf.damaged"), "\(name): \(rules(name))")
            XCTAssertFalse(rules(name).contains("stage.failed"), "\(name): \(rules(name))")
        }
        // Reals of 24 and 400 digits are reals: a 400-digit /Rect is no rectangle, the link is malformed.
        XCTAssertEqual(rules("rect-24-digits.pdf"), ["uri.insecure-scheme"])
        XCTAssertEqual(rules("rect-400-digits.pdf"), ["link.malformed", "dest.viewer-dependent"])
        // A page 10^400 points wide cannot be rendered: the thumbnail says so, the batch goes on.
        // (poppler takes a 2^64-point box for a damaged one and renders US Letter.)
        for name in ["mediabox-400-digits.pdf"] {
            let result = try XCTUnwrap(results.first { $0.path == name })
            XCTAssertTrue(
                result.findings.contains { $0.rule == "stage.failed" && $0.message.contains("cannot render") },
                "\(result.findings)")
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
            if result.path.hasPrefix("xref-") {
                // qpdf's own warnings say it ("expected n n obj"): one problem, one voice.
                XCTAssertTrue(
                    result.findings.contains {
                        $0.details["qpdfMessages"]?.arrayValue?.contains {
                            $0.stringValue?.contains("expected n n obj") == true
                        } == true
                    },
                    "\(result.findings)")
                XCTAssertFalse(
                    result.findings.contains { $0.message.contains("pdfpipe's reader cannot take") },
                    "\(result.findings)")
            }
        }
        let deep = try run(Self.linkStages, dir + "/in", ["nested-deep.pdf"])[0]
        let declined = try XCTUnwrap(deep.findings.first { $0.rule == "pdf.damaged" })
        XCTAssertTrue(
            declined.message.contains("2 objects") && declined.message.contains("nested deeper than 256"),
            declined.message)
    }

    /// Regression (issue 29, 1): an integer past 64 bits in an unrelated key of a page or a link
    /// made the whole object null (qpdf's reading, which the reader handed it to): every link on the
    /// page vanished and the document passed. It is one bad value: the rest is read as written, and
    /// when qpdf must read the file (a damaged cross-reference table too), poppler's count of the
    /// page's links disagrees, which is said, and poppler's links are checked.
    func testAnIntegerPast64BitsIsOneBadValueNotABadObject() throws {
        let big = "99999999999999999999"
        let objects = HostilePDFs.onePage(
            page: "/MediaBox [0 0 612 792] /PieceInfo \(big)",
            annots: [
                "<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /StructParent \(big) /Dest (no.such.name) >>",
                "<< /Type /Annot /Subtype /Link /Rect [10 40 100 60] /StructParents -\(big) /A << /S /Launch /F (gone.exe) >> >>",
            ])
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Data(HostilePDFs.classic(objects)).write(to: URL(fileURLWithPath: dir + "/in/overflow.pdf"))
        try Data(HostilePDFs.classic(objects, shift: 2)).write(to: URL(fileURLWithPath: dir + "/in/overflow-xref.pdf"))
        let results = try run(Self.linkStages, dir + "/in", ["overflow.pdf", "overflow-xref.pdf"])
        let own = results[0]
        XCTAssertEqual(own.sections["links"]?.arrayValue?.count, 2)
        XCTAssertEqual(own.sections["linkSummary"]?["reader"]?.stringValue, "pdfpipe")
        let rules = own.findings.map(\.rule)
        XCTAssertTrue(rules.contains("dest.name-not-found"), "\(rules)")
        XCTAssertTrue(rules.contains("action.launch-target-missing"), "\(rules)")
        let repaired = try XCTUnwrap(own.findings.first { $0.rule == "pdf.damaged" })
        XCTAssertTrue(
            repaired.message.contains("past 64 bits") && repaired.details["repairedObjects"] == .int(3),
            repaired.message)
        XCTAssertEqual(own.findings.filter { $0.rule == "pdf.damaged" }.count, 1, "one problem, one finding")

        // Read through qpdf: the page reads as null there, poppler still has both links.
        let careful = results[1]
        let crules = careful.findings.map(\.rule)
        let mismatch = try XCTUnwrap(careful.findings.first { $0.rule == "pdf.link-count-mismatch" }, "\(crules)")
        XCTAssertEqual(mismatch.page, 1)
        XCTAssertEqual(mismatch.details["popplerLinks"], .int(2))
        XCTAssertTrue(crules.contains("dest.name-not-found"), "\(crules)")
        XCTAssertTrue(crules.contains("action.launch-target-missing"), "\(crules)")
    }

    /// The two readers give the same links and findings (qpdf's damage warnings aside) on every
    /// sample, every fuzz regression input and every hostile file.
    func testTheFastReaderAndQPDFAgree() throws {
        try HostilePDFs.write(to: dir + "/in")
        let fuzz =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/Fuzz/reader"
        var sets: [(String, [String])] = [(Samples.folder, Samples.all), (dir + "/in", HostilePDFs.all.map(\.name))]
        sets.append(
            (fuzz, try FileManager.default.contentsOfDirectory(atPath: fuzz).filter { $0.hasSuffix(".pdf") }.sorted()))
        var compared = 0
        for (folder, names) in sets {
            let fast = try run(Self.linkStages, folder, names)
            let careful = try run(Self.linkStages, folder, names, reader: "qpdf")
            for (a, b) in zip(fast, careful) {
                if a.path == "rect-1e19.pdf" {
                    // An integer past 64 bits: the own reader reads the link (the value as a real,
                    // as poppler does), qpdf reads the annotation as null, and poppler's count says so.
                    XCTAssertEqual(a.sections["links"]?.arrayValue?.count, 1)
                    XCTAssertEqual(b.sections["links"]?.arrayValue?.count, 0)
                    XCTAssertTrue(b.findings.contains { $0.rule == "pdf.link-count-mismatch" }, "\(b.findings)")
                    compared += 1
                    continue
                }
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

    /// Runs `body` on another thread; fails instead of hanging the suite if it takes longer.
    func withinSeconds<T: Sendable>(_ seconds: Double, _ what: String, _ body: @escaping @Sendable () throws -> T)
        throws -> T
    {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        Thread {
            result.withLock { $0 = Result { try body() } }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else {
            XCTFail("\(what) did not finish within \(seconds) s")
            throw CocoaError(.userCancelled)
        }
        return try result.withLock { $0! }.get()
    }

    /// Regression (trust issue, 4 and 9): link targets that are a FIFO or a device block a worker
    /// forever, and a symlink in the root to a file outside it was followed. Only regular files
    /// are opened, and the root check uses the resolved path.
    func testLinkTargetsThatAreNotRegularFilesOrLeaveTheRootThroughASymlink() throws {
        let root = dir + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(root + "/pipe.pdf", 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: root + "/zero.pdf", withDestinationPath: "/dev/zero")
        try TestPDF.write(
            dir + "/elsewhere/secret.pdf",
            objects: ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"])
        try FileManager.default.createSymbolicLink(
            atPath: root + "/outside.pdf", withDestinationPath: dir + "/elsewhere/secret.pdf")
        func gotor(_ f: String, _ y: Int) -> String {
            "<< /Type /Annot /Subtype /Link /Rect [0 \(y) 100 \(y + 10)] /A << /S /GoToR /F (\(f)) /D [0 /Fit] >> >>"
        }
        let annots = [
            gotor("pipe.pdf", 0), gotor("zero.pdf", 20), gotor("outside.pdf", 40),
            "<< /Type /Annot /Subtype /Link /Rect [0 60 100 70] /A << /S /URI /URI (pipe.pdf#page=2) >> >>",
        ]
        try Data(HostilePDFs.classic(HostilePDFs.onePage(annots: annots))).write(
            to: URL(fileURLWithPath: root + "/doc.pdf"))
        let stages =
            #"[{"use": "validate-links", "with": {"gotor": true, "external": {"enabled": true, "offline": true}}}]"#
        let out = dir + "/out"
        let results = try withinSeconds(60, "the link audit") { try Self.run(stages, root, ["doc.pdf"], out: out) }
        let findings = results[0].findings.map { "\($0.rule): \($0.message)" }
        XCTAssertTrue(
            findings.contains {
                $0.hasPrefix("gotor.file-unreadable") && $0.contains("pipe.pdf") && $0.contains("a FIFO")
            }, "\(findings)")
        XCTAssertTrue(
            findings.contains { $0.hasPrefix("gotor.outside-root") && $0.contains("zero.pdf") }, "\(findings)")
        XCTAssertTrue(
            findings.contains { $0.hasPrefix("gotor.outside-root") && $0.contains("outside.pdf") }, "\(findings)")
        XCTAssertTrue(
            findings.contains { $0.hasPrefix("uri.fragment-missing") && $0.contains("a FIFO") }, "\(findings)")
        // Allowed outside the root, the device is still not read.
        let allowing = #"[{"use": "validate-links", "with": {"gotor": true, "allowOutsideRoot": true}}]"#
        let all = try withinSeconds(60, "the link audit") { try Self.run(allowing, root, ["doc.pdf"], out: out) }[0]
            .findings.map(\.message)
        XCTAssertTrue(all.contains { $0.contains("zero.pdf") && $0.contains("a character device") }, "\(all)")
    }

    /// Regression (trust issue, 4): a pattern that backtracks (the shipped text pipeline's old host
    /// pattern) on a page of `a.a.a…` took ~15 s a page; each page's search now stops at its budget
    /// and says so, and the shipped pattern is linear.
    func testABacktrackingSearchStopsAtItsBudgetAndSaysSo() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Data(HostilePDFs.slowSearchPage).write(to: URL(fileURLWithPath: dir + "/in/slow.pdf"))
        let old = #"\\b[a-z0-9.-]+\\.internal\\.example\\.com\\b"#
        let shipped = #"(?<![a-z0-9-])[a-z0-9-]+\\.internal\\.example\\.com\\b"#
        let stages =
            #"[{"use": "extract-text", "with": {"format": "none", "search": [{"term": "\#(old)", "regex": true}, {"term": "\#(shipped)", "regex": true}]}}]"#
        let start = Date()
        let (folder, out) = (dir + "/in", dir + "/out")
        let result = try withinSeconds(60, "the search") { try Self.run(stages, folder, ["slow.pdf"], out: out) }[0]
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        let incomplete = result.findings.filter { $0.rule == "text.search-incomplete" }
        XCTAssertEqual(incomplete.count, 1, "\(result.findings)")
        XCTAssertTrue(incomplete.first?.message.contains("[a-z0-9.-]+") == true, "the old pattern, not the shipped one")
        XCTAssertEqual(incomplete.first?.page, 1)
    }

    /// Regression (trust issue, 5): `a.pdf` and `a.PDF` both wrote `text/a.txt`; `{page}.pdf` and
    /// `1.pdf` collided; `.pdf` and `...pdf` made hidden or climbing names; a 250-byte name failed
    /// with "File name too long". Every document now gets outputs of its own.
    func testEveryDocumentGetsOutputsOfItsOwn() throws {
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let long = String(repeating: "é", count: 120) + ".pdf"  // 244 bytes
        let names = ["a.pdf", "a.PDF", "A.pdf", "{page}.pdf", "1.pdf", ".pdf", "...pdf", long]
        for (k, name) in names.enumerated() {
            let content = "BT /F1 12 Tf 10 100 Td (document \(k)) Tj ET"
            try TestPDF.write(
                folder + "/" + name,
                objects: [
                    "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
                    "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
                    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                ])
        }
        let set = try InputSet.expand([folder], relativeTo: dir)
        XCTAssertEqual(Set(set.documents.map(\.relativePath)), Set(names))
        let stages =
            #"[{"use": "thumbnails", "with": {"width": 20, "template": "{stem}/{page}.{ext}"}}, {"use": "extract-text"}]"#
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let results = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: set.root, jobs: 2).run(
            set.documents)
        XCTAssertTrue(results.allSatisfy { $0.findings.isEmpty }, "\(results.flatMap(\.findings))")
        let artifacts = results.flatMap { $0.artifacts.map(\.path) }
        XCTAssertEqual(artifacts.count, names.count * 2)
        XCTAssertEqual(
            Set(artifacts.map { $0.lowercased() }).count, artifacts.count,
            "no two documents share a file: \(artifacts.sorted())")
        for r in results {
            let text = try String(
                contentsOfFile: dir + "/out/" + r.artifacts.first { $0.path.hasSuffix(".txt") }!.path, encoding: .utf8)
            let k = names.firstIndex(of: r.path)!
            XCTAssertTrue(text.contains("document \(k)"), "\(r.path): \(text)")
        }
        XCTAssertTrue(
            artifacts.allSatisfy { !$0.split(separator: "/").contains { $0.hasPrefix(".") || $0.utf8.count > 240 } },
            "\(artifacts)")
    }

    /// Regression (trust issue, 5): a file whose name is not valid UTF-8 was left out of the report
    /// (a folder with only such a file reported "0 documents", exit 0). It is listed, its name's
    /// bytes escaped, with a finding that says why it was not read.
    func testAFileNameThatIsNotUTF8IsListedWithAFinding() throws {
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var raw = Array((folder + "/bad").utf8) + [0xFF, 0xFE] + Array(".pdf".utf8)
        raw.append(0)
        let bytes = HostilePDFs.classic(HostilePDFs.onePage())
        let fd = raw.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, bytes.count)
        close(fd)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/good.pdf"))
        let set = try InputSet.expand([folder], relativeTo: dir)
        XCTAssertEqual(set.documents.map(\.relativePath), [#"bad\xff\xfe.pdf"#, "good.pdf"])
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(Self.linkStages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let results = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: set.root, jobs: 2).run(
            set.documents)
        XCTAssertEqual(results.map(\.status), [.failed, .ok])
        XCTAssertEqual(results[0].findings.map(\.rule), ["pdf.unreadable"])
        XCTAssertTrue(results[0].findings[0].message.contains("not valid UTF-8"))
    }
}
