/// Writes JSON values: keys sorted by their UTF-8 bytes, numbers in their shortest exact form,
/// so the same value always gives the same bytes. Output is built as bytes (reports with tens of
/// thousands of links are written in one pass).
public enum JSONWriter {
    /// Pretty-printed with two-space indentation and a final newline.
    public static func pretty(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, into: &out, indent: 0, pretty: true)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// Pretty-printed as if nested `indent` levels deep (no final newline).
    public static func pretty(_ value: JSONValue, indent: Int) -> String {
        var out: [UInt8] = []
        write(value, into: &out, indent: indent, pretty: true)
        return String(decoding: out, as: UTF8.self)
    }

    /// On one line, without spaces.
    public static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out, indent: 0, pretty: false)
        return String(decoding: out, as: UTF8.self)
    }

    private static func isScalar(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: false
        default: true
        }
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], indent: Int, pretty: Bool) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: format(d).utf8)
        case .string(let s): escape(s, into: &out)
        case .array(let items): writeArray(items, into: &out, indent: indent, pretty: pretty)
        case .object(let members): writeObject(members, into: &out, indent: indent, pretty: pretty)
        }
    }

    private static func writeArray(_ items: [JSONValue], into out: inout [UInt8], indent: Int, pretty: Bool) {
        out.append(UInt8(ascii: "["))
        defer { out.append(UInt8(ascii: "]")) }
        guard !items.isEmpty else { return }
        // Short arrays of scalars (rects, boxes) stay on one line.
        if pretty, items.count <= 8, items.allSatisfy(isScalar) {
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(contentsOf: ", ".utf8) }
                write(item, into: &out, indent: indent, pretty: false)
            }
            return
        }
        for (n, item) in items.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { newline(&out, indent + 1) }
            write(item, into: &out, indent: indent + 1, pretty: pretty)
        }
        if pretty { newline(&out, indent) }
    }

    private static func writeObject(
        _ members: [String: JSONValue], into out: inout [UInt8], indent: Int, pretty: Bool
    ) {
        out.append(UInt8(ascii: "{"))
        defer { out.append(UInt8(ascii: "}")) }
        guard !members.isEmpty else { return }
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (n, member) in sorted.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { newline(&out, indent + 1) }
            escape(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(0x20) }
            write(member.value, into: &out, indent: indent + 1, pretty: pretty)
        }
        if pretty { newline(&out, indent) }
    }

    /// The pretty form of JSON text that `compact` wrote, without building the value: the bytes
    /// `pretty(value, indent:)` gives (keys are already sorted in compact text, and numbers and
    /// strings are written the same way in both forms). How report.json is written from the
    /// results file: the documents' entries are compact lines there. Nil when the text is not
    /// what `compact` writes (whitespace, a malformed value): the caller parses it instead.
    public static func reindent(_ text: UnsafeRawBufferPointer, indent: Int) -> [UInt8]? {
        var out = ByteSink(capacity: text.count + text.count / 2)
        var i = 0
        guard reindentValue(text, &i, indent, &out), i == text.count else { return nil }
        return out.bytes
    }

    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): a byte-level
    /// state machine over one JSON value whose cases share the cursor and the output; split, each
    /// piece would take and return both, and the hot loop of report writing would call through them.
    private static func reindentValue(_ t: UnsafeRawBufferPointer, _ i: inout Int, _ indent: Int, _ out: inout ByteSink)
        -> Bool
    {
        guard i < t.count else { return false }
        switch t[i] {
        case UInt8(ascii: "\""):
            let start = i
            guard skipString(t, &i) else { return false }
            out.append(t, start..<i)
            return true
        case UInt8(ascii: "{"):
            i += 1
            if i < t.count, t[i] == UInt8(ascii: "}") {
                i += 1
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return true
            }
            out.append(UInt8(ascii: "{"))
            while true {
                out.newline(indent + 1)
                let start = i
                guard i < t.count, t[i] == UInt8(ascii: "\""), skipString(t, &i) else { return false }
                out.append(t, start..<i)
                guard i < t.count, t[i] == UInt8(ascii: ":") else { return false }
                i += 1
                out.append(UInt8(ascii: ":"))
                out.append(0x20)
                guard reindentValue(t, &i, indent + 1, &out), i < t.count else { return false }
                if t[i] == UInt8(ascii: ",") {
                    i += 1
                    out.append(UInt8(ascii: ","))
                    continue
                }
                guard t[i] == UInt8(ascii: "}") else { return false }
                i += 1
                out.newline(indent)
                out.append(UInt8(ascii: "}"))
                return true
            }
        case UInt8(ascii: "["):
            i += 1
            if i < t.count, t[i] == UInt8(ascii: "]") {
                i += 1
                out.append(UInt8(ascii: "["))
                out.append(UInt8(ascii: "]"))
                return true
            }
            // Short arrays of scalars (at most 8) stay on one line, as `write` does.
            var j = i
            var items = 1
            var scalars = true
            while j < t.count {
                let c = t[j]
                if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                    scalars = false
                    break
                }
                if c == UInt8(ascii: "\"") {
                    guard skipString(t, &j) else { return false }
                    continue
                }
                if c == UInt8(ascii: ",") {
                    items += 1
                    if items > 8 {
                        scalars = false
                        break
                    }
                }
                if c == UInt8(ascii: "]") { break }
                j += 1
            }
            out.append(UInt8(ascii: "["))
            while true {
                if !scalars { out.newline(indent + 1) }
                guard reindentValue(t, &i, indent + 1, &out), i < t.count else { return false }
                if t[i] == UInt8(ascii: ",") {
                    i += 1
                    out.append(UInt8(ascii: ","))
                    if scalars { out.append(0x20) }
                    continue
                }
                guard t[i] == UInt8(ascii: "]") else { return false }
                i += 1
                if !scalars { out.newline(indent) }
                out.append(UInt8(ascii: "]"))
                return true
            }
        default:
            // A number, true, false or null: up to the next delimiter.
            let start = i
            while i < t.count, t[i] != UInt8(ascii: ","), t[i] != UInt8(ascii: "]"), t[i] != UInt8(ascii: "}") {
                if t[i] <= 0x20 { return false }
                i += 1
            }
            guard i > start else { return false }
            out.append(t, start..<i)
            return true
        }
    }

    /// Moves past a string starting at `i` (its opening quote).
    private static func skipString(_ t: UnsafeRawBufferPointer, _ i: inout Int) -> Bool {
        guard let base = t.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let end = JSONScanner.Scanner.stringEnd(base, from: i + 1, count: t.count)
        else { return false }
        i = end + 1
        return true
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(0x0A)
        for _ in 0..<2 * indent { out.append(0x20) }
    }

    /// Integral values print without a fraction; others in Swift's shortest round-trip form.
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    public static func escape(_ s: String, into out: inout String) {
        var bytes: [UInt8] = []
        escape(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let bytes = Array(s.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            case 0xE2
            where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                // U+2028 and U+2029 are valid JSON but end lines in JavaScript: escape them.
                out.append(contentsOf: Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                i += 2
            default: out.append(b)
            }
            i += 1
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The output of `reindent`: bytes written through a pointer, grown by doubling — report writing's
/// hot loop appends a few bytes at a time, and an array's append checks its storage each time.
/// Not copyable: it owns its buffer.
struct ByteSink: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        var c = capacity * 2
        while c < count + n { c *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        grown.update(from: base, count: count)
        base.deallocate()
        (base, capacity) = (grown, c)
    }

    @inline(__always)
    mutating func append(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    /// `text`'s bytes in `range`.
    @inline(__always)
    mutating func append(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) {
        reserve(range.count)
        (base + count).update(
            from: text.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count)
        count += range.count
    }

    /// A line break and `indent` levels of two spaces.
    @inline(__always)
    mutating func newline(_ indent: Int) {
        reserve(1 + 2 * indent)
        base[count] = 0x0A
        (base + count + 1).initialize(repeating: 0x20, count: 2 * indent)
        count += 1 + 2 * indent
    }
}
