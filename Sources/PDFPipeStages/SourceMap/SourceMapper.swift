import Dispatch
import Foundation
import PDFPipeCore
import PDFReader
import SystemIO

/// Places each finding about a link on the source line that made it (`details.source`), with two
/// mappers, each result saying which one found it and how:
/// - `synctex`, for PDFs with a `NAME.synctex.gz` (or `.synctex`) beside them: the records of the
///   link's page inside its rectangle (else on its baseline just after or before it) name input
///   lines, and the line near them that spells the link's target is the answer;
/// - `search`, for every producer: the target as the sources spell it (`SourceIndex`), where it is
///   spelt once; in several places, the one that also has the link's text. Otherwise unmapped,
///   with the candidates. Nothing is guessed: a line is given only where the target is spelt.
public final class SourceMapper: SourceMapping {
    let roots: [String]
    let workingDirectory: String
    let excluded: [String]
    private let built = Locked<SourceIndex?>(nil)

    /// `roots` relative to `workingDirectory`; `excluded`: folders never read (the run's output).
    public init(roots: [String], workingDirectory: String, excluded: [String]) {
        self.roots = roots
        self.workingDirectory = Paths.standardize(workingDirectory)
        self.excluded = excluded.map { Paths.standardize(Paths.absolute($0, relativeTo: workingDirectory)) }
    }

    /// Starts reading the sources on a thread of their own while the first documents' stages run
    /// (the first mapping waits only for what is left).
    public func prepare() {
        DispatchQueue.global(qos: .userInitiated).async { _ = self.index }
    }

    /// The run's index, built by the first document that needs it (the others wait for it once).
    var index: SourceIndex {
        built.withLock { i in
            if let i { return i }
            let made = SourceIndex(roots: roots, workingDirectory: workingDirectory, excluding: excluded)
            i = made
            return made
        }
    }

    public func map(_ result: inout DocumentResult, file: String) {
        // The document is opened at most once, and only when asked (a target not in the report's
        // link list, SyncTeX's page boxes).
        var opened: PDFReader??
        func reader() -> PDFReader? {
            if opened == nil { opened = .some(try? PDFReader(path: file)) }
            return opened!
        }
        nameTargets(&result, reader: reader)
        let wanted = result.findings.indices.filter { Self.term(of: result.findings[$0]) != nil }
        guard !wanted.isEmpty else { return }
        let index = self.index
        var synctex: SyncTeXPages?
        if let path = SyncTeX.file(beside: file) {
            let pages = Set(wanted.compactMap { result.findings[$0].page })
            synctex = SyncTeXPages(
                path: path, pdf: file, pages: pages, index: index, measured: result.pageBoxes.value, reader: reader)
        }
        let pdfStem = Self.stem(file)
        for i in wanted {
            var source = locate(result.findings[i], synctex: synctex, index: index, pdfStem: pdfStem)
            source["target"] = .string(Self.cut(Self.term(of: result.findings[i])!))
            result.findings[i].details["linkTarget"] = nil
            // A limit that may have left the answer out is said beside the finding it could change.
            if let why = synctex?.synctex.incomplete ?? index.incomplete, source["file"] == nil {
                source["limit"] = .string(synctex?.synctex.incomplete != nil ? "the SyncTeX file: " + why : why)
            }
            result.findings[i].details["source"] = .object(source)
        }
    }

    /// A link finding that does not name its target (the URI syntax rules) is about the link at
    /// its page and place in /Annots: its target is the report's link list's (validate-links'
    /// `inventory`), else read from the document.
    func nameTargets(_ result: inout DocumentResult, reader: () -> PDFReader?) {
        let unnamed = Set(result.findings.compactMap { f in Self.term(of: f) == nil ? f.link : nil })
        guard !unnamed.isEmpty else { return }
        var known: [LinkID: String] = [:]
        for l in result.sections["links"]?.arrayValue ?? [] {
            guard let page = l["page"]?.intValue, let k = l["annotationIndex"]?.intValue,
                let t = l["uri"]?.stringValue ?? l["file"]?.stringValue
            else { continue }
            known[LinkID(page: page, annotationIndex: k)] = t
        }
        let rest = unnamed.filter { known[$0] == nil }
        if !rest.isEmpty, let r = reader() { known.merge(LinkTargets.read(r, links: rest)) { a, _ in a } }
        for i in result.findings.indices where Self.term(of: result.findings[i]) == nil {
            if let link = result.findings[i].link, let t = known[link] {
                result.findings[i].details["linkTarget"] = .string(t)
            }
        }
    }

