import Foundation
import PDFReader

/// Writes PDF syntax directly: numbered objects, a classic xref table and a trailer.
/// Every byte is decided here, so the samples are the same on every run.
final class PDFWriter {
    private var bodies: [Int: String] = [:]
    private var nextNumber = 1

    /// Reserves an object number; its body is set later with `set`.
    func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    func set(_ number: Int, _ body: String) { bodies[number] = body }

    /// Adds an object and returns a reference to it (`12 0 R`).
    @discardableResult
    func add(_ body: String) -> String {
        let n = reserve()
        set(n, body)
        return ref(n)
    }

    func addStream(_ data: String, dictionary: String = "") -> String {
        add("<< \(dictionary) /Length \(data.utf8.count) >>\nstream\n\(data)\nendstream")
    }

    func ref(_ n: Int) -> String { "\(n) 0 R" }

    enum Damage {
        case none
        /// Every xref offset and startxref wrong (qpdf must rebuild the table).
        case brokenXref
    }

    /// The whole file.
    func bytes(root: String, id: String, version: String = "1.7", info: String? = nil, damage: Damage = .none)
        -> [UInt8]
    {
        var out = Array("%PDF-\(version)\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        // The binary comment line must be raw high bytes, not UTF-8.
        out = Array("%PDF-\(version)\n".utf8) + [0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var offsets: [Int] = []
        let count = nextNumber - 1
        for n in 1...count {
            offsets.append(out.count)
            out += Array("\(n) 0 obj\n\(bodies[n] ?? "null")\nendobj\n".utf8)
        }
        let xrefOffset = out.count
        let shift = damage == .brokenXref ? 17 : 0
        var xref = "xref\n0 \(count + 1)\n0000000000 65535 f \n"
        for o in offsets { xref += String(format: "%010d 00000 n \n", o + shift) }
        let hex = Array(id.utf8).prefix(16).map { String(format: "%02x", $0) }.joined()
        let idHex = hex + String(repeating: "0", count: 32 - hex.count)
        var trailer = "trailer\n<< /Size \(count + 1) /Root \(root) /ID [<\(idHex)> <\(idHex)>]"
        if let info { trailer += " /Info \(info)" }
        trailer += " >>\nstartxref\n\(xrefOffset + shift * 3)\n%%EOF\n"
        out += Array((xref + trailer).utf8)
        return out
    }
}

/// PDF string syntax.
enum PDFString {
    /// A literal string `( … )` for ASCII text.
    static func literal(_ s: String) -> String {
        var out = "("
        for c in s.unicodeScalars {
            switch c {
            case "(", ")", "\\": out += "\\\(c)"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + ")"
    }

    /// A literal string for text shown with `/F2` (WinAnsi, with ﬁ and ﬂ at 0xAE and 0xAF):
    /// Latin-1 characters and the ligatures as octal escapes, so the file stays ASCII.
    static func winAnsi(_ s: String) -> String {
        var out = "("
        for c in s.unicodeScalars {
            switch c.value {
            case 0x28, 0x29, 0x5C: out += "\\\(c)"
            case 0x20..<0x7F: out.unicodeScalars.append(c)
            case 0xA0...0xFF: out += "\\" + String(c.value, radix: 8)
            case 0xFB01: out += "\\256"
            case 0xFB02: out += "\\257"
            default: out += "?"
            }
        }
        return out + ")"
    }

    /// A hex string of raw bytes.
    static func hex(_ bytes: [UInt8]) -> String { "<" + bytes.map { String(format: "%02X", $0) }.joined() + ">" }

    /// A text string in UTF-16BE with a byte order mark.
    static func utf16(_ s: String) -> String {
        var bytes: [UInt8] = [0xFE, 0xFF]
        for u in s.utf16 { bytes += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        return hex(bytes)
    }
}
