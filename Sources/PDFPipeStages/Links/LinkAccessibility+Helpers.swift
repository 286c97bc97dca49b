import Foundation
import PDFPipeCore
import PDFReader

extension LinkAccessibility {
    // MARK: - Helpers

    static func clause(_ part: Part, _ number: String, matterhorn: String? = nil) -> String {
        "ISO 14289-\(part.rawValue) \(number)" + (matterhorn.map { ", Matterhorn \($0)" } ?? "")
    }

    /// Whether a bare address names the same place as a URI: compared without case, the web
    /// schemes and a final slash (`www.example.org/` for `https://www.example.org`).
    static func sameAddress(_ text: String, _ uri: String) -> Bool {
        func plain(_ s: String) -> String {
            var t = Substring(s.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
            for scheme in ["https://", "http://"] where t.hasPrefix(scheme) { t = t.dropFirst(scheme.count) }
            while t.hasSuffix("/") { t = t.dropLast() }
            return String(t)
        }
        return isBareAddress(text) && !plain(text).isEmpty && plain(text) == plain(uri)
    }

    /// Text that is only an address: a URL with a scheme, or `www.…`, with no spaces.
    static func isBareAddress(_ s: String) -> Bool {
        guard !s.contains(where: \.isWhitespace) else { return false }
        let lower = s.lowercased()
        if lower.hasPrefix("www.") || lower.hasPrefix("mailto:") { return lower.count > 7 }
        // scheme://rest, the scheme a letter then letters, digits, '+', '.', '-'.
        guard let sep = lower.range(of: "://"), sep.upperBound < lower.endIndex else { return false }
        let scheme = lower[..<sep.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
    }

    /// What a link leads to, comparable between links: its action's type and target, or its
    /// destination, written out (references as references).
    static func target(_ annot: PDFObject) -> String? {
        if let a = annot["A"], a.isDictionary {
            return ["S", "D", "SD", "URI", "F", "N"].compactMap { k in a[k].map { "\(k)=\(describe($0.value))" } }
                .joined(separator: ";")
        }
        return annot["Dest"].map { "Dest=" + describe($0.value) }
    }

    private static func describe(_ v: PDFValue, depth: Int = 0) -> String {
        guard depth < 8 else { return "…" }
        switch v {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .int(let i): return "\(i)"
        case .real(let d): return "\(d)"
        case .string(let b): return "(" + b.map { String($0) }.joined(separator: ",") + ")"
        case .name(let n): return "/" + n
        case .array(let a): return "[" + a.map { describe($0, depth: depth + 1) }.joined(separator: " ") + "]"
        case .dictionary(let d):
            return "<<" + d.keys.sorted().map { "/\($0) " + describe(d[$0]!, depth: depth + 1) }.joined(separator: " ")
                + ">>"
        case .stream: return "stream"
        case .ref(let r): return r.description
        }
    }
}
