import Foundation
import PDFPipeCore

/// What checking one URL found: the raw facts (kept in the cache) from which the outcome follows.
package struct URLFetch: Sendable, Equatable {
    package struct Hop: Codable, Sendable, Equatable {
        package var url: String
        package var status: Int

        package init(url: String, status: Int) {
            self.url = url
            self.status = status
        }
    }

    /// Why no acceptable answer could be had, apart from the status.
    package enum Failure: String, Codable, Sendable {
        case timeout, unreachable
        case redirectLoop = "redirect-loop"
        case tooManyRedirects = "too-many-redirects"
        case malformed
        case privateAddress = "private-address"
        /// Still answered 429 after the retries (the host slowed down in between): not verified.
        case rateLimited = "rate-limited"
        /// Not answered before the document's web budget ran out (`documentSeconds`): not verified.
        case overBudget = "over-budget"
    }

    /// The URL as requested (after remapping, without fragment).
    package var url: String
    /// What the resolver said when the host's name did not resolve, else nil.
    package var unresolvedName: String? {
        failure == .unreachable && message?.hasPrefix("DNS:") == true ? message : nil
    }

    /// The last answer's status, nil when none arrived.
    package var status: Int?
    /// Redirects followed: each hop's URL and the status that sent us on.
    package var redirects: [Hop] = []
    package var finalURL: String
    /// Requests made for this URL, HEAD→GET switches and retries included.
    package var attempts = 0
    /// Retries (after timeouts, connection errors, 429 and 5xx).
    package var retries = 0
    package var failure: Failure?
    package var message: String?
    package var contentType: String?
    /// Seconds since 1970 when it was checked.
    package var checkedAt: Double = 0
    package var fromCache = false
    /// For fragment checks: the fetched PDF's pages and destinations.
    package var document: RemoteDocument?
    /// For fragment checks: the fetched HTML page's anchors (ids, and names of `<a>`), sorted.
    package var anchors: [String]?
    /// The final answer carries a bot protection's signature: why it was judged so (`uri.blocked`).
    package var blocked: String?
    /// It failed twice: when first asked, and when asked again on a new connection at the end.
    package var confirmed = false
    /// For a page read (`Key.page`): what the page's first bytes say (cached with the status).
    package var page: SilentPass.Page?
    /// For a web archive's index query (`Key.captures`): the captures it lists, closest first.
    package var captures: [WebArchive.Capture]?

    /// A 301 or 308 on the way.
    package var permanentlyRedirected: Bool { redirects.contains { $0.status == 301 || $0.status == 308 } }

    /// What the cache file keeps (`fullJSON` without where the answer came from and the fetched
    /// content, which are for this run only).
    var json: JSONValue {
        guard case .object(var o) = fullJSON else { return .null }
        for k in CodingKeys.forThisRunOnly { o[k.stringValue] = nil }
        return .object(o)
    }

    /// Everything, for a worker process.
    var fullJSON: JSONValue { JSONValue(encoding: self) }

    init(url: String) {
        self.url = url
        finalURL = url
    }

    init?(json: JSONValue) {
        guard let f = try? json.decode(URLFetch.self) else { return nil }
        self = f
    }
}

/// Written and read by one declaration: the cache file's entries and the answers to workers.
/// Writing is synthesized (a nil field left out: only a fetch with a status is cached); reading is
/// lenient where a cache file written by another version may lack a field.
extension URLFetch: Codable {
    enum CodingKeys: String, CodingKey {
        case url, status, finalURL, attempts, retries, checkedAt, redirects, failure, message, contentType, blocked
        case confirmed, fromCache, document, anchors, page, captures

        static let forThisRunOnly: [CodingKeys] = [.fromCache, .document, .anchors]
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try c.decode(String.self, forKey: .url))
        finalURL = try c.decode(String.self, forKey: .finalURL)
        status = try? c.decodeIfPresent(Int.self, forKey: .status)
        attempts = (try? c.decodeIfPresent(Int.self, forKey: .attempts)) ?? 1
        retries = (try? c.decodeIfPresent(Int.self, forKey: .retries)) ?? 0
        checkedAt = (try? c.decodeIfPresent(Double.self, forKey: .checkedAt)) ?? 0
        redirects = (try? c.decodeIfPresent([Hop].self, forKey: .redirects)) ?? []
        failure = try? c.decodeIfPresent(Failure.self, forKey: .failure)
        message = try? c.decodeIfPresent(String.self, forKey: .message)
        contentType = try? c.decodeIfPresent(String.self, forKey: .contentType)
        blocked = try? c.decodeIfPresent(String.self, forKey: .blocked)
        confirmed = (try? c.decodeIfPresent(Bool.self, forKey: .confirmed)) ?? false
        fromCache = (try? c.decodeIfPresent(Bool.self, forKey: .fromCache)) ?? false
        document = try? c.decodeIfPresent(RemoteDocument.self, forKey: .document)
        anchors = try? c.decodeIfPresent([String].self, forKey: .anchors)
        page = try? c.decodeIfPresent(SilentPass.Page.self, forKey: .page)
        captures = try? c.decodeIfPresent([WebArchive.Capture].self, forKey: .captures)
    }
}
