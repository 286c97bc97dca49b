import Foundation
import PDFPipeCore
import SystemIO

/// The source files under the roots a run names (`report.sources`, `--sources`), read once for the
/// run and indexed by the tokens they spell: URLs, file names and anchor names as `\href{…}`,
/// `\label{…}`, `[text](…)`, `{#…}`, `href="…"`, `id="…"`, `` `text <…>`_ ``, `.. _…:`, `link:…[]` and
/// `[[…]]` write them. Bounded (`maxFiles`, `maxFileBytes`, `maxBytes`); `.gitignore` patterns,
/// hidden folders and pdfpipe's own output folders (a `results.jsonl` in them) are left out.
final class SourceIndex: Sendable {
    /// A line of a source file: the file's index in `files`, and the 1-based line.
    struct Location: Hashable, Sendable, Comparable {
        var file: Int
        var line: Int
        static func < (a: Location, b: Location) -> Bool { (a.file, a.line) < (b.file, b.line) }
    }

    /// Each file as reports name it (relative to the working folder when inside it) and absolutely.
    let files: [(shown: String, absolute: String)]
    /// Each file's lines (the text searched for a link's words).
    let lines: [[Substring]]
    /// Where each token is spelt, at most `maxLocations` places (more: `common`).
    let tokens: [String: [Location]]
    /// Tokens spelt in more than `maxLocations` places: never a unique answer.
    let common: Set<String>
    /// What a limit left out, when one was hit (said beside the mappings it could change).
    let incomplete: String?
    private let byAbsolute: [String: Int]

    static let maxFiles = 20_000
    static let maxFileBytes = 8 << 20
    static let maxBytes = 256 << 20
    static let maxLocations = 16
    static let extensions: Set<String> = [
        "tex", "ltx", "dtx", "bib", "md", "markdown", "mdx", "rmd", "qmd", "rst", "txt", "adoc", "asciidoc", "asc",
        "html", "htm", "xhtml", "xml", "dbk", "docbook", "typ", "org",
    ]

