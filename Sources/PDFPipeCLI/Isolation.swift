import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// Process isolation: documents run in child processes (this executable in worker mode), so a crash,
/// a hang past the timeout or a memory blow-up costs that document only.
///
/// The children are long-lived and started before the first document (`prestart`): each takes one
/// document after another over a pipe (one JSON line in, one JSON line out), so a batch of small
/// files pays for a process start once per worker, not once per document. A child that crashes or
/// is killed for a timeout is replaced by a fresh one, and a child is retired after
/// `documentsPerWorker` documents or once it holds `residentLimit` bytes, whichever comes first
/// (Tika Pipes' pattern), so that leaks and heap growth in the C libraries cannot pile up (and an
/// out-of-memory is blamed on the document that caused it). The pages of a big document are not
/// held to one core: the cores other workers leave idle are lent to them (`CoreBook`).
final class IsolatedRunner: RunService {
    /// The run's worker processes, as a service of its context (ended by `Runner.finish()`).
    static let key = ServiceKey<IsolatedRunner>("isolation")
    let executable: String
    let pipelineFile: String
    let outputDirectory: String
    let inputRoot: String
    let timeout: Double
    let memoryLimitMB: Int
    let force: Bool
    let offline: Bool
    /// The inputs live in object storage: workers ask this process for the files links name
    /// (`LocalCopies`), which it fetches once for the run and keeps.
    let localCopies: Bool
    /// Documents a worker takes before it is retired. A start costs 25 ms of a core, and the first
    /// pages a fresh process draws are slower (fonts and caches loaded anew): retired every 100
    /// documents, workers took 6 % more time on 600 small manuals than in-process.
    let documentsPerWorker = 1000
    /// Resident memory past which a worker is retired after its document (1 GiB).
    let residentLimit = 1 << 30
    private let idle = Locked<[WorkerProcess]>([])
    /// The run's cores: which the busy workers use, which are lent to whose pages (`CoreBook`).
    private let cores = Locked(CoreBook(total: ProcessInfo.processInfo.activeProcessorCount))
    /// Answers a worker's question for its stage at an index (`Stage.answer`); set before the first document.
    var answer: (@Sendable (Int, JSONValue) -> JSONValue)? {
        get { answerHook.withLock { $0 } }
        set { answerHook.withLock { $0 = newValue } }
    }
    private let answerHook = Locked<(@Sendable (Int, JSONValue) -> JSONValue)?>(nil)

    init(
        executable: String, pipelineFile: String, outputDirectory: String, inputRoot: String, timeout: Double,
        memoryLimitMB: Int,
        force: Bool, offline: Bool = false, localCopies: Bool = false
    ) {
        self.localCopies = localCopies
        self.executable = executable
        self.pipelineFile = pipelineFile
        self.outputDirectory = outputDirectory
        self.inputRoot = inputRoot
        self.timeout = timeout
        self.memoryLimitMB = memoryLimitMB
        self.force = force
        self.offline = offline
        ProcessControl.ignore(SIGPIPE)  // a dead child's stdin is an error to handle, not a reason to die
    }

    /// Whether worker processes can be started: this program is pdfpipe (`main.swift` says so), or
    /// `PDFPIPE_WORKER_EXECUTABLE` names it.
    static var workersAvailable: Bool {
        CLI.isMainProgram || Environment["PDFPIPE_WORKER_EXECUTABLE"] != nil
    }

    /// This executable (`PDFPIPE_WORKER_EXECUTABLE` overrides it, for running the CLI inside a test runner).
    static func currentExecutable() -> String {
        if let e = Environment["PDFPIPE_WORKER_EXECUTABLE"] { return e }
        return ProcessControl.executablePath ?? CommandLine.arguments[0]
    }

