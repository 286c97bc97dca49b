#if canImport(Glibc)
    import Glibc
#endif

// The process-wide calls (#48): signals, limits, standard streams, the terminal, the environment,
// file locks and waiting on a descriptor — each with the reason pdfpipe makes it at its call site,
// and the C library only here.

/// This process: its signals, limits and standard streams.
package enum ProcessControl {
    /// Ignores `signal` from now on (`SIG_IGN`): `SIGPIPE`, so that writing to a helper that died
    /// is an error to handle, not a reason to die; `SIGINT`/`SIGTERM` in helpers and workers, whose
    /// parent decides what stops.
    package static func ignore(_ signal: Int32) { _ = Glibc.signal(signal, SIG_IGN) }

    /// Limits the address space (`RLIMIT_AS`) to `bytes`: an allocation past it fails instead of
    /// the machine swapping. False when the limit cannot be set.
    @discardableResult package static func limitAddressSpace(to bytes: Int) -> Bool {
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        return setrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0
    }

    /// Moves standard output aside: returns a new descriptor for what it was, and points standard
    /// output at standard error (so that whatever a library prints lands there).
    package static func divertStandardOutput() -> FileDescriptor {
        let kept = FileDescriptor(rawValue: dup(1))
        dup2(2, 1)
        return kept
    }

    /// Ends this process at once, as SIGKILL does (the tests of a task killed at a chosen point).
    package static func killSelf() -> Never {
        kill(getpid(), SIGKILL)
        fatalError("SIGKILL did not end the process")
    }

    /// The running executable's path (`/proc/self/exe`); nil where there is no `/proc`.
    package static var executablePath: String? { FileSystem.linkTarget("/proc/self/exe") }

    /// Sets an environment variable of this process (for what it reads later, and its children).
    package static func setEnvironment(_ name: String, _ value: String) { setenv(name, value, 1) }

    /// This process's id.
    package static var id: Int32 { getpid() }

    /// The memory process `pid` holds resident now, in bytes (`/proc/PID/statm`); nil where there
    /// is no `/proc` or the process is gone. The parent of the worker processes retires one that
    /// grew past its bound.
    package static func residentBytes(of pid: Int32) -> Int? {
        guard let bytes = FileStatus.readRegular("/proc/\(pid)/statm", maxBytes: 4096) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The terminal standard streams may be.
package enum Terminal {
    /// Whether `fd` is a terminal.
    package static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) != 0 }

    /// The terminal's width in columns (`TIOCGWINSZ`); nil when `fd` is not a terminal.
    package static func columns(_ fd: FileDescriptor) -> Int? {
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// Exclusive locks on lock files (`flock(2)`).
package enum FileLock {
    /// Runs `body` holding the exclusive lock of `path` (created when missing; a symbolic link is
    /// refused: `O_NOFOLLOW`), waiting for it first. Throws `Errno` when the lock file cannot be
    /// opened or locked, and what `body` throws.
    package static func withLock<R>(_ path: String, _ body: () throws -> R) throws -> R {
        let fd = try FileDescriptor.open(path, O_CREAT | O_RDWR | O_NOFOLLOW)
        defer { try? fd.close() }
        while flock(fd.rawValue, LOCK_EX) != 0 {
            let e = Errno.current
            guard e == .interrupted else { throw e }
        }
        defer { flock(fd.rawValue, LOCK_UN) }
        return try body()
    }
}

extension FileDescriptor {
    /// Waits until the descriptor has something to read (or is closed), at most `milliseconds`
    /// (-1: no limit). True when it has; false on a timeout. An interrupted wait is resumed.
    package func waitReadable(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, milliseconds)
            if r < 0 && Errno.current == .interrupted { continue }
            return r != 0
        }
    }

    /// Sets the file's permission bits (`fchmod(2)`): a temporary made by `mkstemp` is 0600, and
    /// the file it becomes is read by others.
    @discardableResult package func setPermissions(_ mode: mode_t) -> Bool { fchmod(rawValue, mode) == 0 }

    /// Cuts the file to `size` bytes (`ftruncate(2)`).
    @discardableResult package func truncate(to size: Int = 0) -> Bool { ftruncate(rawValue, off_t(size)) == 0 }
}
