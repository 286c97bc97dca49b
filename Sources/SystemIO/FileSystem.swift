import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The system calls on paths, in one table (#48): the program calls `FileSystem.unlink` and
// `FileSystem.rename`, and asks `FileKinds` and `SparseFiles` what a file is, never the C library
// directly, so that a test can put a failing call in place (`SystemCalls.withReplaced`: a full
// disk, a rename across file systems) and see what the program does with it.

/// `stat(2)`, `lstat(2)`, `mkdir(2)` (functions of their own: inside `SystemCalls` the names are
/// the properties').
private func systemStat(_ path: String, _ buffer: UnsafeMutablePointer<stat>) -> Int32 { stat(path, buffer) }
private func systemLstat(_ path: String, _ buffer: UnsafeMutablePointer<stat>) -> Int32 { lstat(path, buffer) }
private func systemMkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }

/// The calls, C-shaped (an `Int32` result, `errno` set on failure, as the C library does), so that
/// a replacement fails exactly as the system would.
package struct SystemCalls: Sendable {
    package var unlink: @Sendable (String) -> Int32
    package var rename: @Sendable (String, String) -> Int32
    /// Follows symbolic links: what a path names (`FileSystem.kind`, `exists`, `FileKinds`).
    package var stat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
    /// Does not follow them: the path itself (`FileStatus.of`, the input walk's link check).
    package var lstat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
    package var mkdir: @Sendable (String, mode_t) -> Int32

    package init(
        unlink: @escaping @Sendable (String) -> Int32, rename: @escaping @Sendable (String, String) -> Int32,
        stat: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32,
        lstat: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32 = systemLstat,
        mkdir: @escaping @Sendable (String, mode_t) -> Int32 = systemMkdir
    ) {
        self.unlink = unlink
        self.rename = rename
        self.stat = stat
        self.lstat = lstat
        self.mkdir = mkdir
    }

    /// The C library's.
    package static let live = SystemCalls(
        unlink: { Glibc.unlink($0) }, rename: { Glibc.rename($0, $1) }, stat: systemStat, lstat: systemLstat,
        mkdir: systemMkdir)

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

/// The program's calls on paths, through `SystemCalls.current`. Nothing outside SystemIO calls the
/// C library or `FileManager` on paths (`python3 scripts/shape.py` counts what does).
package enum FileSystem {
    /// `unlink(2)`: 0, or -1 with `errno` set.
    @discardableResult package static func unlink(_ path: String) -> Int32 { SystemCalls.current.unlink(path) }

    /// `rename(2)`: 0, or -1 with `errno` set.
    package static func rename(_ from: String, _ to: String) -> Int32 { SystemCalls.current.rename(from, to) }

    /// What `path` names, symbolic links followed; nil when nothing (or a dangling link).
    package static func kind(_ path: String) -> FileStatus.Kind? { FileStatus.following(path)?.kind }

    /// Whether `path` names something (symbolic links followed), as `FileManager.fileExists`.
    package static func exists(_ path: String) -> Bool { kind(path) != nil }

    /// Whether `path` is a folder (or a link to one).
    package static func isFolder(_ path: String) -> Bool { kind(path) == .directory }

    /// Whether this process may read `path` (`access(2)`, `R_OK`).
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// The whole content of the file at `path`; nil when it cannot be read (missing, a folder, no
    /// permission). A FIFO is not waited on (`O_NONBLOCK`).
    package static func contents(_ path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        defer { try? fd.close() }
        return try? fd.readAll()
    }

    /// Writes `bytes` to `path` in place (created or truncated; not atomic: see `AtomicFile` for
    /// reports). False when it cannot.
    @discardableResult package static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC) else { return false }
        var ok = true
        do throws(Errno) { try fd.writeAll(bytes) } catch { ok = false }
        do throws(Errno) { try fd.close() } catch { ok = false }
        return ok
    }

    /// Creates the folder `path` and the missing folders above it (`mkdir -p`); a folder already
    /// there is fine. Throws the first `mkdir(2)` failure (`EEXIST` when a file is in the way).
    package static func createFolder(_ path: String) throws(Errno) {
        guard !path.isEmpty, !isFolder(path) else { return }
        let parent = Self.parent(path)
        if parent != path, !parent.isEmpty { try createFolder(parent) }
        if SystemCalls.current.mkdir(path, 0o777) != 0 {
            let e = Errno.current
            // Made by someone else meanwhile (another worker, another shard): fine.
            if !(e.rawValue == EEXIST && isFolder(path)) { throw e }
        }
    }

    /// Removes `path` and, for a folder, everything beneath it (symbolic links are removed, never
    /// followed); nothing there is fine.
    package static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The names in a folder (not `.` and `..`), sorted, read with readdir: a name that is not
    /// valid UTF-8 (which Foundation leaves out) comes back with its bytes past ASCII written
    /// `\xNN`, and `undecodable` set. Nil when the folder cannot be read.
    package static func names(in dir: String) -> [(name: String, undecodable: Bool)]? {
        guard let d = opendir(dir) else { return nil }
        defer { closedir(d) }
        var out: [(String, Bool)] = []
        while let e = readdir(d) {
            let bytes = withUnsafeBytes(of: e.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                out.append((name, false))
            } else {
                out.append(
                    (bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined(), true)
                )
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The names in a folder that are valid UTF-8, sorted; nil when it cannot be read.
    package static func list(_ dir: String) -> [String]? {
        names(in: dir)?.filter { !$0.undecodable }.map(\.name)
    }

    /// The process's working folder (`getcwd(3)`).
    package static var currentDirectory: String {
        guard let p = getcwd(nil, 0) else { return "/" }
        defer { free(p) }
        return String(cString: p)
    }

    /// The folder for temporary files: `TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        let t = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        return t.isEmpty ? "/tmp" : (t.count > 1 && t.hasSuffix("/") ? String(t.dropLast()) : t)
    }

    /// The target of the symbolic link at `path` (`readlink(2)`); nil when it is not one.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every symbolic link resolved (`realpath(3)`); nil when some part does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// Sets the file's access and modification times to `nanoseconds` since the epoch.
    @discardableResult package static func setModificationTime(_ path: String, nanoseconds ns: Int) -> Bool {
        let t = timespec(tv_sec: ns / 1_000_000_000, tv_nsec: ns % 1_000_000_000)
        var times = [t, t]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// The nearest part of `path` that exists (`path` itself, or a folder above it) and what it
    /// is: why a folder cannot be made (a file in the way, or no permission there).
    package static func nearestExisting(_ path: String) -> (path: String, kind: FileStatus.Kind?) {
        var part = path
        var kind = Self.kind(part)
        while kind == nil, part != "/", !part.isEmpty {
            part = parent(part)
            kind = Self.kind(part)
        }
        return (part, kind)
    }

    /// The folder part of a path (`/a/b` → `/a`, `b` → ``, `/a` → `/`).
    static func parent(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        return slash == p.startIndex ? "/" : String(p[..<slash])
    }
}

/// What a path is when it is not a regular file.
package enum FileKinds {
    /// Nil for a regular file (or a link to one) and for a path that does not exist (opening it
    /// says so); else what it is: "a FIFO", "a character device", "a folder", ….
    package static func notRegular(_ path: String) -> String? {
        var st = Glibc.stat()
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
