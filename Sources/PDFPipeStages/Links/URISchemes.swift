import Foundation
import PDFPipeCore
import PDFPipeWeb

/// What a URI's scheme lets a reader do. A viewer hands a URI link to the browser or the system,
/// which opens it only if some program handles the scheme: `htp://`, `email:` or `doi:` open
/// nothing anywhere (pdf.js links only http, https, ftp, mailto and tel; PDFium, MuPDF and poppler
/// viewers pass the rest to the desktop, which has no handler for them). Every row of
/// docs/uri-schemes.md is a test.
package enum URISchemes {
    /// What a scheme is to readers.
    package enum Verdict: Sendable, Equatable {
        /// A scheme systems or common programs handle (IANA's permanent schemes and the
        /// provisional ones desktop and phone programs register), or one the pipeline lists.
        case known
        /// A near miss of http, https or mailto: an error, with the URI as meant.
        case misspelt(fixed: String, scheme: String)
        /// A scheme no system handles: a warning naming it, with a resolver where there is one.
        case unknown(hint: String?)
    }

    /// IANA's permanent URI schemes, and the provisional and unregistered ones that programs on
    /// desktops and phones register handlers for (mail, calls, chat, meetings, stores, media,
    /// office documents, development tools).
    static let known: Set<String> = [
        // IANA permanent
        "aaa", "aaas", "about", "acap", "acct", "cap", "cid", "coap", "coaps", "crid", "data", "dav", "dict", "dns",
        "file", "ftp", "geo", "go", "gopher", "h323", "http", "https", "iax", "icap", "im", "imap", "info", "ipp",
        "ipps", "iris", "ldap", "mailto", "mid", "msrp", "msrps", "mtqp", "mupdate", "news", "nfs", "ni", "nih",
        "nntp", "opaquelocktoken", "pkcs11", "pop", "pres", "reload", "rtsp", "rtsps", "rtspu", "service",
        "session", "shttp", "sieve", "sip", "sips", "sms", "snmp", "tag", "tel", "telnet", "tftp", "thismessage",
        "tip", "tn3270", "turn", "turns", "tv", "urn", "vemmi", "vnc", "ws", "wss", "xcon", "xmpp",
        // provisional and common
        "bitcoin", "callto", "chrome", "facetime", "facetime-audio", "feed", "git", "irc", "irc6", "ircs", "itms",
        "itms-apps", "itms-services", "magnet", "maps", "market", "matrix", "ms-excel", "ms-powerpoint",
        "ms-settings", "ms-word", "msteams", "onenote", "outlook", "sftp", "sgn", "signal", "skype", "slack",
        "smb", "spotify", "ssh", "steam", "svn", "teams", "tg", "view-source", "viber", "vscode", "webcal",
        "whatsapp", "zoommtg", "zoomus", "ftps", "rtmp", "mms", "udp", "rdp", "ed2k", "ipfs", "ipns",
    ]

    /// Schemes for identifiers that have an https resolver: the warning says where to point.
    static let resolvers: [String: String] = [
        "doi": "https://doi.org/", "hdl": "https://hdl.handle.net/", "arxiv": "https://arxiv.org/abs/",
        "pmid": "https://pubmed.ncbi.nlm.nih.gov/", "isbn": "https://openlibrary.org/isbn/",
        // `CTAN: macros/latex/…`, as LaTeX manuals write it (5 of the Debian manuals here).
        "ctan": "https://mirrors.ctan.org/",
    ]

    /// What readers can do with the scheme of `uri` (whose scheme, lowercased, is `scheme`).
    /// `custom`: schemes the pipeline says its readers' systems handle (`customSchemes`).
    package static func verdict(scheme: String, of uri: String, custom: Set<String>) -> Verdict {
        let s = scheme.lowercased()
        if known.contains(s) || custom.contains(s) { return .known }
        if let target = nearMiss(s) {
            var rest = Substring(uri.dropFirst(scheme.count + 1))
            if target != "mailto" {
                while rest.hasPrefix("/") || rest.hasPrefix("\\") { rest = rest.dropFirst() }
                return .misspelt(fixed: target + "://" + rest, scheme: target)
            }
            return .misspelt(fixed: "mailto:" + rest, scheme: target)
        }
        if let resolver = resolvers[s] {
            var id = uri.dropFirst(scheme.count + 1).drop { $0 == " " || $0 == "/" }
            if s == "ctan", id.hasPrefix("tex-archive/") { id = id.dropFirst("tex-archive/".count) }
            return .unknown(hint: "link the resolver instead: '\(resolver)\(id)'")
        }
        if s == "hxxp" || s == "hxxps" {
            return .unknown(hint: "a defanged link (hxxp) opens nothing; that may be the intent")
        }
        return .unknown(hint: nil)
    }

    /// What a URI's scheme says about it, for the link audit (and the poppler fallback): a mail
    /// link by its addresses (`MailtoCheck`), a near miss of http, https or mailto as an error
    /// with the fix, a scheme no system handles as a warning. `state`: the link's state when that
    /// settles it, nil to go on with its syntax.
    static func judge(_ text: String, custom: Set<String>) -> (
        finding: (rule: Rule, message: String, hint: String?, group: String)?, state: LinkRecord.URIState?
    ) {
        let shown = ConsoleText.escape(text)
        if let (fixed, scheme) = misplacedColon(text) {
            let message =
                "'\(shown)' has no ':' after '\(scheme)': every viewer reads it as a path relative to the document"
            return ((.uriSchemeMisspelt, message, "write '\(ConsoleText.escape(fixed))'", ""), .malformed)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let scheme = URIReference.parse(trimmed).scheme, scheme.count > 1, scheme.first!.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return (nil, nil) }
        if scheme.lowercased() == "mailto" {
            let hint = "write the address as it is: name@example.org"
            switch MailtoCheck.verdict(in: trimmed) {
            case .malformed(let why)?: return ((.uriMalformed, why, nil, ""), .malformed)
            case .notAnAddress(let why)?: return ((.uriMailtoNotAnAddress, why, hint, ""), .absolute)
            case nil: return (nil, URIReference.problem(in: trimmed) == nil ? .absolute : nil)
            }
        }
        switch verdict(scheme: scheme, of: trimmed, custom: custom) {
        case .known:
            return (nil, nil)
        case .misspelt(let fixed, let meant):
            let message =
                "'\(shown)': '\(scheme):' is not a scheme any system handles, and looks like '\(meant):' misspelt; clicking it opens nothing"
            return ((.uriSchemeMisspelt, message, "write '\(ConsoleText.escape(fixed))'", ""), .malformed)
        case .unknown(let hint):
            let message =
                "'\(shown)': no system handles the scheme '\(scheme):' (pdf.js links only http, https, ftp, mailto and tel; the desktop has no program for it), so clicking it opens nothing"
            let fallback =
                "use a scheme readers can open, or list '\(scheme.lowercased())' in validate-links customSchemes"
            return ((.uriUnknownScheme, message, hint ?? fallback, scheme.lowercased()), .unknownScheme)
        }
    }

    /// The URI a misspelt scheme means (`uri.scheme-misspelt`'s fix), nil for any other.
    static func fixed(_ text: String, custom: Set<String>) -> String? {
        if let (fixed, _) = misplacedColon(text) { return fixed }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let scheme = URIReference.parse(trimmed).scheme,
            case .misspelt(let fixed, _) = verdict(scheme: scheme, of: trimmed, custom: custom)
        else { return nil }
        return fixed
    }

    /// The scheme a near miss means: one edit (a letter added, dropped, changed, or two swapped)
    /// from http, https or mailto, or a word for mail (`email`, `e-mail`, `mail`). `hxxp` and
    /// `hxxps` are defanged links, written so on purpose: not near misses.
    static func nearMiss(_ s: String) -> String? {
        if ["email", "e-mail", "mail"].contains(s) { return "mailto" }
        if s == "hxxp" || s == "hxxps" { return nil }
        for target in ["https", "http", "mailto"] where editDistance(Array(s.utf8), Array(target.utf8)) <= 1 {
            return target
        }
        return nil
    }

    /// The optimal string alignment distance (Levenshtein with adjacent transpositions).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if abs(a.count - b.count) > 1 { return 2 }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// `http;//host`, `https,//host`, `http.//host`: a punctuation mark where the colon belongs, which
    /// makes the whole link a relative path; returns the URI as meant.
    package static func misplacedColon(_ text: String) -> (fixed: String, scheme: String)? {
        let lower = text.lowercased()
        for scheme in ["https", "http"] where lower.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            guard let mark = rest.first, ";,.'`".contains(mark) else { continue }
            var tail = rest.dropFirst()
            guard tail.hasPrefix("/") else { continue }
            while tail.hasPrefix("/") { tail = tail.dropFirst() }
            return (scheme + "://" + tail, scheme)
        }
        return nil
    }
}

