import Foundation
import PDFPipeCore
import SystemIO

/// What the author probably meant, for a broken link's hint: the names a document has that are
/// close to a missing one, and the file a missing path most likely means (the same name in another
/// case — made on a case-insensitive file system, broken on a Linux web server —, another
/// extension, or a sibling folder). Only what exists is suggested; nothing is guessed otherwise.
enum Suggestions {
    /// Names longer than this are compared only by case and by prefix (edit distance is quadratic).
    static let maxEditLength = 64
    /// Folders larger than this are not listed for a file suggestion.
    static let maxFolderEntries = 10_000

    /// Up to `limit` names close to `missing`, the closest first: equal but for case, then a few
    /// edits away (at most a third of its length, at least 2), then one that extends it or that it
    /// extends (`sec:intro` ↔ `sec:introduction`), the shortest first.
    static func names(closeTo missing: String, in names: some Sequence<String>, limit: Int = 3) -> [String] {
        let m = missing.lowercased()
        let maxEdits = max(2, missing.count / 3)
        var scored: [(score: Int, name: String)] = []
        for name in names where name != missing && !name.isEmpty {
            let n = name.lowercased()
            if n == m {
                scored.append((0, name))
            } else if m.count >= 3, n.hasPrefix(m) || m.hasPrefix(n), min(m.count, n.count) >= 3 {
                scored.append((100 + abs(n.count - m.count), name))
            } else if m.count <= maxEditLength, n.count <= maxEditLength, abs(n.count - m.count) <= maxEdits {
                let d = Suggest.distance(m, n)
                if d <= maxEdits { scored.append((d, name)) }
            }
        }
        return scored.sorted { $0.score != $1.score ? $0.score < $1.score : $0.name < $1.name }.prefix(limit).map(
            \.name)
    }

    /// `did you mean 'sec:introduction'? (the document has that name)`, or nil.
    static func nameHint(_ missing: String, in names: some Sequence<String>, where whose: String = "the document")
        -> String?
    {
        let close = Self.names(closeTo: missing, in: names)
        guard let first = close.first else { return nil }
        if close.count == 1 { return "did you mean '\(first)'? (\(whose) has that name)" }
        return "did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "? (\(whose) has those names)"
    }

    /// `path` as a link from `folder` writes it: relative, with `..` where it climbs.
    static func linkPath(_ path: String, from folder: String) -> String {
        let p = Paths.standardize(path).split(separator: "/")
        let f = Paths.standardize(folder).split(separator: "/")
        var common = 0
        while common < min(p.count, f.count), p[common] == f[common] { common += 1 }
        let up = Array(repeating: "..", count: f.count - common)
        return (up + p[common...].map(String.init)).joined(separator: "/")
    }

    /// The file a missing `target` (absolute) most likely means, as the link should name it
    /// (relative to `folder`, the linking document's folder), with why; nil when nothing close exists.
    /// A folder's names, unless it holds more than `maxFolderEntries` (not searched).
    static func list(_ dir: String) -> [String]? {
        guard let items = FileSystem.list(dir), items.count <= maxFolderEntries else { return nil }
        return items
    }

    /// The file that `target` names but for case (each part matched once, ignoring case), when
    /// the names differ; nil when there is none, or the path exists as written.
    static func sameButForCase(_ target: String) -> String? {
        var parts = Paths.standardize(target).split(separator: "/").map(String.init)
        var base = "/"
        var caseDiffers = false
        while let part = parts.first {
            parts.removeFirst()
            let here = base == "/" ? "/" + part : base + "/" + part
            if FileSystem.exists(here) {
                base = here
                continue
            }
            let matches = (list(base) ?? []).filter { $0.lowercased() == part.lowercased() }
            // A part that matches nothing (or several): no such file but for case. (Stopping
            // there kept the folder above it, which the hint then named as the file.)
            guard matches.count == 1 else { return nil }
            base = base == "/" ? "/" + matches[0] : base + "/" + matches[0]
            caseDiffers = true
        }
        return caseDiffers ? base : nil
    }

    static func fileHint(_ target: String, from folder: String, within root: String? = nil) -> String? {
        func shown(_ path: String) -> String { linkPath(path, from: folder) }
        // Nothing outside the input root is named (unless allowOutsideRoot): it was not asked about.
        func allowed(_ path: String) -> Bool { root.map { Paths.isInside(path, root: $0) } ?? true }
        // 1. The same path but for case, folder by folder from the deepest that exists.
        if let base = sameButForCase(target), allowed(base) {
            return
                "'\(shown(base))' exists: the names differ only in case, which Windows and macOS ignore and Linux web servers do not; write it as it is on disk"
        }
        let parent = Paths.parent(target)
        let name = (target as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension.lowercased()
        // 2. The same name with another extension, in the same folder.
        if let items = list(parent) {
            let others = items.filter { ($0 as NSString).deletingPathExtension.lowercased() == stem && $0 != name }
            if others.count == 1, allowed(parent + "/" + others[0]) {
                return "'\(shown(parent + "/" + others[0]))' exists: the same name with another extension"
            }
        }
        // 3. The same file name in a sibling folder (moved, or the link names the wrong folder).
        let grandparent = Paths.parent(parent)
        if grandparent != parent, let siblings = list(grandparent) {
            var found: [String] = []
            for s in siblings.sorted() where grandparent + "/" + s != parent {
                let candidate = grandparent + "/" + s + "/" + name
                if FileSystem.isFolder(grandparent + "/" + s), FileSystem.exists(candidate) {
                    found.append(candidate)
                }
            }
            if found.count == 1, allowed(found[0]) {
                return "'\(shown(found[0]))' exists: the same file in a sibling folder"
            }
        }
        return nil
    }
}
