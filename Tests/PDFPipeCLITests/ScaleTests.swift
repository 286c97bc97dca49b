import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// Results stream to `results.jsonl` as documents finish; reports are written from it; `--resume`
/// continues an interrupted run. (Memory and time are measured by bench/scale.sh, not here.)
final class ScaleTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() {
        if ProcessInfo.processInfo.environment["KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        } else {
            print("kept", dir)
        }
    }

    func lines(_ file: String) throws -> [JSONValue] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(String($0))
        }
    }

    /// One line per document, each whole, holding exactly the document's entry in report.json.
    func testEveryDocumentIsOneLineOfTheResultsFile() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run(["run", "pipelines/link-audit.json", "--out", dir, "--jobs", "3", "--offline"]), .findings)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/report.json", encoding: .utf8))
        let documents = try XCTUnwrap(report["documents"]?.arrayValue)
        let recorded = try lines(dir + "/results.jsonl")
        XCTAssertEqual(recorded.count, Samples.all.count)
        XCTAssertEqual(documents.count, Samples.all.count)
        for line in recorded {
            XCTAssertEqual(line.objectValue.map { Set($0.keys) }, ["document", "input", "pipeline", "results"])
            XCTAssertEqual(line["results"], 1)
            let path = try XCTUnwrap(line["document"]?["path"]?.stringValue)
            XCTAssertEqual(line["input"]?["path"]?.stringValue, path)
            let size = try FileManager.default.attributesOfItem(atPath: Samples.path(path))[.size] as? Int
            XCTAssertEqual(line["input"]?["size"]?.intValue, size)
            // The report lists the same entry, in input order.
            XCTAssertEqual(documents.first { $0["path"]?.stringValue == path }, line["document"], path)
        }
        XCTAssertEqual(documents.compactMap { $0["path"]?.stringValue }, Samples.all)
    }

    /// `kill -9` in the middle of a batch, a line cut in half by the crash, then `--resume`: the
    /// documents already recorded are not processed again, and the report is the one an
    /// uninterrupted run writes.
    func testKillDashNineThenResumeGivesTheUninterruptedReport() throws {
        let input = dir + "/in"
        let names = [
            "page-labels.pdf", "broken-links.pdf", "links-internal.pdf", "uri-links.pdf", "rotated-cropped.pdf",
        ]
        for i in 0..<200 {
            let sub = input + "/\(i / 50)"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Samples.path(names[i % names.count]), toPath: sub + "/d\(i).pdf")
        }
        try #"{"stages": [{"use": "validate-links"}, {"use": "thumbnails", "with": {"width": 120, "pages": "all"}}]}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Repo.executable())
        p.arguments = ["run", dir + "/p.json", input, "--out", out, "--jobs", "2", "--quiet", "--offline"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Killed once some documents are recorded.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline,
            ((try? String(contentsOfFile: out + "/results.jsonl", encoding: .utf8))?.split(separator: "\n").count ?? 0)
                < 20
        {
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        var text = try String(contentsOfFile: out + "/results.jsonl", encoding: .utf8)
        let done = text.split(separator: "\n").count
        XCTAssertGreaterThanOrEqual(done, 20)
        XCTAssertLessThan(done, 200, "the run was not interrupted: nothing to resume")
        // A crash in the middle of a write: half a line at the end.
        text += String(text.prefix(text.count / 3).split(separator: "\n")[0].prefix(200))
        try text.write(toFile: out + "/results.jsonl", atomically: true, encoding: .utf8)

        let resumed = CapturedCLI()
        XCTAssertEqual(
            resumed.run(["run", dir + "/p.json", input, "--out", out, "--jobs", "2", "--offline", "--resume"]),
            .findings)
        XCTAssertTrue(
            resumed.stderr.hasPrefix("pdfpipe: resume: \(done) of 200 documents already done (\(out)/results.jsonl)"),
            resumed.stderr)
        let whole = CapturedCLI()
        XCTAssertEqual(
            whole.run(["run", dir + "/p.json", input, "--out", dir + "/whole", "--jobs", "2", "--offline"]), .findings)
        assertSameReport(try Repo.stableReport(out + "/report.json"), try Repo.stableReport(dir + "/whole/report.json"))
        XCTAssertEqual(try lines(out + "/results.jsonl").count, 200, "the torn line is gone, every document once")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".") }, [],
            "no temporary files")
    }

    /// A document whose file changed since it was recorded is processed again; so is every
    /// document when the pipeline changed.
    func testResumeRedoesChangedFilesAndChangedPipelines() throws {
        let input = dir + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for name in ["page-labels.pdf", "broken-links.pdf", "links-internal.pdf", "uri-links.pdf"] {
            try FileManager.default.copyItem(atPath: Samples.path(name), toPath: input + "/" + name)
        }
        let pipeline = dir + "/p.json"
        try #"{"stages": [{"use": "validate-links"}]}"#.write(toFile: pipeline, atomically: true, encoding: .utf8)
        func resume() -> String {
            let cli = CapturedCLI()
            _ = cli.run(["run", pipeline, input, "--out", dir + "/out", "--offline", "--resume"])
            return cli.stderr.split(separator: "\n").first.map(String.init) ?? ""
        }
        XCTAssertTrue(resume().hasPrefix("pdfpipe: resume: 0 of 4 documents already done"))
        XCTAssertTrue(resume().hasPrefix("pdfpipe: resume: 4 of 4 documents already done"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: input + "/uri-links.pdf")
        XCTAssertTrue(resume().hasPrefix("pdfpipe: resume: 3 of 4 documents already done"))
        try #"{"stages": [{"use": "validate-links", "with": {"inventory": false}}]}"#.write(
            toFile: pipeline, atomically: true, encoding: .utf8)
        XCTAssertTrue(resume().hasPrefix("pdfpipe: resume: 0 of 4 documents already done"))
        // Without --resume, an earlier file is replaced, not added to.
        _ = CapturedCLI().run(["run", pipeline, input + "/page-labels.pdf", "--out", dir + "/out", "--offline"])
        XCTAssertEqual(try lines(dir + "/out/results.jsonl").count, 1)
    }

    /// Found by the test above: a document in flight when the run was killed had its thumbnails
    /// written but no result, and redone it skipped them as up to date — without the poppler
    /// messages rendering had reported. A skip now reports what the render said (kept in the
    /// manifest), and `--resume` redoes unrecorded documents in full.
    func testAnUpToDateSkipReportsWhatTheRenderSaid() throws {
        try #"{"stages": [{"use": "thumbnails", "with": {"width": 100}}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        var reports: [JSONValue] = []
        for _ in 0..<2 {
            XCTAssertEqual(
                CapturedCLI().run(["run", dir + "/p.json", "samples/uri-links.pdf", "--out", dir + "/out"]), .clean)
            reports.append(try Repo.stableReport(dir + "/out/report.json"))
        }
        let messages = reports.map { r in
            r["documents"]?[0]?["findings"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        }
        XCTAssertEqual(messages[0], ["poppler: Syntax warning: Illegal URI-type link"])
        XCTAssertEqual(messages[1], messages[0])
        XCTAssertEqual(
            reports.map { $0["documents"]?[0]?["thumbnails"] },
            [["rendered": 1, "skipped": 0], ["rendered": 0, "skipped": 1]])
    }

    /// SARIF is written in pieces too (the artifacts and results arrays stream into a skeleton):
    /// the file is exactly the pretty form of its value, with and without documents.
    func testStreamedSARIFIsThePrettyFormOfItsValue() throws {
        for inputs in [["samples"], ["samples/page-labels.pdf", "samples/uri-links.pdf"]] {
            let out = dir + "/\(inputs.count)"
            _ = CapturedCLI().run(
                ["run", "pipelines/link-audit.json"] + inputs + ["--out", out, "--offline", "--format", "sarif"])
            let text = try String(contentsOfFile: out + "/report.sarif", encoding: .utf8)
            let value = try JSONParser.parse(text)
            XCTAssertEqual(text, JSONWriter.pretty(value))
            XCTAssertEqual(
                value["runs"]?[0]?["artifacts"]?.arrayValue?.count, inputs == ["samples"] ? Samples.all.count : 2)
        }
    }

    /// The scanner merge uses to read a report one document at a time: element boundaries in the
    /// face of strings holding brackets, braces, commas and escaped quotes; nil for what is not
    /// such an object.
    func testTheReportScannerFindsEachDocument() {
        let text = #"{"a": [1, {"x": "]"}], "documents" : [ {"p": "a\"}],{"}, [[]], "s", 12.5e3 , null ], "z": {}}"#
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            guard let layout = JSONScanner.layout(of: "documents", in: raw) else { return XCTFail("no layout") }
            XCTAssertEqual(
                layout.elements.map { String(decoding: raw[$0], as: UTF8.self) },
                [#"{"p": "a\"}],{"}"#, "[[]]", #""s""#, "12.5e3", "null"])
            XCTAssertEqual(
                String(decoding: raw[layout.array], as: UTF8.self), #"[ {"p": "a\"}],{"}, [[]], "s", 12.5e3 , null ]"#)
            XCTAssertEqual(JSONScanner.members(in: raw)?.map(\.key), ["a", "documents", "z"])
        }
        for bad in [#"{"documents": [1, 2"#, #"[1, 2]"#, #"{"documents": {"a": 1}}"#, #"{"documents": ["open]}"#, ""] {
            Array(bad.utf8).withUnsafeBytes { raw in XCTAssertNil(JSONScanner.layout(of: "documents", in: raw), bad) }
        }
    }
}
