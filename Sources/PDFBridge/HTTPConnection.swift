import CCurl
import Foundation
import SystemIO

/// What one HTTP request gave.
package struct HTTPResponse: Sendable, Equatable {
    package enum Failure: Sendable, Equatable {
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
    package var status: Int?
    /// A redirect's target, as the `Location` header gives it (perhaps relative).
    package var location: String?
    /// `Retry-After` in seconds (both forms: seconds and HTTP date), nil when absent.
    package var retryAfter: Double?
    package var contentType: String?
    package var failure: Failure?
    /// A download stopped at its size limit.
    package var truncated = false
    /// The `Server` header.
    package var server: String?
    /// Headers bot protections send (`cf-mitigated: challenge; `…), as received.
    package var signals: String?
    /// The start (up to 8 KB) of a body that was read and dropped: what an error page says.
    package var snippet: String?

    package init(status: Int? = nil, failure: Failure? = nil) {
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
package final class HTTPConnection {
    private let handle: UnsafeMutableRawPointer
    private let transfer: UnsafeMutablePointer<pdfpipe_transfer>
    private let userAgent: UnsafeMutablePointer<CChar>

    private static let globalInit: Bool = pdfpipe_curl_global_init() == 0

    package init(userAgent: String, allowPrivateAddresses: Bool) throws(BridgeError) {
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
        release()
        curl_easy_cleanup(handle)
        transfer.deinitialize(count: 1)
        transfer.deallocate()
        free(userAgent)
    }

    /// The proxy decision, made once: pdfpipe decides from the environment the way libcurl does,
    /// and hands libcurl that decision explicitly (`CURLOPT_PROXY`, and `CURLOPT_NOPROXY` ""), so
    /// that the address policy (per socket when direct; the target's resolved name when through a
    /// proxy) is always applied to the connection that is really made. Before, pdfpipe's reading
    /// of `no_proxy` and libcurl's differed (trailing dots, an empty `no_proxy` beside `NO_PROXY`),
    /// and a direct connection to loopback went unchecked.
    private static let environment = Environment.all

    package static func proxyConfigured(for url: String) -> Bool { proxy(for: url, environment: environment) != nil }

    /// The proxy for `url` as libcurl reads the environment: `http_proxy` (lower case only: libcurl
    /// ignores `HTTP_PROXY`, which a CGI request header could set), `https_proxy` or `HTTPS_PROXY`
    /// (and so for other schemes), then `all_proxy` or `ALL_PROXY`; an empty variable counts as
    /// unset. Nil when none applies, or when `no_proxy` (else `NO_PROXY`) exempts the host.
    package static func proxy(for url: String, environment env: [String: String]) -> String? {
        func get(_ name: String) -> String? { env[name].flatMap { $0.isEmpty ? nil : $0 } }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        var value = get(scheme + "_proxy")
        if value == nil, scheme != "http" { value = get(scheme.uppercased() + "_PROXY") }
        if value == nil { value = get("all_proxy") ?? get("ALL_PROXY") }
        guard let proxy = value else { return nil }
        let exempt = get("no_proxy") ?? get("NO_PROXY")
        if let exempt, noProxy(exempt, matches: URLParts.host(of: url) ?? "") { return nil }
        return proxy
    }

    /// libcurl's `no_proxy` matching (Curl_check_noproxy): `*` alone exempts every host; entries are
    /// separated by commas or blanks; a name matches itself and its subdomains (a leading dot and
    /// trailing dots, on either side, do not count), case aside; an address matches itself or a
    /// CIDR range (`10.0.0.0/8`, `fd00::/8`); an IPv6 host is compared without its brackets. An
    /// entry with a port matches nothing (libcurl takes none).
    static func noProxy(_ list: String, matches rawHost: String) -> Bool {
        let trimmedList = list.trimmingCharacters(in: .whitespaces)
        if trimmedList == "*" { return true }
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { return false }
        let hostAddress = IPAddress(host)
        for raw in list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            var entry = raw.lowercased()
            if let address = hostAddress {
                var bits: Int?
                if let slash = entry.firstIndex(of: "/") {
                    bits = Int(entry[entry.index(after: slash)...])
                    entry = String(entry[..<slash])
                }
                if entry.hasPrefix("["), entry.hasSuffix("]") { entry = String(entry.dropFirst().dropLast()) }
                if let e = IPAddress(entry), e.matches(address, bits: bits) { return true }
                continue
            }
            while entry.hasPrefix(".") { entry.removeFirst() }
            while entry.hasSuffix(".") { entry.removeLast() }
            guard !entry.isEmpty else { continue }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }

    /// An IPv4 or IPv6 address's bytes, for `no_proxy` ranges.
    struct IPAddress {
        var bytes: [UInt8]

        init?(_ text: String) {
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                bytes = withUnsafeBytes(of: &v4) { Array($0) }
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                bytes = withUnsafeBytes(of: &v6) { Array($0) }
            } else {
                return nil
            }
        }

        /// Whether `other` is this address, or in its first `bits` bits.
        func matches(_ other: IPAddress, bits: Int?) -> Bool {
            guard other.bytes.count == bytes.count else { return false }
            let n = min(max(bits ?? bytes.count * 8, 0), bytes.count * 8)
            for i in 0..<(n / 8) where bytes[i] != other.bytes[i] { return false }
            if n % 8 != 0 {
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - n % 8))
                if bytes[n / 8] & mask != other.bytes[n / 8] & mask { return false }
            }
            return true
        }
    }

    /// Resolves a host name and tells whether any of its addresses is loopback, private, link-local,
    /// multicast or unspecified (the address it is, when so). Nil when it resolves to public addresses only
    /// or does not resolve (the request then reports the DNS failure).
    package static func privateAddress(of host: String) -> String? {
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
    package static func isPrivateAddress(_ text: String) -> Bool? {
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
    package func request(
        _ url: String, head: Bool, headers: [String], timeout: Double, connectTimeout: Double,
        download: (path: String, limit: Int)? = nil
    ) -> HTTPResponse {
        if let refused = prepare(
            url, head: head, headers: headers, timeout: timeout, connectTimeout: connectTimeout, download: download)
        {
            return refused
        }
        return response(curl_easy_perform(handle))
    }

    // The request being prepared or in flight: its header list and body file, released by `response`.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var file: UnsafeMutablePointer<FILE>?
    private var downloading = false

    /// Sets up a request (as `request` describes) without performing it, for `HTTPMulti`; nil when
    /// it is ready, else the answer it already has (the download file cannot be written). Every
    /// prepared request is ended by `response`. `fresh`: on a new connection. `readStart`: a GET
    /// body is read up to 64 KB whatever its size (its first 8 KB are the answer's `snippet`).
    package func prepare(
        _ url: String, head: Bool, headers: [String], timeout: Double, connectTimeout: Double,
        download: (path: String, limit: Int)? = nil, fresh: Bool = false, readStart: Bool = false
    ) -> HTTPResponse? {
        release()
        for h in headers { headerList = curl_slist_append(headerList, h) }
        downloading = download != nil
        if let download {
            file = fopen(download.path, "wb")
            guard file != nil else {
                release()
                return HTTPResponse(failure: .other("cannot write \(download.path)"))
            }
            transfer.pointee.body = file
            transfer.pointee.body_limit = Int64(download.limit)
        } else {
            transfer.pointee.body = nil
        }
        // Through a proxy the socket goes to the proxy: the policy was applied to the name instead.
        let proxy = HTTPConnection.proxy(for: url, environment: HTTPConnection.environment)
        pdfpipe_curl_prepare(
            handle, transfer, url, head ? 1 : 0, headerList, Int(max(1, timeout * 1000)),
            Int(max(1, connectTimeout * 1000)), proxy ?? "", fresh ? 1 : 0)
        if readStart { transfer.pointee.stop_after_headers = 0 }
        return nil
    }

    private func release() {
        if let file { fclose(file) }
        file = nil
        transfer.pointee.body = nil
        curl_slist_free_all(headerList)
        headerList = nil
    }

    /// What the prepared request gave, libcurl's result `code` in hand; releases what it held.
    package func response(_ code: CURLcode) -> HTTPResponse {
        let download = downloading
        release()
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
        if !download, transfer.pointee.snippet_len > 0 { r.snippet = text(pdfpipe_transfer_snippet(transfer)) }
        let retry = pdfpipe_retry_after_seconds(pdfpipe_transfer_retry_after(transfer))
        if retry >= 0 { r.retryAfter = Double(retry) }
        r.truncated = transfer.pointee.body_truncated != 0
        classify(code, download: download, into: &r)
        return r
    }

    /// What libcurl's result says of the transfer: nothing (it ended, or was stopped on purpose),
    /// or a failure (a timeout, a refused address, DNS, a connection error).
    private func classify(_ code: CURLcode, download: Bool, into r: inout HTTPResponse) {
        let message = withUnsafeBytes(of: &transfer.pointee.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        switch code {
        case CURLE_OK:
            break
        case CURLE_WRITE_ERROR
        where transfer.pointee.headers_done != 0
            || (transfer.pointee.got_body != 0 && (!download || r.truncated)):
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
        case CURLE_PARTIAL_FILE where r.status != nil && !download:
            break  // the headers arrived; the body does not matter
        default:
            r.failure = .unreachable(text)
        }
    }

    /// The libcurl easy handle, for `HTTPMulti`.
    fileprivate var easy: UnsafeMutableRawPointer { handle }
}

/// Many requests in flight on one thread: libcurl's multi interface, which drives every added
/// connection's transfer without blocking (its resolver runs on libcurl's own threads) and keeps
/// the connections to servers for reuse across them. Not Sendable but for `wakeup`: one thread
/// adds, performs and polls (`Waker` may be used from any).
package final class HTTPMulti {
    private let multi: UnsafeMutableRawPointer
    private var running: [UnsafeMutableRawPointer: HTTPConnection] = [:]

    package init() throws(BridgeError) {
        guard let m = pdfpipe_multi_init() else { throw BridgeError.curl(message: "libcurl could not be initialised") }
        multi = m
    }

    deinit {
        for (easy, _) in running { curl_multi_remove_handle(multi, easy) }
        running.removeAll()
        curl_multi_cleanup(multi)
    }

    /// Transfers in flight.
    package var count: Int { running.count }

    /// Starts a prepared connection's request (`HTTPConnection.prepare`).
    package func add(_ connection: HTTPConnection) {
        running[connection.easy] = connection
        curl_multi_add_handle(multi, connection.easy)
    }

    /// Moves every transfer on; returns the ones that finished, each with its answer.
    package func perform() -> [(connection: HTTPConnection, response: HTTPResponse)] {
        var alive: Int32 = 0
        curl_multi_perform(multi, &alive)
        var done: [(HTTPConnection, HTTPResponse)] = []
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while pdfpipe_multi_next_done(multi, &easy, &code) == 1, let e = easy {
            curl_multi_remove_handle(multi, e)
            if let c = running.removeValue(forKey: e) { done.append((c, c.response(code))) }
        }
        return done
    }

    /// Waits for network activity, `wakeup` or at most `milliseconds`.
    package func poll(milliseconds: Int) {
        var events: Int32 = 0
        curl_multi_poll(multi, nil, 0, Int32(clamping: max(0, milliseconds)), &events)
    }

    /// What other threads may use: it ends a `poll` early.
    package var waker: Waker { Waker(multi: multi) }

    package struct Waker: @unchecked Sendable {
        // curl_multi_wakeup is documented as safe to call from any thread while another polls.
        fileprivate let multi: UnsafeMutableRawPointer
        package func wakeup() { curl_multi_wakeup(multi) }
    }
}
