import Foundation
import SystemIO

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