    /// What the sources would spell for the finding's target: its URI, file or destination name.
    static func term(of f: Finding) -> String? {
        guard f.page != nil else { return nil }
        guard
            var t = f.details["uri"]?.stringValue ?? f.details["target"]?.stringValue
                ?? f.details["linkTarget"]?.stringValue, !t.isEmpty
        else { return nil }
        if t.hasPrefix("#") { t.removeFirst() }
        // hyperref's citations: `cite.KEY` is `\cite{KEY}`.
        if t.hasPrefix("cite.") { t.removeFirst(5) }
        return t.isEmpty ? nil : t
    }

    /// The spellings a source may give `term`: itself, without a trailing `/`, and a file link
    /// without the `.pdf` hyperref adds (`\href{manual}` is a GoToR to `manual.pdf`).
    static func spellings(_ term: String) -> [String] {
        var out = [term]
        if term.hasSuffix("/"), term.count > 1 { out.append(String(term.dropLast())) }
        if term.lowercased().hasSuffix(".pdf"), term.count > 4 { out.append(String(term.dropLast(4))) }
        return out
    }

    func locate(_ f: Finding, synctex: SyncTeXPages?, index: SourceIndex, pdfStem: String) -> [String: JSONValue] {
        let term = Self.term(of: f)!
        var candidates: [SourceIndex.Location] = []
        if let synctex, let page = f.page, let rect = f.rect, rect.count == 4 {
            switch synctex.locate(term: term, page: page, rect: rect) {
            case .found(let at):
                return Self.found(
                    at, index: index, mapper: "synctex",
                    how: "SyncTeX's records under the link, on the line that spells its target")
            case .near(let near):
                candidates = near
            case .none:
                break
            }
        }
        return search(f, term: term, candidates: candidates, synctex: synctex, index: index, pdfStem: pdfStem)
    }

    /// The search mapper: the lines that spell the target, the one tied to the link.
    func search(
        _ f: Finding, term: String, candidates: [SourceIndex.Location], synctex: SyncTeXPages?, index: SourceIndex,
        pdfStem: String
    ) -> [String: JSONValue] {
        let found = Self.spellings(term).map { index.locations(of: $0) }
        guard !found.contains(where: { $0 == nil }) else {
            return [
                "mapper": "search",
                "unmapped": .string("'\(Self.cut(term))' is spelt in more than \(SourceIndex.maxLocations) places"),
            ]
        }
        let at = Array(Set(found.flatMap { $0 ?? [] })).sorted()
        // A line that spells the target is the source only when something ties it to this link:
        // the link's text beside it, or a file named like the PDF (or one SyncTeX names). A
        // folder of many documents' sources spells a URL once in an unrelated README.
        let text = f.details["linkText"]?.stringValue.flatMap { t in
            Self.spellings(term).contains(t) || t.contains("://") ? nil : t
        }
        let tied: [(String, (SourceIndex.Location) -> Bool)] = [
            ("its text", { l in text.map { index.spells($0, near: l) } ?? false }),
            ("a file named like the PDF", { l in index.stems[l.file] == pdfStem }),
            ("a file SyncTeX names", { l in synctex?.names(l.file) ?? false }),
        ]
        for (why, holds) in tied {
            let kept = at.filter(holds)
            if kept.count == 1 {
                let how =
                    at.count == 1
                    ? "the only line that spells its target, with \(why)"
                    : "the only line that spells its target and \(why)"
                return Self.found(kept[0], index: index, mapper: "search", how: how)
            }
        }
        var out: [String: JSONValue] = ["mapper": synctex == nil ? "search" : "synctex"]
        let listed = (at.isEmpty ? candidates : at).prefix(5)
        out["unmapped"] = .string(
            at.isEmpty
                ? (candidates.isEmpty
                    ? "no source file under the roots spells '\(Self.cut(term))'"
                    : "SyncTeX names lines that do not spell '\(Self.cut(term))' (a macro may make it)")
                : at.count == 1
                    ? "'\(Self.cut(term))' is spelt only in a file that neither the link's text nor the file's name ties to this document"
                    : "'\(Self.cut(term))' is spelt in \(at.count) places")
        if !listed.isEmpty {
            out["candidates"] = .array(listed.map { .string("\(index.files[$0.file].shown):\($0.line)") })
        }
        return out
    }

    static func found(_ at: SourceIndex.Location, index: SourceIndex, mapper: String, how: String) -> [String:
        JSONValue]
    {
        [
            "file": .string(index.files[at.file].shown), "line": .int(at.line), "mapper": .string(mapper),
            "how": .string(how),
        ]
    }

    /// A file's name without its folder and extension, in lower case (`manual.pdf`, `manual.md`).
    static func stem(_ path: String) -> String { SourceIndex.stem(path) }

