import Foundation

/// A file mapped read-only, read front to back, whose pages already read are handed back to the
/// kernel (`release(upTo:)`): a report of several gigabytes is scanned without its pages piling up
/// in the process's resident memory, as they do with `Data(contentsOf:options: .alwaysMapped)`.
///
/// The bytes are lent only inside `withBytes`: a buffer handed out as a property could be read
/// after the mapping's owner was released (and unmapped) at its last use, which an optimised build
/// may put before the reading ends.
public final class MappedFile {
    private let bytes: UnsafeRawBufferPointer
    private let base: UnsafeMutableRawPointer?
    private var released = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    public init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(st.st_size)
        if size == 0 {
            base = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        madvise(p, size, MADV_SEQUENTIAL)
        base = p
        bytes = UnsafeRawBufferPointer(start: p, count: size)
    }

    deinit { if let base { munmap(base, bytes.count) } }

    /// The file's bytes, valid until `body` returns (the mapping lives at least that long).
    public func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(bytes)
    }

    /// Drops the pages before `offset` from memory (they are read again from the file if touched).
    /// Cheap to call often: it acts once 16 MB more can go.
    public func release(upTo offset: Int) {
        guard let base else { return }
        let end = min(offset, bytes.count) / Self.pageSize * Self.pageSize
        guard end - released >= 16 << 20 else { return }
        madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }
}
