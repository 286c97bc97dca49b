import Foundation

/// Escaping for the text formats reporters write.
package enum Escape {
    /// A relative or absolute file path as a URI path: every byte but the unreserved characters,
    /// `/` and the sub-delimiters percent-encoded as UTF-8 (`C# guide?.pdf` → `C%23%20guide%3F.pdf`:
    /// unencoded, a browser reads `#` as the start of a fragment and `?` of a query).
    static func uriPath(_ path: String) -> String {
        var out = ""
        for c in path.unicodeScalars {
            if (c.value >= 0x30 && c.value <= 0x39) || (c.value >= 0x41 && c.value <= 0x5A)
                || (c.value >= 0x61 && c.value <= 0x7A)
                || "-._~/!$&'()*+,;=".unicodeScalars.contains(c)
            {
                out.unicodeScalars.append(c)
            } else {
                for b in String(c).utf8 { out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }
            }
        }
        return out
    }

    /// XML text and attribute values (characters XML 1.0 forbids are dropped).
    static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\r", "\t": out.unicodeScalars.append(c)
            default:
                if c.value < 0x20 || (0xFFFE...0xFFFF).contains(c.value) { continue }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Markdown table cells and list text: document text made safe (`ConsoleText.escape`: a lone CR,
    /// which CommonMark takes for a line break, and every other control or bidirectional override
    /// written as an escape), then pipes, backticks, HTML and the link, image and emphasis markers
    /// neutralized, so a crafted name cannot become a heading, a link, an image or emphasis.
    package static func markdown(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in ConsoleText.escape(s).unicodeScalars {
            switch c {
            // `#` and `!` need no escape: nothing here starts a line (line breaks are escapes), and
            // without `[` there is no image.
            case "\\", "|", "`", "[", "]", "*", "_", "~": out += "\\" + String(c)
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// GitHub workflow command data (`::error ...::DATA`): document text made safe first (terminal
    /// sequences and bidirectional overrides reach the job log), then the command's own escapes.
    package static func githubData(_ s: String) -> String {
        ConsoleText.escape(s).replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub workflow command property values (`file=...,title=...`).
    package static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

/// Text from documents and file names on a console line: nothing in a PDF or a file name may steer
/// the terminal or the CI log that shows it.
package enum ConsoleText {
    /// Control characters (C0, DEL, C1: CR and LF would start a new line — `::warning file=…::` in
    /// a URI becomes a GitHub workflow command; ESC sequences reach terminals) and the bidirectional
    /// overrides that reorder what a reader sees are written as escapes (`\n`, `\x1b`, `\u{202e}`).
    /// A line that would begin with `::` (a file named so) gets its first colon escaped, as GitHub
    /// reads workflow commands only at the start of a line.
    package static func escape(_ line: String) -> String {
        var out = ""
        out.reserveCapacity(line.utf8.count)
        for c in line.unicodeScalars {
            switch c.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F: out += "\\x" + (c.value < 0x10 ? "0" : "") + String(c.value, radix: 16)
            case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
                out += "\\u{\(String(c.value, radix: 16))}"
            default: out.unicodeScalars.append(c)
            }
        }
        let trimmed = out.drop { $0 == " " }
        if trimmed.hasPrefix("::") {
            out = String(out[..<trimmed.startIndex]) + "\\x3a" + trimmed.dropFirst()
        }
        return out
    }

    /// One character named in a message: `'é'` for one a reader can see, `U+2029` for one that is
    /// invisible or looks like a space (controls, line and paragraph separators, bidirectional
    /// marks, zero-width and non-breaking spaces, the byte-order mark), which quoted would read `' '`.
    package static func character(_ c: Unicode.Scalar) -> String {
        let v = c.value
        let invisible: Bool
        switch v {
        case 0x00...0x20, 0x7F...0xA0, 0xAD, 0x1680, 0x180E, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000,
            0xFEFF:
            invisible = true
        default:
            invisible = c.properties.generalCategory == .format || c.properties.generalCategory == .unassigned
        }
        if invisible {
            let hex = String(v, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(c)'"
    }
}
