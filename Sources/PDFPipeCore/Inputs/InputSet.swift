import Foundation
import SystemIO

/// One document of a batch.
public struct InputDocument: Sendable, Equatable {
    /// Absolute path.
    public var path: String
    /// Relative to the batch's input root, `/`-separated: what reports show.
    public var relativePath: String
    /// The document's name in the output folder (`text/STEM.txt`, `thumbnails/STEM/1.png`):
    /// unique in the batch (see `OutputStems`).
    public var outputStem: String
    /// As the user named it: relative to the working folder when inside it, else absolute.
    public var workingPath: String?
    /// The file's name is not valid UTF-8: `path` shows its bytes as `\xNN` and cannot open it.
    public var undecodableName = false
    /// Listed in a work list (`--inputs-from`) but not there: the document's finding says so.
    public var missing = false

    public init(path: String, relativePath: String, outputStem: String? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.outputStem = outputStem ?? OutputStems.base(relativePath)
    }
}

/// Names of documents in the output folder: the relative path without `.pdf`, made safe and
/// unique, so that no document's outputs overwrite another's.
///
/// - `a.pdf` and `a.PDF` (and `A.pdf`, on case-insensitive file systems) would share `a`: the first
///   in input order keeps it, the others get `~` and 8 hex digits of a hash of their relative path
///   (stable: the same whatever else is in the batch, and across shards).
/// - A name that is empty or only dots once `.pdf` is gone (`.pdf`, `...pdf`) would be a hidden
///   file or climb a folder: it becomes `_` followed by the name.
/// - A component longer than 200 bytes (file systems stop at 255, and stages add `.review.pdf` or
///   `/123.png`) is cut at a character boundary and gets the hash suffix.
package enum OutputStems {
    package static let maxComponentBytes = 200

    package static func base(_ relativePath: String) -> String {
        var stem = relativePath
        if stem.lowercased().hasSuffix(".pdf") { stem = String(stem.dropLast(4)) }
        var parts = stem.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (i, p) in parts.enumerated() {
            var c = p
            if c.allSatisfy({ $0 == "." }) { c = "_" + c }
            if c.utf8.count > maxComponentBytes {
                var cut = ""
                for ch in c {
                    if cut.utf8.count + ch.utf8.count > maxComponentBytes - 9 { break }
                    cut.append(ch)
                }
                c = cut + "~" + hash(p)
            }
            parts[i] = c
        }
        return parts.joined(separator: "/")
    }

    /// Makes the stems of a batch unique (case-insensitively), keeping input order's first as is.
    package static func assign(_ documents: inout [InputDocument]) {
        var taken = Set<String>()
        for i in documents.indices {
            var stem = documents[i].outputStem
            if !taken.insert(stem.lowercased()).inserted {
                stem += "~" + hash(documents[i].relativePath)
                taken.insert(stem.lowercased())
            }
            documents[i].outputStem = stem
        }
    }

    /// 8 hex digits of FNV-1a over the bytes of `text`.
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let s = String(h >> 32, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}

/// The documents of a batch: inputs expanded, sorted and without repeats.
public struct InputSet: Sendable {
    /// The common folder of all inputs: report paths are relative to it.
    public var root: String
    public var documents: [InputDocument]
    /// Glob patterns that matched nothing (worth a warning, not an error).
    public var emptyPatterns: [String]
    /// Symbolic links met in a searched folder that lead out of it: not followed (a committed
    /// `docs/all -> /` would make the batch the whole machine), and said.
    public var outsideLinks: [(link: String, target: String)] = []
    /// The whole batch a shard was cut from (`--shard`): what `merge` holds the shards against.
    package var batch: BatchPlan?

    /// Keeps the documents of one shard, noting the whole batch first.
    package mutating func keepShard(_ contains: (String) -> Bool) {
        let paths = documents.map(\.relativePath)
        batch = BatchPlan(documents: paths.count, digest: ResultStore.configurationHash(paths))
        documents = documents.filter { contains($0.relativePath) }
    }

    public init(root: String, documents: [InputDocument], emptyPatterns: [String] = []) {
        self.root = root
        self.documents = documents
        self.emptyPatterns = emptyPatterns
    }

    /// Expands paths, folders (searched recursively for `*.pdf`, any case) and globs (`*`, `?`,
    /// `[...]` within a name, `**` across folders). Relative inputs are taken from `directory`.
    /// A path that does not exist is an error; a glob that matches nothing is not.
    /// `missingAllowed`: inputs (from a work list) that may not exist: each is still a document, whose
    /// result says it does not exist, instead of an error for the whole run.
    /// `followFileLinks`: a symbolic link to a PDF that leads out of the folder searched is
    /// followed (a developer's tree of links: Bazel, Nix, stow); false where the inputs come from a
    /// pull request (under the GitHub Action), where it is named instead. Links to folders out of
    /// the folder searched are never followed (named, and checked when given as inputs).
    public static func expand(
        _ inputs: [String], relativeTo directory: String, missingAllowed: Set<String> = [],
        followFileLinks: Bool = false
    )
        throws(PipelineError) -> InputSet
    {
        var files: [String] = []
        var bases: [String] = []
        var empty: [String] = []
        var undecodable = Set<String>()
        var missing = Set<String>()
        var outside: [(link: String, target: String)] = []
        for input in inputs {
            let absolute = Paths.absolute(input, relativeTo: directory)
            // A name that holds `*`, `?` or `[` is a pattern unless a file or folder has that very
            // name: a committed `[draft].pdf` listed by a changed-files step is that file, not a
            // pattern that matches `d.pdf` (or nothing, leaving the file unchecked).
            if Glob.hasWildcard(input), !FileSystem.exists(absolute) {
                let (base, pattern) = Glob.split(absolute)
                bases.append(base)
                let matches = Walker.files(
                    under: base, undecodable: &undecodable, outside: &outside, followFileLinks: followFileLinks
                ).filter { file in
                    Glob.match(pattern: pattern, path: Paths.relative(file, to: base))
                }
                if matches.isEmpty { empty.append(input) }
                files += matches
                continue
            }
            guard let kind = FileSystem.kind(absolute) else {
                if missingAllowed.contains(input) {
                    bases.append(Paths.parent(absolute))
                    files.append(absolute)
                    missing.insert(absolute)
                    continue
                }
                throw PipelineError(file: input, message: "no such file or folder" + Self.nearby(absolute))
            }
            if kind == .directory {
                bases.append(absolute)
                files += Walker.files(
                    under: absolute, undecodable: &undecodable, outside: &outside, followFileLinks: followFileLinks
                ).filter {
                    $0.lowercased().hasSuffix(".pdf")
                }
            } else {
                bases.append(Paths.parent(absolute))
                files.append(absolute)
            }
        }
        let root = Paths.commonAncestor(bases) ?? Paths.standardize(directory)
        var seen = Set<String>()
        var docs: [InputDocument] = []
        for f in files {
            let path = Paths.standardize(f)
            guard seen.insert(path).inserted else { continue }
            var d = InputDocument(path: path, relativePath: Paths.relative(path, to: root))
            d.workingPath = Paths.relative(path, to: Paths.standardize(directory))
            d.undecodableName = undecodable.contains(f)
            d.missing = missing.contains(f)
            docs.append(d)
        }
        docs.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
        OutputStems.assign(&docs)
        var set = InputSet(root: root, documents: docs, emptyPatterns: empty)
        set.outsideLinks = outside
        return set
    }
}

/// Path arithmetic on `/`-separated absolute paths, without touching the file system.
package enum Paths {
    package static func absolute(_ path: String, relativeTo directory: String) -> String {
        standardize(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    /// Removes `.`, `..` and repeated separators.
    package static func standardize(_ path: String) -> String {
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(c)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` (absolute) with its symbolic links resolved, as far as it exists: a file that does
    /// not exist yet is resolved through its folder.
    package static func resolved(_ path: String) -> String {
        if let r = FileSystem.realPath(path) { return r }
        let p = standardize(path)
        guard p != "/" else { return p }
        let name = p[p.index(after: p.lastIndex(of: "/")!)...]
        let folder = resolved(parent(p))
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// Whether `path` lies inside `root` once symbolic links are resolved: a link inside the root
    /// may point out of it, and what it points at is what would be opened. The one check for link
    /// targets (GoToR files, file and relative URIs).
    /// The symbolic links on the way to `path` (itself and its parents, as written, links not
    /// resolved) that lie inside `root`, nearest first: what a pull request could commit to send a
    /// write elsewhere. The one check for output folders and state files.
    package static func symbolicLinks(onTheWayTo path: String, inside root: String) -> [String] {
        let base = standardize(root)
        var part = standardize(path)
        var links: [String] = []
        while part.hasPrefix(base == "/" ? "/" : base + "/") {
            if FileStatus.of(part)?.kind == .symbolicLink { links.append(part) }
            part = parent(part)
        }
        return links
    }

    package static func isInside(_ path: String, root: String) -> Bool {
        let r = resolved(root)
        let p = resolved(path)
        return p == r || p.hasPrefix(r == "/" ? "/" : r + "/")
    }

    /// Whether a file a document links to may be opened: inside the input root, or in the folder
    /// the document itself really lives in (its symbolic links resolved). Debian installs manuals
    /// as links into another tree (`r-doc-pdf/manual/R-FAQ.pdf` → `/usr/share/R/doc/manual/`), and
    /// a viewer opening one finds its siblings there; a link that climbs elsewhere stays refused.
    package static func isReachable(_ target: String, root: String, from document: String) -> Bool {
        isInside(target, root: root) || isInside(target, root: parent(resolved(document)))
    }

    package static func parent(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/"), i != path.startIndex else { return "/" }
        return String(path[..<i])
    }

    package static func relative(_ path: String, to base: String) -> String {
        if base == "/" { return String(path.dropFirst()) }
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }

    /// A relative URL path from the folder `base` to `path` (both absolute and standardized),
    /// with `..` where needed: `link("/a/out", "/a/in/x.pdf")` is `../in/x.pdf`.
    package static func link(from base: String, to path: String) -> String {
        let b = base.split(separator: "/")
        let p = path.split(separator: "/")
        var n = 0
        while n < b.count, n < p.count - 1, b[n] == p[n] { n += 1 }
        return (Array(repeating: "..", count: b.count - n) + p[n...].map(String.init)).joined(separator: "/")
    }

    package static func commonAncestor(_ paths: [String]) -> String? {
        guard var common = paths.first.map({ $0.split(separator: "/") }) else { return nil }
        for p in paths.dropFirst() {
            let parts = p.split(separator: "/")
            var n = 0
            while n < common.count, n < parts.count, common[n] == parts[n] { n += 1 }
            common = Array(common.prefix(n))
        }
        return "/" + common.joined(separator: "/")
    }
}

extension InputSet {
    /// `; did you mean 'samples'?` for a missing input whose folder holds a name that differs in
    /// case or by a letter or two (the whole path, as it was given, is what to type).
    static func nearby(_ absolute: String) -> String {
        let parent = Paths.parent(absolute)
        let name = String(absolute.split(separator: "/").last ?? "")
        guard !name.isEmpty, let names = FileSystem.names(in: parent) else { return "" }
        let candidates = names.filter { !$0.undecodable && !$0.name.hasPrefix(".") }.map(\.name)
        if let same = candidates.first(where: { $0.lowercased() == name.lowercased() }) {
            return "; did you mean '\(same)'? (names differ in case)"
        }
        return Suggest.didYouMean(name, candidates)
    }
}

/// Lists regular files below a folder, following symbolic links without looping.
enum Walker {
    /// Every regular file under `root`; `undecodable` gets those whose names are not UTF-8.
    static func files(under root: String, undecodable: inout Set<String>) -> [String] {
        var outside: [(link: String, target: String)] = []
        return files(under: root, undecodable: &undecodable, outside: &outside)
    }

    /// The files under `root`; symbolic links that lead out of `root` are listed in `outside`
    /// instead of followed.
    static func files(
        under root: String, undecodable: inout Set<String>, outside: inout [(link: String, target: String)],
        followFileLinks: Bool = false
    )
        -> [String]
    {
        var out: [String] = []
        var visited = Set<[UInt64]>()
        var context = WalkContext(root: Paths.resolved(root), followFileLinks: followFileLinks)
        walk(root, &out, &undecodable, &visited, depth: 0, context: &context)
        outside += context.outside
        return out
    }

    struct WalkContext {
        var root: String
        var followFileLinks = false
        var outside: [(link: String, target: String)] = []
    }

    private static func identity(_ path: String) -> [UInt64]? {
        FileStatus.following(path).map { [$0.device, $0.inode] }
    }

    private static func walk(
        _ dir: String, _ out: inout [String], _ undecodable: inout Set<String>, _ visited: inout Set<[UInt64]>,
        depth: Int, context: inout WalkContext
    ) {
        guard depth < 256, let id = identity(dir), visited.insert(id).inserted else { return }
        guard let names = FileSystem.names(in: dir) else { return }
        for (name, nameIsUndecodable) in names {
            let path = dir + "/" + name
            if nameIsUndecodable {
                // It cannot be opened by this name; it is listed, and its document says why.
                if name.lowercased().hasSuffix(".pdf") {
                    out.append(path)
                    undecodable.insert(path)
                }
                continue
            }
            guard let st = FileStatus.following(path) else { continue }  // dangling link
            if FileStatus.of(path)?.kind == .symbolicLink {
                let target = Paths.resolved(path)
                let r = context.root
                if target != r && !target.hasPrefix(r == "/" ? "/" : r + "/")
                    && !(context.followFileLinks && st.kind == .regular)
                {
                    if st.kind == .directory || name.lowercased().hasSuffix(".pdf") {
                        context.outside.append((path, target))
                    }
                    continue
                }
            }
            if st.kind == .directory {
                walk(path, &out, &undecodable, &visited, depth: depth + 1, context: &context)
            } else if st.kind == .regular {
                out.append(path)
            }
        }
    }
}

/// Shell-style globs: `*`, `?` and `[...]` inside one name; `**` for any number of folders.
package enum Glob {
    package static func hasWildcard(_ s: String) -> Bool { s.contains { "*?[".contains($0) } }

    /// Splits an absolute pattern into the folder before the first wildcard and the rest.
    static func split(_ pattern: String) -> (base: String, rest: String) {
        let parts = pattern.split(separator: "/")
        let n = parts.firstIndex { hasWildcard(String($0)) } ?? parts.count
        return ("/" + parts[..<n].joined(separator: "/"), parts[n...].joined(separator: "/"))
    }

    /// Whether a relative path matches a relative pattern.
    package static func match(pattern: String, path: String) -> Bool {
        matchParts(
            pattern.split(separator: "/").map(String.init)[...], path.split(separator: "/").map(String.init)[...])
    }

    private static func matchParts(_ p: ArraySlice<String>, _ s: ArraySlice<String>) -> Bool {
        guard let first = p.first else { return s.isEmpty }
        if first == "**" {
            // Zero or more folders.
            var rest = s
            while true {
                if matchParts(p.dropFirst(), rest) { return true }
                if rest.isEmpty { return false }
                rest = rest.dropFirst()
            }
        }
        guard let name = s.first, fnmatch(first, name, FNM_PERIOD) == 0 else { return false }
        return matchParts(p.dropFirst(), s.dropFirst())
    }
}