    func run(_ document: InputDocument, pageWorkers: Int) -> DocumentResult {
        func failed(_ rule: Rule, _ message: String) -> DocumentResult {
            DocumentResult(
                path: document.relativePath, status: .failed, findings: [Finding(rule: rule, message: message)])
        }
        let worker: WorkerProcess
        if let w = idle.withLock({ $0.popLast() }) {
            worker = w
        } else {
            do {
                worker = try WorkerProcess(executable: executable, arguments: workerArguments())
            } catch {
                return failed(.pdfCrashed, "cannot start the worker process: \(error)")
            }
        }
        let request = WorkerChannel.Request(
            path: document.path, relative: document.relativePath, stem: document.outputStem, pageWorkers: pageWorkers)
        let seat = ObjectIdentifier(worker)
        cores.withLock { $0.begin(seat, cores: pageWorkers) }
        var answer = worker.send(request.line) ? worker.readLine(timeout: timeout) : .closed
        // The time the parent spends on a worker's URL questions is not the document's.
        var remaining = timeout
        var started = SystemClock.uptimeNanoseconds
        // A worker that left engine work running past a budget says so before its result: it is
        // then stopped rather than given another document.
        var retire = false
        while case .line(let text) = answer, text == WorkerChannel.retireLine {
            retire = true
            answer = worker.readLine(timeout: timeout)
        }
        while case .line(let text) = answer, let question = WorkerChannel.Question(line: text) {
            if timeout > 0 { remaining -= SystemClock.seconds(since: started) }
            let reply = WorkerChannel.Answer(body: reply(to: question, from: seat))
            started = SystemClock.uptimeNanoseconds
            answer =
                worker.send(reply.line, keepStderrOffset: true)
                ? worker.readLine(timeout: timeout > 0 ? max(remaining, 0.001) : 0) : .closed
        }
        // Its cores are free from here, before the worker can go back to the pool (where another
        // document's `begin` for the same worker must not be undone by this one's end).
        cores.withLock { $0.end(seat) }
        switch answer {
        case .line(let text):
            worker.documents += 1
            if retire {
                worker.kill()
            } else if worker.documents >= documentsPerWorker || (worker.residentBytes ?? 0) > residentLimit {
                worker.finish()
            } else {
                idle.withLock { $0.append(worker) }
            }
            do {
                return try DocumentResult(json: JSONParser.parse(text))
            } catch {
                return failed(.pdfCrashed, "the document's process gave no result (\(error))")
            }
        case .timedOut:
            worker.kill()
            return failed(
                .pdfTimeout,
                "processing took longer than \(JSONWriter.format(timeout)) s; the document's process was stopped")
        case .closed:
            let (signal, status, errText) = worker.waitForExit()
            let lower = errText.lowercased()
            if memoryLimitMB > 0
                && (lower.contains("memory") || lower.contains("bad_alloc") || lower.contains("cannot allocate"))
            {
                return failed(
                    .pdfOutOfMemory, "the document's process ran out of memory under the \(memoryLimitMB) MB limit")
            }
            let how =
                signal != 0
                ? "was killed by signal \(signal)\(Self.signalName(signal))" : "exited with status \(status)"
            let detail = WorkerProcess.crashReason(errText).map { ": \($0)" } ?? ""
            return failed(.pdfCrashed, "the document's process \(how)\(detail)")
        }
    }

    /// The answer to a worker's question: a file made present, a lease of cores, or its stage's answer.
    private func reply(to question: WorkerChannel.Question, from seat: ObjectIdentifier) -> JSONValue {
        switch question.stage {
        case WorkerChannel.Question.localCopy:
            if let path = question.body.stringValue { LocalCopies.ensure(path) }
            return .null
        case WorkerChannel.Question.cores:
            let wanted = question.body.intValue ?? 0
            return .int(cores.withLock { $0.lease(seat, wanted: wanted) })
        default:
            return answer?(question.stage, question.body) ?? .null
        }
    }

    /// Starts `count` workers now, so that their start (the program loaded, the pipeline read)
    /// overlaps with the parent's own (inputs listed, the results file opened). One that cannot
    /// start is left to the first document, which says why.
    func prestart(_ count: Int) {
        for _ in 0..<count {
            guard let worker = try? WorkerProcess(executable: executable, arguments: workerArguments()) else { return }
            idle.withLock { $0.append(worker) }
        }
    }

    /// Nothing is lost when the run's context is dropped without `shutdown`: a worker whose input
    /// closes (this process gone) exits.
    var needsShutdown: Bool { false }

    /// Ends the idle workers (they exit when their input closes).
    func shutdown() {
        for w in idle.withLock({ l in
            defer { l.removeAll() }
            return l
        }) { w.finish() }
    }

    private func workerArguments() -> [String] {
        let f = WorkerFlags()
        var args = [
            "__worker", pipelineFile, f.$out.name, outputDirectory, f.$root.name, inputRoot, f.$memoryLimit.name,
            String(memoryLimitMB), f.$timeout.name, JSONWriter.format(timeout),
        ]
        if force { args.append(f.$force.name) }
        if offline { args.append(f.$offline.name) }
        if localCopies { args.append(f.$localCopies.name) }
        return args
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGSEGV: " (SIGSEGV)"
        case SIGABRT: " (SIGABRT)"
        case SIGBUS: " (SIGBUS)"
        case SIGILL: " (SIGILL)"
        case SIGTRAP: " (SIGTRAP)"
        case SIGFPE: " (SIGFPE)"
        case SIGKILL: " (SIGKILL)"
        default: ""
        }
    }
}

/// Which cores the worker processes use: each busy one the cores its document was given
/// (`pageWorkers`), and the cores the others leave idle lent to the pages of a document still
/// running (`PageHelpers` with a `CoreLender` in the worker). A lease is asked for again every
/// `PageHelpers.leaseInterval` while pages are left, so when another worker takes a document the
/// lease shrinks and the core goes back within one page.
struct CoreBook {
    let total: Int
    private var busy: [ObjectIdentifier: (own: Int, lent: Int)] = [:]

    init(total: Int) { self.total = max(1, total) }

    /// A worker took a document with `cores` threads of its own.
    mutating func begin(_ worker: ObjectIdentifier, cores: Int) { busy[worker] = (max(1, cores), 0) }

    /// The worker's document ended (a result, a crash, a timeout): its cores and lease are free.
    mutating func end(_ worker: ObjectIdentifier) { busy[worker] = nil }

