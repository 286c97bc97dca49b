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
}