/// `mailto:` (RFC 6068): every address in the path and in `to=` must be `local@domain`. Viewers
/// hand any mailto link to the mail client, so an address a person must complete or decode before
/// sending (hidden from spam, `adrien[dot]x[at]y.org`; a placeholder, `mailto:no email`; none at
/// all) is a note; one that looks like an address but cannot be delivered (a broken domain, a
/// space inside it) is an error, since the reader cannot tell it is wrong.
enum MailtoCheck {
    /// Words and marks that hide an address from harvesters.
    static let hiding = [
        "[at]", "(at)", "{at}", "<at>", " at ", "_at_", "-at-", "#at#", "*at*", "[@]", "(@)", "[dot]", "(dot)",
        "{dot}", "<dot>", " dot ", "_dot_", "-dot-", "nospam", "no-spam", "no_spam", "removethis", "remove-this",
    ]

    enum Verdict: Equatable {
        /// Not an address as written (hidden or a placeholder): a note.
        case notAnAddress(String)
        /// An address that cannot be delivered: an error.
        case malformed(String)
    }

    static func verdict(in uri: String) -> Verdict? {
        let parts = URIReference.parse(uri)
        var addresses = parts.path.split(separator: ",").map { URIReference.percentDecoded(String($0)) }
        for q in (parts.query ?? "").split(separator: "&") where q.lowercased().hasPrefix("to=") {
            addresses += q.dropFirst(3).split(separator: ",").map { URIReference.percentDecoded(String($0)) }
        }
        addresses = addresses.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if addresses.isEmpty {
            // RFC 6068 allows headers alone (`mailto:?subject=…`); with nothing at all it is a placeholder.
            if parts.query?.isEmpty == false { return nil }
            return .notAnAddress("'\(uri)' has no address: the mail client opens with an empty recipient")
        }
        for t in addresses {
            let lower = t.lowercased()
            if let mark = hiding.first(where: { lower.contains($0) }) {
                return .notAnAddress(
                    "'\(t)' in '\(uri)' is an address hidden from spam ('\(mark.trimmingCharacters(in: .whitespaces))'): the reader must decode it before sending"
                )
            }
            guard let at = t.lastIndex(of: "@") else {
                return .notAnAddress(
                    "'\(t)' in '\(uri)' is not an e-mail address (no '@'): the mail client opens with it as the recipient, to be corrected before sending"
                )
            }
            let local = t[..<at]
            let domain = t[t.index(after: at)...]
            if local.isEmpty || domain.isEmpty { return .malformed("'\(t)' in '\(uri)' is not an e-mail address") }
            let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
            let domainOK =
                domain.hasPrefix("[")
                || labels.allSatisfy { l in
                    !l.isEmpty && !l.hasPrefix("-") && !l.hasSuffix("-")
                        && l.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                }
            if !domainOK { return .malformed("'\(domain)' in '\(uri)' is not a valid mail domain") }
            if t.contains(" ") { return .malformed("'\(t)' in '\(uri)' contains a space") }
        }
        return nil
    }
}
