
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
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            // Short arrays of scalars (rects, boxes) stay on one line.
            if pretty, items.count <= 8, items.allSatisfy(isScalar) {
                out.append(UInt8(ascii: "["))
                for (n, item) in items.enumerated() {
                    if n > 0 { out.append(contentsOf: ", ".utf8) }
                    write(item, into: &out, indent: indent, pretty: false)
                }
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                write(item, into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (n, member) in sorted.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                escape(member.key, into: &out)
                if pretty { out.append(contentsOf: ": ".utf8) } else { out.append(UInt8(ascii: ":")) }
                write(member.value, into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(contentsOf: [0x20, 0x20]) }
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
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
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
