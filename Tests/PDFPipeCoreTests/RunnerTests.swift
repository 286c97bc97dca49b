import TestSupport
import XCTest

@testable import PDFPipeCore

final class RunnerTests: XCTestCase {
    func pipeline(_ text: String) throws -> Pipeline {
        try Pipeline.parse(text, file: "p.json", catalog: fakeCatalog, formats: ["json"])
    }

    func documents(_ names: [String]) -> [InputDocument] {
        names.map { InputDocument(path: "/in/" + $0, relativePath: $0) }
    }

    func testResultsComeInInputOrderWhateverTheConcurrency() throws {
        let p = try pipeline(#"{"stages": [{"use": "note"}]}"#)
        let names = (0..<40).map { $0 % 3 == 0 ? "slow\($0).pdf" : "fast\($0).pdf" }
        let one = Runner(pipeline: p, outputDirectory: "/out", jobs: 1).run(documents(names))
        let four = Runner(pipeline: p, outputDirectory: "/out", jobs: 4).run(documents(names))
        XCTAssertEqual(one.map(\.path), names)
        func stable(_ r: [DocumentResult]) -> [DocumentResult] {
            r.map {
                var d = $0
                d.timings = [:]
                return d
            }
        }
        XCTAssertEqual(stable(one), stable(four))
        XCTAssertEqual(four[1].findings.first?.message, "width 200 on 'fast1.pdf'")
        XCTAssertEqual(four[1].findings.first?.pageLabel, "p2", "labels are filled in from the job")
        XCTAssertEqual(four[1].findings.first?.stage, "note")
        XCTAssertNotNil(four[1].timings["note"])
    }

    /// Issue 44: a file that changes while it is read gets `pdf.changed-during-run` instead of its
    /// results; the others are untouched.
    func testAFileThatChangesWhileItIsReadIsReportedNotItsResults() throws {
        let dir = NSTemporaryDirectory() + "pdfpipe-growing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["a.pdf", "growing.pdf", "c.pdf"] {
            try Data("%PDF-1.7\n".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let p = try Pipeline.parse(
            #"{"stages": [{"use": "grow"}]}"#, file: "p.json", catalog: [GrowingStage.descriptor], formats: ["json"])
        let docs = ["a.pdf", "growing.pdf", "c.pdf"].map { InputDocument(path: dir + "/" + $0, relativePath: $0) }
        let r = Runner(pipeline: p, outputDirectory: dir + "/out", jobs: 2).run(docs)
        XCTAssertEqual(r.map(\.status), [.ok, .failed, .ok])
        XCTAssertEqual(r[1].findings.map(\.rule), ["pdf.changed-during-run"])
        XCTAssertEqual(
            r[1].findings.first?.message,
            "the file changed while it was read (9 bytes when its turn came, 10 bytes at the end); its results are not kept"
        )
        XCTAssertEqual(r[0].findings.map(\.message), ["read 'a.pdf'"])
        XCTAssertEqual(r[2].findings.map(\.message), ["read 'c.pdf'"])
    }

    func testAFailingStageBecomesAFindingAndTheBatchGoesOn() throws {
        let p = try pipeline(#"{"stages": [{"use": "fail"}, {"use": "note"}]}"#)
        let r = Runner(pipeline: p, outputDirectory: "/out", jobs: 2).run(documents(["a.pdf", "bad.pdf", "c.pdf"]))
        XCTAssertEqual(r.map(\.status), [.ok, .failed, .ok])
        XCTAssertEqual(r[1].findings.map(\.rule), ["stage.failed"])
        XCTAssertEqual(r[1].findings[0].message, "stage 'fail' failed: boom")
        XCTAssertEqual(r[1].findings[0].severity, .error)
        XCTAssertNil(r[1].timings["note"], "later stages are skipped")
        XCTAssertEqual(r[0].findings.count, 1)
        XCTAssertEqual(r[2].findings.count, 1)
    }

    func testDocumentFailureUsesItsRule() throws {
        let p = try pipeline(#"{"stages": [{"use": "fail", "with": {"fatal": true}}, {"use": "note"}]}"#)
        let r = Runner(pipeline: p, outputDirectory: "/out", jobs: 1).run(documents(["bad.pdf"]))
        XCTAssertEqual(r[0].status, .failed)
        XCTAssertEqual(r[0].findings.map(\.rule), ["pdf.unreadable"])
        XCTAssertEqual(r[0].findings[0].hint, Rule.pdfUnreadable.hint)
    }

    func testRuleLevelsFromThePipeline() throws {
        let off = try pipeline(#"{"stages": [{"use": "note"}], "rules": {"pdf.encrypted": "off"}}"#)
        XCTAssertEqual(Runner(pipeline: off, outputDirectory: "/o", jobs: 1).run(documents(["a.pdf"]))[0].findings, [])
        let raised = try pipeline(#"{"stages": [{"use": "note"}], "rules": {"pdf.encrypted": "error"}}"#)
        let r = Runner(pipeline: raised, outputDirectory: "/o", jobs: 1).run(documents(["a.pdf"]))
        XCTAssertEqual(r[0].findings.map(\.severity), [.error])
        let summary = Summary(documents: r)
        XCTAssertEqual(summary.errors, 1)
        XCTAssertEqual(summary.count(atOrAbove: .error), 1)
        XCTAssertEqual(summary.count(atOrAbove: .never), 0)
    }

    /// Results streamed to a store from four workers while the cores are busy (and under
    /// ThreadSanitizer in scripts/test.sh): every document once, read back in input order, the
    /// same as the results kept in memory; the summary counted as they came; the JSON report the
    /// same bytes either way.
    func testAStoreGetsEveryResultOnceAndGivesThemBackInOrder() throws {
        let p = try pipeline(#"{"stages": [{"use": "note"}, {"use": "fail"}]}"#)
        let names = (0..<200).map { $0 % 7 == 0 ? "bad\($0).pdf" : $0 % 3 == 0 ? "slow\($0).pdf" : "fast\($0).pdf" }
        let dir = NSTemporaryDirectory() + "pdfpipe-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ResultStore(directory: dir, count: names.count, pipelineHash: "test")
        let load = CoreLoad()
        let streamed = Runner(pipeline: p, outputDirectory: "/out", jobs: 4).run(documents(names), store: store)
        load.stop()
        try store.finish()
        XCTAssertEqual(streamed, [], "nothing kept in memory")
        let kept = Runner(pipeline: p, outputDirectory: "/out", jobs: 4).run(documents(names))
        func stable(_ r: some Sequence<DocumentResult>) -> [DocumentResult] {
            r.map {
                var d = $0
                d.timings = [:]
                return d
            }
        }
        XCTAssertEqual(stable(store.documents.map { $0 }).map(\.path), names)
        XCTAssertEqual(stable((0..<names.count).compactMap { store.document($0) }), stable(kept))
        XCTAssertEqual(store.summary, Summary(documents: kept))
        var a = RunReport(toolVersion: "1", pipeline: "p", documents: [], generatedAt: "now")
        a.store = store
        let b = RunReport(
            toolVersion: "1", pipeline: "p", documents: (0..<names.count).compactMap { store.document($0) },
            generatedAt: "now")
        XCTAssertEqual(JSONReporter().render(a), JSONReporter().render(b))
        XCTAssertEqual(a.failing, b.failing)
        XCTAssertEqual(
            try String(contentsOfFile: store.path, encoding: .utf8).split(separator: "\n").count, names.count)
    }

    func testReportShape() throws {
        let doc = DocumentResult(
            path: "a.pdf", pageCount: 2,
            findings: [Finding(rule: .pdfDamaged, page: 1, pageLabel: "i", message: "m")],
            artifacts: [Artifact(kind: "thumbnail", page: 1, path: "thumbs/a-1.png")], timings: ["inspect": 0.5])
        let report = RunReport(toolVersion: "9.9", pipeline: "x", documents: [doc], generatedAt: "2026-01-01T00:00:00Z")
        let v = try JSONParser.parse(JSONReporter().render(report))
        XCTAssertEqual(v["tool"], ["name": "pdfpipe", "version": "9.9"])
        XCTAssertEqual(
            v["summary"],
            ["documents": 1, "failedDocuments": 0, "pages": 2, "errors": 0, "warnings": 1, "notes": 0, "suppressed": 0])
        let d = v["documents"]?.arrayValue?.first
        XCTAssertEqual(d?["status"], "ok")
        XCTAssertEqual(d?["findings"]?.arrayValue?.first?["pageLabel"], "i")
        XCTAssertEqual(d?["artifacts"], [["kind": "thumbnail", "page": 1, "path": "thumbs/a-1.png"]])
        XCTAssertEqual(d?["timings"], ["inspect": 0.5])
        var expected = doc.findings[0]
        expected.fingerprint = doc.fingerprints[0]
        XCTAssertEqual(try Finding(json: d!["findings"]!.arrayValue![0]), expected, "read back with its fingerprint")
    }
}

/// The results file's lines are written in parts (so that where the document lies is known, and
/// the JSON report copies it without a scan): each line must be what `Line` encodes, byte for byte,
/// and the report entry the same whether found by its length or by a scan.
final class ResultLineTests: XCTestCase {
    func testALineIsWhatItsModelEncodesAndItsDocumentIsFoundWithoutAScan() throws {
        let dir = NSTemporaryDirectory() + "pdfpipe-lines-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ResultStore(directory: dir, count: 3, pipelineHash: "0123456789abcdef")
        var d = DocumentResult(
            path: "a \"quoted\"\n/é.pdf", status: .ok,
            findings: [Finding(rule: .pdfDamaged, page: 2, message: "ünïcode \u{202e} and \\ slash")],
            artifacts: [Artifact(kind: "thumbnail", page: 1, path: "thumbnails/a/1.png")], timings: ["x": 0.5],
            sections: ["input": ["nested": true], "pipeline": "x"])
        d.pageCount = 3
        store.append(d, at: 0, input: ResultStore.InputStamp(path: "a.pdf", size: 12, mtime: 34))
        store.append(d, at: 1, input: nil)
        store.append(documentJSON: Array(JSONWriter.compact(JSONValue(encoding: d)).utf8), counted: d, at: 2)
        try store.finish()
        for (i, input) in [(0, ResultStore.InputStamp(path: "a.pdf", size: 12, mtime: 34)), (1, nil), (2, nil)] {
            let written = try XCTUnwrap(store.lineBytes(i))
            let model = ResultStore.Line(
                results: ResultStore.version, pipeline: "0123456789abcdef", document: d, input: input)
            XCTAssertEqual(
                String(decoding: written, as: UTF8.self), JSONWriter.compact(JSONValue(encoding: model)) + "\n",
                "line \(i)")
            XCTAssertEqual(
                store.documentText(i, indent: 1), Array(JSONWriter.pretty(JSONValue(encoding: d), indent: 1).utf8))
        }
    }
}

final class ReporterTests: XCTestCase {
    /// The JSON reporter renders documents in parallel; the text must be exactly the plain rendering.
    func testParallelRenderingGivesTheSameBytes() {
        let docs = (0..<25).map { (i: Int) -> DocumentResult in
            DocumentResult(
                path: "d\(i).pdf", pageCount: i,
                findings: [Finding(rule: .pdfDamaged, page: 1, message: "m \(i) \"q\"")],
                timings: ["inspect": 0.25], sections: ["links": [["page": 1, "rect": [1, 2, 3, 4.5]]], "info": [:]])
        }
        for n in [0, 1, 25] {
            let report = RunReport(
                toolVersion: "1", pipeline: "p", documents: Array(docs.prefix(n)), generatedAt: "now")
            XCTAssertEqual(JSONReporter().render(report), JSONWriter.pretty(report.json), "\(n) documents")
        }
    }
}

/// (#33, 3) The run's context: services made once per key, ended once, in order, on shutdown.
final class RunContextTests: XCTestCase {
    final class Service: RunService, @unchecked Sendable {
        let name: String
        let log: Locked<[String]>
        let fails: Bool
        init(_ name: String, log: Locked<[String]>, fails: Bool = false) {
            self.name = name
            self.log = log
            self.fails = fails
        }
        func shutdown() throws {
            log.withLock { $0.append(name) }
            if fails { throw PipelineError(file: nil, message: "\(name) could not save") }
        }
        var needsShutdown: Bool { true }
    }

    func testServicesAreMadeOnceAndEndedOnceInOrder() {
        let log = Locked<[String]>([])
        let context = RunContext()
        var made = 0
        let a = context.service(ServiceKey("a")) { () -> Service in
            made += 1
            return Service("a", log: log)
        }
        _ = context.service(ServiceKey("b")) { Service("b", log: log, fails: true) }
        XCTAssertTrue(context.service(ServiceKey("a")) { Service("other", log: log) } === a, "made once per key")
        XCTAssertEqual(made, 1)
        XCTAssertTrue(context.existingService(ServiceKey<Service>("a")) === a)
        XCTAssertNil(context.existingService(ServiceKey<Service>("c")))
        let failures = context.shutdown()
        XCTAssertEqual(log.withLock { $0 }, ["a", "b"], "in the order they were made")
        XCTAssertEqual(failures.map(\.key.description), ["b"], "what failed, said")
        XCTAssertTrue(context.shutdown().isEmpty)
        XCTAssertEqual(log.withLock { $0 }, ["a", "b"], "ended once")
    }
}

/// (#64) Run-wide work is a service's, found by its stage: the runner reads its findings (at the
/// pipeline's levels, named after the stage instance) and sections, routes the workers' questions
/// to it by the stage's index, and in a worker has it forward them.
final class RunServiceTests: XCTestCase {
    func pipeline(_ text: String) throws -> Pipeline {
        try Pipeline.parse(
            text, file: "p.json", catalog: [NoteStage.descriptor, CountingStage.descriptor], formats: ["json"])
    }

    func testTheRunnerFindsEachStageInstancesServiceForTheRunsFindingsAndSections() throws {
        let p = try pipeline(
            #"{"stages": [{"use": "count"}, {"use": "note"}, {"use": "count"}], "rules": {"pdf.encrypted": "note"}}"#)
        let runner = Runner(pipeline: p, outputDirectory: "/out", jobs: 2)
        XCTAssertEqual(runner.runFindings(), [], "a service never started says nothing")
        _ = runner.run(["a.pdf", "b.pdf", "c.pdf"].map { InputDocument(path: "/in/" + $0, relativePath: $0) })
        let findings = runner.runFindings()
        XCTAssertEqual(findings.map(\.message), ["counted 3", "counted 3"])
        XCTAssertEqual(findings.map(\.stage), ["count", "count#2"], "each instance keeps its own service")
        XCTAssertEqual(findings.map(\.severity), [.note, .note], "the pipeline's level, as for a document's")
        XCTAssertEqual(runner.runSections(), ["counted": .int(3)])
        XCTAssertEqual(runner.stageServices().map(\.stage.label), ["count", "count#2"])
        XCTAssertEqual(runner.answer(.int(10), stage: 2), .int(13), "the question goes to the stage's service")
        XCTAssertEqual(runner.answer(.int(10), stage: 1), .null, "a stage without a service answers null")
        XCTAssertEqual(runner.answer(.int(10), stage: 7), .null)
        runner.finish()
    }

    func testRuleLevelsOffDropARunFinding() throws {
        let p = try pipeline(#"{"stages": [{"use": "count"}], "rules": {"pdf.encrypted": "off"}}"#)
        let runner = Runner(pipeline: p, outputDirectory: "/out", jobs: 1)
        _ = runner.run([InputDocument(path: "/in/a.pdf", relativePath: "a.pdf")])
        XCTAssertEqual(runner.runFindings(), [])
        runner.finish()
    }

    func testAWorkersServicesForwardTheirQuestionsWithTheStagesIndex() throws {
        let p = try pipeline(#"{"stages": [{"use": "note"}, {"use": "count"}]}"#)
        let runner = Runner(pipeline: p, outputDirectory: "/out", jobs: 1)
        let asked = Locked<[Int]>([])
        runner.forwardQuestions { index, body in
            asked.withLock { $0.append(index) }
            return body
        }
        let counter = try XCTUnwrap(runner.stageServices().first?.service as? CountingStage.Counter)
        let ask = try XCTUnwrap(counter.asked.withLock { $0 })
        XCTAssertEqual(ask(.int(5)), .int(5))
        XCTAssertEqual(asked.withLock { $0 }, [1])
        runner.finish()
    }
}
