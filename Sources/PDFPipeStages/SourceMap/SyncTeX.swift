import Foundation
import PDFReader
import SystemIO

/// A SyncTeX file (`NAME.synctex.gz`, `NAME.synctex`) read for the pages asked: which input file
/// and line made each glue, kern, box and formula on them, and where it is. The format is
/// pdfTeX's and XeTeX's (`synctex.c`; read here by a parser of the project's own): a preamble of
/// `Input:TAG:PATH` lines and settings (`Unit`, `Magnification`, `X Offset`, `Y Offset`), then per
/// page `{N` … `}N` records `KIND TAG,LINE[,COLUMN]:H,V[:W,H,D]` in scaled points from the page's
/// top left. Everything in it is data (its paths are the author's: `SourceRoots` decides
/// which are sources); it is bounded (`maxBytes` decompressed, `maxRecords` per page).
struct SyncTeX: Sendable {
    /// One record: a node TeX made while reading `tag`'s line `line`, at (`h`, `v`) in PDF points
    /// from the page's top left (`v` is the baseline), with its width when it has one.
    struct Record: Sendable, Equatable {
        var kind: UInt8
        var tag: Int
        var line: Int
        var h: Double
        var v: Double
        var width: Double
        var height: Double
        var depth: Double
    }

    /// Input paths by tag, as the file names them.
    var inputs: [Int: String] = [:]
    /// Records of the pages read, by 1-based page.
    var pages: [Int: [Record]] = [:]
    /// Why the file was not read whole (too big, cut short, too many records on a page).
    var incomplete: String?

    static let maxBytes = 256 << 20
    static let maxRecords = 2_000_000
    static let maxInputs = 100_000
    /// Scaled points (TeX's `sp`) in a PDF point (a big point, 1/72 in): 65536 × 72.27 / 72.
    static let spPerPoint = 65781.76

    /// The SyncTeX file beside `pdf` (`a.pdf`: `a.synctex.gz`, else `a.synctex`), if there is one
    /// that is a regular file.
    static func file(beside pdf: String) -> String? {
        var stem = pdf
        if stem.lowercased().hasSuffix(".pdf") { stem.removeLast(4) }
        for candidate in [stem + ".synctex.gz", stem + ".synctex"] where FileSystem.kind(candidate) == .regular {
            return candidate
        }
        return nil
    }

    /// Reads `path` for the records of `wanted` pages (all when nil), of `kinds` (all when nil).
    /// Nil when it is no SyncTeX file (not gzip nor text, no `SyncTeX Version` line).
    static func read(_ path: String, pages wanted: Set<Int>?, kinds: Set<UInt8>? = nil) -> SyncTeX? {
        guard let st = FileStatus.following(path), st.kind == .regular else { return nil }
        var result = SyncTeX()
        // Too big to read: said beside what the mapper then does not place, never read in part.
        guard st.size <= maxBytes else {
            result.incomplete = "it is larger than \(maxBytes >> 20) MiB; not read"
            return result
        }
        guard let raw = FileSystem.contents(path) else { return nil }
        var bytes = raw
        if raw.starts(with: [0x1F, 0x8B]) {
            guard let (inflated, cut) = Gzip.decompress(raw, limit: maxBytes) else { return nil }
            bytes = inflated
            switch cut {
            case .limit?: result.incomplete = "it decompresses past \(maxBytes >> 20) MiB; the rest was not read"
            case .short?:
                result.incomplete = "its gzip stream ends before its end (a file cut short); read as far as it goes"
            case nil: break
            }
            // The last line of a stream cut short may be cut inside a number (`k36,40:…` read as line 4).
            if cut != nil { bytes.removeSubrange((bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)...) }
        }
        guard bytes.starts(with: Array("SyncTeX Version:".utf8)) else { return nil }
        result.parse(bytes, wanted: wanted, kinds: kinds)
        return result
    }

    /// The preamble's settings: PDF points = scaled points × `scale` + offset.
    private struct Frame {
        var unit = 1.0
        var magnification = 1000.0
        var xOffset = 0.0
        var yOffset = 0.0
        var scale: Double { unit * magnification / 1000 / SyncTeX.spPerPoint }
    }

