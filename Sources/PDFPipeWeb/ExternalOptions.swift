import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// The `external` section of `validate-links`: how URI links are checked beyond their syntax — the
/// section's typed values, and what the checker needs compiled from them.
@dynamicMemberLookup
public struct ExternalOptions: Sendable {
    public static var specs: [OptionSpec] { ExternalSection.specs }

    /// Settings for the hosts a glob matches.
    public struct HostRule: Sendable {
        public var pattern: String
        package var accept: StatusSet?
        public var maxPerHost: Int?
        public var interval: Double?

        func matches(_ host: String) -> Bool { ExternalOptions.hostMatches(pattern, host) }
    }

    public struct Header: Sendable {
        public var name: String
        public var value: String
        /// The value came from the environment: never printed, sent over https only.
        public var secret: Bool
        /// Lower-cased hosts; empty: all.
        public var hosts: [String]
        /// For each variable in the value, the hosts (and ports) its owner named: the header goes
        /// to a request only when every one of them allows its host and port.
        package var granted: [[SecretGrants.HostPort]] = []

        /// Whether the header goes with a request to `url`.
        func applies(to url: String) -> Bool {
            let host = URLParts.host(of: url) ?? ""
            if !hosts.isEmpty && !hosts.contains(where: { ExternalOptions.hostMatches($0, host) }) { return false }
            guard secret else { return true }
            guard URLParts.scheme(of: url) == "https", let port = URLParts.port(of: url) else { return false }
            return granted.allSatisfy { allowed in
                allowed.contains { $0.port == port && ExternalOptions.hostMatches($0.host, host) }
            }
        }
    }

    public struct Remap: @unchecked Sendable {
        let regex: NSRegularExpression
        let replacement: String
    }

    /// The section as the pipeline file wrote it, validated and typed: every plain value is read
    /// from it (`options.retries`, `options.maxConcurrency`: `subscript(dynamicMember:)`), so a
    /// new option is declared once, on `ExternalSection`. Below: what is derived from it, and what
    /// is compiled from it once (status sets, patterns, headers, host rules).
    public var section: ExternalSection

    public subscript<T>(dynamicMember path: WritableKeyPath<ExternalSection, T>) -> T {
        get { section[keyPath: path] }
        set { section[keyPath: path] = newValue }
    }

    /// `retries` and `retryWaitSeconds` with every other constant of the retries and pacing.
    package var retryPolicy: RetryPolicy {
        RetryPolicy(retries: section.retries, firstWait: section.retryWaitSeconds)
    }
    public var headFirst: Bool { section.method == .head }
    public var getAfterAnyError: Bool { section.getAfterHead == .errors }
    public var cachePath: String? { section.cache.path.isEmpty ? nil : section.cache.path }
    public var cacheMaxAge: Double { section.cache.maxAgeSeconds }
    public var downloadLimit: Int { section.downloadLimitMB << 20 }
    public var noteOtherSchemes: Bool { section.schemes == .note }

    /// Shards of the run (`--shard K/N`: N) among which the host limits are divided (not an
    /// option: the run's).
    public var shards = 1
    // Compiled once from the section.
    package var accept: StatusSet
    public var include: [Pattern]
    public var exclude: [Pattern]
    public var remaps: [Remap] = []
    /// `headers`, variables expanded, with the GitHub token's when it is handed over.
    public var headers: [Header] = []
    /// `userAgent`, or pdfpipe's when empty.
    public var userAgent: String
    package var neverCache: StatusSet
    public var hostRules: [HostRule] = []

    /// The variable the GitHub Action's `token` input is passed in.
    public static let githubTokenVariable = "PDFPIPE_GITHUB_TOKEN"
    /// The hosts that token goes to.
    public static let githubHosts = ["github.com", "api.github.com", "raw.githubusercontent.com"]

