import PDFPipeWeb
import XCTest

@testable import PDFPipeStages

/// (#65) Which redirects fix-links follows: a server's word is data, so only permanent moves
/// within the link's own site (or to https) are fixes; the rest say why not.
final class LinkFixTests: XCTestCase {
    func fix(_ written: String, _ hops: [(String, Int)], final: String, resolved: String? = nil) -> String? {
        LinkFix.redirect(
            written: written, resolved: resolved ?? written,
            redirects: hops.map { URLFetch.Hop(url: $0.0, status: $0.1) },
            finalURL: final)?.to
    }

    func testOnlyPermanentMovesWithinTheSiteAreFixes() {
        XCTAssertEqual(fix("http://a.org/x#s", [("http://a.org/x", 301)], final: "http://a.org/y"), "http://a.org/y#s")
        XCTAssertEqual(
            fix("https://a.org/x", [("https://a.org/x", 308)], final: "https://www.a.org/x"), "https://www.a.org/x")
        XCTAssertEqual(fix("http://a.org/x", [("http://a.org/x", 302)], final: "https://a.org/x"), "https://a.org/x")
        // Another site: a sold or parked domain says the same 301.
        XCTAssertNil(fix("http://a.org/x", [("http://a.org/x", 301)], final: "http://parked.example/x"))
        XCTAssertNil(
            fix("http://a.org/x", [("http://a.org/x", 302), ("http://a.org/y", 301)], final: "http://a.org/z"))
        XCTAssertNil(
            fix("x.html", [("http://a.org/x.html", 301)], final: "http://a.org/y", resolved: "http://a.org/x.html"))
        XCTAssertEqual(
            LinkFix.redirectDeclined(
                written: "http://a.org/x", resolved: "http://a.org/x",
                redirects: [URLFetch.Hop(url: "http://a.org/x", status: 301)]),
            "it moves to another site; a person should judge that (a sold or parked domain redirects permanently too)")
        XCTAssertEqual(
            LinkFix.redirectDeclined(
                written: "http://a.org/x", resolved: "http://a.org/x",
                redirects: [URLFetch.Hop(url: "http://a.org/x", status: 307)]),
            "its first redirect is temporary (307): the address may change back")
        XCTAssertTrue(LinkFix.sameSite("http://user@A.org:8080/x", "https://www.a.org/"))
    }
}
