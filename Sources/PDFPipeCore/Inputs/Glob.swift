import Foundation
import SystemIO

/// Shell-style globs: `*`, `?` and `[...]` inside one name; `**` for any number of folders.
package enum Glob {
    package static func hasWildcard(_ s: String) -> Bool { s.contains { "*?[".contains($0) } }

    /// Splits an absolute pattern into the folder before the first wildcard and the rest.
    static func split(_ pattern: String) -> (base: String, rest: String) {
        let parts = pattern.split(separator: "/")
        let n = parts.firstIndex { hasWildcard(String($0)) } ?? parts.count
        return ("/" + parts[..<n].joined(separator: "/"), parts[n...].joined(separator: "/"))
    }

    /// Whether a relative path matches a relative pattern.
    package static func match(pattern: String, path: String) -> Bool {
        matchParts(
            pattern.split(separator: "/").map(String.init)[...], path.split(separator: "/").map(String.init)[...])
    }

    private static func matchParts(_ p: ArraySlice<String>, _ s: ArraySlice<String>) -> Bool {
        guard let first = p.first else { return s.isEmpty }
        if first == "**" {
            // Zero or more folders.
            var rest = s
            while true {
                if matchParts(p.dropFirst(), rest) { return true }
                if rest.isEmpty { return false }
                rest = rest.dropFirst()
            }
        }
        guard let name = s.first, fnmatch(first, name, FNM_PERIOD) == 0 else { return false }
        return matchParts(p.dropFirst(), s.dropFirst())
    }
}
