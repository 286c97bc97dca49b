import PDFPipeCore
import PDFPipeWeb

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

    package init(_ field: Field, from: String, to: String, why: String) {
        self.field = field
        self.from = from
        self.to = to
        self.why = why
    }

    package var json: JSONValue {
        ["field": .string(field.rawValue), "from": .string(from), "to": .string(to), "why": .string(why)]
    }

    /// The fix a finding carries (`details["fix"]`), if any.
    package init?(_ finding: Finding) {
        guard case .object(let o)? = finding.details["fix"], let f = o["field"]?.stringValue.flatMap(Field.init),
            let from = o["from"]?.stringValue, let to = o["to"]?.stringValue
        else { return nil }
        self.init(f, from: from, to: to, why: o["why"]?.stringValue ?? "")
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
