import Foundation
import PDFPipeCore

/// Answers that pass a status check without reaching the page the link meant: a `200` that is a
/// "page not found" page (`uri.soft-404`), a parked domain (`uri.parked`), a redirect to a sign-in
/// page (`uri.login-wall`). Each judged on evidence the report shows — the redirect, the page's
/// title, the answer to a path that cannot exist — never on a guess (a checker may decline).
package enum SilentPass {
    /// A path on `url`'s host that no site has: a host that answers it with a success answers
    /// anything so, and its pages must be read to be told apart. The same path for a host in
    /// every run (a hash of the host), so that results are deterministic and cacheable.
    package static func probeURL(for url: String) -> String? {
        let parts = URIReference.parse(url)
        guard let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let authority = parts.authority?.lowercased(), !authority.isEmpty
        else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in authority.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return
            "\(scheme)://\(authority)/pdfpipe-probe-\(String(repeating: "0", count: 16 - hex.count) + hex)-not-a-page"
    }

    /// What a page's first bytes say: its `<title>` and first `<h1>` (tags stripped, entities
    /// for the common characters decoded, white space collapsed, at most 200 characters), and
    /// the words of a domain parking page when they are there.
    package struct Page: Codable, Sendable, Equatable {
        package var title: String?
        package var heading: String?
        package var parking: String?

        package init(title: String? = nil, heading: String? = nil, parking: String? = nil) {
            (self.title, self.heading, self.parking) = (title, heading, parking)
        }

        package init(html: String) {
            title = SilentPass.element("title", in: html)
            heading = SilentPass.element("h1", in: html)
            let lower = html.lowercased()
            parking = SilentPass.parkingWords.first { lower.contains($0) }
        }

        /// The page says it is not the page asked for: its title or first heading.
        package var saysNotFound: String? {
            [title, heading].compactMap { $0 }.first { SilentPass.saysNotFound($0) }
        }
    }

    /// The text of the first `<name>` element of `html`, or nil.
    static func element(_ name: String, in html: String) -> String? {
        var from = html.startIndex
        var content: Substring?
        while let open = html.range(of: "<" + name, options: .caseInsensitive, range: from..<html.endIndex) {
            from = open.upperBound
            guard let next = html[open.upperBound...].first, next == ">" || next.isWhitespace else { continue }
            // No `>` or closing tag after this one is none after a later one either: stop (a page
            // of many unclosed `<title`s is read once, not once per tag).
            guard let close = html[open.upperBound...].firstIndex(of: ">"),
                let end = html.range(of: "</" + name, options: .caseInsensitive, range: close..<html.endIndex)
            else { break }
            content = html[html.index(after: close)..<end.lowerBound]
            break
        }
        guard let content else { return nil }
        var text = ""
        var inTag = false
        for c in content {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { text.append(c) }
        }
        let entities = [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&"),
        ]
        for (entity, c) in entities { text = text.replacingOccurrences(of: entity, with: c) }
        let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.isEmpty ? nil : String(collapsed.prefix(200))
    }

    /// The element of a link's page (`title`, else the first heading) that shows the host's
    /// error page: it says "not found" on the probe's page too, and is the same text as there once
    /// each request's own path is taken out ("/old-page not found" and "/pdfpipe-probe-… not
    /// found" are one template). A page whose title only mentions an error ("HTTP 404
    /// explained") is not the host's error page: nil.
    package static func sameErrorPage(_ page: Page, url: String, probe: Page, probeURL: String) -> String? {
        func template(_ text: String?, _ url: String) -> String? {
            guard var t = text?.lowercased() else { return nil }
            let path = URIReference.parse(url).path
            let pieces =
                [path, URIReference.percentDecoded(path)]
                + path.split(separator: "/").suffix(1).flatMap {
                    [String($0), URIReference.percentDecoded(String($0))]
                }
            for piece in pieces.filter({ $0.count > 3 }).sorted(by: { $0.count > $1.count }) {
                t = t.replacingOccurrences(of: piece.lowercased(), with: "")
            }
            return t.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        for (mine, theirs) in [(page.title, probe.title), (page.heading, probe.heading)] {
            guard let mine, let theirs, saysNotFound(theirs), saysNotFound(mine) else { continue }
            if template(mine, url) == template(theirs, probeURL) { return mine }
        }
        return nil
    }

    /// What error pages' titles and headings say, in lower case.
    static let notFoundPhrases = [
        "not found", "404", "page does not exist", "page doesn't exist", "page not available",
        "no longer available", "could not be found", "couldn't be found", "cannot be found", "can't be found",
        "page you requested", "page you are looking for", "page you're looking for", "nothing was found",
    ]

    static func saysNotFound(_ text: String) -> Bool {
        let lower = text.lowercased()
        return notFoundPhrases.contains { lower.contains($0) }
    }

    /// Words only parking pages carry (their own names, and the sale offer).
    static let parkingWords = [
        "this domain is for sale", "this domain may be for sale", "buy this domain", "domain is parked",
        "parked free, courtesy of", "sedoparking", "parkingcrew", "bodis.com", "is for sale!",
    ]

    /// Parking and domain-sale services' hosts (and their subdomains): a link redirected there
    /// lands on a parked domain.
    static let parkingHosts = [
        "sedoparking.com", "sedo.com", "parkingcrew.net", "bodis.com", "above.com", "parklogic.com", "dan.com",
        "afternic.com", "hugedomains.com", "undeveloped.com", "domainmarket.com", "buydomains.com", "parkingcrew.com",
        "smartname.com", "domainnamesales.com",
    ]

    /// The parking service `url` is on, or nil.
    package static func parkingService(_ url: String) -> String? {
        guard let host = URIReference.host(of: url) else { return nil }
        return parkingHosts.first { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Path segments and hosts of sign-in pages.
    static let signInSegments: Set<String> = [
        "login", "log-in", "log_in", "signin", "sign-in", "sign_in", "logon", "sso", "saml", "authenticate",
        "wp-login.php", "login.php", "login.aspx", "servicelogin", "openid-connect",
    ]
    static let signInHosts = [
        "accounts.google.com", "login.microsoftonline.com", "login.live.com", "login.salesforce.com", "okta.com",
        "auth0.com", "login.yahoo.com",
    ]

    /// Whether `url` is a sign-in page: a path segment like `login` or `sign_in`, or an identity
    /// provider's host.
    package static func isSignIn(_ url: String) -> Bool {
        let parts = URIReference.parse(url)
        if let host = URIReference.host(of: url),
            signInHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) })
        {
            return true
        }
        return parts.path.lowercased().split(separator: "/").contains { signInSegments.contains(String($0)) }
    }
}