    init(roots: [String], workingDirectory: String, excluding excluded: [String]) {
        let (found, why) = Self.collect(roots: roots, workingDirectory: workingDirectory, excluding: excluded)
        var lines: [[Substring]] = []
        var tokens: [String: [Location]] = [:]
        var common = Set<String>()
        for (i, (_, path)) in found.enumerated() {
            let text = FileSystem.contents(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let fileLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append(fileLines)
            for (n, line) in fileLines.enumerated() {
                for token in Set(Self.tokens(in: line)) where !common.contains(token) {
                    var at = tokens[token, default: []]
                    at.append(Location(file: i, line: n + 1))
                    if at.count > Self.maxLocations {
                        common.insert(token)
                        tokens[token] = nil
                    } else {
                        tokens[token] = at
                    }
                }
            }
        }
        self.files = found
        byAbsolute = Dictionary(found.enumerated().map { ($1.1, $0) }, uniquingKeysWith: { a, _ in a })
        self.lines = lines
        self.tokens = tokens
        self.common = common
        incomplete = why
    }

    /// The source files under `roots`, sorted, as shown and absolutely; and what a limit left out.
    static func collect(roots: [String], workingDirectory: String, excluding excluded: [String]) -> (
        [(shown: String, absolute: String)], String?
    ) {
        var found: [(String, String)] = []
        var why: String?
        var total = 0
        var seen = Set<String>()
        for root in roots {
            let top = Paths.standardize(Paths.absolute(root, relativeTo: workingDirectory))
            Self.walk(top, ignores: [], excluded: Set(excluded.map(Paths.standardize))) { path, size in
                guard seen.insert(path).inserted else { return true }
                guard found.count < Self.maxFiles else {
                    why = "more than \(Self.maxFiles) source files under the roots; the rest were not read"
                    return false
                }
                guard size <= Self.maxFileBytes, total + size <= Self.maxBytes else {
                    why =
                        why
                        ?? "source files past \(Self.maxBytes >> 20) MiB in all, or of more than \(Self.maxFileBytes >> 20) MiB each, were not read"
                    return true
                }
                total += size
                let inside = path.hasPrefix(workingDirectory + "/")
                found.append((inside ? Paths.relative(path, to: workingDirectory) : path, path))
                return true
            }
        }
        return (found.sorted { $0.0 < $1.0 }, why)
    }

    /// Where `term` is spelt: nil when it is spelt in too many places to tell.
    func locations(of term: String) -> [Location]? {
        if common.contains(term) { return nil }
        return tokens[term] ?? []
    }

    /// The index of the file at `absolute` (standardized), if it is one of the sources.
    func file(absolute: String) -> Int? { byAbsolute[absolute] }

    // MARK: - Reading lines into tokens

    /// The tokens of a line and the variants a target may match: delimiters are white space and
    /// `{ } < > " ' `` | [ ]`, and `](` (Markdown); TeX's `\#`, `\%`, `\_`, `\&` and `\~` and
    /// HTML's `&amp;` are read as the character; a token's leading `(`, `#`, `_` and trailing
    /// `) . , ; : ! ?` are also tried without, and `link:`, `xref:`, `url=` prefixes.
    static func tokens(in line: Substring) -> [String] {
        var text = String(line)
        if text.contains("\\") {
            for c in ["#", "%", "_", "&", "~", "$"] { text = text.replacingOccurrences(of: "\\" + c, with: c) }
        }
        if text.contains("&amp;") { text = text.replacingOccurrences(of: "&amp;", with: "&") }
        text = text.replacingOccurrences(of: "](", with: " ")
        let delimiters = Set<Character>(" \t\r{}<>\"'`|[]\\")
        var out: [String] = []
        for raw in text.split(whereSeparator: { delimiters.contains($0) }) where raw.count >= 2 && raw.count <= 2048 {
            var t = Substring(raw)
            out.append(String(t))
            for prefix in ["link:", "xref:", "url=", "href=", "id=", "name="] where t.hasPrefix(prefix) {
                t = t.dropFirst(prefix.count)
                out.append(String(t))
            }
            var trimmed = t
            for _ in 0..<3 {
                let before = trimmed
                while let f = trimmed.first, "(#_".contains(f), trimmed.count > 1 { trimmed = trimmed.dropFirst() }
                while let l = trimmed.last, ").,;:!?".contains(l), trimmed.count > 1 { trimmed = trimmed.dropLast() }
                if trimmed == before { break }
                out.append(String(trimmed))
            }
            // \cite{a,b}: each key.
            if t.contains(","), !t.contains("://") {
                out += t.split(separator: ",").map { String($0) }.filter { $0.count >= 2 }
            }
        }
        return out
    }

    // MARK: - Walking the roots

    /// A `.gitignore`'s patterns, with the folder they are relative to.
    struct Ignore {
        var base: String
        var patterns: [(pattern: String, anchored: Bool, directoryOnly: Bool)]

        init?(folder: String) {
            guard let bytes = FileSystem.contents(folder + "/.gitignore"), bytes.count < 1 << 20 else { return nil }
            base = folder
            patterns = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
                var p = line.trimmingCharacters(in: .whitespaces)
                // Negations are not honoured: a file they would bring back is left out, never guessed in.
                guard !p.isEmpty, !p.hasPrefix("#"), !p.hasPrefix("!") else { return nil }
                let directoryOnly = p.hasSuffix("/")
                if directoryOnly { p.removeLast() }
                let anchored = p.contains("/")
                if p.hasPrefix("/") { p.removeFirst() }
                return (p, anchored, directoryOnly)
            }
        }

        func ignores(_ path: String, isDirectory: Bool) -> Bool {
            let relative = Paths.relative(path, to: base)
            let name = (path as NSString).lastPathComponent
            for p in patterns where isDirectory || !p.directoryOnly {
                if p.anchored ? fnmatch(p.pattern, relative, FNM_PATHNAME) == 0 : fnmatch(p.pattern, name, 0) == 0 {
                    return true
                }
            }
            return false
        }
    }

    /// Visits the source files under `folder` (depth first, sorted, symbolic links not
    /// followed), until `visit` says stop.
    @discardableResult
    static func walk(
        _ folder: String, ignores: [Ignore], excluded: Set<String>, visit: (String, Int) -> Bool
    ) -> Bool {
        guard !excluded.contains(folder), let names = FileSystem.list(folder) else { return true }
        // pdfpipe's own output folder: its reports spell every broken target.
        if names.contains("results.jsonl") { return true }
        var ignores = ignores
        if let own = Ignore(folder: folder) { ignores.append(own) }
        for name in names where !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let st = FileStatus.of(path) else { continue }
            let isDirectory = st.kind == .directory
            guard st.kind == .regular || isDirectory else { continue }
            if ignores.contains(where: { $0.ignores(path, isDirectory: isDirectory) }) { continue }
            if isDirectory {
                if !walk(path, ignores: ignores, excluded: excluded, visit: visit) { return false }
            } else if extensions.contains((name as NSString).pathExtension.lowercased()) {
                if !visit(path, Int(st.size)) { return false }
            }
        }
        return true
    }
}
