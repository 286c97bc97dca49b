import XCTest

@testable import PDFPipeStages

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