    static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        pattern == host || (Glob.hasWildcard(pattern) && fnmatch(pattern, host, 0) == 0)
    }

    private func rule(for host: String) -> HostRule? {
        hostRules.isEmpty ? nil : hostRules.first { $0.matches(host) }
    }

    /// The statuses accepted from `host`.
    package func accept(for host: String) -> StatusSet { rule(for: host)?.accept ?? accept }
    /// A host's limits for this process: under `--shard K/N` (and `divideHostLimitsAmongShards`)
    /// 1/N of the slots, at least one, and N times the interval (at least N × 50 ms: N shards
    /// together start no more often than one run would).
    public func maxPerHost(for host: String) -> Int {
        let n = rule(for: host)?.maxPerHost ?? (archiveHosts.contains(host) ? 1 : section.maxPerHost)
        return divided ? max(1, n / shards) : n
    }
    public func hostInterval(for host: String) -> Double {
        let t =
            rule(for: host)?.interval
            ?? (archiveHosts.contains(host)
                ? max(section.hostIntervalSeconds, Self.archiveInterval) : section.hostIntervalSeconds)
        return divided ? max(t, 0.05) * Double(shards) : t
    }
    /// A web archive's hosts (`archive`, loopback aside) are asked one request at a time, at
    /// most one a second, unless `hosts` says otherwise: the Wayback Machine answers faster
    /// askers with 429 and then shuts them out for a while.
    package var archiveHosts: Set<String> = []
    package static let archiveInterval = 1.0
    private var divided: Bool { section.divideHostLimitsAmongShards && shards > 1 }

    public struct Pattern: @unchecked Sendable {
        public let text: String
        let regex: NSRegularExpression
        func matches(_ s: String) -> Bool {
            regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        }
    }

    /// The section's defaults (declared once, on `ExternalSection`): the checker off.
    public init() {
        do {
            try self.init(ExternalSection(), path: "external", version: PDFPipeVersion.string)
        } catch {
            preconditionFailure("the default external section is valid: \(error)")
        }
    }

    /// Reads validated options; `path` is the JSON path of the section for messages.
    public init(_ o: ExternalSection, path: String, version: String) throws(PipelineError) {
        section = o
        if o.confirmRuns > 1 && o.cache.path.isEmpty {
            throw PipelineError(
                file: nil, path: "\(path).confirmRuns",
                message: "confirmRuns counts the runs a link failed in a file beside the cache: set cache.path too")
        }
        accept = try StatusSet.parse(o.accept, path: "\(path).accept")
        include = try ExternalOptions.patterns(o.include, path: "\(path).include")
        exclude = try ExternalOptions.patterns(o.exclude, path: "\(path).exclude")
        for (i, item) in o.remap.enumerated() {
            let p = item.pattern
            let r = item.replacement
            remaps.append(
                Remap(regex: try ExternalOptions.compile(p, path: "\(path).remap[\(i)].pattern"), replacement: r))
        }
        for (i, item) in o.headers.enumerated() {
            headers.append(
                try Self.header(
                    item, path: "\(path).headers[\(i)]", unsetIsEmpty: o.offline || Pipeline.unsetVariablesAreEmpty))
        }
        if let token = Self.githubTokenHeader(besides: headers) { headers.append(token) }
        let ua = o.userAgent
        if ua.unicodeScalars.contains(where: Self.isControl) {
            throw PipelineError(
                file: nil, path: "\(path).userAgent",
                message: "the User-Agent must not contain line breaks or other control characters")
        }
        userAgent = ua.isEmpty ? "pdfpipe/\(version) (link checker; +https://github.com/pdfpipe/pdfpipe)" : ua
        if o.archive.enabled { archiveHosts = try Self.checkArchive(o.archive, path: "\(path).archive") }
        if !o.cache.path.isEmpty { try Self.checkStatePaths(o.cache.path, option: "\(path).cache.path") }
        neverCache = try StatusSet.parse(o.cache.neverCache, path: "\(path).cache.neverCache")
        for (i, item) in o.hosts.enumerated() {
            let hp = "\(path).hosts[\(i)]"
            let pattern = item.host.trimmingCharacters(in: .whitespaces).lowercased()
            guard !pattern.isEmpty else {
                throw PipelineError(
                    file: nil, path: "\(hp).host",
                    message: "a host name or glob is needed ('docs.example.com', '*.example.com')")
            }
            let acceptText = item.accept
            hostRules.append(
                HostRule(
                    pattern: pattern,
                    accept: acceptText.isEmpty ? nil : try StatusSet.parse(acceptText, path: "\(hp).accept"),
                    maxPerHost: item.maxPerHost, interval: item.intervalSeconds))
        }
    }

    /// Should this URL be requested (include/exclude)? `include` wins over `exclude`, as in lychee.
    public func isSelected(_ url: String) -> Bool {
        if include.contains(where: { $0.matches(url) }) { return true }
        if !include.isEmpty { return false }
        return !exclude.contains { $0.matches(url) }
    }

    /// The URL after the first matching remap.
    public func remapped(_ url: String) -> String {
        for r in remaps {
            let range = NSRange(url.startIndex..., in: url)
            if r.regex.firstMatch(in: url, range: range) != nil {
                return r.regex.stringByReplacingMatches(in: url, range: range, withTemplate: r.replacement)
            }
        }
        return url
    }

    /// Header lines for a request to `url`: a header with a secret only over https, to a host
    /// and port its owner named.
    func headerLines(for url: String) -> [String] {
        headers.filter { $0.applies(to: url) }.map { "\($0.name): \($0.value)" }
    }

    /// Every secret value, to scrub from messages.
    var secrets: [String] { headers.filter { $0.secret && !$0.value.isEmpty }.map(\.value) }
}
