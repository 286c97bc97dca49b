import CCurl
import Foundation

/// What one HTTP request gave.
public struct HTTPResponse: Sendable, Equatable {
    public enum Failure: Sendable, Equatable {
        /// No answer within the time limit.
        case timeout
        /// DNS, connection or TLS failure (with libcurl's text).
        case unreachable(String)
        /// Not requested: the host resolved to an address the policy forbids (loopback, private, …).
        case blockedAddress(String)
        /// Anything else libcurl reports.
        case other(String)
    }

    /// The status line's code, nil when no response arrived.
    public var status: Int?
    /// A redirect's target, as the `Location` header gives it (perhaps relative).
    public var location: String?
    /// `Retry-After` in seconds (both forms: seconds and HTTP date), nil when absent.
    public var retryAfter: Double?
    public var contentType: String?
    public var failure: Failure?
    /// A download stopped at its size limit.
    public var truncated = false
    /// The `Server` header.
    public var server: String?
    /// Headers bot protections send (`cf-mitigated: challenge; `…), as received.
    public var signals: String?
    /// The start (up to 8 KB) of a body that was read and dropped: what an error page says.
    public var snippet: String?

    public init(status: Int? = nil, failure: Failure? = nil) {
        self.status = status
        self.failure = failure
    }
}

/// One libcurl easy handle and its transfer state. Not Sendable: a connection belongs to one thread
/// (libcurl handles must not be used by two threads at once); it keeps connections to servers open
/// between requests, so checking many URLs of one site reuses them.
///
/// Why libcurl rather than `URLSession` (FoundationNetworking, itself built on libcurl): the link
/// checker needs to see every redirect hop (to detect loops and permanent moves and to apply the
/// address policy to each), to vet the address actually connected to (a socket callback, so a name
/// that resolves to a public address at check time and a private one at connect time is still
/// caught), to stop GET bodies after the headers, and separate connect and total time limits.
/// URLSession on Linux offers none of these without its delegate machinery, and none of the socket one.
public final class HTTPConnection {
    private let handle: UnsafeMutableRawPointer
    private let transfer: UnsafeMutablePointer<pdfpipe_transfer>
    private let userAgent: UnsafeMutablePointer<CChar>

    private static let globalInit: Bool = pdfpipe_curl_global_init() == 0

    public init(userAgent: String, allowPrivateAddresses: Bool) throws(BridgeError) {
        guard HTTPConnection.globalInit, let h = curl_easy_init() else {
            throw BridgeError.curl(message: "libcurl could not be initialised")
        }
        handle = h
        transfer = .allocate(capacity: 1)
        transfer.initialize(to: pdfpipe_transfer())
        transfer.pointee.allow_private = allowPrivateAddresses ? 1 : 0
        transfer.pointee.discard_limit = 64 << 10
        self.userAgent = strdup(userAgent)
        pdfpipe_curl_setup(handle, transfer, self.userAgent)
    }

    deinit {
        curl_easy_cleanup(handle)
        transfer.deinitialize(count: 1)
        transfer.deallocate()
        free(userAgent)
    }

    /// True when libcurl would send this URL through a proxy (from `http_proxy`, `https_proxy`,
    /// `all_proxy`, minus `no_proxy`): the socket then goes to the proxy, so the address policy
    /// must be applied to the target's name beforehand (`Self.resolvesToPrivateAddress`).
    private static let environment = ProcessInfo.processInfo.environment

