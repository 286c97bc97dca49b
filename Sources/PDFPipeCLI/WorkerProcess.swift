import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import SystemIO

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
