import PDFPipeCore
import PDFPipeWeb
import PDFReader

/// A repair a link finding proposes, when it is unambiguous (a checker may decline, never guess):
/// `fix-links` applies it to a copy of the document. In report.json it is the finding's `fix`:
/// `{"field": "uri", "from": …, "to": …, "why": …}`.
package struct LinkFix: Sendable, Equatable {
    /// What the fix rewrites: the URI of a URI action, the name of a named destination (a link's
    /// `/Dest` or a GoTo action's `/D`), the file of a GoToR or Launch action.
    package enum Field: String, Sendable {
        case uri, dest, file
    }

    package var field: Field
    /// The value as the document writes it, and the one the fix writes.
    package var from: String
    package var to: String
    /// Why this is the right value, with the evidence (the redirects, the name that exists).
    package var why: String

    /// A name that differs from its definition only in encoding is the same text both ways: the
    /// bytes the link writes now (`fromBytes`; nil: `from` as written, or a name object) and the
    /// definition's (`toBytes`, or `toName`: a name object), in report.json as hex.
    package var fromBytes: [UInt8]?
    package var toBytes: [UInt8]?
    package var toName = false

    package init(_ field: Field, from: String, to: String, why: String) {
        self.field = field
        self.from = from
        self.to = to
        self.why = why
    }

    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "field": .string(field.rawValue), "from": .string(from), "to": .string(to), "why": .string(why),
        ]
        if let fromBytes { o["fromHex"] = .string(Self.hex(fromBytes)) }
        if let toBytes { o["toHex"] = .string(Self.hex(toBytes)) }
        if toName { o["toName"] = true }
        return .object(o)
    }

    /// The fix a finding carries (`details["fix"]`), if any.
    package init?(_ finding: Finding) {
        guard let fix = finding.details["fix"] else { return nil }
        self.init(json: fix)
    }

    /// A fix as report.json writes it (a finding's `fix`, an entry of a grouped finding's `fixes`).
    package init?(json: JSONValue) {
        guard case .object(let o) = json, let f = o["field"]?.stringValue.flatMap(Field.init),
            let from = o["from"]?.stringValue, let to = o["to"]?.stringValue
        else { return nil }
        self.init(f, from: from, to: to, why: o["why"]?.stringValue ?? "")
        if let h = o["fromHex"] {
            guard let b = h.stringValue.flatMap(Self.bytes) else { return nil }
            fromBytes = b
        }
        if let h = o["toHex"] {
            guard let b = h.stringValue.flatMap(Self.bytes) else { return nil }
            toBytes = b
        }
        toName = o["toName"]?.boolValue ?? false
    }

    /// For a named destination that matches its definition only as text (`dest.name-encoding`):
    /// the link's name written as the definition writes it, which every viewer then follows.
    package static func encoding(of key: DestinationKey, definedAs defined: DestinationKey) -> LinkFix {
        var fix = LinkFix(
            .dest, from: key.display, to: defined.display,
            why:
                "written as its definition writes it (\(defined.encoding), not \(key.encoding)): poppler compares the bytes"
        )
        if case .string(let b) = key { fix.fromBytes = b }
        switch defined {
        case .string(let b): fix.toBytes = b
        case .name: fix.toName = true
        }
        return fix
    }

    static func hex(_ b: [UInt8]) -> String {
        b.map { String(format: "%02X", $0) }.joined()
    }

    static func bytes(_ hex: String) -> [UInt8]? {
        let u = Array(hex.utf8)
        guard u.count % 2 == 0, u.count <= 4096 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < u.count {
            guard let b = UInt8(String(decoding: u[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
            i += 2
        }
        return out
    }

    /// For a web link that redirects: the URL its permanent redirects lead to (301 and 308 from
    /// the start, and a redirect of any kind that only moves to https on the same host and path),
    /// its fragment kept; nil when the first redirect is temporary (the address may change back),
    /// when it leads to another site (`sameSite`), or when the link is written relative to the
    /// document's `/URI /Base` (`redirectDeclined` says which).
    package static func redirect(written: String, resolved: String, redirects: [URLFetch.Hop], finalURL: String)
        -> LinkFix?
    {
        guard written == resolved, !redirects.isEmpty else { return nil }
        var target: String?
        var statuses: [String] = []
        for (i, hop) in redirects.enumerated() {
            let location = i + 1 < redirects.count ? redirects[i + 1].url : finalURL
            let permanent = hop.status == 301 || hop.status == 308
            guard permanent || isHTTPSUpgrade(from: hop.url, to: location) else { break }
            target = location
            statuses.append(permanent ? "\(hop.status)" : "\(hop.status) to https")
        }
        guard var to = target, sameSite(written, to) else { return nil }
        let fragment = written.firstIndex(of: "#").map { String(written[$0...]) }
        if let fragment, !to.contains("#") { to += fragment }
        guard to != written else { return nil }
        return LinkFix(
            .uri, from: written, to: to,
            why: "moved permanently (\(statuses.joined(separator: ", then ")))")
    }

    /// Whether two URLs are on one site: the same host, `www.` aside. A permanent redirect to
    /// another site is a server's word that a person should weigh (a sold or parked domain
    /// redirects permanently too): not fixed.
    static func sameSite(_ a: String, _ b: String) -> Bool {
        func host(_ s: String) -> String? {
            guard var h = URIReference.host(of: s) else { return nil }
            if h.hasPrefix("www.") { h.removeFirst(4) }
            return h
        }
        guard let x = host(a), let y = host(b) else { return false }
        return x == y
    }

    /// Why a redirect has no fix, when `redirect` gives none.
    package static func redirectDeclined(written: String, resolved: String, redirects: [URLFetch.Hop]) -> String {
        if written != resolved { return "the link is written relative to the document's /URI /Base" }
        if let first = redirects.first, first.status != 301, first.status != 308 {
            return "its first redirect is temporary (\(first.status)): the address may change back"
        }
        return
            "it moves to another site; a person should judge that (a sold or parked domain redirects permanently too)"
    }

    /// Whether `to` is `from` with `https` for `http` and nothing else changed.
    static func isHTTPSUpgrade(from: String, to: String) -> Bool {
        guard from.lowercased().hasPrefix("http://"), to.lowercased().hasPrefix("https://") else { return false }
        return from.dropFirst(7) == to.dropFirst(8)
    }
}