    static func cut(_ s: String) -> String { s.count > 120 ? String(s.prefix(120)) + "…" : s }
}

extension SourceIndex {
    /// Whether the line `at`, or the one before or after it, holds `text` (its first words,
    /// case and spacing aside): a link's visible text as the source writes it.
    func spells(_ text: String, near at: Location) -> Bool {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace }).prefix(4).joined(separator: " ")
        guard words.count >= 3 else { return false }
        let fileLines = lines[at.file]
        let span = fileLines[max(0, at.line - 2)..<min(fileLines.count, at.line + 1)]
        let joined = span.joined(separator: " ").lowercased().split(whereSeparator: { $0.isWhitespace }).joined(
            separator: " ")
        return joined.contains(words)
    }
}

/// A document's SyncTeX records for the pages with findings, and where its inputs are among the
/// sources.
struct SyncTeXPages {
    let synctex: SyncTeX
    /// Each page's media box (PDF points), for the page's top left, which SyncTeX measures from.
    let boxes: [Int: PDFRect]
    let index: SourceIndex
    /// Input tag → source file, when the input is one of the sources.
    let files: [Int: Int]

    /// `measured`: the media boxes the stages measured (`PageBoxes`); the document is read for
    /// them only when they are not there (a result from a worker process).
    init?(
        path: String, pdf: String, pages: Set<Int>, index: SourceIndex, measured: [Double],
        reader: () -> PDFReader?
    ) {
        // Glue, kerns, formulas and boxes carry the line TeX read them from; `x` records and
        // box starts carry the line where the paragraph was broken.
        let kinds: Set<UInt8> = Set("kg$vh".utf8)
        guard let s = SyncTeX.read(path, pages: pages, kinds: kinds) else { return nil }
        synctex = s
        var boxes: [Int: PDFRect] = [:]
        for p in pages {
            if let b = PageBoxes.box(measured, page: p) { boxes[p] = PDFRect(b[0], b[1], b[2], b[3]) }
        }
        if boxes.count < pages.count {
            guard let reader = reader() else { return nil }
            let pageObjects = PageTree.pages(reader)
            for p in pages where p >= 1 && p <= pageObjects.count {
                boxes[p] = PageGeometry(page: pageObjects[p - 1]).mediaBox
            }
        }
        self.boxes = boxes
        self.index = index
        let kept = s.pages
        // Only the inputs these pages' records name are looked for among the sources (a LaTeX
        // run names hundreds: classes, packages, fonts).
        var used = Set<Int>()
        for records in kept.values { for r in records { used.insert(r.tag) } }
        let folder = Paths.parent(Paths.standardize(pdf))
        self.folder = folder
        var files: [Int: Int] = [:]
        for tag in used {
            if let named = s.inputs[tag], let i = Self.source(named, besidePDF: folder, index: index) { files[tag] = i }
        }
        self.files = files
        made = kept.mapValues { $0.filter { files[$0.tag] != nil } }
    }

    /// Each page's records that name a source line (see `init`).
    let made: [Int: [SyncTeX.Record]]
    let folder: String

    /// The sources among all the inputs read, found once, on the first search that asks (a
    /// SyncTeX file may name 100,000 inputs: not looked at per candidate line).
    private let named = NamedSources()

    final class NamedSources {
        var files: Set<Int>?
    }

    /// Whether the document's SyncTeX file names source `file` among the inputs read (those opened
    /// up to the last page asked for: a file TeX opened later made nothing on those pages).
    func names(_ file: Int) -> Bool {
        if files.values.contains(file) { return true }
        if named.files == nil {
            named.files = Set(synctex.inputs.values.compactMap { Self.source($0, besidePDF: folder, index: index) })
        }
        return named.files!.contains(file)
    }

