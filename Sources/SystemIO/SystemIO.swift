#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes on file descriptors that go on after `EINTR` and short transfers, and the text
/// of an `errno`: one loop of each for the whole program. A module of its own because the two
/// modules that do file I/O, PDFBridge and PDFPipeCore, do not depend on each other (and Core
/// depends on nothing else); this one imports only the C library.
public enum SystemIO {
    /// Writes all of `bytes` at the file's position, or at `offset` (pwrite). False on an error,
    /// with `errno` set.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let n =
                offset.map { pwrite(fd, base + done, bytes.count - done, off_t($0 + done)) }
                ?? write(fd, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 {
                errno = EIO  // nothing written for a non-empty buffer: do not spin
                return false
            }
            done += n
        }
        return true
    }

    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0, at: offset) }
    }

    /// One `read(2)` into `buffer`, retried after `EINTR`: the bytes read, 0 at the end of the
    /// file, -1 on an error (`errno` set).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// Exactly `count` bytes at `offset` (pread), or nil (an error, or the file ends before).
    public static func read(_ fd: Int32, count: Int, at offset: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBytes { raw -> Bool in
            var done = 0
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        return ok ? out : nil
    }

    /// Everything until the end of the file (a pipe, say); what was read before an error.
    public static func readAll(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, into: $0) }
            guard n > 0 else { return data }
            data += buffer[0..<n]
        }
    }

    /// The text of an `errno` value ("No space left on device").
    public static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
