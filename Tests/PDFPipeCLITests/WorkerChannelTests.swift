import PDFPipeCore
import XCTest

@testable import PDFPipeCLI

/// (#33, 5) The isolation channel's messages are declared once for both ends: each reads back what
/// it writes, and a result line (a document's JSON) is never taken for a question.
final class WorkerChannelTests: XCTestCase {
    func testMessagesReadBackWhatTheyWrite() throws {
        let request = WorkerChannel.Request(path: "/in/a b.pdf", relative: "a b.pdf", stem: "a b", pageWorkers: 3)
        XCTAssertTrue(request.line.hasSuffix("\n"))
        XCTAssertEqual(WorkerChannel.Request(line: request.line), request)
        let question = WorkerChannel.Question(stage: 2, body: ["urls": ["https://example.com/"]])
        XCTAssertEqual(WorkerChannel.Question(line: question.line), question)
        let answer = WorkerChannel.Answer(body: ["ok": true])
        XCTAssertEqual(WorkerChannel.Answer(line: answer.line), answer)

        let result = JSONWriter.compact(DocumentResult(path: "$question.pdf", findings: []).json) + "\n"
        XCTAssertNil(WorkerChannel.Question(line: result), "a result is not a question")
        XCTAssertNil(WorkerChannel.Request(line: "not json"))
    }

    /// (#62) The parent's book of cores: a busy worker keeps its own; what the others leave idle is
    /// lent to the worker that asks, and taken back (at its next ask) when another worker starts a
    /// document; an ended document's lease is free again.
    func testCoresAreLentWhileIdleAndTakenBackWhenNeeded() {
        final class W {}
        let (a, b, c) = (ObjectIdentifier(W.self), ObjectIdentifier(Int.self), ObjectIdentifier(String.self))
        var book = CoreBook(total: 2)
        XCTAssertEqual(book.lease(a, wanted: 1), 0, "no document, no lease")
        book.begin(a, cores: 1)
        book.begin(b, cores: 1)
        XCTAssertEqual(book.lease(a, wanted: 1), 0, "both cores busy")
        book.end(b)
        XCTAssertEqual(book.lease(a, wanted: 3), 1, "b's core, no more")
        book.begin(c, cores: 1)
        XCTAssertEqual(book.lease(c, wanted: 1), 0, "a holds the spare core until its next ask")
        XCTAssertEqual(book.lease(a, wanted: 1), 0, "c's document takes it back")
        book.end(a)
        XCTAssertEqual(book.lease(c, wanted: 1), 1, "a's core is free again")
        XCTAssertEqual(book.lease(c, wanted: 0), 0, "given back")
        var wide = CoreBook(total: 8)
        wide.begin(a, cores: 4)
        XCTAssertEqual(wide.lease(a, wanted: 7), 4, "a document started with 4 threads borrows the other 4")
    }
}