    /// The source file an input path names: itself when it is under the roots (absolute, or
    /// relative to the PDF's folder, where TeX ran), else the one source whose path ends with the
    /// same folders and name (a build in another checkout); nil otherwise (a class, a package, a
    /// path outside the roots: dropped).
    static func source(_ named: String, besidePDF folder: String, index: SourceIndex) -> Int? {
        let absolute = Paths.standardize(Paths.absolute(named, relativeTo: folder))
        if let i = index.file(absolute: absolute) { return i }
        let parts = absolute.split(separator: "/")
        guard let name = parts.last, let sameName = index.byName[String(name)] else { return nil }
        for depth in stride(from: min(3, parts.count), through: 1, by: -1) {
            let tail = "/" + parts.suffix(depth).joined(separator: "/")
            let matches = sameName.filter { index.files[$0].absolute.hasSuffix(tail) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { return nil }
        }
        return nil
    }

    enum Answer {
        case found(SourceIndex.Location)
        case near([SourceIndex.Location])
        case none
    }

    /// The source line of the link at `rect` on `page`: SyncTeX's lines under it (else beside it
    /// on its baseline), checked against the lines that spell `term` in that file.
    func locate(term: String, page: Int, rect: [Double]) -> Answer {
        guard let made = made[page], let box = boxes[page] else { return .none }
        let top = max(box.y1, box.y2) - max(rect[1], rect[3])
        let bottom = max(box.y1, box.y2) - min(rect[1], rect[3])
        let left = min(rect[0], rect[2]) - min(box.x1, box.x2)
        let right = max(rect[0], rect[2]) - min(box.x1, box.x2)
        // The link's baseline: in the lower part of its rectangle (a rectangle as tall as a line
        // and a half reaches the baseline above), the records' baseline nearest three quarters down.
        let height = bottom - top
        let near = made.filter { $0.v >= top + 0.3 * height && $0.v <= bottom + 1 }
        let aim = top + 0.75 * height
        guard let baseline = near.min(by: { abs($0.v - aim) < abs($1.v - aim) })?.v else { return .none }
        let onBaseline = near.filter { abs($0.v - baseline) < 0.5 }
        var chosen = onBaseline.filter { $0.h >= left - 1 && $0.h <= right + 1 }
        chosen.sort { a, b in a.v != b.v ? a.v < b.v : a.h < b.h }
        if chosen.isEmpty {
            let after = onBaseline.filter { $0.h > right && $0.h <= right + 40 }.min { $0.h < $1.h }
            let before = onBaseline.filter { $0.h < left && $0.h >= left - 40 }.max { $0.h < $1.h }
            chosen = [after, before].compactMap { $0 }
        }
        guard !chosen.isEmpty else { return .none }
        let said = chosen.map { SourceIndex.Location(file: files[$0.tag]!, line: $0.line) }
        // The line that spells the target, nearest the first line SyncTeX names (a link whose
        // text runs over several source lines starts where its target is written).
        let first = said[0]
        let window = said.filter { $0.file == first.file }
        let lo = (window.map(\.line).min() ?? first.line) - 3
        let hi = (window.map(\.line).max() ?? first.line) + 1
        // Read in the file itself (a target the whole corpus spells in many places is still
        // spelt once near here).
        let spellings = SourceMapper.spellings(term).map { Array($0.utf8) }
        let fileLines = index.lines[first.file]
        // (A line past the file's end, from a hostile or stale SyncTeX file, spells nothing.)
        let lower = max(1, lo)
        let upper = min(hi, fileLines.count)
        let verified =
            lower <= upper ? (lower...upper).filter { SourceIndex.spells(spellings, in: fileLines[$0 - 1]) } : []
        if let best = verified.min(by: { abs($0 - first.line) < abs($1 - first.line) }) {
            return .found(SourceIndex.Location(file: first.file, line: best))
        }
        return .near(Array(Set(said)).sorted())
    }
}

/// The targets of link annotations, read from the document by their page and place in `/Annots`:
/// a URI, a file (GoToR, Launch) or a destination name, as the PDF writes it.
enum LinkTargets {
    static func read(_ reader: PDFReader, links: Set<LinkID>) -> [LinkID: String] {
        let pages = PageTree.pages(reader)
        var out: [LinkID: String] = [:]
        for link in links where link.page >= 1 && link.page <= pages.count {
            guard let annots = pages[link.page - 1]["Annots"], link.annotationIndex < annots.count else { continue }
            let a = annots[link.annotationIndex]
            if let t = target(of: a) { out[link] = t }
        }
        return out
    }

    static func target(of annotation: PDFObject) -> String? {
        if let action = annotation["A"] {
            switch action["S"]?.name {
            case "URI": return action["URI"]?.bytes.map { String(decoding: $0, as: UTF8.self) }
            case "GoToR", "Launch": return FileSpecification(action["F"]).path
            case "GoTo": return action["D"].flatMap(name)
            default: return nil
            }
        }
        return annotation["Dest"].flatMap(name)
    }

    static func name(_ o: PDFObject) -> String? { o.text ?? o.name }
}

extension LinkAudit {
    /// The pages' media boxes as read here, for the source mapping (`PageBoxes`).
    var pageBoxes: PageBoxes {
        var flat: [Double] = []
        flat.reserveCapacity(geometries.count * 4)
        for g in geometries {
            flat.append(g.mediaBox.x1)
            flat.append(g.mediaBox.y1)
            flat.append(g.mediaBox.x2)
            flat.append(g.mediaBox.y2)
        }
        return PageBoxes(flat: flat)
    }
}
