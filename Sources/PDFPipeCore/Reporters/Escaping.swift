import Foundation

/// Escaping for the text formats reporters write.
enum Escape {
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

    /// Markdown table cells and list text: pipes, backticks and line breaks neutralized.
    static func markdown(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "`", with: "\\`").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\n", with: " ")
    }

    /// GitHub workflow command data (`::error ...::DATA`).
    static func githubData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub workflow command property values (`file=...,title=...`).
    static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
