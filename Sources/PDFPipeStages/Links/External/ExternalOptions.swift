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
        let n = rule(for: host)?.maxPerHost ?? section.maxPerHost
        return divided ? max(1, n / shards) : n
    }
    public func hostInterval(for host: String) -> Double {
        let t = rule(for: host)?.interval ?? section.hostIntervalSeconds
        return divided ? max(t, 0.05) * Double(shards) : t
    }
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

    /// The GitHub Action's `token` input (or the variable set by hand): a bearer token sent to
    /// GitHub's hosts only, over https to port 443 (a hop of a redirect chain elsewhere gets none:
    /// headers are chosen per request), unless the pipeline sends its own Authorization.
    static func githubTokenHeader(besides headers: [Header]) -> Header? {
        guard let token = Environment[Self.githubTokenVariable], !token.isEmpty,
            !token.unicodeScalars.contains(where: Self.isControl),
            !headers.contains(where: { $0.name.lowercased() == "authorization" })
        else { return nil }
        Secrets.add(token)
        return Header(
            name: "Authorization", value: "Bearer " + token, secret: true, hosts: Self.githubHosts,
            granted: [Self.githubHosts.map { SecretGrants.HostPort(host: $0, port: 443) }])
    }

    /// The cache, its history and lock, the shards' shared folder: no symbolic link on the way,
    /// nothing outside the working folder (docs/security.md).
    static func checkStatePaths(_ cachePath: String, option: String) throws(PipelineError) {
        let working = FileManager.default.currentDirectoryPath
        let history = LinkHistory.path(besideCache: cachePath)
        for p in [cachePath, history, history + ".lock", SharedCacheFolder.path(besideCache: cachePath)] {
            try StateSeal.check(p, option: option, working: working)
        }
    }

    /// One entry of `headers` (`hp`: its JSON path): a name and a value, or "Name: value"; `${VAR}`
    /// expanded (offline, the file's option or `run --offline`, nothing is sent: `unsetIsEmpty`).
    static func header(_ item: ExternalSection.Header, path hp: String, unsetIsEmpty: Bool) throws(PipelineError)
        -> Header
    {
        var name = item.name
        var value = item.value
        if value.isEmpty, let colon = name.firstIndex(of: ":") {
            value = name[name.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            name = String(name[..<colon])
        }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
        else {
            throw PipelineError(
                file: nil, path: "\(hp).name", message: "a header needs a name made of letters, digits, '-' and '_'"
            )
        }
        let hosts = item.hosts.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
        let (expanded, variables) = try ExternalOptions.expand(
            value, path: "\(hp).value", unsetIsEmpty: unsetIsEmpty)
        let secret = !variables.isEmpty
        let granted = try secret ? Self.grants(variables, hosts: hosts, path: hp, unsetIsEmpty: unsetIsEmpty) : []
        // By scalars: "\r\n" is one Character, equal to neither "\r" nor "\n".
        if expanded.unicodeScalars.contains(where: Self.isControl) {
            throw PipelineError(
                file: nil, path: "\(hp).value",
                message:
                    "a header value must not contain line breaks or other control characters\(secret ? " (after ${…} expansion)" : "")"
            )
        }
        return Header(name: name, value: expanded, secret: secret, hosts: hosts, granted: granted)
    }

    /// The owner's hosts for each variable a header names (`PDFPIPE_SECRETS`): the header must
    /// name its hosts, each one allowed by every variable's grant. Offline (nothing is sent) the
    /// grants are not needed.
    static func grants(_ variables: [String], hosts: [String], path hp: String, unsetIsEmpty: Bool)
        throws(PipelineError) -> [[SecretGrants.HostPort]]
    {
        guard !hosts.isEmpty, !hosts.contains("*") else {
            throw PipelineError(
                file: nil, path: "\(hp).hosts",
                message:
                    "a header whose value names a variable (${\(variables[0])}) must name the hosts it goes to ('hosts': \"docs.example.com\"); it goes over https only"
            )
        }
        let all = SecretGrants.current
        var out: [[SecretGrants.HostPort]] = []
        for name in variables {
            guard let grant = all.grant(for: name) else {
                if unsetIsEmpty {
                    out.append([])
                    continue
                }
                throw PipelineError(
                    file: nil, path: "\(hp).value",
                    message:
                        "the variable '\(name)' is not handed to pipeline files: its owner names it and its hosts in the environment, PDFPIPE_SECRETS='\(name)=\(hosts.joined(separator: ","))' (docs/security.md)"
                        + (all.problems.isEmpty
                            ? "" : "; PDFPIPE_SECRETS was not read whole: \(all.problems.joined(separator: ", "))"),
                    needsEnvironment: true)
            }
            for h in hosts where !grant.hosts.contains(where: { $0.host == h || Self.hostMatches($0.host, h) }) {
                throw PipelineError(
                    file: nil, path: "\(hp).hosts",
                    message:
                        "the host '\(h)' is not one PDFPIPE_SECRETS lets '\(name)' go to (\(grant.hosts.map(\.host).joined(separator: ", ")))",
                    needsEnvironment: true)
            }
            out.append(grant.hosts)
        }
        return out
    }

    static func compile(_ text: String, path: String) throws(PipelineError) -> NSRegularExpression {
        guard !text.isEmpty else {
            throw PipelineError(file: nil, path: path, message: "the regular expression is empty")
        }
        do {
            return try NSRegularExpression(pattern: text)
        } catch {
            throw PipelineError(file: nil, path: path, message: "invalid regular expression '\(text)'")
        }
    }

    static func patterns(_ items: [ExternalSection.PatternEntry], path: String) throws(PipelineError) -> [Pattern] {
        var out: [Pattern] = []
        for (i, item) in items.enumerated() {
            let text = item.pattern
            out.append(Pattern(text: text, regex: try compile(text, path: "\(path)[\(i)].pattern")))
        }
        return out
    }

    /// Control characters, which would end a header line or smuggle another one in.
    static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 && s != "\t" || s.value == 0x7F }

    /// Replaces `${VAR}` with the environment's value, and says which variables it named; a
    /// missing variable is a pipeline error (a request without its token would fail for a reason
    /// the report could not show). The action's and the runner's tokens are never expanded.
    static func expand(_ text: String, path: String, unsetIsEmpty: Bool = false) throws(PipelineError) -> (
        String, [String]
    ) {
        guard text.contains("${") else { return (text, []) }
        let env = Environment.all
        var names: [String] = []
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw PipelineError(file: nil, path: path, message: "unterminated '${' in the header value")
            }
            let name = String(rest[open.upperBound..<close])
            if SecretGrants.isForbidden(name) {
                throw PipelineError(
                    file: nil, path: path,
                    message:
                        "'${\(name)}': a pipeline file never reaches the action's or the runner's tokens (docs/security.md)"
                )
            }
            names.append(name)
            let granted = SecretGrants.current.grant(for: name) != nil
            guard let value = (granted ? env[name] : nil) ?? (unsetIsEmpty || !granted ? "" : nil) else {
                throw PipelineError(
                    file: nil, path: path, message: "the environment variable '\(name)' is not set",
                    needsEnvironment: true)
            }
            Secrets.add(value)
            out += value
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return (out, names)
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

/// HTTP statuses as codes and ranges (`200-299,403`).
package struct StatusSet: Sendable, Equatable {
    package var ranges: [ClosedRange<Int>]

    package func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }

    static func parse(_ text: String, path: String) throws(PipelineError) -> StatusSet {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let p = part.trimmingCharacters(in: .whitespaces)
            let bounds = p.split(separator: "-", omittingEmptySubsequences: false).map {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            guard (1...2).contains(bounds.count), let lo = bounds.first ?? nil, let hi = bounds.last ?? nil,
                (100...999).contains(lo),
                (100...999).contains(hi), lo <= hi
            else {
                throw PipelineError(
                    file: nil, path: path, message: "'\(p)' is not a status code (100-999) or a range like 200-299")
            }
            ranges.append(lo...hi)
        }
        return StatusSet(ranges: ranges)
    }
}
