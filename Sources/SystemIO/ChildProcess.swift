internal import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A program pdfpipe starts (its isolated document workers, the qpdf helper): the one way the
/// program spawns a process. `posix_spawn` with every descriptor but the child's standard ones
/// closed in the child, so that a pipe or socket another thread opens at the same moment never
/// leaks into it (a leaked end keeps a dead worker's pipe open and its reader waiting), and with
/// signals at their defaults. Owns the parent's ends of the pipes; not shared between threads.
package final class ChildProcess {
    /// Why a program could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package let errno: Errno
        package var description: String { errno.description }
    }

    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Where the child's standard error goes.
    package enum ErrorOutput {
        /// Where its standard output goes (one pipe for both).
        case output
        /// A copy of this descriptor (a file, say); the caller keeps and closes its own.
        case descriptor(FileDescriptor)
        /// /dev/null.
        case discarded
    }

    package let pid: pid_t
    /// The write end of the child's standard input (nil once closed).
    package private(set) var input: FileDescriptor?
    /// The read end of the child's standard output.
    package let output: FileDescriptor
    private var ended: Termination?

    /// Starts `executable` with `arguments` (the program name is added as argv[0]) and
    /// `environment` (nil: this process's), its standard input and output pipes to this process.
    package init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        errorOutput: ErrorOutput = .discarded
    ) throws(SpawnError) {
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pdfpipe_pipe_cloexec(&inPipe) == 0 else { throw SpawnError(errno: .current) }
        guard pdfpipe_pipe_cloexec(&outPipe) == 0 else {
            let e = Errno.current
            close(inPipe[0])
            close(inPipe[1])
            throw SpawnError(errno: e)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for e in envp ?? [] { free(e) } }
        let errorFD: Int32 =
            switch errorOutput {
            case .output: outPipe[1]
            case .descriptor(let fd): fd.rawValue
            case .discarded: -1
            }
        var child: Int32 = -1
        let status =
            if let envp {
                pdfpipe_spawn(&child, executable, argv, envp, inPipe[0], outPipe[1], errorFD)
            } else {
                pdfpipe_spawn(&child, executable, argv, environ, inPipe[0], outPipe[1], errorFD)
            }
        close(inPipe[0])
        close(outPipe[1])
        guard status == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            throw SpawnError(errno: Errno(rawValue: status))
        }
        pid = child
        input = FileDescriptor(rawValue: inPipe[1])
        output = FileDescriptor(rawValue: outPipe[0])
    }

    deinit {
        closeInput()
        try? output.close()
        // Never a zombie: a child still running when its owner goes is ended.
        if ended == nil {
            Glibc.kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// Closes the child's standard input (it reads the end of its input).
    package func closeInput() {
        try? input?.close()
        input = nil
    }

    /// Sends a signal.
    package func kill(_ signal: Int32 = SIGKILL) { Glibc.kill(pid, signal) }

    /// Waits for the child to end (at once if it has), and says how.
    @discardableResult
    package func wait() -> Termination {
        if let ended { return ended }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && Errno.current == .interrupted {}
        let signal = status & 0x7f
        let t: Termination = signal != 0 ? .signaled(signal) : .exited((status >> 8) & 0xff)
        ended = t
        return t
    }
}
