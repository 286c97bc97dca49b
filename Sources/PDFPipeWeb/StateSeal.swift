import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// Workspace state (the link cache, its history, the shards' shared answers) is evidence, never
/// authority (docs/security.md): a pull request can commit any of these files, so each entry
/// carries a MAC (HMAC-SHA256) under a key kept outside the workspace, and an entry whose MAC does
/// not verify is not read at all. A committed entry that says a dead URL answered 200 is then
/// ignored, and the URL is asked again.
///
/// The key: `PDFPIPE_STATE_KEY` when set (a CI secret shared by runners, never written anywhere),
/// else the file `pdfpipe/state.key` in the user's cache folder (`XDG_CACHE_HOME`, else
/// `~/.cache`), made with 32 random bytes (mode 0600) the first time. A key file that is a symbolic
/// link, not a regular file, or inside the working folder (where a pull request could plant it) is
/// not used: the run then uses a key of its own, and its state is good for this run only.
package enum StateSeal {
    package static let variable = "PDFPIPE_STATE_KEY"

    /// Where the key came from (for `--verbose` and the tests).
    package enum Source: Equatable, Sendable {
        case environment
        case file(String)
        case thisRunOnly(why: String)
    }

    package static let key: (bytes: [UInt8], source: Source) = load(
        environment: Environment.all, working: FileSystem.currentDirectory)

    /// The key folder for an environment: `XDG_CACHE_HOME/pdfpipe`, else `HOME/.cache/pdfpipe`.
    package static func folder(environment env: [String: String]) -> String? {
        if let x = env["XDG_CACHE_HOME"], x.hasPrefix("/") { return Paths.standardize(x) + "/pdfpipe" }
        if let h = env["HOME"], h.hasPrefix("/") { return Paths.standardize(h) + "/.cache/pdfpipe" }
        return nil
    }

    package static func load(environment env: [String: String], working: String) -> (
        bytes: [UInt8], source: Source
    ) {
        if let k = env[variable], !k.isEmpty {
            Secrets.add(k)
            return (Array(k.utf8), .environment)
        }
        func ephemeral(_ why: String) -> ([UInt8], Source) {
            var g = SystemRandomNumberGenerator()
            return ((0..<32).map { _ in UInt8.random(in: 0...255, using: &g) }, .thisRunOnly(why: why))
        }
        guard let folder = folder(environment: env) else { return ephemeral("neither XDG_CACHE_HOME nor HOME is set") }
        if Paths.isInside(folder, root: working) {
            return ephemeral("the key folder '\(folder)' is inside the working folder")
        }
        let path = folder + "/state.key"
        if let bytes = read(path) { return (bytes, .file(path)) }
        do throws(Errno) {
            try FileSystem.createFolder(folder)
        } catch {
            return ephemeral("cannot create '\(folder)': \(error)")
        }
        var g = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
        if let fd = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o600) {
            let ok = (try? fd.writeAll(Array(hex.utf8))) != nil
            try? fd.close()
            if !ok { FileSystem.unlink(path) }
        }
        // Made here, or by a shard that started at the same moment: read back either way.
        if let bytes = read(path) { return (bytes, .file(path)) }
        return ephemeral("cannot write '\(path)'")
    }

    /// A key file's bytes: a regular file (not a link) of 32 to 4096 bytes.
    private static func read(_ path: String) -> [UInt8]? {
        guard let bytes = FileStatus.readRegular(path, maxBytes: 4096), bytes.count >= 32 else { return nil }
        return bytes
    }

    /// The MAC of one entry: its kind (`cache`, `history`, `shared`), its key and its content.
    package static func mac(_ kind: String, _ name: String, _ content: String, key: [UInt8] = key.bytes) -> String {
        Checksum.hmacSHA256(key: key, Array("pdfpipe-\(kind)-v1\n\(name)\n\(content)".utf8))
    }

    /// Whether `mac` is the MAC of the entry (compared in constant time).
    package static func verify(
        _ mac: String?, _ kind: String, _ name: String, _ content: String, key: [UInt8] = key.bytes
    )
        -> Bool
    {
        guard let mac else { return false }
        let want = Array(self.mac(kind, name, content, key: key).utf8)
        let got = Array(mac.utf8)
        guard want.count == got.count, !want.isEmpty else { return false }
        var diff: UInt8 = 0
        for (a, b) in zip(want, got) { diff |= a ^ b }
        return diff == 0
    }

    // MARK: - Paths

    /// Largest state files read: larger ones are not read (nor trusted) and are written anew. The
    /// JSON reader takes about 0.1 s and 11 MB per MB here (an 8 MB history: 0.85 s, 87 MB), so
    /// these bound what a planted file costs to well under a second and 100 MB; 8 MB of cache is
    /// about 40,000 URLs (entries expire after a day), 4 MB of history 20,000 failing links.
    package static let maxCacheBytes = 8 << 20
    package static let maxHistoryBytes = 4 << 20
    package static let maxSharedEntryBytes = 1 << 20

    /// A state path as the pipeline names it, checked before any work: nothing is read or written
    /// through a symbolic link in it (inside the working folder, where a pull request could commit
    /// one), and it lies inside the working folder, the user's cache folder or the temporary
    /// folder — never elsewhere on the machine because a pipeline file said so.
    package static func check(_ path: String, option: String, working: String) throws(PipelineError) {
        let absolute = Paths.absolute(path, relativeTo: working)
        let base = Paths.standardize(working)
        if let first = Paths.symbolicLinks(onTheWayTo: absolute, inside: base).last {
            throw PipelineError(
                file: nil, path: option,
                message:
                    "'\(Paths.relative(first, to: base))' is a symbolic link: pdfpipe reads and writes no state through one (remove it, or name a real folder)"
            )
        }
        let env = Environment.all
        let roots =
            [Paths.standardize(working), Paths.standardize(FileSystem.temporaryDirectory)]
            + (folder(environment: env).map { [Paths.parent($0)] } ?? [])
        guard roots.contains(where: { Paths.isInside(absolute, root: $0) }) else {
            throw PipelineError(
                file: nil, path: option,
                message:
                    "'\(path)' is outside the working folder: state files are kept inside it (or in the user's cache or temporary folder), never where a pipeline file points elsewhere"
            )
        }
    }
}
