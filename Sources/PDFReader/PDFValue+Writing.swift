/// PDF syntax for values (ISO 32000-2 7.3), for the objects of an incremental update.
extension PDFValue {
    /// The value as PDF syntax; nil for a stream (an update rewrites dictionaries, never a
    /// stream's data) and for numbers that are not finite.
    package var written: [UInt8]? {
        var out: [UInt8] = []
        return write(into: &out) ? out : nil
    }

    /// Appends the value's syntax; false for what `written` refuses.
    func write(into out: inout [UInt8]) -> Bool {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i): out += Array(String(i).utf8)
        case .real(let d):
            guard d.isFinite else { return false }
            out += Array(PDFNumber.text(d).utf8)
        case .string(let bytes):
            // Hexadecimal: no escapes to get wrong, whatever the bytes.
            let hex = Array("0123456789ABCDEF".utf8)
            out.append(UInt8(ascii: "<"))
            for b in bytes {
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            }
            out.append(UInt8(ascii: ">"))
        case .name(let n): Self.writeName(n, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: " ")) }
                guard item.write(into: &out) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let d):
            out += Array("<<".utf8)
            for e in d.entries {
                Self.writeName(e.key, into: &out)
                out.append(UInt8(ascii: " "))
                guard e.value.write(into: &out) else { return false }
                out.append(UInt8(ascii: " "))
            }
            out += Array(">>".utf8)
        case .stream: return false
        case .ref(let r): out += Array("\(r.number) \(r.generation) R".utf8)
        }
        return true
    }

    /// The delimiters and `#`, which a name writes as `#xx`.
    static let delimiters: Set<UInt8> = Set("#()<>[]{}/%".utf8)

    /// A name: `/` and its bytes, each outside `!`…`~`, a delimiter or `#` written `#xx`.
    static func writeName(_ name: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "/"))
        let hex = Array("0123456789ABCDEF".utf8)
        for b in name.utf8 {
            if b < 0x21 || b > 0x7E || delimiters.contains(b) {
                out.append(UInt8(ascii: "#"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            } else {
                out.append(b)
            }
        }
    }
}
