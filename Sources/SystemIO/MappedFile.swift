internal import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A file's bytes, mapped read-only: the one mapping of the program. The object reader touches only
/// the pages it parses, so a 200 MB document no longer costs 200 MB of copies twice over (445 MB
/// for `validate-links` before; qpdf needs 40 MB); a report of several gigabytes is scanned front
/// to back with the pages already read handed back to the kernel (`release(upTo:)`), so they do
/// not pile up in the process's resident memory as they do with `Data(contentsOf:options:
/// .alwaysMapped)`.
///
/// Only regular files are opened, without blocking (`O_NONBLOCK`, then `fstat`): a link target
/// that is a FIFO, or a symlink to `/dev/zero` or `/dev/urandom`, would otherwise block a worker
/// forever or read without end. The one risk of a mapping — a file truncated by someone else while
/// it is read, whose pages past the new end fault (SIGBUS) — is guarded: a fault inside a mapping
/// of this type maps zero pages over the rest of it (`pdfpipe_guard_mapping`), the read goes on,
/// and `truncatedWhileRead` says so. Files do change under batch tools (a build writing its PDFs,
/// a sync); the runner compares the file's size and modification time before and after and
/// reports `pdf.changed-during-run` instead of the document's results.
///
/// The bytes are lent only inside `withBytes` and `withUnsafeBufferPointer` (and read one at a time
/// by subscript): a buffer handed out as a property could be read after the mapping's owner was
/// released and unmapped at its last use, which an optimised build may put before the reading ends.
package final class MappedFile {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let mapped: UnsafeMutableRawPointer?
    private var released = 0
    private let guardSlot: Int32
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Why a file is not mapped.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// Opens `path` if it is a regular file of at most `maxBytes`; returns the descriptor (the
    /// caller closes it) and the size.
    package static func openRegular(_ path: String, maxBytes: Int = .max) throws(Refusal) -> (
        fd: FileDescriptor, size: Int
    ) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw Refusal(description: "cannot open the file: \(error)")
        }
        var st = stat()
        guard fstat(fd.rawValue, &st) == 0 else {
            let e = Errno.current
            try? fd.close()
            throw Refusal(description: "cannot read the file's status: \(e)")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            try? fd.close()
            let kind =
                switch st.st_mode & S_IFMT {
                case S_IFIFO: "a FIFO"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                case S_IFDIR: "a folder"
                default: "not a regular file"
                }
            throw Refusal(description: "not a regular file (\(kind))")
        }
        let size = Int(st.st_size)
        guard size <= maxBytes else {
            try? fd.close()
            throw Refusal(
                description: "the file is \(size >> 20) MB, more than the \(maxBytes >> 20) MB read for a link target")
        }
        return (fd, size)
    }

    /// Checks that `path` is a regular file of at most `maxBytes`, without reading it.
    package static func checkRegular(_ path: String, maxBytes: Int = .max) throws(Refusal) {
        let (fd, _) = try openRegular(path, maxBytes: maxBytes)
        try? fd.close()
    }

    /// Maps `path`; `sequential` when it will be read front to back once (a report).
    package init(path: String, maxBytes: Int = .max, sequential: Bool = false) throws(Refusal) {
        let (fd, size) = try Self.openRegular(path, maxBytes: maxBytes)
        defer { try? fd.close() }
        guard size > 0 else {
            mapped = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            guardSlot = -1
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd.rawValue, 0), p != MAP_FAILED else {
            throw Refusal(description: "cannot map the file: \(Errno.current)")
        }
        if sequential { madvise(p, size, MADV_SEQUENTIAL) }
        mapped = p
        bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
        guardSlot = pdfpipe_guard_mapping(p, size)
    }

    deinit {
        if let mapped {
            pdfpipe_unguard_mapping(guardSlot)
            munmap(mapped, bytes.count)
        }
    }

    /// True when the file became shorter while it was mapped and a read past its new end was
    /// caught (those bytes read as zeros).
    package var truncatedWhileRead: Bool { pdfpipe_mapping_faulted(guardSlot) != 0 }

    package var count: Int { bytes.count }

    package subscript(i: Int) -> UInt8 { bytes[i] }

    /// A copy of the bytes in `range`.
    package subscript(range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

    /// The file's bytes, valid until `body` returns (the mapping lives at least that long).
    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E)
        -> R
    {
        defer { withExtendedLifetime(self) {} }
        return try body(bytes)
    }

    /// The same, as raw bytes.
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(UnsafeRawBufferPointer(bytes))
    }

    /// Drops the whole pages inside `range` from memory, whatever was dropped before (a second
    /// pass over the file drops what it touched again); they are read again if touched.
    package func drop(_ range: Range<Int>) {
        guard let mapped else { return }
        let start = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, bytes.count) / Self.pageSize * Self.pageSize
        guard end > start else { return }
        madvise(mapped + start, end - start, MADV_DONTNEED)
    }

    /// Drops the pages before `offset` from memory (they are read again from the file if touched).
    /// Cheap to call often: it acts once 16 MB more can go.
    package func release(upTo offset: Int) {
        guard let mapped else { return }
        let end = min(offset, bytes.count) / Self.pageSize * Self.pageSize
        guard end - released >= 16 << 20 else { return }
        madvise(mapped + released, end - released, MADV_DONTNEED)
        released = end
    }
}
