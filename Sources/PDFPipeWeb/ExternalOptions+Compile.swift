import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// What `ExternalOptions.init` compiles from the section: headers and the secrets they carry
/// (their grants, the GitHub token, `${VAR}` expansion), patterns, and the state files' paths.
extension ExternalOptions {
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
        let working = FileSystem.currentDirectory
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

    /// The `archive` section's endpoints (`checkArchiveEndpoint`; a replay prefix ends with '/'),
    /// and their hosts that are not loopback addresses (`archiveHosts`).
    static func checkArchive(_ a: ExternalSection.Archive, path: String) throws(PipelineError) -> Set<String> {
        try checkArchiveEndpoint(a.index, path: "\(path).index")
        try checkArchiveEndpoint(a.replay, path: "\(path).replay")
        guard a.replay.hasSuffix("/") else {
            throw PipelineError(
                file: nil, path: "\(path).replay",
                message: "the replay prefix ends with '/' (a capture is <replay><timestamp>/<url>)")
        }
        return Set([a.index, a.replay].compactMap(URLParts.host(of:))).filter {
            !($0 == "localhost" || $0.hasPrefix("127.") || $0 == "::1" || $0 == "[::1]")
        }
    }

    /// A web archive's endpoint: an https URL (its answers become links in repaired copies), or
    /// http to a loopback address (an archive on this machine); no user information, query
    /// (the index's is pdfpipe's) or fragment.
    static func checkArchiveEndpoint(_ url: String, path: String) throws(PipelineError) {
        let p = URIReference.parse(url)
        let scheme = p.scheme?.lowercased()
        guard let host = URIReference.host(of: url), !host.isEmpty, scheme == "https" || scheme == "http",
            p.query == nil, p.fragment == nil, !(p.authority ?? "").contains("@")
        else {
            throw PipelineError(
                file: nil, path: path,
                message: "'\(url)' is not an archive endpoint: an https URL without user, query or fragment")
        }
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "[::1]"
        guard scheme == "https" || loopback else {
            throw PipelineError(
                file: nil, path: path,
                message:
                    "'\(url)': an archive is asked over https (its answers become the links of repaired copies); http only to a loopback address"
            )
        }
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
}
