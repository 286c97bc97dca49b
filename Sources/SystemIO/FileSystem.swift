import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The system calls on paths, in one table (#48): the program calls `FileSystem.unlink` and
// `FileSystem.rename`, and asks `FileKinds` and `SparseFiles` what a file is, never the C library
// directly, so that a test can put a failing call in place (`SystemCalls.withReplaced`: a full
// disk, a rename across file systems) and see what the program does with it.

/// `stat(2)` (a function of its own: inside `SystemCalls` the name is the property's).
private func systemStat(_ path: String, _ buffer: UnsafeMutablePointer<stat>) -> Int32 { stat(path, buffer) }

/// The calls, C-shaped (an `Int32` result, `errno` set on failure, as the C library does), so that
/// a replacement fails exactly as the system would.
package struct SystemCalls: Sendable {
    package var unlink: @Sendable (String) -> Int32
    package var rename: @Sendable (String, String) -> Int32
    package var stat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32

    package init(
        unlink: @escaping @Sendable (String) -> Int32, rename: @escaping @Sendable (String, String) -> Int32,
        stat: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
    ) {
        self.unlink = unlink
        self.rename = rename
        self.stat = stat
    }

    /// The C library's.
    package static let live = SystemCalls(
        unlink: { Glibc.unlink($0) }, rename: { Glibc.rename($0, $1) }, stat: systemStat)

    private static let table = Mutex(live)

    /// The calls in use (the live ones, or a test's).
    package static var current: SystemCalls { table.withLock { $0 } }

    /// Runs `body` with `calls` in place of the current ones, and puts them back.
    package static func withReplaced<R>(_ calls: SystemCalls, _ body: () throws -> R) rethrows -> R {
        let old = table.withLock { table in
            let old = table
            table = calls
            return old
        }
        defer { table.withLock { $0 = old } }
        return try body()
    }

    /// Sets `errno` (for a replacement that fails) and returns -1.
    package static func fail(_ error: Errno) -> Int32 {
        errno = error.rawValue
        return -1
    }
}

/// The program's calls on paths, through `SystemCalls.current`.
package enum FileSystem {
    /// `unlink(2)`: 0, or -1 with `errno` set.
    @discardableResult package static func unlink(_ path: String) -> Int32 { SystemCalls.current.unlink(path) }

    /// `rename(2)`: 0, or -1 with `errno` set.
    package static func rename(_ from: String, _ to: String) -> Int32 { SystemCalls.current.rename(from, to) }
}

/// What a path is when it is not a regular file.
package enum FileKinds {
    /// Nil for a regular file (or a link to one) and for a path that does not exist (opening it
    /// says so); else what it is: "a FIFO", "a character device", "a folder", ….
    package static func notRegular(_ path: String) -> String? {
        var st = stat()
        guard SystemCalls.current.stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "not a regular file"
        }
    }
}

/// Sparse files: where the data of a file ends when a hole follows it (`SEEK_DATA`/`SEEK_HOLE`).
package enum SparseFiles {
    /// Holes smaller than this are left alone (file systems round allocations up).
    package static let minimumHole = 1 << 20

    /// The end of the file's last data region and the size of the hole after it; nil when the
    /// file ends in data, or the file system cannot tell (then nothing is assumed).
    package static func trailingHole(_ path: String) -> (dataEnd: Int, size: Int)? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        defer { try? file.close() }
        let fd = file.rawValue
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(st.st_size)
        // Blocks on disk far below the size is the cheap sign; only then are the regions walked.
        guard size >= minimumHole, Int(st.st_blocks) * 512 < size - minimumHole else { return nil }
        let seekData: Int32 = 3  // SEEK_DATA and SEEK_HOLE (Linux), which Glibc's module leaves out
        let seekHole: Int32 = 4
        var end = 0
        var position = 0
        var regions = 0
        while position < size, regions < 1_000_000 {
            let data = lseek(fd, off_t(position), seekData)
            if data < 0 { break }  // ENXIO: no data after `position`
            let hole = lseek(fd, data, seekHole)
            guard hole > data else { return nil }
            end = Int(hole)
            position = Int(hole)
            regions += 1
        }
        guard regions > 0 || end == 0, size - end >= minimumHole else { return nil }
        return (end, size - end)
    }
}
