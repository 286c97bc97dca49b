import Foundation
import SystemIO

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
        try write(bytes, to: path, durable: durable, binary: false)
    }

    /// - Parameter binary: an image, whose bytes are not text and are not scrubbed of secrets.
    package static func write(_ bytes: [UInt8], to path: String, durable: Bool = true, binary: Bool)
        throws(WriteError)
    {
        let w = try Writer(path: path)
        w.binary = binary
        w.write(bytes)
        try w.commit(durable: durable)
    }

    /// A file written piece by piece (a report rendered document by document), buffered, then
    /// flushed and renamed over its target like `write`. Dropped without `commit`, it leaves the
    /// target as it was and removes its temporary file.
    public final class Writer {
        public let path: String
        private let tmp: String
        private var fd: FileDescriptor?
        private var buffer: [UInt8] = []
        private var failure: String?
        /// An image: its bytes are not text and are not scrubbed of secrets.
        package var binary = false
        private static let bufferSize = 1 << 20

        public init(path: String) throws(WriteError) {
            self.path = path
            let dir = Paths.parent(path)
            try makeDirectory(dir)
            let name = path.split(separator: "/").last.map(String.init) ?? "file"
            do throws(Errno) {
                let (fd, tmp) = try FileDescriptor.makeTemporary(prefix: "\(dir)/.\(name).tmp-")
                self.fd = fd
                self.tmp = tmp
            } catch {
                throw WriteError(path: path, reason: error.description)
            }
            buffer.reserveCapacity(Self.bufferSize)
        }

        deinit {
            if let fd {
                try? fd.close()
                FileSystem.unlink(tmp)
            }
        }

        public func write(_ bytes: some Collection<UInt8>) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.bufferSize { flush(final: false) }
        }

        public func write(_ text: String) { write(text.utf8) }

        /// Writes the buffer, its secrets scrubbed (`Secrets`); unless `final`, the last bytes a
        /// secret could start in stay buffered, so that one split between two pieces is still found.
        private func flush(final: Bool = true) {
            guard failure == nil else {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            var bytes = binary ? buffer : Secrets.scrub(buffer)
            var kept: [UInt8] = []
            let hold = final || binary ? 0 : min(Secrets.holdBack, bytes.count)
            if hold > 0 {
                kept = Array(bytes[(bytes.count - hold)...])
                bytes.removeLast(hold)
            }
            do throws(Errno) {
                try fd?.writeAll(bytes)
            } catch {
                failure = error.description
            }
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: kept)
        }

        /// Flushes (to disk when `durable`) and renames the file over its target.
        public func commit(durable: Bool = true) throws(WriteError) {
            flush()
            var reason = failure
            if let fd {
                if reason == nil && durable {
                    do throws(Errno) { try fd.sync() } catch { reason = error.description }
                }
                fd.setPermissions(0o644)
                try? fd.close()
            }
            fd = nil
            if reason == nil && FileSystem.rename(tmp, path) != 0 { reason = Errno.current.description }
            if let reason {
                FileSystem.unlink(tmp)
                throw WriteError(path: path, reason: reason)
            }
        }
    }

    /// Creates a folder and its parents.
    public static func makeDirectory(_ dir: String) throws(WriteError) {
        do throws(Errno) {
            try FileSystem.createFolder(dir)
        } catch {
            // Why, from the nearest part of the path that exists: a file in the way, or no permission.
            let (part, kind) = FileSystem.nearestExisting(dir)
            let reason =
                kind != .directory
                ? "cannot create folder: '\(part)' is a file" : "cannot create folder: permission denied in '\(part)'"
            throw WriteError(path: dir, reason: reason)
        }
    }

}
