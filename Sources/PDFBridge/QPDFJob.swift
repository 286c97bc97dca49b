internal import CQPDF
internal import CSystem
import Glibc
import Synchronization
import SystemIO

/// What a qpdf job printed, by channel; collected per job (a private logger), never printed.
package final class QPDFJobLog {
    package private(set) var warnings: [String] = []
    package private(set) var errors: [String] = []
    package private(set) var info: [String] = []
    /// The signal that killed the helper process running the job (0: it was not killed).
    package fileprivate(set) var signal: Int32 = 0
    fileprivate var partial = ["", "", ""]

    fileprivate func append(_ text: String, channel: Int) {
        partial[channel] += text
        while let nl = partial[channel].firstIndex(of: "\n") {
            let line = String(partial[channel][..<nl])
            partial[channel] = String(partial[channel][partial[channel].index(after: nl)...])
            guard !line.isEmpty else { continue }
            switch channel {
            case 0: warnings.append(line)
            case 1: errors.append(line)
            default: info.append(line)
            }
        }
    }

    fileprivate func flush() {
        for c in 0..<3 where !partial[c].isEmpty { append("\n", channel: c) }
    }
}

/// One run of qpdf's job interface (what the `qpdf` command line does), configured with qpdf's job
/// JSON. Owns its `qpdfjob_handle` and logger; nothing it says reaches the console.
package enum QPDFJob {
    /// Runs a job. Returns qpdf's exit status (0 success, 2 errors, 3 warnings) and its messages.
    /// The corresponding C functions are `qpdfjob_initialize_from_json` and `qpdfjob_run`.
    package static func run(json: String) -> (status: Int, log: QPDFJobLog) {
        let log = QPDFJobLog()
        guard let handle = qpdfjob_init() else { return (2, log) }
        var job: qpdfjob_handle? = handle
        defer { qpdfjob_cleanup(&job) }
        var logger: qpdflogger_handle? = qpdflogger_create()
        defer { qpdflogger_cleanup(&logger) }
        let context = Unmanaged.passUnretained(log).toOpaque()
        let warn: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 0)
            return 0
        }
        let error: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 1)
            return 0
        }
        let info: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 2)
            return 0
        }
        qpdflogger_set_warn(logger, qpdf_log_dest_custom, warn, context)
        qpdflogger_set_error(logger, qpdf_log_dest_custom, error, context)
        qpdflogger_set_info(logger, qpdf_log_dest_custom, info, context)
        qpdflogger_set_save(logger, qpdf_log_dest_discard, nil, nil, 0)
        qpdfjob_set_logger(handle, logger)
        var status = Int(qpdfjob_initialize_from_json(handle, json))
        if status == 0 { status = Int(qpdfjob_run(handle)) }
        withExtendedLifetime(log) { log.flush() }
        return (status, log)
    }
}

private func text(_ data: UnsafePointer<CChar>?, _ len: Int) -> String {
    guard let data else { return "" }
    return data.withMemoryRebound(to: UInt8.self, capacity: len) {
        String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self)
    }
}

// MARK: - The job in a helper process

/// qpdf in a process of its own. A qpdf job is 15-40% slower in a process that has ever started a
/// second thread than in the `qpdf` command line: libstdc++ then counts `shared_ptr` references
/// (every `QPDFObjectHandle`) with atomic instructions, and glibc's malloc takes its arena lock,
/// where a process that never started a thread does neither (`__libc_single_threaded`; measured in
/// docs/benchmarks.md). pdfpipe has threads, so big documents are normalized by a copy of pdfpipe
/// started as `pdfpipe __qpdf-job` that reads the job JSON on its standard input, runs the job on its
/// only thread, and answers with qpdf's messages, one per line (`W `, `E `, `I ` for warnings, errors,
/// information) and qpdf's exit status. A crash of qpdf there is an error of that document, not the
/// end of the run. The job JSON (which may carry the password) never appears in a command line.
extension QPDFJob {
    package struct Helper: Sendable {
        /// The pdfpipe executable to start with `__qpdf-job`.
        package var executable: String
        /// Documents with fewer objects run in this process: starting a process costs more than it saves.
        package var minimumObjects: Int

        package init(executable: String, minimumObjects: Int) {
            self.executable = executable
            self.minimumObjects = minimumObjects
        }
    }

    private static let helperSetting = Mutex<Helper?>(nil)

    /// Where jobs on big inputs run (nil: always in this process, as in the tests).
    package static var helper: Helper? {
        get { helperSetting.withLock { $0 } }
        set { helperSetting.withLock { $0 = newValue } }
    }

    /// Runs a job on a document of about `objects` objects, in the helper process when one is set and
    /// the document is big enough, else (or when the helper cannot be started) in this process.
    package static func run(json: String, objects: Int) -> (status: Int, log: QPDFJobLog) {
        if let h = helper, objects >= h.minimumObjects, let answer = runInHelper(json: json, executable: h.executable) {
            return answer
        }
        return run(json: json)
    }

    /// Starts `executable __qpdf-job`, hands it the job, collects its answer; nil if it cannot start.
    static func runInHelper(json: String, executable: String) -> (status: Int, log: QPDFJobLog)? {
        _ = ignoreBrokenPipes
        guard let child = try? ChildProcess(executable: executable, arguments: ["__qpdf-job"], errorOutput: .output)
        else { return nil }
        // A helper that died early: its output says why (and the write's EPIPE is not a signal).
        try? child.input?.writeAll(Array(json.utf8))
        child.closeInput()
        let text = String(decoding: (try? child.output.readAll()) ?? [], as: UTF8.self)
        let ended = child.wait()

        let log = QPDFJobLog()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            switch line.prefix(2) {
            case "W ": log.append(String(line.dropFirst(2)) + "\n", channel: 0)
            case "E ": log.append(String(line.dropFirst(2)) + "\n", channel: 1)
            case "I ": log.append(String(line.dropFirst(2)) + "\n", channel: 2)
            default: log.append(String(line) + "\n", channel: 1)  // what a crashing process printed
            }
        }
        switch ended {
        case .signaled(let signal):
            log.signal = signal
            return (2, log)
        case .exited(let status):
            return (Int(status), log)
        }
    }

    /// A helper that dies before reading its job makes the write fail (EPIPE) instead of killing us.
    private static let ignoreBrokenPipes: Void = { ProcessControl.ignore(SIGPIPE) }()

    /// `pdfpipe __qpdf-job`: the helper's whole life. Call it before anything starts a thread.
    package static func helperMain() -> Int32 {
        pdfpipe_child_die_with_parent()
        // Ctrl-C reaches the whole process group: the parent decides (its running documents finish),
        // and if it goes, this process goes with it.
        ProcessControl.ignore(SIGINT)
        ProcessControl.ignore(SIGTERM)
        pdfpipe_child_close_from(3)
        let json = String(decoding: (try? FileDescriptor.standardInput.readAll()) ?? [], as: UTF8.self)
        let (status, log) = run(json: json)
        var out = ""
        for (prefix, lines) in [("W ", log.warnings), ("E ", log.errors), ("I ", log.info)] {
            for line in lines { out += prefix + line + "\n" }
        }
        try? FileDescriptor.standardOutput.writeAll(Array(out.utf8))
        return Int32(status)
    }
}
