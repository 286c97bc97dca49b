import PDFPipeCore
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// What counts as a refused checker (uri.blocked) and what stays a broken link (CI-gate issue, 13).
final class BotProtectionTests: XCTestCase {
    func testSignaturesAndNonSignatures() {
        XCTAssertNotNil(
            BotProtection.signature(status: 429, server: nil, signals: "x-datadome: protected; ", body: nil))
        XCTAssertNotNil(
            BotProtection.signature(
                status: 403, server: "AkamaiGHost", signals: nil, body: "<H1>Access Denied</H1> Reference #18.2f"))
        XCTAssertNotNil(
            BotProtection.signature(status: 503, server: "nginx", signals: nil, body: "<b>Incapsula incident ID</b>"))
        // Real errors: a plain 403 or 503 page, Cloudflare's own 404-like errors, another status.
        XCTAssertNil(
            BotProtection.signature(status: 403, server: "nginx", signals: nil, body: "<h1>403 Forbidden</h1>"))
        XCTAssertNil(
            BotProtection.signature(
                status: 503, server: "cloudflare", signals: nil, body: "Service Unavailable: maintenance until 10:00"))
        XCTAssertNil(
            BotProtection.signature(status: 404, server: "cloudflare", signals: "cf-mitigated: challenge; ", body: nil),
            "only 403, 429, 503")
        XCTAssertNil(
            BotProtection.signature(
                status: 403, server: "apache", signals: nil, body: String(repeating: "a", count: 70_000) + "captcha"),
            "a big page merely mentioning it")
        XCTAssertNil(BotProtection.signature(status: 403, server: "AkamaiGHost", signals: nil, body: "Forbidden"))
    }
}

/// A URL's fetch is declared once (`Codable`) for the cache file and the answers to isolated
/// workers (#33, 5): the cache form leaves out what is for this run only; both read back whole.
final class URLFetchCodingTests: XCTestCase {
    func testCacheAndWorkerFormsReadBack() throws {
        var f = URLFetch(url: "https://example.com/a")
        f.status = 200
        f.finalURL = "https://example.com/b"
        f.redirects = [URLFetch.Hop(url: "https://example.com/a", status: 301)]
        f.attempts = 2
        f.checkedAt = 1_700_000_000.5
        f.contentType = "application/pdf"
        f.fromCache = true
        f.anchors = ["intro", "usage"]
        var doc = RemoteDocument()
        doc.pageCount = 3
        doc.tree = [Array("ch1".utf8): 2, [0xFF, 0x00]: nil]
        f.document = doc

        let full = f.fullJSON
        XCTAssertEqual(URLFetch(json: full), f)
        let cached = f.json
        XCTAssertNil(cached["fromCache"])
        XCTAssertNil(cached["document"])
        XCTAssertNil(cached["anchors"])
        XCTAssertEqual(cached["status"], 200)
        var expected = f
        expected.fromCache = false
        expected.document = nil
        expected.anchors = nil
        XCTAssertEqual(URLFetch(json: cached), expected)

        // No answer: no status is written, and none is read back.
        var none = URLFetch(url: "https://example.com/down")
        none.failure = .unreachable
        XCTAssertNil(none.json["status"], "no answer: no status")
        XCTAssertEqual(URLFetch(json: none.json)?.failure, .unreachable)

        // A cache entry from another version: fields missing or of an unknown kind are defaults.
        let old: JSONValue = ["url": "https://example.com/x", "finalURL": "https://example.com/x", "failure": "gone"]
        let read = try XCTUnwrap(URLFetch(json: old))
        XCTAssertEqual(read.attempts, 1)
        XCTAssertNil(read.failure)
        XCTAssertNil(URLFetch(json: ["url": "https://example.com/x"]), "no finalURL: not an entry")

        // The worker channel: keys asked, fetches answered.
        let keys = [URLChecker.Key(url: "https://example.com/a", download: true)]
        XCTAssertEqual(URLChecker.keys(from: URLChecker.request(keys)), keys)
        XCTAssertEqual(URLChecker.fetches(from: URLChecker.answer([keys[0]: f])), [keys[0]: f])
    }
}
