import PDFBridge
import XCTest

/// (#42, 11) One proxy decision, libcurl's: pdfpipe reads the environment as libcurl does and
/// gives libcurl the result, so the address policy always meets the connection really made.
final class ProxyDecisionTests: XCTestCase {
    func proxy(_ url: String, _ env: [String: String]) -> String? { HTTPConnection.proxy(for: url, environment: env) }

    func testTheEnvironmentIsReadAsLibcurlReadsIt() {
        let p = "http://proxy.example:3128"
        XCTAssertEqual(proxy("http://a.example/", ["http_proxy": p]), p)
        XCTAssertNil(proxy("http://a.example/", ["HTTP_PROXY": p]), "HTTP_PROXY is ignored (httpoxy)")
        XCTAssertEqual(proxy("https://a.example/", ["HTTPS_PROXY": p]), p)
        XCTAssertEqual(proxy("https://a.example/", ["ALL_PROXY": p]), p)
        XCTAssertNil(proxy("https://a.example/", ["http_proxy": p]), "the scheme's own variable")
        XCTAssertNil(proxy("http://a.example/", ["http_proxy": ""]), "empty is unset")
    }

    func testNoProxyAsLibcurlMatchesIt() {
        let p = ["http_proxy": "http://proxy.example:3128"]
        func direct(_ url: String, _ noProxy: [String: String]) -> Bool { proxy(url, p.merging(noProxy) { $1 }) == nil }
        // Trailing dots on either side, leading dots, subdomains, case.
        XCTAssertTrue(direct("http://foo.localhost:8080/", ["no_proxy": "localhost."]))
        XCTAssertTrue(direct("http://foo.localhost.:8080/", ["no_proxy": "localhost"]))
        XCTAssertTrue(direct("http://Docs.Example.COM/", ["no_proxy": ".example.com"]))
        XCTAssertFalse(direct("http://notexample.com/", ["no_proxy": "example.com"]))
        // An empty no_proxy is unset: NO_PROXY counts.
        XCTAssertTrue(direct("http://foo.localhost/", ["no_proxy": "", "NO_PROXY": "localhost"]))
        XCTAssertFalse(direct("http://foo.localhost/", ["no_proxy": "other", "NO_PROXY": "localhost"]))
        // `*` alone; blanks and commas; an entry with a port matches nothing.
        XCTAssertTrue(direct("http://any.example/", ["no_proxy": "*"]))
        XCTAssertTrue(direct("http://b.example/", ["no_proxy": "a.example b.example"]))
        XCTAssertFalse(direct("http://a.example:8080/", ["no_proxy": "a.example:8080"]))
        // Addresses: exact, CIDR, IPv6 with or without brackets.
        XCTAssertTrue(direct("http://127.0.0.1:9/", ["no_proxy": "127.0.0.0/8"]))
        XCTAssertFalse(direct("http://128.0.0.1:9/", ["no_proxy": "127.0.0.0/8"]))
        XCTAssertTrue(direct("http://[::1]:9/", ["no_proxy": "::1"]))
        XCTAssertTrue(direct("http://[fd00::5]/", ["no_proxy": "fd00::/8"]))
        XCTAssertFalse(direct("http://[fe80::5]/", ["no_proxy": "fd00::/8"]))
    }
}
