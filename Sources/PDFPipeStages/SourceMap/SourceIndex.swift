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
    /// Where each token is spelt, by the token's hash (FNV-1a of its bytes), at most
    /// `maxLocations` places (more: `common`); `locations(of:)` reads the lines again, so a
    /// collision costs a look, never a wrong answer.
    private let tokens: [UInt64: [Location]]
    /// Tokens spelt in more than `maxLocations` places: never a unique answer.
    private let common: Set<UInt64>
    /// What a limit left out, when one was hit (said beside the mappings it could change).
    let incomplete: String?
    private let byAbsolute: [String: Int]
    /// Files by their name (the last path component), for matching a path's tail.
    let byName: [String: [Int]]
    /// Each file's `stem`.
    let stems: [String]

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
        var tokens: [UInt64: [Location]] = [:]
        var common = Set<UInt64>()
        var seen = Set<UInt64>()
        var buffer: [UInt8] = []
        for (i, (_, path)) in found.enumerated() {
            let text = FileSystem.contents(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            // Split on the bytes (a split on Characters walks grapheme clusters: a third of the index's time).
            let fileLines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
            lines.append(fileLines)
            for (n, line) in fileLines.enumerated() {
                seen.removeAll(keepingCapacity: true)
                Self.scan(line, buffer: &buffer) { token in
                    let h = Self.hash(token)
                    guard seen.insert(h).inserted, !common.contains(h) else { return }
                    // In place, one lookup: a copy of the list per token was half the index's time.
                    if Self.append(Location(file: i, line: n + 1), to: &tokens[h, default: []]) > Self.maxLocations {
                        common.insert(h)
                        tokens[h] = nil
                    }
                }
            }
        }
        self.files = found
        byAbsolute = Dictionary(found.enumerated().map { ($1.1, $0) }, uniquingKeysWith: { a, _ in a })
        byName = Dictionary(grouping: found.indices) { (found[$0].1 as NSString).lastPathComponent }
        stems = found.map { Self.stem($0.1) }
        self.lines = lines
        self.tokens = tokens
        self.common = common
        incomplete = why
    }

    private static func append(_ l: Location, to list: inout [Location]) -> Int {
        list.append(l)
        return list.count
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
        let h = Self.hash(Array(term.utf8)[...])
        if common.contains(h) { return nil }
        return (tokens[h] ?? []).filter { spells(term, at: $0) }
    }

    /// Whether line `at` spells `term` as a token.
    func spells(_ term: String, at: Location) -> Bool {
        guard at.file < lines.count, at.line >= 1, at.line <= lines[at.file].count else { return false }
        return Self.tokens(in: lines[at.file][at.line - 1]).contains(term)
    }

    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// The index of the file at `absolute` (standardized), if it is one of the sources.
    func file(absolute: String) -> Int? { byAbsolute[absolute] }

    // MARK: - Reading lines into tokens

    /// The tokens of a line and the variants a target may match: delimiters are white space and
    /// `{ } < > " ' `` | [ ]`, and `](` (Markdown); TeX's `\#`, `\%`, `\_`, `\&` and `\~` and
    /// HTML's `&amp;` are read as the character; a token's leading `(`, `#`, `_` and trailing
    /// `) . , ; : ! ?` are also tried without, and `link:`, `xref:`, `url=` prefixes.
    static func tokens(in line: Substring) -> [String] {
        var out: [String] = []
        scan(line) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    /// Whether `line` has a token (or a variant of one) spelt as one of `terms` (their bytes).
    static func spells(_ terms: [[UInt8]], in line: Substring) -> Bool {
        var found = false
        scan(line) { token in
            if !found, terms.contains(where: { $0.elementsEqual(token) }) { found = true }
        }
        return found
    }

    /// A file's name without its folder and extension, in lower case (`manual.pdf`, `manual.md`).
    static func stem(_ path: String) -> String {
        let name = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last ?? path.utf8[...]
        var cut = name
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex { cut = name[..<dot] }
        return Substring(cut).lowercased()
    }

    /// Calls `body` with each token of `line` and each variant of it (see `tokens(in:)`).
    static func scan(_ line: Substring, _ body: (ArraySlice<UInt8>) -> Void) {
        var buffer: [UInt8] = []
        scan(line, buffer: &buffer, body)
    }

    /// `scan` with a buffer the caller keeps from line to line (the index reads every line of
    /// every source once per run).
    static func scan(_ line: Substring, buffer clean: inout [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
        clean.removeAll(keepingCapacity: true)
        let utf8 = line.utf8
        let done: Void? = utf8.withContiguousStorageIfAvailable { raw in unescape(raw, into: &clean) }
        if done == nil { Array(utf8).withUnsafeBufferPointer { unescape($0, into: &clean) } }
        var start = 0
        for j in 0...clean.count {
            guard j == clean.count || delimiter[Int(clean[j])] else { continue }
            if j - start >= 2 && j - start <= 2048 { emit(clean[start..<j], body) }
            start = j + 1
        }
    }

    /// TeX's escapes and HTML's `&amp;` read as the character, Markdown's `](` as a break.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into clean: inout [UInt8]) {
        var i = 0
        while i < raw.count {
            let b = raw[i]
            let next: UInt8? = i + 1 < raw.count ? raw[i + 1] : nil
            if b == UInt8(ascii: "\\"), let c = next, escapable[Int(c)] {
                clean.append(c)
                i += 2
            } else if b == UInt8(ascii: "&"), raw[i...].starts(with: amp) {
                clean.append(b)
                i += amp.count
            } else if b == UInt8(ascii: "]"), next == UInt8(ascii: "(") {
                clean.append(0x20)
                clean.append(0x20)
                i += 2
            } else {
                clean.append(b)
                i += 1
            }
        }
    }

    /// A token and the variants of it a target may match.
    private static func emit(_ token: ArraySlice<UInt8>, _ out: (ArraySlice<UInt8>) -> Void) {
        var t = token
        out(t)
        for prefix in prefixes where t.starts(with: prefix) && t.count > prefix.count {
            t = t.dropFirst(prefix.count)
            out(t)
        }
        var trimmed = t
        while let f = trimmed.first, leading[Int(f)], trimmed.count > 1 { trimmed = trimmed.dropFirst() }
        while let l = trimmed.last, trailing[Int(l)], trimmed.count > 1 { trimmed = trimmed.dropLast() }
        // `(#id)`: leading and trailing marks in turn, each state once.
        if trimmed.count != t.count {
            var u = t
            for _ in 0..<3 {
                let before = u.count
                while let f = u.first, leading[Int(f)], u.count > 1 { u = u.dropFirst() }
                while let l = u.last, trailing[Int(l)], u.count > 1 { u = u.dropLast() }
                if u.count == before { break }
                out(u)
            }
        }
        // \cite{a,b}: each key.
        if t.contains(UInt8(ascii: ",")), !t.indices.contains(where: { t[$0...].starts(with: schemeMark) }) {
            for part in t.split(separator: UInt8(ascii: ",")) where part.count >= 2 { out(part) }
        }
    }

    private static func table(_ chars: String) -> [Bool] {
        var t = [Bool](repeating: false, count: 256)
        for b in chars.utf8 { t[Int(b)] = true }
        return t
    }
    private static let delimiter = table(" \t\r{}<>\"'`|[]\\")
    private static let escapable = table("#%_&~$")
    private static let leading = table("(#_")
    private static let trailing = table(").,;:!?")
    private static let amp = Array("&amp;".utf8)
    private static let schemeMark = Array("://".utf8)
    private static let prefixes = ["link:", "xref:", "url=", "href=", "id=", "name="].map { Array($0.utf8) }

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
