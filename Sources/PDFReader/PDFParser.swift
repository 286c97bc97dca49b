/// A syntax error in the file, with the byte offset where it was found.
package struct PDFSyntaxError: Error, Sendable, CustomStringConvertible {
    package var offset: Int
    package var message: String
    package var description: String { "offset \(offset): \(message)" }
}

/// Parses PDF objects (PDF 32000-1 §7.3) from bytes: numbers, strings, names, arrays,
/// dictionaries, references, and the `obj` / `stream` framing of indirect objects.
struct PDFParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int
    /// Nesting limit for arrays and dictionaries (hostile files).
    static let maxDepth = 256
    /// Integers read so far that do not fit 64 bits (each read as a real; see `number`), and the
    /// offset of the first.
    var overflowedIntegers = 0
    var firstOverflowOffset: Int?

    init(_ bytes: UnsafeBufferPointer<UInt8>, at pos: Int = 0) {
        self.bytes = bytes
        // Offsets come from the file: one outside the buffer parses as the end of the data (found by
        // scripts/fuzz-reader.sh: an object stream with a negative /First read before the buffer).
        self.pos = pos >= 0 && pos <= bytes.count ? pos : bytes.count
    }

    func fail(_ message: String) -> PDFSyntaxError { PDFSyntaxError(offset: pos, message: message) }

    @inline(__always) static func isWhite(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0x00
    }

    @inline(__always) static func isDelimiter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    mutating func skipWhitespace() {
        while pos < bytes.count {
            let b = bytes[pos]
            if Self.isWhite(b) {
                pos += 1
            } else if b == UInt8(ascii: "%") {
                while pos < bytes.count && bytes[pos] != 0x0A && bytes[pos] != 0x0D { pos += 1 }
            } else {
                return
            }
        }
    }

    /// The extent of a bare word (keyword or number text) at the current position.
    mutating func word() -> Range<Int> {
        let start = pos
        while pos < bytes.count, !Self.isWhite(bytes[pos]), !Self.isDelimiter(bytes[pos]) { pos += 1 }
        return start..<pos
    }

    @inline(__always) func equals(_ w: Range<Int>, _ k: StaticString) -> Bool {
        guard w.count == k.utf8CodeUnitCount else { return false }
        let p = k.utf8Start
        for i in 0..<w.count where bytes[w.lowerBound + i] != p[i] { return false }
        return true
    }

    /// Reads a keyword if it is next (`obj`, `stream`, `endobj`, `xref`, `trailer`).
    mutating func keyword(_ k: StaticString) -> Bool {
        skipWhitespace()
        let save = pos
        let w = word()
        if equals(w, k) { return true }
        pos = save
        return false
    }

    /// An unsigned integer (object numbers, offsets), or nil.
    mutating func integer() -> Int? {
        skipWhitespace()
        let save = pos
        var v = 0
        var digits = 0
        var negative = false
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") || bytes[pos] == UInt8(ascii: "+") {
            negative = bytes[pos] == UInt8(ascii: "-")
            pos += 1
        }
        while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39, digits < 18 {
            v = v * 10 + Int(bytes[pos] - 0x30)
            pos += 1
            digits += 1
        }
        if digits == 0 || (pos < bytes.count && !Self.isWhite(bytes[pos]) && !Self.isDelimiter(bytes[pos])) {
            pos = save
            return nil
        }
        return negative ? -v : v
    }

    /// One object. Inside arrays and dictionaries `N G R` becomes a reference.
    mutating func object(depth: Int = 0) throws(PDFSyntaxError) -> PDFValue {
        skipWhitespace()
        guard pos < bytes.count else { throw fail("unexpected end of data, expected an object") }
        guard depth < Self.maxDepth else { throw fail("objects nested deeper than \(Self.maxDepth) levels") }
        let b = bytes[pos]
        switch b {
        case UInt8(ascii: "/"):
            return .name(name())
        case UInt8(ascii: "("):
            return .string(try literalString())
        case UInt8(ascii: "<"):
            if pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "<") {
                return .dictionary(try dictionary(depth: depth))
            }
            return .string(try hexString())
        case UInt8(ascii: "["):
            pos += 1
            var items: [PDFValue] = []
            while true {
                skipWhitespace()
                guard pos < bytes.count else { throw fail("unterminated array") }
                if bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    return .array(items)
                }
                items.append(try referenceOrObject(depth: depth + 1))
            }
        default:
            let start = pos
            let w = word()
            if w.isEmpty {
                pos += 1
                throw PDFSyntaxError(offset: start, message: "unexpected character 0x\(String(b, radix: 16))")
            }
            if let n = try number(w) { return n }
            if equals(w, "true") { return .bool(true) }
            if equals(w, "false") { return .bool(false) }
            if equals(w, "null") { return .null }
            throw PDFSyntaxError(
                offset: start, message: "unexpected word '\(String(decoding: bytes[w].prefix(20), as: UTF8.self))'")
        }
    }

    /// An object inside an array or dictionary: `N G R` is a reference there.
    mutating func referenceOrObject(depth: Int) throws(PDFSyntaxError) -> PDFValue {
        let start = pos
        let v = try object(depth: depth)
        guard case .int(let n) = v, n >= 0 else { return v }
        let afterFirst = pos
        if let g = integer(), g >= 0 {
            skipWhitespace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "R"),
                pos + 1 >= bytes.count || Self.isWhite(bytes[pos + 1]) || Self.isDelimiter(bytes[pos + 1])
            {
                pos += 1
                return .ref(ObjectRef(n, g))
            }
        }
        _ = start
        pos = afterFirst
        return v
    }

    mutating func dictionary(depth: Int) throws(PDFSyntaxError) -> PDFDictionary {
        pos += 2
        var d = PDFDictionary()
        while true {
            skipWhitespace()
            guard pos < bytes.count else { throw fail("unterminated dictionary") }
            if bytes[pos] == UInt8(ascii: ">") {
                guard pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: ">") else { throw fail("expected '>>'") }
                pos += 2
                return d
            }
            guard bytes[pos] == UInt8(ascii: "/") else { throw fail("expected a name as dictionary key") }
            let key = name()
            skipWhitespace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ">") || bytes[pos] == UInt8(ascii: "/") {
                // A key without a value (damaged); as qpdf does, treat it as null.
                if bytes[pos] == UInt8(ascii: ">") {
                    d[key] = .null
                    continue
                }
            }
            let v = try referenceOrObject(depth: depth + 1)
            // The last of duplicate keys wins, as in qpdf.
            d[key] = v
        }
    }

    mutating func name() -> String {
        pos += 1  // '/'
        let start = pos
        var hasEscape = false
        while pos < bytes.count, !Self.isWhite(bytes[pos]), !Self.isDelimiter(bytes[pos]) {
            if bytes[pos] == UInt8(ascii: "#") { hasEscape = true }
            pos += 1
        }
        let raw = bytes[start..<pos]
        if !hasEscape { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        var i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == UInt8(ascii: "#"), i + 2 < raw.endIndex, let h = Self.hex(raw[i + 1]),
                let l = Self.hex(raw[i + 2])
            {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    mutating func hexString() throws(PDFSyntaxError) -> [UInt8] {
        pos += 1
        var out: [UInt8] = []
        var high: UInt8?
        while pos < bytes.count {
            let b = bytes[pos]
            pos += 1
            if b == UInt8(ascii: ">") {
                if let h = high { out.append(h << 4) }
                return out
            }
            if Self.isWhite(b) { continue }
            guard let v = Self.hex(b) else {
                throw PDFSyntaxError(offset: pos - 1, message: "invalid character in hex string")
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        throw fail("unterminated hex string")
    }

    mutating func literalString() throws(PDFSyntaxError) -> [UInt8] {
        pos += 1
        var out: [UInt8] = []
        var depth = 1
        while pos < bytes.count {
            let b = bytes[pos]
            pos += 1
            switch b {
            case UInt8(ascii: "("):
                depth += 1
                out.append(b)
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return out }
                out.append(b)
            case 0x0D:
                // An end of line in a string is a line feed, whatever it was.
                if pos < bytes.count && bytes[pos] == 0x0A { pos += 1 }
                out.append(0x0A)
            case UInt8(ascii: "\\"):
                guard pos < bytes.count else { break }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case 0x0D:
                    if pos < bytes.count && bytes[pos] == 0x0A { pos += 1 }
                case 0x0A: break
                case 0x30...0x37:
                    var v = Int(e - 0x30)
                    var n = 1
                    while n < 3, pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x37 {
                        v = v * 8 + Int(bytes[pos] - 0x30)
                        pos += 1
                        n += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: v))
                default: out.append(e)  // \( \) \\ and unknown escapes: the character itself
                }
            default:
                out.append(b)
            }
        }
        throw fail("unterminated string")
    }

    /// A number token, nil when the word is not one. An integer that does not fit 64 bits is one
    /// bad value, not a bad object: it is read as a real (as poppler's lexer and MuPDF's do, so a
    /// `/StructParent 99999999999999999999` beside a link's `/A` leaves the link as viewers show
    /// it) and counted in `overflowedIntegers`, which the reader reports as a repair. qpdf reads the
    /// whole object as null instead, and every link in it would vanish. A real that is not finite
    /// is not read at all (it throws, and the object is handed to qpdf).
    mutating func number(_ range: Range<Int>) throws(PDFSyntaxError) -> PDFValue? {
        let w = UnsafeBufferPointer(rebasing: bytes[range])
        var i = w.startIndex
        var negative = false
        if i < w.endIndex, w[i] == UInt8(ascii: "-") || w[i] == UInt8(ascii: "+") {
            negative = w[i] == UInt8(ascii: "-")
            i += 1
            // qpdf and poppler read "--5" as -5.
            while i < w.endIndex, w[i] == UInt8(ascii: "-") { i += 1 }
        }
        var intPart = 0
        var digits = 0
        var overflow = false
        let digitStart = i
        while i < w.endIndex, w[i] >= 0x30, w[i] <= 0x39 {
            let (m, o1) = intPart.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(w[i] - 0x30))
            if o1 || o2 { overflow = true }
            intPart = s
            digits += 1
            i += 1
        }
        if i == w.endIndex {
            guard digits > 0 else { return nil }
            if overflow {
                overflowedIntegers += 1
                if firstOverflowOffset == nil { firstOverflowOffset = range.lowerBound }
                let v = Double(String(decoding: w[digitStart..<i], as: UTF8.self)) ?? .greatestFiniteMagnitude
                return .real(negative ? -v : v)
            }
            return .int(negative ? -intPart : intPart)
        }
        guard w[i] == UInt8(ascii: ".") else { return nil }
        i += 1
        var fracDigits = 0
        while i < w.endIndex, w[i] >= 0x30, w[i] <= 0x39 {
            fracDigits += 1
            i += 1
        }
        guard i == w.endIndex, digits + fracDigits > 0 else { return nil }
        // Exact decimal conversion (strtod), as qpdf and poppler read reals.
        var text = String(decoding: w.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }, as: UTF8.self)
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        guard let v = Double(text) else { return nil }
        guard v.isFinite else { throw PDFSyntaxError(offset: range.lowerBound, message: "real number out of range") }
        return .real(negative ? -v : v)
    }
}
