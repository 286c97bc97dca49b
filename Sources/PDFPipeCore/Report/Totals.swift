/// What became of the links of a batch (report.json's `summary.links`), as lychee ends its runs
/// ("10 Total, 5 OK, 4 Errors, 1 Excluded, 2 Redirects"): every link, bookmark and open action
/// counted once, in exactly one part, so that the parts add up to `total`.
public struct LinkTotals: Codable, Sendable, Equatable {
    public var total = 0
    /// Checked and fine.
    public var ok = 0
    /// An error: a viewer fails to follow it (a missing destination, file or fragment, a 404).
    public var broken = 0
    /// The site's bot protection answered instead (uri.blocked).
    public var blocked = 0
    /// Asked but not answered (a timeout, no connection, a fragment that could not be fetched).
    public var unverified = 0
    /// Not asked: offline, excluded, or a scheme that is not checked.
    public var skipped = 0
    /// Fine, at the end of a permanent redirect.
    public var redirected = 0

    public init() {}

    init(json: JSONValue) throws { self = try json.decode() }

    func adding(_ o: LinkTotals) -> LinkTotals {
        var t = self
        t.total += o.total
        t.ok += o.ok
        t.broken += o.broken
        t.blocked += o.blocked
        t.unverified += o.unverified
        t.skipped += o.skipped
        t.redirected += o.redirected
        return t
    }

    /// `links: 26 in all, 18 ok, 5 broken, 0 blocked, 1 unverified, 2 skipped, 0 redirected`.
    public var line: String {
        "links: \(total) in all, \(ok) ok, \(broken) broken, \(blocked) blocked, \(unverified) unverified, \(skipped) skipped, \(redirected) redirected"
    }
}

/// What the thumbnails stage did over the batch (report.json's `summary.thumbnails`): pages
/// rendered, and pages whose images were kept because nothing changed since the last run
/// (`incremental`). A re-run says so instead of looking as if it did nothing.
public struct ThumbnailTotals: Codable, Sendable, Equatable {
    public var rendered = 0
    public var unchanged = 0

    public init() {}

    /// `thumbnails: 0 pages rendered, 2,200 unchanged since the last run (--force renders them again)`.
    public var line: String {
        "thumbnails: \(rendered) page\(rendered == 1 ? "" : "s") rendered"
            + (unchanged > 0 ? ", \(unchanged) unchanged since the last run (--force renders them again)" : "")
    }
}
