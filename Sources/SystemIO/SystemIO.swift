#if canImport(Glibc)
    import Glibc
#endif

// The program's system calls on files, typed as swift-system types them: a descriptor is a
// `FileDescriptor` (not an `Int32`), a failure is a thrown `Errno` (not a global read later), and
// reads and writes go on after `EINTR` and short transfers — one loop of each for the whole
// program. A module of its own because the modules that do file I/O, PDFBridge and PDFPipeCore,
// do not depend on each other (and Core depends on nothing else); this one imports only the C
// library and its few lines of C (`CSystem`).

/// The error of a system call: its `errno` value.
package struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now (right after the call that failed).
    package static var current: Errno { Errno(rawValue: errno) }

    package static let interrupted = Errno(rawValue: EINTR)
    package static let noSuchFile = Errno(rawValue: ENOENT)
    package static let ioError = Errno(rawValue: EIO)

    /// The C library's text ("No space left on device").
    package var description: String { String(cString: strerror(rawValue)) }
}

/// An open file descriptor. A value, as swift-system's is: who opens one closes it (`close()`),
/// and a type that owns one (`ChildProcess`, `MappedFile`, `AtomicFile.Writer`) does in `deinit`.
package struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let standardInput = FileDescriptor(rawValue: 0)
    package static let standardOutput = FileDescriptor(rawValue: 1)
    package static let standardError = FileDescriptor(rawValue: 2)

    /// `open(2)`, close-on-exec always (a child process never inherits pdfpipe's files).
    package static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0o644) throws(Errno)
        -> FileDescriptor
    {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, permissions)
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            let e = Errno.current
            if e != .interrupted { throw e }
        }
    }

    /// A new file from `mkstemp(3)`: `prefix` followed by six random characters; close-on-exec.
    package static func makeTemporary(prefix: String) throws(Errno) -> (fd: FileDescriptor, path: String) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno.current }
        _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
        return (
            FileDescriptor(rawValue: raw),
            String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        )
    }

    /// `close(2)`. An interrupted close has closed the descriptor on Linux: not retried.
    package func close() throws(Errno) {
        if Glibc.close(rawValue) != 0, Errno.current != .interrupted { throw Errno.current }
    }

    /// Writes all of `bytes` at the file's position, or at `offset` (`pwrite`).
    package func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) throws(Errno) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n =
                offset.map { pwrite(rawValue, base + done, bytes.count - done, off_t($0 + done)) }
                ?? write(rawValue, base + done, bytes.count - done)
            if n < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                throw e
            }
            // Nothing written for a non-empty buffer: an error, not a reason to spin.
            if n == 0 { throw Errno.ioError }
            done += n
        }
    }

    package func writeAll(_ bytes: [UInt8], at offset: Int? = nil) throws(Errno) {
        // `withUnsafeBytes` rethrows untyped: the error comes through as a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw, at: offset) } }.get()
    }

    /// One `read(2)` into `buffer`, retried after `EINTR`: the bytes read, 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            let e = Errno.current
            if e != .interrupted { throw e }
        }
    }

    /// Exactly `count` bytes at `offset` (`pread`); nil when the file ends before.
    package func read(count: Int, at offset: Int) throws(Errno) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var failure: Errno?
        let complete = out.withUnsafeMutableBytes { raw -> Bool in
            var done = 0
            while done < count {
                let n = pread(rawValue, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    let e = Errno.current
                    if e == .interrupted { continue }
                    failure = e
                    return false
                }
                if n == 0 { return false }
                done += n
            }
            return true
        }
        if let failure { throw failure }
        return complete ? out : nil
    }

    /// Everything until the end of the file (a pipe, say).
    package func readAll() throws(Errno) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(into: raw) } }
                .get()
            guard n > 0 else { return data }
            data += buffer[0..<n]
        }
    }

    /// `fsync(2)`: the file's data on the disk.
    package func sync() throws(Errno) {
        if fsync(rawValue) != 0 { throw Errno.current }
    }
}

/// What `lstat(2)` says of a path: symbolic links are not followed, so a link is seen as one.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case regular, directory, symbolicLink, other }

    package let kind: Kind
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    /// Hard links to the file (`st_nlink`).
    package let links: Int
    /// Modification and status-change times, in nanoseconds.
    package let modified: Int64
    package let changed: Int64
    /// The modification time as `stat(2)` gives it: seconds, and nanoseconds past them.
    package let modifiedSeconds: Int
    package let modifiedNanoseconds: Int

    /// The path's status, or nil when it does not exist (or cannot be looked at).
    package static func of(_ path: String) -> FileStatus? {
        var st = stat()
        guard SystemCalls.current.lstat(path, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The status of what the path names, symbolic links followed (`stat(2)`): never
    /// `.symbolicLink`; nil when nothing is there (a dangling link).
    package static func following(_ path: String) -> FileStatus? {
        var st = stat()
        guard SystemCalls.current.stat(path, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The status of an open file (`fstat(2)`).
    package static func of(_ fd: FileDescriptor) -> FileStatus? {
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    init(_ st: stat) {
        let kind: Kind
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        self.init(
            kind: kind, device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            links: Int(st.st_nlink), modifiedSeconds: Int(st.st_mtim.tv_sec),
            modifiedNanoseconds: Int(st.st_mtim.tv_nsec),
            changed: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
    }

    init(
        kind: Kind, device: UInt64, inode: UInt64, size: Int64, links: Int, modifiedSeconds: Int,
        modifiedNanoseconds: Int, changed: Int64
    ) {
        self.kind = kind
        self.device = device
        self.inode = inode
        self.size = size
        self.links = links
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.modified = Int64(modifiedSeconds) * 1_000_000_000 + Int64(modifiedNanoseconds)
        self.changed = changed
    }

    /// The symbolic links at or beneath `path` (a folder is searched without following links), at
    /// most `limit` of them, in the order found; empty when there is none or `path` does not exist.
    package static func symbolicLinks(under path: String, limit: Int = 20) -> [String] {
        var found: [String] = []
        var pending = [path]
        while let dir = pending.popLast(), found.count < limit {
            guard let status = of(dir) else { continue }
            if status.kind == .symbolicLink {
                found.append(dir)
                continue
            }
            guard status.kind == .directory, let names = FileSystem.names(in: dir) else { continue }
            pending += names.map(\.name).reversed().map { dir + "/" + $0 }
        }
        return found
    }

    /// Reads a regular file that is not a symbolic link (`O_NOFOLLOW`), at most `maxBytes`;
    /// nil otherwise.
    package static func readRegular(_ path: String, maxBytes: Int) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return nil }
        defer { try? fd.close() }
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= maxBytes else {
            return nil
        }
        return try? fd.readAll()
    }
}
