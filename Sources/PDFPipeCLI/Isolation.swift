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
