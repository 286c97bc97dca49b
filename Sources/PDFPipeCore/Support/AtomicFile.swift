import Foundation

/// Writes files so that readers see the old content or the new, never half of one: the bytes go to
/// a temporary file in the same folder, are flushed, and the file is renamed over the target.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write: \(reason)" }
    }

    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Array(text.utf8), to: path)
    }

    /// - Parameter durable: flush to disk before the rename (reports); thumbnails by the thousand
    ///   skip it: readers still see the old file or the new one, never half of one.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(WriteError) {
        let dir = Paths.parent(path)
        try makeDirectory(dir)
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        var template = Array("\(dir)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = true
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    ok = false
                    return
                }
                offset += n
            }
        }
        let reason = ok ? nil : errnoText()
        if ok && durable && fsync(fd) != 0 { ok = false }
        fchmod(fd, 0o644)
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            let why = reason ?? errnoText()
            unlink(tmp)
            throw WriteError(path: path, reason: why)
        }
    }

    /// Creates a folder and its parents.
    public static func makeDirectory(_ dir: String) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: dir, reason: "cannot create folder")
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