    public static func proxyConfigured(for url: String) -> Bool {
        let env = environment
        let lower = url.lowercased()
        let names =
            lower.hasPrefix("https:")
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        guard names.contains(where: { !(env[$0] ?? "").isEmpty }) else { return false }
        let noProxy = (env["no_proxy"] ?? env["NO_PROXY"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if noProxy.contains("*") { return false }
        let host = URLParts.host(of: url) ?? ""
        return !noProxy.contains { entry in
            let e = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return !e.isEmpty && (host == e || host.hasSuffix("." + e))
        }
    }

    /// Resolves a host name and tells whether any of its addresses is loopback, private, link-local,
    /// multicast or unspecified (the address it is, when so). Nil when it resolves to public addresses only
    /// or does not resolve (the request then reports the DNS failure).
    public static func privateAddress(of host: String) -> String? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if pdfpipe_text_address_is_private(bare) == 1 { return bare }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let ai = p {
            if let sa = ai.pointee.ai_addr, pdfpipe_address_is_private(sa) == 1 {
                var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                getnameinfo(sa, ai.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            p = ai.pointee.ai_next
        }
        return nil
    }

    /// True for addresses that the default policy refuses (exposed for tests and documentation).
    public static func isPrivateAddress(_ text: String) -> Bool? {
        switch pdfpipe_text_address_is_private(text) {
        case 1: true
        case 0: false
        default: nil
        }
    }

    /// One request, redirects not followed. HEAD, or GET: a body of known size up to 64 KB is read
    /// and dropped (the connection stays open for the next request), a bigger one or one of unknown
    /// size is not waited for (the transfer stops after the headers and the connection closes);
    /// unless `download` names a file for the body (at most `limit` bytes).
    public func request(
        _ url: String, head: Bool, headers: [String], timeout: Double, connectTimeout: Double,
        download: (path: String, limit: Int)? = nil
    ) -> HTTPResponse {
        var list: UnsafeMutablePointer<curl_slist>?
        for h in headers { list = curl_slist_append(list, h) }
        defer { curl_slist_free_all(list) }
        var file: UnsafeMutablePointer<FILE>?
        if let download {
            file = fopen(download.path, "wb")
            guard file != nil else { return HTTPResponse(failure: .other("cannot write \(download.path)")) }
            transfer.pointee.body = file
            transfer.pointee.body_limit = Int64(download.limit)
        } else {
            transfer.pointee.body = nil
        }
        defer {
            if let file { fclose(file) }
            transfer.pointee.body = nil
        }
        // Through a proxy the socket goes to the proxy: the policy was applied to the name instead.
        let viaProxy = HTTPConnection.proxyConfigured(for: url)
        let code = pdfpipe_curl_request(
            handle, transfer, url, head ? 1 : 0, list, Int(max(1, timeout * 1000)), Int(max(1, connectTimeout * 1000)),
            viaProxy ? 1 : 0)
        var r = HTTPResponse()
        let status = pdfpipe_curl_status(handle)
        if status > 0 { r.status = status }
        func text(_ p: UnsafePointer<CChar>) -> String {
            String(decoding: UnsafeRawBufferPointer(start: p, count: strlen(p)), as: UTF8.self)
        }
        // From the header callback: the transfer may have been stopped after the headers, before
        // libcurl computes its own redirect URL. The Location is resolved by the caller.
        let location = text(pdfpipe_transfer_location(transfer))
        if !location.isEmpty { r.location = location }
        let contentType = text(pdfpipe_transfer_content_type(transfer))
        if !contentType.isEmpty { r.contentType = contentType }
        let server = text(pdfpipe_transfer_server(transfer))
        if !server.isEmpty { r.server = server }
        let signals = text(pdfpipe_transfer_signals(transfer))
        if !signals.isEmpty { r.signals = signals }
        if download == nil, transfer.pointee.snippet_len > 0 { r.snippet = text(pdfpipe_transfer_snippet(transfer)) }
        let retry = pdfpipe_retry_after_seconds(pdfpipe_transfer_retry_after(transfer))
        if retry >= 0 { r.retryAfter = Double(retry) }
        r.truncated = transfer.pointee.body_truncated != 0
        let message = withUnsafeBytes(of: &transfer.pointee.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        switch code {
        case CURLE_OK:
            break
        case CURLE_WRITE_ERROR
        where transfer.pointee.headers_done != 0
            || (transfer.pointee.got_body != 0 && (download == nil || r.truncated)):
            break  // we stopped the transfer on purpose: after the headers, or at the size limit
        case CURLE_OPERATION_TIMEDOUT:
            r.failure = .timeout
        case CURLE_COULDNT_CONNECT where transfer.pointee.blocked != 0:
            let address = withUnsafeBytes(of: &transfer.pointee.blocked_address) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            r.failure = .blockedAddress(address)
            r.status = nil
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            r.failure = .unreachable("DNS: \(text)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            r.failure = .other(text)
        case CURLE_PARTIAL_FILE where r.status != nil && download == nil:
            break  // the headers arrived; the body does not matter
        default:
            r.failure = .unreachable(text)
        }
        return r
    }
}

/// Small helpers on URL text (no Foundation URL: it rewrites what it parses).
public enum URLParts {
    /// The lower-cased host of an absolute URL (without brackets for IPv6), nil when there is none.
    public static func host(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        var rest = url[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            return String(rest[rest.index(after: rest.startIndex)..<close]).lowercased()
        }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.isEmpty ? nil : rest.lowercased()
    }
}
