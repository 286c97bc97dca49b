import Foundation
import SystemIO

/// Every value the run knows to be secret, and the one function that takes them out of what is
/// written (docs/security.md, "Secrets"). Scrubbing works on the final bytes: the console's
/// lines, every file written through `AtomicFile` (reports, caches, history, shared entries), the
/// results stream and the files GitHub gives a step — whatever field a secret sits in (a URL's
/// query that a redirect echoed, a redirect chain, a message).
///
/// A secret is also found as the spellings it takes on the way: percent-encoded (either case of
/// hex), `+` for spaces, JSON-escaped and HTML-escaped. Values shorter than `minimumLength` are not
/// scrubbed (they would blank ordinary words); docs/security.md says so.
package enum Secrets {
    /// Variables whose values are secret wherever they are set: the action's token, GitHub's own,
    /// the runner's, object-store credentials and the state key.
    package static let knownVariables = [
        "PDFPIPE_GITHUB_TOKEN", "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
        "ACTIONS_CACHE_URL", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "PDFPIPE_STATE_KEY",
    ]
    /// The shortest value scrubbed.
    package static let minimumLength = 6

    private static let registry = Locked(Registry())

    private struct Registry {
        var loaded = false
        var values: Set<String> = []
        /// Every spelling of every value, longest first, as bytes.
        var patterns: [[UInt8]] = []
        /// The bytes a match can start with, as a table (`scrub` runs over every byte written):
        /// the patterns' first bytes, `%` (a percent-encoded first byte) and `+` (a space).
        var firsts = [Bool](repeating: false, count: 256)
        var longest = 0
    }

    /// Adds a secret value (and its spellings); short or empty values are ignored.
    package static func add(_ value: String) {
        guard value.utf8.count >= minimumLength else { return }
        registry.withLock { r in
            loadEnvironment(&r)
            guard r.values.insert(value).inserted else { return }
            rebuild(&r)
        }
    }

    /// The length a streaming writer holds back (a secret may straddle two pieces): the longest
    /// spelling, every byte percent-encoded, less one; 0 without secrets.
    package static var holdBack: Int {
        registry.withLock { r in
            loadEnvironment(&r)
            return max(0, 3 * r.longest - 1)
        }
    }

    private static func loadEnvironment(_ r: inout Registry) {
        guard !r.loaded else { return }
        r.loaded = true
        let env = Environment.all
        for name in knownVariables {
            if let v = env[name], v.utf8.count >= minimumLength { r.values.insert(v) }
        }
        for name in SecretGrants.parse(env[SecretGrants.variable] ?? "").grants.map(\.variable) {
            if let v = env[name], v.utf8.count >= minimumLength { r.values.insert(v) }
        }
        rebuild(&r)
    }

    private static func rebuild(_ r: inout Registry) {
        var spellings = Set<[UInt8]>()
        for v in r.values {
            for s in spellingsOf(v) where s.count >= minimumLength { spellings.insert(Array(s.utf8)) }
        }
        r.patterns = spellings.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        r.longest = r.patterns.first?.count ?? 0
        r.firsts = [Bool](repeating: false, count: 256)
        for p in r.patterns { r.firsts[Int(p[0])] = true }
        r.firsts[0x25] = true
        r.firsts[0x2B] = true
    }

    /// The ways a value is written on its way into a file: as it is, JSON- and HTML-escaped. Any
    /// byte of any of them may also be percent-encoded (either case of hex, `+` for a space):
    /// `matchEnd` allows that byte by byte, so `%2D` for `-` is found as well as `%2F` for `/`.
    static func spellingsOf(_ v: String) -> [String] {
        var json = ""
        JSONWriter.escape(v, into: &json)
        let inner = String(json.dropFirst().dropLast())
        return [
            v, inner, inner.replacingOccurrences(of: "/", with: "\\/"),
            v.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#39;"),
        ]
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Where `p` ends when it is found at `i` of `b`, each byte as it is or percent-encoded.
    private static func matchEnd(_ p: [UInt8], in b: [UInt8], at i: Int) -> Int? {
        var j = i
        for c in p {
            guard j < b.count else { return nil }
            if b[j] == c {
                j += 1
            } else if b[j] == 0x25, j + 2 < b.count, let h = hex(b[j + 1]), let l = hex(b[j + 2]), h << 4 | l == c {
                j += 3
            } else if c == 0x20 && b[j] == 0x2B {
                j += 1
            } else {
                return nil
            }
        }
        return j
    }

    /// The patterns and their first-byte table, the environment's secrets read on first use.
    private static func current() -> (patterns: [[UInt8]], firsts: [Bool]) {
        registry.withLock { r in
            loadEnvironment(&r)
            return (r.patterns, r.firsts)
        }
    }

    /// The text with every secret replaced by `***`.
    package static func scrub(_ text: String) -> String {
        let (patterns, firsts) = current()
        guard !patterns.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let out = scrub(bytes, patterns, firsts)
        return out.count == bytes.count && out == bytes ? text : String(decoding: out, as: UTF8.self)
    }

    /// The bytes with every secret replaced by `***`.
    package static func scrub(_ bytes: [UInt8]) -> [UInt8] {
        let (patterns, firsts) = current()
        return scrub(bytes, patterns, firsts)
    }

    private static func scrub(_ bytes: [UInt8], _ patterns: [[UInt8]], _ firsts: [Bool]) -> [UInt8] {
        guard !patterns.isEmpty, !bytes.isEmpty else { return bytes }
        var out: [UInt8] = []
        var i = 0
        var copied = 0
        let n = bytes.count
        outer: while i < n {
            if firsts[Int(bytes[i])] {
                for p in patterns {
                    if let end = matchEnd(p, in: bytes, at: i) {
                        if out.isEmpty { out.reserveCapacity(n) }
                        out.append(contentsOf: bytes[copied..<i])
                        out.append(contentsOf: [0x2A, 0x2A, 0x2A])
                        i = end
                        copied = i
                        continue outer
                    }
                }
            }
            i += 1
        }
        if copied == 0 { return bytes }
        out.append(contentsOf: bytes[copied..<n])
        return out
    }
}

/// The variables a pipeline file may name in `${VAR}`, and the hosts each may go to: handed over
/// by their owner (the person or workflow that runs pdfpipe) in `PDFPIPE_SECRETS`, never by the
/// pipeline file, which a pull request can edit. `DOCS_TOKEN=docs.example.com,*.example.org;
/// OTHER=api.example.net:8443`: a variable, `=`, its hosts (a glob, or a host with a port: 443
/// when none is given); entries split by `;`. The action's token variables are never handed over.
package struct SecretGrants: Sendable, Equatable {
    package static let variable = "PDFPIPE_SECRETS"
    /// Names no grant can hand over: the token of the action and GitHub's, the runner's.
    package static func isForbidden(_ name: String) -> Bool {
        name == "PDFPIPE_GITHUB_TOKEN" || name == "GITHUB_TOKEN" || name.hasPrefix("ACTIONS_")
            || name == "PDFPIPE_STATE_KEY"
    }

    package struct Grant: Sendable, Equatable {
        package var variable: String
        /// Lower-cased host names or globs, each with its port (443 unless written).
        package var hosts: [HostPort]
    }

    package struct HostPort: Sendable, Equatable {
        package var host: String
        package var port: Int
        package init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    package var grants: [Grant] = []
    /// What could not be read, for a message.
    package var problems: [String] = []

    package static func parse(_ text: String) -> SecretGrants {
        var out = SecretGrants()
        for entry in text.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let eq = entry.firstIndex(of: "=") else {
                out.problems.append("'\(entry)' has no '=HOSTS'")
                continue
            }
            let name = entry[..<eq].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                out.problems.append("'\(name)' is not a variable name")
                continue
            }
            if isForbidden(name) {
                out.problems.append("'\(name)' is never handed to a pipeline file")
                continue
            }
            var hosts: [HostPort] = []
            for h in entry[entry.index(after: eq)...].split(separator: ",") {
                let t = h.trimmingCharacters(in: .whitespaces).lowercased()
                guard !t.isEmpty else { continue }
                if let colon = t.lastIndex(of: ":"), let port = Int(t[t.index(after: colon)...]),
                    (1...65535).contains(port)
                {
                    hosts.append(HostPort(host: String(t[..<colon]), port: port))
                } else {
                    hosts.append(HostPort(host: t, port: 443))
                }
            }
            if hosts.isEmpty || hosts.contains(where: { $0.host.isEmpty || $0.host == "*" }) {
                out.problems.append("'\(name)' needs the hosts it may go to (not '*')")
                continue
            }
            out.grants.append(Grant(variable: name, hosts: hosts))
        }
        return out
    }

    /// The process environment's grants.
    package static var current: SecretGrants {
        parse(Environment[variable] ?? "")
    }

    package func grant(for name: String) -> Grant? { grants.first { $0.variable == name } }
}
