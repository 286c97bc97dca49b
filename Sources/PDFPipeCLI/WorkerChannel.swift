import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// The isolation channel's messages besides the results (a document's `DocumentResult` JSON),
/// declared once for both ends: one JSON object per line. The parent asks a worker for a document
/// (`Request`); a worker's stage may ask the parent's (`Question`: validate-links' URLs, checked
/// once per run) and gets its `Answer` before the result comes.
enum WorkerChannel {
    /// Sent by a worker before a result when it ends after it (engine work left running).
    static let retireLine = #"{"$retire":true}"#

    struct Request: Equatable {
        var path: String
        var relative: String
        var stem: String?
        var pageWorkers: Int

        var line: String {
            var o: [String: JSONValue] = [
                "path": .string(path), "relative": .string(relative), "pageWorkers": .int(pageWorkers),
            ]
            if let stem { o["stem"] = .string(stem) }
            return JSONWriter.compact(.object(o)) + "\n"
        }

        init(path: String, relative: String, stem: String?, pageWorkers: Int) {
            self.path = path
            self.relative = relative
            self.stem = stem
            self.pageWorkers = pageWorkers
        }

        init?(line: String) {
            guard let v = try? JSONParser.parse(line), let path = v["path"]?.stringValue,
                let relative = v["relative"]?.stringValue
            else { return nil }
            self.init(
                path: path, relative: relative, stem: v["stem"]?.stringValue,
                pageWorkers: v["pageWorkers"]?.intValue ?? 1)
        }
    }

    /// `{"$question": {"stage": i, "body": …}}`: no result has a key that starts with '$', so a line
    /// that starts so is a question.
    struct Question: Equatable {
        static let prefix = #"{"$question":"#
        /// The `stage` of a question no stage asks: make the file a link names present
        /// (`LocalCopies.ensure` in the parent); the body is its path.
        static let localCopy = -2
        /// The `stage` of a worker's lease of lent cores (`CoreBook.lease`); the body is how many it
        /// would like, the answer how many it has.
        static let cores = -3
        var stage: Int
        var body: JSONValue

        var line: String { JSONWriter.compact(["$question": ["stage": .int(stage), "body": body]]) + "\n" }

        init(stage: Int, body: JSONValue) {
            self.stage = stage
            self.body = body
        }

        init?(line: String) {
            guard line.hasPrefix(Self.prefix), let q = (try? JSONParser.parse(line))?["$question"] else { return nil }
            self.init(stage: q["stage"]?.intValue ?? -1, body: q["body"] ?? .null)
        }
    }

    struct Answer: Equatable {
        var body: JSONValue
        var line: String { JSONWriter.compact(["answer": body]) + "\n" }

        init(body: JSONValue) { self.body = body }

        init?(line: String) {
            guard let v = try? JSONParser.parse(line), case .object(let o) = v else { return nil }
            body = o["answer"] ?? .null
        }
    }
}

/// A worker process's lender: the parent keeps the book (`CoreBook`), asked over the channel.
struct ChannelLender: CoreLender {
    let ask: @Sendable (Int, JSONValue) -> JSONValue
    func lease(wanted: Int) -> Int { ask(WorkerChannel.Question.cores, .int(wanted)).intValue ?? 0 }
}
