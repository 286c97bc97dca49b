import CCurl
import Foundation
import SystemIO

/// A client of S3's API for one thread: one libcurl easy handle (connections reused), requests
/// signed with SigV4 by libcurl (`CURLOPT_AWS_SIGV4`, with `x-amz-content-sha256:
/// UNSIGNED-PAYLOAD`). Not Sendable: each thread makes its own.
///
/// Retries, with doubling delays (0.2 s … 6.4 s, jittered): connection failures and resets,
/// timeouts, 500, 502, 503 (`SlowDown`), 504, and 409 on a create-only write (a concurrent create).
/// 403 and 404 are not retried: an error that names the bucket and key.
package final class S3Client {
    package let settings: S3Settings
    private let handle: UnsafeMutableRawPointer
    private let result: UnsafeMutablePointer<pdfpipe_s3_result>
    /// Attempts for a request that can be retried.
    package var attempts = 6
    /// Waits between attempts (tests pass one that does not sleep).
    package var sleep: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    /// Keys per listing page (S3's maximum and default is 1,000).
    package var pageSize = 1000
    /// Bounds on what a store's answers may cost (docs/security.md): a listing stops with an
    /// error past `maxListPages` pages, `maxListKeys` keys or `maxListSeconds`, or when a page's
    /// continuation token repeats; a download past `maxObjectBytes` is stopped (and an object the
    /// listing says is larger is not fetched: the caller checks). `PDFPIPE_S3_MAX_KEYS` and
    /// `PDFPIPE_S3_MAX_OBJECT_MB` set the last two.
    package var maxListPages = 10_000
    package var maxListKeys = 1_000_000
    package var maxListSeconds = 900.0
    package var maxObjectBytes = 2048 << 20
    package var timeoutSeconds = 300.0
    /// Requests sent (retries included), for tests and statistics.
    package private(set) var requests = 0
    package private(set) var retries = 0

    package init(settings: S3Settings) throws(S3Error) {
        guard pdfpipe_curl_global_init() == 0, let h = curl_easy_init() else {
            throw S3Error(location: "s3://", status: nil, code: "curl", message: "libcurl could not be initialised")
        }
        self.settings = settings
        handle = h
        result = .allocate(capacity: 1)
        result.initialize(to: pdfpipe_s3_result())
        result.pointee.body_cap = 16 << 20
        let env = Environment.all
        if let n = env["PDFPIPE_S3_PAGE_SIZE"].flatMap(Int.init), (1...1000).contains(n) { pageSize = n }
        if let n = env["PDFPIPE_S3_MAX_KEYS"].flatMap(Int.init), n >= 1 { maxListKeys = n }
        if let n = env["PDFPIPE_S3_MAX_OBJECT_MB"].flatMap(Int.init), (1...(1 << 30)).contains(n) {
            maxObjectBytes = n << 20
        }
    }

    deinit {
        pdfpipe_s3_result_free(result)
        result.deinitialize(count: 1)
        result.deallocate()
        curl_easy_cleanup(handle)
    }

    // MARK: - Addressing

    /// A key's path, each byte encoded but the unreserved ones and `/` (SigV4's canonical URI for S3).
    static func encodePath(_ key: String) -> String { encode(key, keep: "/") }

    /// Encodes every byte but `A-Z a-z 0-9 - _ . ~` (and `keep`), as `%XX` in upper case.
    static func encode(_ s: String, keep: String = "") -> String {
        var out = ""
        let keepBytes = Set(keep.utf8)
        for b in s.utf8 {
            let c = Character(Unicode.Scalar(b))
            if (b < 0x80 && (c.isLetter || c.isNumber)) || "-_.~".utf8.contains(b) || keepBytes.contains(b) {
                out.append(c)
            } else {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The request URL: path-style on a custom endpoint, virtual-hosted on AWS's (path-style there
    /// too for a bucket name with dots, which TLS certificates do not cover). The query is sorted by
    /// name and encoded: libcurl 7.88 signs the query as it is given, and S3 compares the canonical form.
    func url(bucket: String, key: String?, query: [(String, String)] = []) -> String {
        var base: String
        let path = key.map { "/" + Self.encodePath($0) } ?? "/"
        if let endpoint = settings.endpoint {
            base = endpoint + "/" + Self.encode(bucket) + (key.map { "/" + Self.encodePath($0) } ?? "")
        } else if bucket.contains(".") {
            base =
                "https://s3.\(settings.region).amazonaws.com/" + bucket + (key.map { "/" + Self.encodePath($0) } ?? "")
        } else {
            base = "https://\(bucket).s3.\(settings.region).amazonaws.com" + path
        }
        if !query.isEmpty {
            let q = query.map { (Self.encode($0.0), Self.encode($0.1)) }.sorted { $0.0 < $1.0 }
            base += "?" + q.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
        }
        return base
    }

    // MARK: - Requests

    struct Answer {
        var status: Int
        var etag: String
        var body: [UInt8]
    }

    enum Body {
        case none
        case bytes([UInt8])
        case file(String)
    }

    /// One request, retried as the type says; throws on a failure that is not an answer.
    private func send(
        _ method: String, bucket: String, key: String?, query: [(String, String)] = [], headers extra: [String] = [],
        body: Body = .none, download: String? = nil, retryConflict: Bool = false
    ) throws(S3Error) -> Answer {
        let location = "s3://\(bucket)/\(key ?? "")"
        var attempt = 0
        while true {
            attempt += 1
            let a = try sendOnce(
                method, url: url(bucket: bucket, key: key, query: query), location: location, headers: extra,
                body: body,
                download: download)
            let retryable: Bool
            switch a {
            case .failure(let e): retryable = e.code != "upload" && e.code != "ObjectTooLarge"
            case .success(let answer):
                retryable = [500, 502, 503, 504].contains(answer.status) || (retryConflict && answer.status == 409)
            }
            guard retryable, attempt < attempts else {
                switch a {
                case .failure(let e): throw e
                case .success(let answer): return answer
                }
            }
            retries += 1
            // Doubling from 0.2 s, jittered to 50–100 % so that retrying workers spread out.
            let delay = min(0.2 * Double(1 << (attempt - 1)), 6.4)
            sleep(delay * Double.random(in: 0.5...1.0))
        }
    }

    private func sendOnce(
        _ method: String, url: String, location: String, headers extra: [String], body: Body, download: String?
    ) throws(S3Error) -> Result<Answer, S3Error> {
        requests += 1
        var list: UnsafeMutablePointer<curl_slist>?
        let token = settings.sessionToken.map { ["x-amz-security-token: \($0)"] } ?? []
        for h in ["x-amz-content-sha256: UNSIGNED-PAYLOAD"] + extra + token { list = curl_slist_append(list, h) }
        defer { curl_slist_free_all(list) }
        var upload: UnsafeMutablePointer<FILE>?
        var uploadSize: Int64 = 0
        var bytes: [UInt8] = []
        switch body {
        case .none: break
        case .bytes(let b):
            bytes = b
            uploadSize = Int64(b.count)
        case .file(let path):
            upload = fopen(path, "rb")
            guard upload != nil else {
                throw S3Error(location: location, status: nil, code: "upload", message: "cannot read \(path)")
            }
            uploadSize = FileStatus.of(FileDescriptor(rawValue: fileno(upload)))?.size ?? 0
        }
        var tmp: String?
        var out: UnsafeMutablePointer<FILE>?
        if let download {
            tmp = download + ".part-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            out = fopen(tmp!, "wb")
            guard out != nil else {
                if let upload { fclose(upload) }
                throw S3Error(location: location, status: nil, code: "download", message: "cannot write \(download)")
            }
        }
        let code: CURLcode = bytes.withUnsafeBufferPointer { buf in
            if case .bytes = body {
                if let base = buf.baseAddress, !buf.isEmpty {
                    upload = fmemopen(UnsafeMutableRawPointer(mutating: base), buf.count, "rb")
                } else {
                    upload = fopen("/dev/null", "rb")
                }
            }
            result.pointee.download = out
            let sig = "aws:amz:\(settings.region):s3"
            let userpwd = "\(settings.accessKey):\(settings.secretKey)"
            return pdfpipe_s3_request(
                handle, method, url, sig, userpwd, list, upload, uploadSize, result, Int(timeoutSeconds * 1000), 30_000)
        }
        if let upload { fclose(upload) }
        if let out { fclose(out) }
        result.pointee.download = nil
        let r = result.pointee
        guard code == CURLE_OK else {
            if let tmp { FileSystem.unlink(tmp) }
            return .failure(Self.transferFailure(r, code, location: location))
        }
        let answer = Self.answer(r)
        if let tmp, let download {
            // A download is renamed into place only when it is the object (2xx).
            guard (200..<300).contains(answer.status) else {
                FileSystem.unlink(tmp)
                return .success(answer)
            }
            if FileSystem.rename(tmp, download) != 0 {
                FileSystem.unlink(tmp)
                throw S3Error(location: location, status: nil, code: "download", message: "cannot write \(download)")
            }
        }
        return .success(answer)
    }

    /// A transfer that did not complete: stopped at the download cap, or libcurl's error.
    private static func transferFailure(_ r: pdfpipe_s3_result, _ code: CURLcode, location: String) -> S3Error {
        if r.download_truncated != 0 {
            return S3Error(
                location: location, status: nil, code: "ObjectTooLarge",
                message:
                    "larger than \(r.download_limit >> 20) MB (PDFPIPE_S3_MAX_OBJECT_MB): stopped while downloading")
        }
        let text = withUnsafeBytes(of: r.error) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return S3Error(
            location: location, status: nil, code: "connection",
            message: text.isEmpty ? String(cString: curl_easy_strerror(code)) : text)
    }

    /// What a finished request's state holds: the status, the ETag without quotes, a kept body.
    private static func answer(_ r: pdfpipe_s3_result) -> Answer {
        var answer = Answer(status: Int(r.status), etag: "", body: [])
        answer.etag = withUnsafeBytes(of: r.etag) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        if let p = r.body, r.body_len > 0 {
            answer.body = Array(UnsafeRawBufferPointer(start: p, count: Int(r.body_len)))
        }
        return answer
    }

    /// The error of an answer that is not a success: S3's `<Code>` and `<Message>`.
    func failure(_ a: Answer, _ location: String) -> S3Error {
        let xml = String(decoding: a.body, as: UTF8.self)
        let code = XMLText.first("Code", in: xml) ?? "HTTP \(a.status)"
        var message = XMLText.first("Message", in: xml) ?? "the store answered \(a.status)"
        if a.status == 404 && message.isEmpty { message = "not found" }
        return S3Error(location: location, status: a.status, code: code, message: message)
    }

    // MARK: - Operations

    /// Every object under `prefix` (ListObjectsV2, page by page), in key order.
    package func list(bucket: String, prefix: String) throws(S3Error) -> [S3Object] {
        var out: [S3Object] = []
        var token: String?
        var tokens = Set<String>()
        var pages = 0
        let started = SystemClock.uptimeNanoseconds
        let location = "s3://\(bucket)/\(prefix)"
        repeat {
            pages += 1
            if pages > maxListPages || SystemClock.seconds(since: started) > maxListSeconds {
                throw S3Error(
                    location: location, status: nil, code: "ListingLimit",
                    message:
                        "the listing did not end within \(maxListPages) pages or \(Int(maxListSeconds)) s (\(out.count) keys so far): not used"
                )
            }
            var query = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let a = try send("GET", bucket: bucket, key: nil, query: query)
            guard a.status == 200 else { throw failure(a, "s3://\(bucket)/\(prefix)") }
            let xml = String(decoding: a.body, as: UTF8.self)
            out += Self.objects(in: xml)
            token = try nextToken(xml, after: &tokens, keys: out.count, location: location)
        } while token != nil
        return out
    }

    /// The continuation token of a listing page, nil on the last one; an error past the key cap,
    /// or when the token repeats or is missing from a truncated page.
    private func nextToken(_ xml: String, after tokens: inout Set<String>, keys: Int, location: String) throws(S3Error)
        -> String?
    {
        if keys > maxListKeys {
            throw S3Error(
                location: location, status: nil, code: "ListingLimit",
                message:
                    "more than \(maxListKeys) keys (PDFPIPE_S3_MAX_KEYS): the listing is not used; name a narrower prefix"
            )
        }
        guard XMLText.first("IsTruncated", in: xml) == "true" else { return nil }
        guard let token = XMLText.first("NextContinuationToken", in: xml) else {
            throw S3Error(
                location: location, status: nil, code: "ListingLimit",
                message: "the store says the listing goes on but gives no continuation token")
        }
        guard tokens.insert(token).inserted else {
            throw S3Error(
                location: location, status: nil, code: "ListingLimit",
                message: "the store sent the continuation token of an earlier page again: the listing would not end")
        }
        return token
    }

    /// The objects a listing page names.
    private static func objects(in xml: String) -> [S3Object] {
        XMLText.all("Contents", in: xml).compactMap { contents in
            guard let key = XMLText.first("Key", in: contents) else { return nil }
            return S3Object(
                key: key, size: XMLText.first("Size", in: contents).flatMap(Int.init) ?? 0,
                etag: (XMLText.first("ETag", in: contents) ?? "").trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"")),
                lastModified: XMLText.first("LastModified", in: contents).flatMap(Self.nanoseconds) ?? 0)
        }
    }

    /// Writes the object to `path` (through a temporary file renamed over it); one that grows
    /// past `maxObjectBytes` while it downloads is stopped and not written.
    package func download(bucket: String, key: String, to path: String) throws(S3Error) {
        result.pointee.download_limit = Int64(maxObjectBytes)
        defer { result.pointee.download_limit = 0 }
        let a = try send("GET", bucket: bucket, key: key, download: path)
        guard (200..<300).contains(a.status) else { throw failure(a, "s3://\(bucket)/\(key)") }
    }

    /// The object's bytes (none with `headOnly`: a HEAD request), or nil when there is no such key.
    package func get(bucket: String, key: String, headOnly: Bool = false) throws(S3Error) -> [UInt8]? {
        let a = try send(headOnly ? "HEAD" : "GET", bucket: bucket, key: key)
        if a.status == 404 { return nil }
        guard (200..<300).contains(a.status) else { throw failure(a, "s3://\(bucket)/\(key)") }
        return a.body
    }

    package enum PutOutcome: Sendable, Equatable {
        case written
        /// A create-only write found the key there (412): another attempt wrote it first.
        case existed
    }

    /// Writes an object from bytes or a file. `createOnly` sends `If-None-Match: *`: the object is
    /// created only if the key is free (412 otherwise: `existed`; 409, a concurrent create, retried).
    @discardableResult
    package func put(
        bucket: String, key: String, bytes: [UInt8]? = nil, file: String? = nil, createOnly: Bool = false,
        contentType: String? = nil
    ) throws(S3Error) -> PutOutcome {
        var headers: [String] = []
        if createOnly { headers.append("If-None-Match: *") }
        if let contentType { headers.append("Content-Type: \(contentType)") }
        let body: Body = file.map { .file($0) } ?? .bytes(bytes ?? [])
        let a = try send("PUT", bucket: bucket, key: key, headers: headers, body: body, retryConflict: createOnly)
        if createOnly && a.status == 412 { return .existed }
        guard (200..<300).contains(a.status) else { throw failure(a, "s3://\(bucket)/\(key)") }
        return .written
    }

    /// Makes a bucket (in the client's region's default location); one that is already yours is fine.
    package func createBucket(_ bucket: String) throws(S3Error) {
        let a = try send("PUT", bucket: bucket, key: nil)
        guard (200..<300).contains(a.status) || a.status == 409 else { throw failure(a, "s3://\(bucket)") }
    }

    package func delete(bucket: String, key: String) throws(S3Error) {
        let a = try send("DELETE", bucket: bucket, key: key)
        guard (200..<300).contains(a.status) || a.status == 404 else { throw failure(a, "s3://\(bucket)/\(key)") }
    }

    /// `2026-12-04T13:44:18.000Z` as nanoseconds since 1970.
    static func nanoseconds(_ iso: String) -> Int? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let d = f.date(from: iso) ?? ISO8601DateFormatter().date(from: iso) else { return nil }
        return Int((d.timeIntervalSince1970 * 1000).rounded()) * 1_000_000
    }
}

/// The few XML elements S3's answers need, read as text: `<Name>…</Name>`, entities decoded.
enum XMLText {
    static func all(_ name: String, in xml: String) -> [String] {
        var out: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            out.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return out
    }

    static func first(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"), let close = xml[open.upperBound...].range(of: "</\(name)>") else {
            return nil
        }
        return decode(String(xml[open.upperBound..<close.lowerBound]))
    }

    static func decode(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let hex = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                if entity.hasPrefix("#"), let v = UInt32(entity.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                    let u = Unicode.Scalar(v)
                {
                    out.unicodeScalars.append(u)
                } else {
                    out += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
