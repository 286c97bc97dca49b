import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import SystemIO

extension CLI {
    /// `pdfpipe __worker PIPELINE --out DIR --root ROOT [--memory-limit MB] [--force] [--local-copies]`: reads one JSON
    /// request per line on stdin (`{"path", "relative", "pageWorkers"}`), runs the stages on that
    /// document and answers with its result as one JSON line. Not for people: `run --isolate` starts it.
    func workerCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try WorkerFlags.parse(args)
        guard let file = a.operands.first, let outDir = a.out,
            let root = a.root
        else { throw PipelineError(file: nil, message: "__worker: missing arguments") }
        if let mb = a.memoryLimit, mb > 0 {
            ProcessControl.limitAddressSpace(to: mb << 20)
        }
        // Ctrl-C reaches the whole process group; the parent decides what stops (running documents finish).
        ProcessControl.ignore(SIGINT)
        // Answers go to a private copy of stdout; whatever a library prints lands on stderr instead.
        let answers = ProcessControl.divertStandardOutput()
        var pipeline = try loadPipeline(file, environment: a.offline ? .offline : .required)
        pipeline.force = a.force
        pipeline.offline = a.offline
        let runner = Runner(pipeline: pipeline, outputDirectory: outDir, inputRoot: root, jobs: 1)
        let processors = ProcessInfo.processInfo.activeProcessorCount
        runner.context.documentTimeout = a.timeout ?? 0
        defer { runner.finish() }
        // The stages' shared work (validate-links: each URL once for the whole run) is the parent's;
        // so are the files links name when the inputs live in object storage. One question at a
        // time: the channel is one pipe each way.
        let channel = NSLock()
        let ask: @Sendable (Int, JSONValue) -> JSONValue = { stage, body in
            channel.lock()
            defer { channel.unlock() }
            guard Self.writeAll(WorkerChannel.Question(stage: stage, body: body).line, to: answers),
                let line = Swift.readLine(), let reply = WorkerChannel.Answer(line: line)
            else { return .null }
            return reply.body
        }
        runner.forwardQuestions(to: ask)
        // Cores the other workers leave idle, lent by the parent to this document's pages.
        let helpers = PageHelpers(lender: ChannelLender(ask: ask), maxBorrowed: processors - 1)
        if a.localCopies {
            LocalCopies.install { path in _ = ask(WorkerChannel.Question.localCopy, .string(path)) }
        }
        // Test hooks (debug builds only): how a crash in a C library, and a Swift trap, look to the parent.
        #if DEBUG
            let crashOn = Environment["PDFPIPE_TEST_CRASH_ON"]
            let trapOn = Environment["PDFPIPE_TEST_TRAP_ON"]
        #else
            let crashOn: String? = nil
            let trapOn: String? = nil
        #endif
        while let line = Swift.readLine() {
            guard let request = WorkerChannel.Request(line: line) else {
                throw PipelineError(file: nil, message: "__worker: bad request '\(line)'")
            }
            if crashOn == request.relative { abort() }
            if trapOn == request.relative { fatalError("test hook: a trap while reading '\(request.relative)'") }
            let document = InputDocument(
                path: request.path, relativePath: request.relative, outputStem: request.stem)
            let result = runner.process(document, pageWorkers: request.pageWorkers, helpers: helpers)
            // Engine work left running past a budget holds a core (and maybe poppler's locks):
            // this process answers and ends (`_exit`: no exit handler may wait for that thread).
            let retiring = EngineDeadline.abandoned > 0
            if retiring && !Self.writeAll(WorkerChannel.retireLine + "\n", to: answers) { return .internalFailure }
            if !Self.writeAll(JSONWriter.compact(result.json) + "\n", to: answers) { return .internalFailure }
            if retiring { _exit(0) }
        }
        return .clean
    }

    /// Writes all of `text` to a descriptor; false when it is closed.
    static func writeAll(_ text: String, to fd: FileDescriptor) -> Bool {
        (try? fd.writeAll(Array(text.utf8))) != nil
    }
}
