import PDFPipeCore

/// The `external` section of `validate-links` as the pipeline file writes it, declared once:
/// `ExternalOptions` keeps the validated value and reads every plain option through it.
public struct ExternalSection: OptionGroup {
    /// The first request of a check.
    public enum Method: String, Sendable, CaseIterable, OptionChoice { case head, get }
    /// When a HEAD answer leads to a GET.
    public enum GetAfterHead: String, Sendable, CaseIterable, OptionChoice { case refused, errors }
    /// What links of other schemes give.
    public enum OtherSchemes: String, Sendable, CaseIterable, OptionChoice { case note, ignore }

    @Option("check URI links: http(s) over the network, file: and relative ones on disk, mailto: syntax")
    public var enabled = false
    @Option("no network: http(s) links are reported as skipped; files and fragments are still checked")
    public var offline = false
    @Option(in: 0.001...3600, "time limit of one request (connecting: at most 10 s of it)") public var timeoutSeconds =
        20.0
    @Option(in: 0...20, "retries after a timeout, a connection error, a 5xx or a 429") public var retries = 2
    @Option(
        in: 0...86400,
        "seconds the web checks of one document may take in all (0: no limit; --timeout lowers it); links not answered by then are not verified (pdf.limit-exceeded)"
    )
    public var documentSeconds = 300.0
    @Option(in: 0...600, "first wait before a retry, doubled each time (at most 60 s); a Retry-After header wins")
    public var retryWaitSeconds = 1.0
    @Option(in: 0...100, "redirects followed before uri.too-many-redirects") public var maxRedirects = 10
    @Option(in: 1...1024, "requests in flight at once, over the whole run (one thread drives them all)")
    public var maxConcurrency = 128
    @Option(in: 1...1024, "requests in flight at once to one host") public var maxPerHost = 4
    @Option(
        in: 0...600,
        "least time between the starts of two requests to one host (0.08: at most 12.5 a second; a host that answers 429 is slowed further)"
    )
    public var hostIntervalSeconds = 0.08
    @Option(
        "first request: HEAD (no body), or GET (a body of known size up to 64 KB is read and dropped, to keep the connection; any other is not waited for)"
    )
    public var method = Method.head
    @Option(
        "when a HEAD answer leads to a GET: only 405/501 ('refused'), or any status not accepted ('errors': many servers answer HEAD wrongly)"
    )
    public var getAfterHead = GetAfterHead.errors
    @Option("accepted final statuses: codes and ranges, like '200-299,403'") public var accept = "200-299"
    @Option(
        "ask a URL that failed (timeout, connection error, status not accepted) once more, on a new connection, after the run's other URLs, before reporting it"
    )
    public var confirmFailures = true
    @Option(
        in: 1...100,
        "a failing web link is an error only once it has failed in this many consecutive runs (uri.flaky, a warning, before that); the runs are counted in a file beside cache.path, which it needs"
    )
    public var confirmRuns = 1
    @Option(
        "under --shard K/N, each shard takes 1/N of every host's maxPerHost (at least 1) and N times its interval, so that N shards together are as polite as one run"
    )
    public var divideHostLimitsAmongShards = true
    @Option("if given, only URLs matching one of these regular expressions are checked") public var include:
        [PatternEntry] = []
    @Option("URLs matching one of these are not checked (unless they match include)") public var exclude:
        [PatternEntry] = []
    @Option("rewrite URLs before checking (the first matching pattern applies)") public var remap: [Remap] = []
    @Option("extra request headers") public var headers: [Header] = []
    @Option("User-Agent header (default: pdfpipe/VERSION)") public var userAgent = ""
    @Option("request hosts that resolve to loopback, private, link-local or multicast addresses")
    public var allowPrivateAddresses = false
    @Option("results kept between runs") public var cache = Cache()
    @Option(in: 1...4096, "largest PDF or HTML page fetched to check a fragment") public var downloadLimitMB = 64
    @Option(
        "check #fragments of links to web pages: the page (fetched once) must have an element with that id, or an <a> with that name"
    )
    public var htmlFragments = false
    @Option(
        "ask each host whose links answer 2xx once for a path that cannot exist (GET); where that answers 2xx with a page that says 'not found' or offers the domain for sale, read the links' pages (GET; the title and first h1 in the first 8 KB) to tell a soft 404 (uri.soft-404) or a parked domain (uri.parked)"
    )
    public var probeHosts = true
    @Option(
        "ask each http link that works for its https address too (HEAD); where that answers the same final status and content type, uri.https-available proposes it (fix-links writes it)"
    )
    public var httpsUpgrade = false
    @Option(
        "look dead links up in a web archive: for a link that answers 404 or 410 or whose host name no longer resolves, the captures closest to the document's own date are listed and the closest that answered 200 and is not an error page becomes its fix (fix-links)"
    )
    public var archive = Archive()
    @Option("other schemes (ftp:, tel:, …): uri.unchecked-scheme, or nothing") public var schemes = OtherSchemes.note
    @Option("settings for some hosts (headers for some hosts: 'hosts' of a header)") public var hosts: [Host] = []

