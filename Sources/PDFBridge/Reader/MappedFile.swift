import Foundation
import SystemIO

/// A file's bytes, mapped read-only: the object reader touches only the pages it parses, so a
/// 200 MB document no longer costs 200 MB of copies twice over (445 MB for `validate-links`
/// before; qpdf needs 40 MB).
///
/// Only regular files are opened, without blocking (`O_NONBLOCK`, then `fstat`): a link target
/// that is a FIFO, or a symlink to `/dev/zero` or `/dev/urandom`, would otherwise block a worker
/// forever or read without end. The one risk of a mapping — a file truncated by someone else while
/// it is read — is the same for every reader that maps (MuPDF, PDFium); inputs are not expected to
/// change during a run.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let mapped: UnsafeMutableRawPointer?

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `path` if it is a regular file of at most `maxBytes`; returns the descriptor and size.
    static func openRegular(_ path: String, maxBytes: Int = .max) throws(Refusal) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Refusal(description: "cannot open the file: \(SystemIO.errnoText())") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw Refusal(description: "cannot read the file's status: \(SystemIO.errnoText(e))")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
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
            close(fd)
            throw Refusal(
                description: "the file is \(size >> 20) MB, more than the \(maxBytes >> 20) MB read for a link target")
        }
        return (fd, size)
    }

    /// Checks that `path` is a regular file of at most `maxBytes`, without reading it.
    static func checkRegular(_ path: String, maxBytes: Int = .max) throws(Refusal) {
        let (fd, _) = try openRegular(path, maxBytes: maxBytes)
        close(fd)
    }

    init(path: String, maxBytes: Int = .max) throws(Refusal) {
        let (fd, size) = try Self.openRegular(path, maxBytes: maxBytes)
        defer { close(fd) }
        guard size > 0 else {
            mapped = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw Refusal(description: "cannot map the file: \(SystemIO.errnoText())")
        }
        mapped = p
        bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        if let mapped { munmap(mapped, bytes.count) }
    }

    var count: Int { bytes.count }
    subscript(i: Int) -> UInt8 { bytes[i] }
    func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(bytes)
    }
}
