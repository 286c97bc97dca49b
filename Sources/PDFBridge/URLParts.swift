import CCurl
import Foundation
import SystemIO

/// Small helpers on URL text (no Foundation URL: it rewrites what it parses).
package enum URLParts {
    /// The lower-cased host of an absolute URL (without brackets for IPv6), nil when there is none.
    package static func host(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        var rest = url[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            return String(rest[rest.index(after: rest.startIndex)..<close]).lowercased()
        }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.isEmpty ? nil : rest.lowercased()
    }

    /// The lower-cased scheme of an absolute URL (`https`), nil when there is none.
    package static func scheme(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let s = url[..<schemeEnd.lowerBound]
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        return s.lowercased()
    }

    /// The port an absolute URL connects to: the one written, else the scheme's (443 for https, 80
    /// for http); nil when it cannot be told.
    package static func port(of url: String) -> Int? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        var rest = url[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { rest = rest[rest.index(after: close)...] }
        if let colon = rest.lastIndex(of: ":") {
            let digits = rest[rest.index(after: colon)...]
            if digits.isEmpty { return defaultPort(scheme(of: url)) }
            guard digits.allSatisfy(\.isASCII), let p = Int(digits), (1...65535).contains(p) else { return nil }
            return p
        }
        return defaultPort(scheme(of: url))
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme {
        case "https"?: return 443
        case "http"?: return 80
        default: return nil
        }
    }
}
