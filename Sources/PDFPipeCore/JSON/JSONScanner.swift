/// Finds where the elements of one array member of a top-level JSON object lie, without building
/// them: `pdfpipe merge` and `pdfpipe baseline` read a report.json of any size one document at a
/// time (each element is parsed on its own, when it is needed).
public enum JSONScanner {
    public struct Layout: Sendable {
        /// The whole array value, brackets included.
        public var array: Range<Int>
        /// Each element's bytes.
        public var elements: [Range<Int>]
    }

    /// The layout of the array under `key` in the object `bytes` holds; nil when the text is not an
    /// object with such an array (the caller then parses it whole, and reports its errors).
    public static func layout(of key: String, in bytes: UnsafeRawBufferPointer) -> Layout? {
        var elements: [Range<Int>] = []
        guard
            let array = forEachElement(
                of: key, in: bytes,
                {
                    elements.append($0)
                    return true
                })
        else { return nil }
        return Layout(array: array, elements: elements)
    }

    /// Calls `body` with each element's bytes of the array under `key`, in order, as the scan
    /// reaches it (`body` returns false to stop); returns where the whole array lies, or nil when
    /// the text is not an object with such an array, or `body` stopped.
    @discardableResult
    public static func forEachElement(of key: String, in bytes: UnsafeRawBufferPointer, _ body: (Range<Int>) -> Bool)
        -> Range<Int>?
    {
        var s = Scanner(bytes: bytes)
        s.skipSpace()
        guard s.take(UInt8(ascii: "{")) else { return nil }
        let wanted = Array(key.utf8)
        while true {
            s.skipSpace()
            if s.take(UInt8(ascii: "}")) { return nil }
            guard let name = s.string() else { return nil }
            s.skipSpace()
            guard s.take(UInt8(ascii: ":")) else { return nil }
            s.skipSpace()
            if name.elementsEqual(wanted), s.peek == UInt8(ascii: "[") {
                let start = s.i
                s.i += 1
                s.skipSpace()
                if !s.take(UInt8(ascii: "]")) {
                    while true {
                        s.skipSpace()
                        let e = s.i
                        guard s.skipValue(), body(e..<s.i) else { return nil }
                        s.skipSpace()
                        if s.take(UInt8(ascii: "]")) { break }
                        guard s.take(UInt8(ascii: ",")) else { return nil }
                    }
                }
                return start..<s.i
            }
            guard s.skipValue() else { return nil }
            s.skipSpace()
            if s.take(UInt8(ascii: ",")) { continue }
            return nil
        }
    }

    /// The members of the object that `bytes` holds (from `start`): each key (raw, escapes as
    /// written) with where its value lies; nil when it is not an object.
    public static func members(in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> [(
        key: String, value: Range<Int>
    )]? {
        var s = Scanner(bytes: bytes)
        s.i = start
        s.skipSpace()
        guard s.take(UInt8(ascii: "{")) else { return nil }
        var out: [(key: String, value: Range<Int>)] = []
        s.skipSpace()
        if s.take(UInt8(ascii: "}")) { return out }
        while true {
            s.skipSpace()
            guard let name = s.string() else { return nil }
            s.skipSpace()
            guard s.take(UInt8(ascii: ":")) else { return nil }
            s.skipSpace()
            let v = s.i
            guard s.skipValue() else { return nil }
            out.append((String(decoding: name, as: UTF8.self), v..<s.i))
            s.skipSpace()
            if s.take(UInt8(ascii: "}")) { return out }
            guard s.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// The JSON text of `bytes` without the whitespace between tokens: pdfpipe's pretty JSON
    /// written compact, byte for byte what `JSONWriter.compact` writes for the same value (both
    /// escape strings alike, and only whitespace differs). Merge copies documents so, unparsed.
    public static func compact(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for b in bytes {
            if inString {
                out.append(b)
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case 0x20, 0x0A, 0x0D, 0x09: continue
            case UInt8(ascii: "\""): inString = true
            default: break
            }
            out.append(b)
        }
        return out
    }

    /// The string value of member `key` of the object at `start`, unescaped; nil when absent.
    public static func stringMember(_ key: String, in bytes: UnsafeRawBufferPointer, from start: Int) -> String? {
        guard let m = members(in: bytes, from: start)?.first(where: { $0.key == key }) else { return nil }
        var parser = JSONParser(bytes: Array(bytes[m.value]), tracksLocations: false)
        return (try? parser.parseDocument())?.stringValue
    }

    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ b: UInt8) -> Bool {
            guard peek == b else { return false }
            i += 1
            return true
        }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
        }

        /// A string's raw bytes (escapes left as written), the scanner after its closing quote.
        mutating func string() -> UnsafeRawBufferPointer.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\\"): i += 2
                case UInt8(ascii: "\""):
                    defer { i += 1 }
                    return bytes[start..<i]
                default: i += 1
                }
            }
            return nil
        }

        /// Skips one value of any kind; false when the text ends first.
        mutating func skipValue() -> Bool {
            guard let b = peek else { return false }
            if b == UInt8(ascii: "\"") { return string() != nil }
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            }
            // A number, true, false or null.
            let start = i
            while let c = peek, c != UInt8(ascii: ","), c != UInt8(ascii: "}"), c != UInt8(ascii: "]"), c != 0x20,
                c != 0x0A, c != 0x0D, c != 0x09
            { i += 1 }
            return i > start
        }
    }
}
