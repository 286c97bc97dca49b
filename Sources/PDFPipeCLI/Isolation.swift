import Dispatch
import Foundation
import PDFPipeCore
import PDFPipeStages
import Synchronization

/// Process isolation: each document runs in a child process (this executable in worker mode), so a
/// crash, a hang past the timeout or a memory blow-up costs that document only.
struct IsolatedRunner: Sendable {
    let executable: String
    let pipelineFile: String
    let outputDirectory: String
    let inputRoot: String
    let timeout: Double
    let memoryLimitMB: Int
    let force: Bool

    /// This executable (`PDFPIPE_WORKER_EXECUTABLE` overrides it, for running the CLI inside a test runner).
    static func currentExecutable() -> String {
        if let e = ProcessInfo.processInfo.environment["PDFPIPE_WORKER_EXECUTABLE"] { return e }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    func run(_ document: InputDocument, pageWorkers: Int) -> DocumentResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        var args = [
            "__worker", pipelineFile, "--path", document.path, "--relative", document.relativePath, "--out", outputDirectory,
            "--root", inputRoot, "--page-workers", String(pageWorkers), "--memory-limit", String(memoryLimitMB),
        ]
        if force { args.append("--force") }
        p.arguments = args
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        func failed(_ rule: String, _ message: String) -> DocumentResult {
            DocumentResult(path: document.relativePath, status: .failed, findings: [Finding(rule: rule, message: message)])
        }
        do {
            try p.run()
        } catch {
            return failed("pdf.crashed", "cannot start the worker process: \(error)")
        }
        // Read both pipes while the child runs (a full pipe would block it).
        let stdout = Mutex(Data())
        let stderr = Mutex(Data())
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) {
            let d = out.fileHandleForReading.readDataToEndOfFile()
            stdout.withLock { $0 = d }
        }
        DispatchQueue.global().async(group: readers) {
            let d = err.fileHandleForReading.readDataToEndOfFile()
            stderr.withLock { $0 = d }
        }
        var timedOut = false
        if timeout > 0 {
            if done.wait(timeout: .now() + timeout) == .timedOut {
                timedOut = true
                kill(p.processIdentifier, SIGKILL)
                done.wait()
            }
        } else {
            done.wait()
        }
        readers.wait()
        let errText = String(decoding: stderr.withLock { $0 }, as: UTF8.self)
        if timedOut {
            return failed("pdf.timeout", "processing took longer than \(JSONWriter.format(timeout)) s; the document's process was stopped")
        }
        if p.terminationReason == .uncaughtSignal || p.terminationStatus != 0 {
            let signal = p.terminationReason == .uncaughtSignal ? p.terminationStatus : 0
            let lower = errText.lowercased()
            if memoryLimitMB > 0 && (lower.contains("memory") || lower.contains("bad_alloc") || lower.contains("cannot allocate")) {
                return failed("pdf.out-of-memory", "the document's process ran out of memory under the \(memoryLimitMB) MB limit")
            }
            let how = signal != 0 ? "was killed by signal \(signal)\(Self.signalName(signal))" : "exited with status \(p.terminationStatus)"
            let detail = errText.split(separator: "\n").last.map { ": \($0)" } ?? ""
            return failed("pdf.crashed", "the document's process \(how)\(detail)")
        }
        do {
            let value = try JSONParser.parse(String(decoding: stdout.withLock { $0 }, as: UTF8.self))
            return try DocumentResult(json: value)
        } catch {
            return failed("pdf.crashed", "the document's process gave no result (\(error))")
        }
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

extension CLI {
    /// `pdfpipe __worker PIPELINE --path P --relative R --out DIR --root ROOT ...`: runs the stages on
    /// one document and prints its result as JSON. Not for people: `run` starts it under isolation.
    func workerCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Arguments(
            args, valued: ["--path", "--relative", "--out", "--root", "--page-workers", "--memory-limit"], flags: ["--force"])
        guard let file = a.positional.first, let path = a.values["--path"], let relative = a.values["--relative"],
            let outDir = a.values["--out"], let root = a.values["--root"]
        else { throw PipelineError(file: nil, message: "__worker: missing arguments") }
        if let mb = a.values["--memory-limit"].flatMap(Int.init), mb > 0 {
            var limit = rlimit(rlim_cur: rlim_t(mb) << 20, rlim_max: rlim_t(mb) << 20)
            setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        }
        // Ctrl-C reaches the whole process group; the parent decides what stops (running documents finish).
        signal(SIGINT, SIG_IGN)
        var pipeline = try loadPipeline(file)
        pipeline.force = a.flags.contains("--force")
        if let target = ProcessInfo.processInfo.environment["PDFPIPE_TEST_CRASH_ON"], target == relative {
            abort()  // test hook: how a crash in a C library looks to the parent
        }
        let runner = Runner(pipeline: pipeline, outputDirectory: outDir, inputRoot: root, jobs: 1)
        let result = runner.process(InputDocument(path: path, relativePath: relative), pageWorkers: Int(a.values["--page-workers"] ?? "1") ?? 1)
        console.write(JSONWriter.compact(result.json) + "\n")
        return .clean
    }
}