    /// The worker's whole lease now, for `wanted` more threads: what the other workers leave free.
    mutating func lease(_ worker: ObjectIdentifier, wanted: Int) -> Int {
        guard let mine = busy[worker] else { return 0 }
        let taken = busy.reduce(0) { $0 + $1.value.own + ($1.key == worker ? 0 : $1.value.lent) }
        let granted = max(0, min(wanted, total - taken))
        busy[worker] = (mine.own, granted)
        return granted
    }
}

/// One child process in worker mode. Used by one thread at a time: the pool hands it over under its
/// lock, which is why it may be `@unchecked Sendable`.
final class WorkerProcess: @unchecked Sendable {
    enum Answer {
        case line(String)
        case timedOut
        case closed
    }

    private let process: ChildProcess
    /// The child's stderr goes to a file (nothing to drain while it runs), which explains a crash.
    /// The file is unlinked as soon as the child has it open: read through `stderrReader`, it
    /// leaves nothing behind even when pdfpipe itself is killed (`kill -9`).
    private let stderrReader: FileHandle?
    private var buffer: [UInt8] = []
    /// Where the current document's stderr starts in the file (earlier documents' lines are not its fault).
    private var stderrOffset: UInt64 = 0
    var documents = 0

    /// Starts a worker (`ChildProcess`: no descriptor of another thread leaks into it, so a
    /// killed worker's pipe closes and its reader learns it at once).
    init(executable: String, arguments: [String]) throws {
        let stderrPath = NSTemporaryDirectory() + "/pdfpipe-worker-\(UUID().uuidString).stderr"
        let stderrFile = try? FileDescriptor.open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600)
        defer {
            try? stderrFile?.close()  // the child has its own copy
            FileSystem.unlink(stderrPath)
        }
        stderrReader = FileHandle(forReadingAtPath: stderrPath)
        // The crash message, not a backtrace (which takes a third of a second and buries it).
        var environment = Environment.all
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            errorOutput: stderrFile.map { .descriptor($0) } ?? .discarded)
    }

    deinit { try? stderrReader?.close() }

    /// The memory the child holds resident now (nil once it is gone).
    var residentBytes: Int? { ProcessControl.residentBytes(of: process.pid) }

    /// Writes a request; false if the child is gone.
    func send(_ text: String, keepStderrOffset: Bool = false) -> Bool {
        if !keepStderrOffset { stderrOffset = (try? stderrReader?.seekToEnd()) ?? 0 }
        guard let input = process.input else { return false }
        return CLI.writeAll(text, to: input)
    }

    /// Reads one line of answer, waiting at most `timeout` seconds (0: no limit).
    func readLine(timeout: Double) -> Answer {
        let deadline = timeout > 0 ? SystemClock.uptimeNanoseconds + UInt64(timeout * 1e9) : nil
        var chunk = [UInt8](repeating: 0, count: 65536)
        var scanned = 0  // bytes of the buffer known to hold no newline (answers can be megabytes)
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return .line(line)
            }
            scanned = buffer.count
            var wait: Int32 = -1
            if let deadline {
                let now = SystemClock.uptimeNanoseconds
                if now >= deadline { return .timedOut }
                wait = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
            }
            if !process.output.waitReadable(milliseconds: wait) { return .timedOut }
            guard let n = chunk.withUnsafeMutableBytes({ try? process.output.read(into: $0) }), n > 0 else {
                return .closed
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    func kill() {
        process.kill(SIGKILL)
        process.wait()
    }

    /// Closes the child's input (it exits at the end of its loop) and waits for it.
    func finish() {
        process.closeInput()
        process.wait()
    }

    /// The line of a crashed process's stderr that says why: Swift's fatal error, a C++ exception,
    /// an assertion, else the last line that is not part of a backtrace.
    static func crashReason(_ stderr: String) -> String? {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let markers = [
            "Fatal error", "Swift runtime failure", "terminate called", "Assertion", "assertion", "Segmentation fault",
            "AddressSanitizer",
        ]
        if let line = lines.first(where: { l in markers.contains { l.contains($0) } }) {
            return line.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        }
        let backtrace = lines.filter { l in
            !(l.hasPrefix("***") || l.hasPrefix("Backtrace took") || l.hasPrefix("Thread ") || l.hasPrefix("Platform:")
                || l.first.map { $0.isNumber } == true || l.hasPrefix("at /"))
        }
        return backtrace.last
    }

    /// Waits for a child that closed its output; gives the signal that ended it (0 if none), its exit
    /// status and its stderr.
    func waitForExit() -> (signal: Int32, status: Int32, stderr: String) {
        process.closeInput()
        let ended = process.wait()
        var text = ""
        if let h = stderrReader {
            try? h.seek(toOffset: stderrOffset)
            text = String(decoding: (try? h.readToEnd()) ?? Data(), as: UTF8.self)
        }
        switch ended {
        case .signaled(let signal): return (signal, 0, text)
        case .exited(let status): return (0, status, text)
        }
    }
}

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