    mutating func parse(_ bytes: [UInt8], wanted: Set<Int>?, kinds: Set<UInt8>? = nil) {
        var frame = Frame()
        var kept = [Bool](repeating: kinds == nil, count: 256)
        for k in kinds ?? [] { kept[Int(k)] = true }
        var page: Int?
        var records: [Record] = []
        // Pages come in order: past the last page asked for, nothing more is read.
        let last = wanted?.max()
        var ends = LineEnds(bytes)
        while let line = ends.next() {
            guard let first = line.first else { continue }
            // A record on a page not asked for: nothing to read.
            if page == nil, wanted != nil, first != UInt8(ascii: "{"), first != UInt8(ascii: "I"),
                first != UInt8(ascii: "}"), !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
            {
                continue
            }
            switch first {
            case UInt8(ascii: "{"):
                let p = Self.int(line.dropFirst())
                page = p.flatMap { wanted == nil || wanted!.contains($0) ? $0 : nil }
                records = []
            case UInt8(ascii: "}"):
                if let p = page { pages[p] = records }
                page = nil
                if let last, let p = Self.int(line.dropFirst()), p >= last { return }
            case UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "k"),
                UInt8(ascii: "g"), UInt8(ascii: "$"), UInt8(ascii: "x"):
                guard page != nil, kept[Int(first)] else { continue }
                guard records.count < Self.maxRecords else {
                    incomplete = "a page has more than \(Self.maxRecords) records; the rest were not read"
                    continue
                }
                if let r = Self.record(line, frame: frame) { records.append(r) }
            case UInt8(ascii: "I"):
                readInput(line)
            default:
                if page == nil { Self.setting(line, into: &frame) }
            }
        }
        // A file cut short inside a page: its records up to the cut, as written.
        if let p = page { pages[p] = records }
    }

    /// The lines of a buffer, their ends found with memchr: most lines are on pages not asked
    /// for, and only their first byte is looked at.
    struct LineEnds {
        let bytes: [UInt8]
        var start = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> ArraySlice<UInt8>? {
            let n = bytes.count
            guard start < n else { return nil }
            let from = start
            let end = bytes.withUnsafeBufferPointer { b -> Int in
                guard let p = memchr(b.baseAddress! + from, 0x0A, n - from) else { return n }
                return UnsafeRawPointer(p) - UnsafeRawPointer(b.baseAddress!)
            }
            start = end + 1
            return bytes[from..<end]
        }
    }

    /// `Input:TAG:PATH` (in the preamble, or in the content when a file is opened later).
    private mutating func readInput(_ line: ArraySlice<UInt8>) {
        let prefix = Array("Input:".utf8)
        guard line.starts(with: prefix), inputs.count < Self.maxInputs else { return }
        let rest = line.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")), let tag = Self.int(rest[..<colon]) else { return }
        let path = rest[(colon + 1)...].prefix(4096)
        inputs[tag] = String(decoding: path, as: UTF8.self)
    }

    private static let settings = ["Unit:", "Magnification:", "X Offset:", "Y Offset:"].map { Array($0.utf8) }

    private static func setting(_ line: ArraySlice<UInt8>, into frame: inout Frame) {
        guard settings.contains(where: { line.starts(with: $0) }) else { return }
        let text = String(decoding: line.prefix(64), as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite else { return }
        switch parts[0] {
        case "Unit" where value > 0: frame.unit = value
        case "Magnification" where value > 0: frame.magnification = value
        // Offsets are in scaled points too (0 from pdfTeX and XeTeX).
        case "X Offset": frame.xOffset = value
        case "Y Offset": frame.yOffset = value
        default: break
        }
    }

    /// `KTAG,LINE[,COLUMN]:H,V[:W[,H,D]]`, in points. Read without allocating (a file has
    /// thousands of records a page).
    private static func record(_ line: ArraySlice<UInt8>, frame: Frame) -> Record? {
        let kind = line.first!
        // Up to three numbers before the first ':' (tag, line, column), up to five after it.
        var head = InlineArray<3, Int>(repeating: 0)
        var tail = InlineArray<5, Int>(repeating: 0)
        var headCount = 0
        var tailCount = 0
        var colons = 0
        var value = 0
        var negative = false
        var digits = 0
        var index = line.startIndex + 1
        while true {
            let b: UInt8? = index < line.endIndex ? line[index] : nil
            index += 1
            if let b, b >= 48 && b <= 57 {
                guard digits < 12 else { return nil }
                value = value * 10 + Int(b - 48)
                digits += 1
                continue
            }
            if b == UInt8(ascii: "-") && digits == 0 {
                negative = true
                continue
            }
            guard b == nil || b == UInt8(ascii: ",") || b == UInt8(ascii: ":") else { return nil }
            let number = negative ? -value : value
            if colons == 0 {
                if headCount < 3 { head[headCount] = number }
                headCount += 1
            } else {
                if tailCount < 5 { tail[tailCount] = number }
                tailCount += 1
            }
            value = 0
            negative = false
            digits = 0
            guard let b else { break }
            if b == UInt8(ascii: ":") { colons += 1 }
        }
        guard headCount >= 2, colons >= 1, tailCount >= 2, head[0] > 0 else { return nil }
        let s = frame.scale
        return Record(
            kind: kind, tag: head[0], line: head[1],
            h: Double(tail[0]) * s + frame.xOffset * s, v: Double(tail[1]) * s + frame.yOffset * s,
            width: tailCount > 2 ? Double(tail[2]) * s : 0, height: tailCount > 3 ? Double(tail[3]) * s : 0,
            depth: tailCount > 4 ? Double(tail[4]) * s : 0)
    }

    static func int(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 12, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}
