import PDFPipeCore

/// RFC 3986 URI references: syntax checks and resolution against a base (§5.2), without Foundation's
/// URL (which accepts and rewrites things an audit must report).
package struct URIReference: Sendable, Equatable {
    package var scheme: String?
    /// The authority without `//`, nil when there is none.
    package var authority: String?
    package var path: String
    package var query: String?
    package var fragment: String?

    package var isRelative: Bool { scheme == nil }

    /// What is wrong with a URI, or nil when it is well formed.
    package static func problem(in text: String) -> String? {
        if text.isEmpty { return "the URI is empty" }
        for (i, c) in text.unicodeScalars.enumerated() {
            if c == " " { return "space at position \(i + 1) (write %20)" }
            if c.value < 0x20 || c.value == 0x7F { return "control character at position \(i + 1)" }
            if c.value > 0x7E {
                return
                    "non-ASCII character \(ConsoleText.character(c)) at position \(i + 1) (percent-encode it as UTF-8)"
            }
            if "<>\"{}|\\^`".unicodeScalars.contains(c) {
                return "character '\(c)' at position \(i + 1) is not allowed (percent-encode it)"
            }
        }
        // Percent escapes.
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else {
                    return "'%' at position \(i + 1) is not followed by two hex digits"
                }
                i += 2
            }
            i += 1
        }
        let r = parse(text)
        if let s = r.scheme {
            let ok = s.first!.isLetter && s.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            if !ok { return "invalid scheme '\(s)'" }
            let lower = s.lowercased()
            if lower == "http" || lower == "https" {
                guard let a = r.authority else { return "an \(lower) URI needs '//' and a host" }
                if let problem = hostProblem(a) { return problem }
            }
            if lower == "mailto" && r.path.isEmpty && r.query == nil { return "the mailto URI has no address" }
        } else if let colon = text.firstIndex(of: ":"), !text[..<colon].contains(where: { "/?#".contains($0) }) {
            // "ht!tp://x": a colon before any / ? # makes the part before it a scheme, and this one is invalid.
            return "invalid scheme '\(text[..<colon])'"
        }
        return nil
    }

    /// Schemes the WHATWG URL standard treats as special (slashes after the colon are normalized).
    static let specialSchemes: Set<String> = ["http", "https", "ftp", "ws", "wss", "file"]

    /// The URI as a browser reads it (the WHATWG URL standard, which Chrome, Firefox and Safari
    /// follow, and pdf.js through them), and the first repair it needed; nil when nothing changes.
    /// Repaired: spaces around it; slashes after `https:` other than `//` (`https:///host`);
    /// and, after the host, spaces, non-ASCII characters (IRIs: `Bézier`, en dashes), characters
    /// RFC 3986 does not allow (`^`, `|`, `{`, `"`, …) and a `%` without two hex digits, all
    /// percent-encoded as UTF-8. The host itself is not repaired: a broken host stays an error; nor
    /// are URIs of other schemes than http(s), ftp, ws(s) and file (relative references are).
    /// Also, as the standard's first steps do: control characters and spaces before and after it
    /// are stripped (a C string's terminating NUL, a trailing line break: MuPDF drops the NUL too),
    /// and tabs and line breaks inside it are removed; in the path of a special scheme a backslash
    /// is a slash.
    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): the WHATWG
    /// URL standard's steps, in its order, so that each can be checked against the standard.
    package static func browserForm(_ text: String) -> (repaired: String, reason: String)? {
        var reason: String?
        let all = Array(text.unicodeScalars)
        var lo = 0
        var hi = all.count
        while lo < hi && all[lo].value <= 0x20 { lo += 1 }
        while hi > lo && all[hi - 1].value <= 0x20 { hi -= 1 }
        if lo > 0 || hi < all.count {
            let stripped = all[..<lo] + all[hi...]
            if stripped.allSatisfy({ $0 == " " }) {
                reason = "spaces around the URI"
            } else if lo == 0, all[hi...].allSatisfy({ $0.value == 0 }) {
                reason = "a NUL byte at its end (a C string's terminator)"
            } else {
                reason =
                    "\(stripped.filter { $0 != " " }.map { ConsoleText.character($0) }.joined(separator: ", ")) around the URI"
            }
        }
        var kept = String.UnicodeScalarView()
        for (i, c) in all[lo..<hi].enumerated() {
            if c == "\t" || c == "\n" || c == "\r" {
                reason = reason ?? "\(ConsoleText.character(c)) at position \(lo + i + 1)"
            } else {
                kept.append(c)
            }
        }
        let t = Substring(String(kept))
        // Other schemes (`ctan:`, `news:`, …) are not URLs a browser follows: nothing is repaired.
        // `mailto:` is (#63): its query and fragment are percent-encoded as in any URL (a space in
        // `?subject=` becomes %20, and every viewer opens it); its address is an opaque path, left alone.
        let scheme = parse(String(t)).scheme?.lowercased()
        if let scheme, !specialSchemes.contains(scheme), scheme != "mailto" { return nil }
        let opaque = scheme == "mailto"
        var head = ""
        var rest = t
        if let colon = t.firstIndex(of: ":"), let scheme = Optional(t[..<colon].lowercased()),
            specialSchemes.contains(scheme),
            t[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            let afterColon = t[t.index(after: colon)...]
            let slashes = afterColon.prefix { $0 == "/" || $0 == "\\" }
            var remainder = afterColon.dropFirst(slashes.count)
            if slashes != "//" && !(scheme == "file" && slashes.count >= 2) {
                reason =
                    reason
                    ?? (slashes.isEmpty
                        ? "no '//' after '\(t[..<colon]):'" : "'\(slashes)' after '\(t[..<colon]):' where '//' belongs")
            }
            // The authority, as written, up to the path.
            let end = remainder.firstIndex { "/?#\\".contains($0) } ?? remainder.endIndex
            head = t[..<colon] + "://" + remainder[..<end]
            remainder = remainder[end...]
            rest = remainder
        }
        var out = head
        let scalars = Array(rest.unicodeScalars)
        let special = !head.isEmpty
        var inPath = true
        for (k, c) in scalars.enumerated() {
            let at = head.unicodeScalars.count + k + 1
            let v = c.value
            var why: String?
            if c == "?" || c == "#" { inPath = false }
            if special && inPath && c == "\\" {
                reason = reason ?? "'\\' at position \(at) (a slash to browsers)"
                out += "/"
                continue
            }
            if c == " " {
                why = "space at position \(at)"
            } else if v > 0x7E {
                why = "non-ASCII character \(ConsoleText.character(c)) at position \(at)"
            } else if "<>\"{}|\\^`".unicodeScalars.contains(c) {
                why = "'\(c)' at position \(at)"
            } else if c == "%",
                !(k + 2 < scalars.count && scalars[k + 1].isASCII && scalars[k + 2].isASCII
                    && isHex(UInt8(scalars[k + 1].value)) && isHex(UInt8(scalars[k + 2].value)))
            {
                why = "'%' without two hex digits at position \(at)"
            }
            if let why {
                if opaque && inPath { return nil }  // in the address: not repaired (MailtoCheck judges it)
                reason = reason ?? why
                for b in String(c).utf8 { out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2) }
            } else {
                out.unicodeScalars.append(c)
            }
        }
        guard let reason, out != text else { return nil }
        return (out, reason)
    }

    /// The Windows path a URI names, when it names a file by an absolute Windows path: a drive
    /// letter written as a `file:` URI (`file://C:\Users\…`, `file:///C:/…`, `file:C:\…`) or bare
    /// (`C:\Users\…`, which parses as a one-letter scheme). Browsers and viewers read it as that
    /// drive's file on the reader's machine.
    package static func windowsPath(_ text: String) -> String? {
        var t = Substring(text)
        if t.lowercased().hasPrefix("file:") {
            t = t.dropFirst(5).drop { $0 == "/" || $0 == "\\" }
        }
        let c = Array(t.prefix(3))
        guard c.count == 3, c[0].isASCII, c[0].isLetter, c[1] == ":" || c[1] == "|", c[2] == "\\" || c[2] == "/"
        else { return nil }
        return String(c[0]) + ":" + t.dropFirst(2).replacingOccurrences(of: "/", with: "\\")
    }

    /// The path of a reference that is an absolute path without a scheme (`/usr/local/share/…`;
    /// not `//host/…`, a network path), percent-decoded; nil for anything else.
    package static func absolutePath(_ text: String) -> String? {
        let parts = parse(text)
        guard parts.scheme == nil, parts.authority == nil, parts.path.hasPrefix("/") else { return nil }
        return percentDecoded(parts.path)
    }

    /// `%XX` escapes decoded (as UTF-8; invalid sequences become U+FFFD).
    package static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]),
                let v = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
            {
                out.append(v)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isHex(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
    }

    static func hostProblem(_ authority: String) -> String? {
        var hostPort = Substring(authority)
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        var host = hostPort
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return "unterminated IPv6 address" }
            host = hostPort[...close]
            let rest = hostPort[hostPort.index(after: close)...]
            if !rest.isEmpty && !(rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) {
                return "invalid port '\(rest)'"
            }
            return nil
        }
        if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            let port = hostPort[hostPort.index(after: colon)...]
            if !port.allSatisfy(\.isNumber) { return "invalid port '\(port)'" }
        }
        if host.isEmpty { return "the URI has no host" }
        if !host.allSatisfy({ $0.isLetter || $0.isNumber || "-._~%!$&'()*+,;=".contains($0) }) {
            return "invalid host '\(host)'"
        }
        return nil
    }

    /// The host of `url`, lower-cased: its authority without the user information and the port
    /// (an IPv6 literal keeps its brackets); nil when it has no authority.
    package static func host(of url: String) -> String? {
        guard let authority = parse(url).authority, !authority.isEmpty else { return nil }
        let h = (authority.split(separator: "@", omittingEmptySubsequences: false).last ?? "").lowercased()
        if h.hasPrefix("["), let close = h.firstIndex(of: "]") { return String(h[...close]) }
        if let colon = h.lastIndex(of: ":") { return String(h[..<colon]) }
        return h
    }

    /// Splits a reference into its five parts (RFC 3986, appendix B). Never fails.
    package static func parse(_ text: String) -> URIReference {
        var rest = Substring(text)
        var scheme: String?
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            !rest[..<colon].contains(where: { "/?#".contains($0) })
        {
            let candidate = rest[..<colon]
            if candidate.first!.isLetter && candidate.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                scheme = String(candidate)
                rest = rest[rest.index(after: colon)...]
            }
        }
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        var authority: String?
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        return URIReference(scheme: scheme, authority: authority, path: String(rest), query: query, fragment: fragment)
    }

    package var text: String {
        var s = ""
        if let scheme { s += scheme + ":" }
        if let authority { s += "//" + authority }
        s += path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }

    /// Resolves `reference` against `base` (RFC 3986 §5.2.2).
    package static func resolve(_ reference: String, against base: String) -> String {
        let r = parse(reference)
        let b = parse(base)
        var t = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: r.fragment)
        if r.scheme != nil {
            t.scheme = r.scheme
            t.authority = r.authority
            t.path = removeDotSegments(r.path)
            t.query = r.query
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = removeDotSegments(r.path)
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else {
                    if r.path.hasPrefix("/") {
                        t.path = removeDotSegments(r.path)
                    } else {
                        // Merge (§5.2.3).
                        let merged: String
                        if b.authority != nil && b.path.isEmpty {
                            merged = "/" + r.path
                        } else if let slash = b.path.lastIndex(of: "/") {
                            merged = String(b.path[...slash]) + r.path
                        } else {
                            merged = r.path
                        }
                        t.path = removeDotSegments(merged)
                    }
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        return t.text
    }

    /// RFC 3986 §5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var out = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if let slash = out.lastIndex(of: "/") { out = String(out[..<slash]) } else { out = "" }
            } else if input == "/.." {
                input = "/"
                if let slash = out.lastIndex(of: "/") { out = String(out[..<slash]) } else { out = "" }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                var end = input.index(after: input.startIndex)
                if input.first == "/" {
                    end = input[input.index(after: input.startIndex)...].firstIndex(of: "/") ?? input.endIndex
                } else {
                    end = input.firstIndex(of: "/") ?? input.endIndex
                }
                out += input[..<end]
                input = input[end...]
            }
        }
        return out
    }
}

extension String {
    /// Left-padded with zeros to `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
