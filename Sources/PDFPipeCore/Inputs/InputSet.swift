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
