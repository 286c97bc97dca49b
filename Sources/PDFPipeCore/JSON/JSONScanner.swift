/// Finds where the elements of one array member of a top-level JSON object lie, without building
/// them: `pdfpipe merge` and `pdfpipe baseline` read a report.json of any size one document at a
/// time (each element is parsed on its own, when it is needed).
package enum JSONScanner {
    package struct Layout: Sendable {
        /// The whole array value, brackets included.
        package var array: Range<Int>
        /// Each element's bytes.
        package var elements: [Range<Int>]
    }

    /// The layout of the array under `key` in the object `bytes` holds; nil when the text is not an
    /// object with such an array (the caller then parses it whole, and reports its errors).
    package static func layout(of key: String, in bytes: UnsafeRawBufferPointer) -> Layout? {
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
    package static func forEachElement(of key: String, in bytes: UnsafeRawBufferPointer, _ body: (Range<Int>) -> Bool)
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
    package static func members(in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> [(
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
    package static func compact(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        compactObject(bytes).compact
    }

    /// `compact`, and — when the text is an object — where each of its members' values lies in
    /// the compact bytes (keys raw, as `members` gives them); one pass over the text, so merge
    /// reads each document once to copy it and to find what it counts. Members are nil when the
    /// text is not one whole object.
    package static func compactObject(_ bytes: UnsafeRawBufferPointer) -> (
        compact: [UInt8], members: [(key: String, value: Range<Int>)]?
    ) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            return ([], nil)
        }
        let n = bytes.count
        var members: [(key: String, value: Range<Int>)] = []
        var whole = true
        var depth = 0
        var isObject = false
        // In the top-level object: the pending member's key, and where its value starts (nil
        // while the key is being read).
        var key: String?
        var valueStart: Int?
        let out = [UInt8](unsafeUninitializedCapacity: n) { out, count in
            let o0 = out.baseAddress!
            var o = 0
            var i = 0
            while i < n {
                let b = base[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                    i += 1
                    // Indentation: 8 spaces at a time.
                    while i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020
                    {
                        i += 8
                    }
                    continue
                }
                let top = isObject && depth == 1
                if b == 0x22 {
                    guard let end = Scanner.stringEnd(base, from: i + 1, count: n) else {
                        whole = false
                        break
                    }
                    let length = end + 1 - i
                    (o0 + o).update(from: base + i, count: length)
                    if top, key == nil {
                        key = String(
                            decoding: UnsafeBufferPointer(start: base + i + 1, count: length - 2), as: UTF8.self)
                    }
                    o += length
                    i += length
                    continue
                }
                o0[o] = b
                o += 1
                i += 1
                if top, b == UInt8(ascii: ":") {
                    valueStart = o
                } else if top, b == UInt8(ascii: ",") || b == UInt8(ascii: "}") {
                    if let k = key, let v = valueStart { members.append((k, v..<o - 1)) }
                    (key, valueStart) = (nil, nil)
                    if b == UInt8(ascii: "}") { depth -= 1 }
                } else if b | 0x20 == UInt8(ascii: "{") {
                    if depth == 0, o == 1, b == UInt8(ascii: "{") { isObject = true }
                    depth += 1
                    if depth > JSONParser.maxDepth {
                        whole = false
                        break
                    }
                } else if b | 0x20 == UInt8(ascii: "}") {
                    depth -= 1
                }
            }
            count = o
        }
        return (out, isObject && whole && depth == 0 ? members : nil)
    }

    /// The string value of member `key` of the object at `start`, unescaped; nil when absent.
    package static func stringMember(_ key: String, in bytes: UnsafeRawBufferPointer, from start: Int) -> String? {
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

        @inline(__always)
        static func hasZeroByte(_ w: UInt64) -> Bool { zeroBytes(w) != 0 }

        /// Where the string whose text starts at `from` ends: the index of its closing quote,
        /// nil when the text ends first. Eight bytes a step: the first quote or backslash of a
        /// word is its lowest byte that the borrow test marks (the marks above it may be false,
        /// the lowest never is); a backslash skips the byte after it.
        static func stringEnd(_ base: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int? {
            var j = from
            while j < n {
                while j + 8 <= n {
                    let w = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                    let marks = zeroBytes(w ^ 0x2222_2222_2222_2222) | zeroBytes(w ^ 0x5C5C_5C5C_5C5C_5C5C)
                    if marks != 0 {
                        j += marks.trailingZeroBitCount / 8
                        break
                    }
                    j += 8
                }
                guard j < n else { return nil }
                switch base[j] {
                case 0x22: return j
                case 0x5C: j += 2
                default: j += 1
                }
            }
            return nil
        }

        /// The high bit of each byte of `w` that is zero (and maybe of bytes above the first).
        @inline(__always)
        static func zeroBytes(_ w: UInt64) -> UInt64 {
            (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080
        }

        /// A string's raw bytes (escapes left as written), the scanner after its closing quote.
        mutating func string() -> UnsafeRawBufferPointer.SubSequence? {
            guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return nil
            }
            let start = i
            guard let end = Self.stringEnd(base, from: i, count: bytes.count) else {
                i = bytes.count
                return nil
            }
            i = end + 1
            return bytes[start..<end]
        }

        /// Skips one value of any kind; false when the text ends first. Containers are walked
        /// over raw bytes: only quotes and brackets stop the inner loop.
        /// Skips 8 bytes at a time while none of them is a quote or a bracket (pretty JSON's
        /// indentation, numbers, punctuation): a word has a byte equal to x when (w ^ x…) has a
        /// zero byte, found by the usual borrow test. Returns where such a word starts, or the
        /// last bytes (fewer than 8) begin.
        @inline(__always)
        static func skipPlain(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int {
            var j = start
            while j + 8 <= n {
                let w = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                let folded = w | 0x2020_2020_2020_2020
                if Self.hasZeroByte(w ^ 0x2222_2222_2222_2222) || Self.hasZeroByte(folded ^ 0x7B7B_7B7B_7B7B_7B7B)
                    || Self.hasZeroByte(folded ^ 0x7D7D_7D7D_7D7D_7D7D)
                {
                    break
                }
                j += 8
            }
            return j
        }

        mutating func skipValue() -> Bool {
            guard let b = peek, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            if b == UInt8(ascii: "\"") { return string() != nil }
            let n = bytes.count
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                var depth = 0
                var j = i
                while j < n {
                    j = Self.skipPlain(base, from: j, count: n)
                    guard j < n else { break }
                    let c = base[j]
                    if c == 0x22 {
                        guard let end = Self.stringEnd(base, from: j + 1, count: n) else {
                            i = n
                            return false
                        }
                        j = end + 1
                        continue
                    }
                    let folded = c | 0x20  // `[` → `{`, `]` → `}`
                    if folded == UInt8(ascii: "{") {
                        depth += 1
                        // As deep as the parser goes, no deeper: what is copied unparsed (merge)
                        // is written again by a writer that recurses (docs/security.md).
                        guard depth <= JSONParser.maxDepth else {
                            i = n
                            return false
                        }
                    } else if folded == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 {
                            i = j + 1
                            return true
                        }
                    }
                    j += 1
                }
                i = n
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
