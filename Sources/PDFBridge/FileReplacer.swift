internal import CSystem
import Foundation
import SystemIO

/// Writes files atomically (readers see the old content or the new, never half of one) without a
/// new inode for every file that replaces an older one, for thumbnails by the thousand, re-rendered
/// nightly.
///
/// The usual way (write a temporary file, rename it over the target) frees the old file's inode and
/// takes a new one every time; ext4 then searches past the inodes freed in the last minutes, and a
/// folder rewritten again and again makes that search long: 516 files took 0.2-0.25 s that way in a
/// busy /tmp here, against 0.06 s through a spare. The new bytes go to a spare file in the target's
/// folder, the spare and the target swap names in one step (`renameat2` with `RENAME_EXCHANGE`),
/// and the old file, now under the spare's name, is the next spare. A target that does not exist
/// yet, or a file system without the exchange, gets the plain rename; an old file with other hard
/// links is never written into. One writer per thread; it removes its spare when it goes.
package final class FileReplacer {
    package struct WriteError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "\(path): cannot write: \(reason)" }
    }

    private var spare: String?
    private var exchangeWorks = true

    package init() {}

    deinit { if let spare { FileSystem.unlink(spare) } }

    /// The spare (the file a previous write replaced), emptied for reuse; nil when there is none or
    /// it cannot be reused. Reused only while the spare name is the old file's one name: an old
    /// file that is also linked elsewhere (a hard-linked snapshot) keeps its content there.
    private func reopenSpare() -> (FileDescriptor, String)? {
        guard let s = spare else { return nil }
        spare = nil
        let opened = try? FileDescriptor.open(s, O_WRONLY)
        if let fd = opened, FileStatus.of(fd)?.links == 1, fd.truncate() { return (fd, s) }
        try? opened?.close()
        FileSystem.unlink(s)
        return nil
    }

    /// Replaces (or creates) the file at `path` with `bytes`. The folder must exist.
    package func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if let s = spare, !s.hasPrefix(folder + "/.pdfpipe-spare-") || s.dropFirst(folder.count + 1).contains("/") {
            FileSystem.unlink(s)
            spare = nil
        }
        var temporary = ""
        let fd: FileDescriptor
        if let (opened, name) = reopenSpare() {
            fd = opened
            temporary = name
        } else {
            temporary = folder + "/.pdfpipe-spare-\(UUID().uuidString)"
            do throws(Errno) {
                fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
            } catch {
                throw WriteError(path: path, reason: error.description)
            }
        }
        var failure: String?
        do throws(Errno) { try fd.writeAll(bytes) } catch { failure = error.description }
        fd.setPermissions(0o644)
        try? fd.close()
        if let failure {
            FileSystem.unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
        if exchangeWorks {
            if pdfpipe_rename_exchange(temporary, path) == 0 {
                spare = temporary  // the old file, under the spare's name
                return
            }
            if Errno.current != .noSuchFile { exchangeWorks = false }  // EINVAL, ENOSYS, EOPNOTSUPP: not here
        }
        guard FileSystem.rename(temporary, path) == 0 else {
            let why = Errno.current.description
            FileSystem.unlink(temporary)
            throw WriteError(path: path, reason: why)
        }
    }

}
