/// Writes JSON values: keys sorted by their UTF-8 bytes, numbers in their shortest exact form,
/// so the same value always gives the same bytes.
public enum JSONWriter {
    /// Pretty-printed with two-space indentation and a final newline.
    public static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: 0, pretty: true)
        out += "\n"
        return out
    }

    /// On one line, without spaces.
    public static func compact(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: 0, pretty: false)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String, indent: Int, pretty: Bool) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += format(d)
        case .string(let s): escape(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            // Short arrays of scalars (rects, boxes) stay on one line.
            if pretty, items.count <= 8, items.allSatisfy({ if case .array = $0 { false } else if case .object = $0 { false } else { true } }) {
                out += "[" + items.map { compact($0) }.joined(separator: ", ") + "]"
                return
            }
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                write(item, into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (n, key) in keys.enumerated() {
                if n > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                escape(key, into: &out)
                out += pretty ? ": " : ":"
                write(members[key]!, into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Integral values print without a fraction; others in Swift's shortest round-trip form.
    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    public static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