    public init() {}

    /// An entry of `include` or `exclude`.
    public struct PatternEntry: OptionGroup {
        @Option("regular expression") public var pattern = ""
        public init() {}
    }

    /// An entry of `remap`.
    public struct Remap: OptionGroup {
        @Option("regular expression") public var pattern = ""
        @Option("replacement ($1 … for groups)") public var replacement = ""
        public init() {}
    }

    /// An entry of `headers`.
    public struct Header: OptionGroup {
        @Option("header name, or 'Name: value'") public var name = ""
        @Option(
            "value; ${VAR} is replaced by the environment variable VAR if its owner handed it over in PDFPIPE_SECRETS with the hosts it may go to (docs/security.md); such values go over https only and are never written"
        )
        public var value = ""
        @Option(
            "comma-separated host names or globs ('*.example.com') the header is sent to (empty: every host; a value with ${VAR} must name them)"
        )
        public var hosts = ""
        public init() {}
    }

    /// `cache`.
    public struct Cache: OptionGroup {
        @Option("cache file (relative to the working directory); empty: no cache") public var path = ""
        @Option(in: 0...Double.infinity, "results older than this are checked again") public var maxAgeSeconds =
            86400.0
        @Option("statuses never kept (codes and ranges); timeouts and connection errors are never kept either")
        public var neverCache = "429,500-599"
        public init() {}
    }

    /// `archive`.
    public struct Archive: OptionGroup {
        @Option("look dead links up (GET requests to the index and the replay)") public var enabled = false
        @Option(
            "the archive's CDX index: the Wayback Machine's, or a pywb archive's (…/<collection>/cdx); https, or http to a loopback address"
        )
        public var index = "https://web.archive.org/cdx/search/cdx"
        @Option(
            "the archive's replay prefix: a capture is <replay><timestamp>/<url>; https, or http to a loopback address")
        public var replay = "https://web.archive.org/web/"
        @Option(
            "also look up links that answer 200 with a 'not found' page (uri.soft-404) or a parked domain's (uri.parked)"
        )
        public var silentPasses = false
        public init() {}
    }

    /// An entry of `hosts`.
    public struct Host: OptionGroup {
        @Option("host name, or a glob over host names ('*.example.com'); the first entry that matches applies")
        public var host = ""
        @Option("accepted final statuses for these hosts (empty: the section's 'accept')") public var accept = ""
        @Option(in: 1...1024, "requests in flight at once to one of these hosts") public var maxPerHost: Int? = nil
        @Option(in: 0...600, "least time between the starts of two requests to one of these hosts")
        public var intervalSeconds: Double? = nil
        public init() {}
    }
}
