import Foundation
import SystemIO

/// Checks a file's cross-reference streams before qpdf reads them: qpdf sizes its buffers from
/// their `/W`, `/Size`, `/Index` and predictor `/DecodeParms` as the file states them, so a
/// 769-byte file with a predictor `/Columns` of 10^12 made it allocate 1.6 GB. A stream whose
/// numbers cannot describe this file is named here, and qpdf is told to read the file without its
/// cross-reference streams (`qpdf_set_ignore_xref_streams`: it rebuilds the table by scanning the
/// objects, as it does for a damaged table).
package enum XRefStreamCheck {
    /// The largest `/Columns` × `/Colors` of a cross-reference stream: a row is the sum of `/W`,
    /// at most 3 × 8 bytes; a predictor row of more than this is no cross-reference stream.
    static let maxRowBytes = 4096

    /// What is wrong with the first cross-reference stream of `path` whose numbers cannot fit a
    /// file of its size, or nil (also when the file cannot be read: qpdf says so itself).
    package static func hostile(path: String) -> String? {
        guard let file = try? MappedFile(path: path) else { return nil }
        return file.withUnsafeBufferPointer { hostile(in: $0) }
    }

    /// The same, on a file's bytes.
    package static func hostile(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress, bytes.count > 5 else { return nil }
        let key = Array("/XRef".utf8)
        var from = 0
        while from < bytes.count - key.count {
            // memchr for the slash (memmem is not in Swift's Glibc), then the rest of the key.
            guard let slash = memchr(base + from, Int32(key[0]), bytes.count - from) else { return nil }
            let hit = UnsafePointer(slash.assumingMemoryBound(to: UInt8.self)) - base
            from = hit + 1
            guard hit + key.count <= bytes.count, (1..<key.count).allSatisfy({ bytes[hit + $0] == key[$0] }) else {
                continue
            }
            from = hit + key.count
            // `/XRefStm` is a trailer key, not a type.
            if from < bytes.count, !PDFParser.isWhite(bytes[from]) && !PDFParser.isDelimiter(bytes[from]) { continue }
            guard let start = dictionaryStart(before: hit, in: bytes) else { continue }
            var p = PDFParser(bytes, at: start)
            let value: PDFValue
            do { value = try p.object() } catch { continue }
            guard case .dictionary(let d) = value, case .name(let type)? = d["Type"], type == "XRef" else { continue }
            if let why = problem(d, fileSize: bytes.count) {
                return "cross-reference stream at offset \(start): \(why)"
            }
        }
        return nil
    }

    /// Where the object holding offset `at` starts: just after the nearest `obj` keyword before it
    /// (within 4 KB), or nil.
    static func dictionaryStart(before at: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = at - 3
        let low = max(0, at - 4096)
        while i >= low {
            if bytes[i] == UInt8(ascii: "o") && bytes[i + 1] == UInt8(ascii: "b") && bytes[i + 2] == UInt8(ascii: "j")
                && (i == 0 || PDFParser.isWhite(bytes[i - 1]))
            {
                return i + 3
            }
            i -= 1
        }
        return nil
    }

    /// Why the dictionary's numbers cannot describe a file of `fileSize` bytes, or nil.
    /// A number of the dictionary: an integer, or a real as the integer it is (huge: `.max`).
    private static func int(_ v: PDFValue?) -> Int? {
        switch v {
        case .int(let i)?: return i
        case .real(let r)?: return r.isFinite && abs(r) < 1e18 ? Int(r) : .max
        default: return nil
        }
    }

    /// Predictor rows longer than a cross-reference row can be (one /DecodeParms or an array).
    private static func predictorProblem(_ decodeParms: PDFValue?) -> String? {
        var parameters: [PDFDictionary] = []
        switch decodeParms {
        case .dictionary(let p)?: parameters = [p]
        case .array(let a)?: parameters = a.compactMap { if case .dictionary(let p) = $0 { p } else { nil } }
        default: break
        }
        for p in parameters {
            let columns = int(p["Columns"]) ?? 1
            let colors = int(p["Colors"]) ?? 1
            let bits = int(p["BitsPerComponent"]) ?? 8
            let (row, o1) = columns.multipliedReportingOverflow(by: colors)
            let (rowBits, o2) = row.multipliedReportingOverflow(by: bits)
            if columns < 0 || colors < 0 || bits < 0 || o1 || o2 || rowBits / 8 > Self.maxRowBytes {
                return
                    "its predictor's rows (/Columns \(columns), /Colors \(colors), /BitsPerComponent \(bits)) are longer than the \(Self.maxRowBytes) bytes a cross-reference row can be"
            }
        }
        return nil
    }

    static func problem(_ d: PDFDictionary, fileSize: Int) -> String? {
        // Objects in a compressed object stream can take a few bytes each, never a hundredth of one.
        let most = fileSize.multipliedReportingOverflow(by: 100).partialValue + 1000
        if let size = int(d["Size"]), size < 0 || size > most {
            return "/Size \(size) is more than objects can fit in \(fileSize) bytes"
        }
        if case .array(let w)? = d["W"] {
            for v in w {
                guard let n = int(v), (0...8).contains(n) else {
                    return "a /W entry is not 0 to 8 bytes"
                }
            }
        }
        if case .array(let index)? = d["Index"] {
            var k = 1
            while k < index.count {
                if let first = int(index[k - 1]), let n = int(index[k]),
                    first < 0 || n < 0 || first > most || n > most
                {
                    return "/Index [\(first) \(n)] is more than objects can fit in \(fileSize) bytes"
                }
                k += 2
            }
        }
        return predictorProblem(d["DecodeParms"])
    }
}
