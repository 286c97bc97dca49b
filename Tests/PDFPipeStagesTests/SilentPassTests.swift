import XCTest

@testable import PDFPipeWeb

/// (#65) What tells a success that is not the page meant: a page's title and first heading, the
/// words of error and parking pages, parking services' hosts, sign-in pages, the probe's path.
final class SilentPassTests: XCTestCase {
    func testAPageSaysItsTitleHeadingAndParkingWords() {
        let page = SilentPass.Page(
            html: """
                <!doctype html><HTML><head><meta charset=utf-8><TITLE>
                  Page   not found &amp; gone | Docs</TITLE></head>
                <body><h1 class="x">Sorry, <em>that</em> page doesn&#39;t exist</h1><h1>second</h1></body>
                """)
        XCTAssertEqual(page.title, "Page not found & gone | Docs")
        XCTAssertEqual(page.heading, "Sorry, that page doesn't exist")
        XCTAssertEqual(page.saysNotFound, "Page not found & gone | Docs")
        XCTAssertNil(page.parking)
        // `<h1>` is not `<h10>` or `<header>`; no closing tag, no element.
        XCTAssertNil(SilentPass.Page(html: "<header>404</header><h10>x</h10>").heading)
        XCTAssertNil(SilentPass.Page(html: "<title>unclosed").title)
        XCTAssertEqual(SilentPass.Page(html: "<titles>no</titles><title>Real</title>").title, "Real")
        // A hostile page of 10,000 unclosed tags: no title, read once (the fuzzer's seed too).
        XCTAssertNil(SilentPass.Page(html: String(repeating: "<title>x", count: 10_000)).title)
        let healthy = SilentPass.Page(html: "<title>Install guide</title><h1>Installing</h1>")
        XCTAssertNil(healthy.saysNotFound)
        XCTAssertEqual(
            SilentPass.Page(html: "<p>This Domain Is For Sale! Make an offer</p>").parking, "this domain is for sale")
    }

    func testParkingServicesAndSignInPages() {
        XCTAssertEqual(SilentPass.parkingService("https://ww38.sedoparking.com/x?d=a"), "sedoparking.com")
        XCTAssertEqual(SilentPass.parkingService("https://www.hugedomains.com/domain_profile.cfm"), "hugedomains.com")
        XCTAssertNil(SilentPass.parkingService("https://notsedo.com/"))
        XCTAssertNil(SilentPass.parkingService("https://example.org/sedo.com"))
        for url in [
            "https://example.org/login?next=/a", "https://example.org/users/sign_in", "https://x.org/auth/SignIn/",
            "https://accounts.google.com/ServiceLogin?continue=x", "https://corp.okta.com/app/x",
            "https://example.org/wp-login.php",
        ] {
            XCTAssertTrue(SilentPass.isSignIn(url), url)
        }
        for url in [
            "https://example.org/blog/login-tips", "https://example.org/docs/signing", "https://login.example.org/",
        ] {
            XCTAssertFalse(SilentPass.isSignIn(url), url)
        }
    }

    /// The probe's path is the host's own, the same in every run, and on no site.
    func testTheProbeIsOnePathPerHost() throws {
        let a = try XCTUnwrap(SilentPass.probeURL(for: "https://Example.org:8443/docs/a?x#y"))
        XCTAssertTrue(a.hasPrefix("https://example.org:8443/pdfpipe-probe-"), a)
        XCTAssertTrue(a.hasSuffix("-not-a-page"))
        XCTAssertEqual(a, SilentPass.probeURL(for: "https://example.org:8443/other"))
        XCTAssertNotEqual(a, SilentPass.probeURL(for: "https://example.org/docs/a"))
        XCTAssertNil(SilentPass.probeURL(for: "mailto:a@example.org"))
    }

    /// A soft 404 is the host's own error page: the probe's title (or heading), its request's path
    /// aside; a page that only talks about errors is another page.
    func testTheSameErrorPageAsTheProbesIsASoft404() {
        let probeURL = "https://docs.example.org/pdfpipe-probe-0123456789abcdef-not-a-page"
        func probe(_ title: String?, _ h1: String? = nil) -> SilentPass.Page { .init(title: title, heading: h1) }
        func page(_ title: String?, _ h1: String? = nil) -> SilentPass.Page { .init(title: title, heading: h1) }
        XCTAssertEqual(
            SilentPass.sameErrorPage(
                page("Page not found | Docs"), url: "https://docs.example.org/old",
                probe: probe("Page not found | Docs"),
                probeURL: probeURL), "Page not found | Docs")
        // The path of each request in the title.
        XCTAssertEqual(
            SilentPass.sameErrorPage(
                page("/guide/install not found"), url: "https://docs.example.org/guide/install",
                probe: probe("/pdfpipe-probe-0123456789abcdef-not-a-page not found"), probeURL: probeURL),
            "/guide/install not found")
        XCTAssertNil(
            SilentPass.sameErrorPage(
                page("HTTP 404 explained | Docs"), url: "https://docs.example.org/http-404",
                probe: probe("Page not found | Docs"), probeURL: probeURL))
        // Titles the same on every page: the heading says it.
        XCTAssertEqual(
            SilentPass.sameErrorPage(
                page("Docs", "Page not found"), url: "https://docs.example.org/old",
                probe: probe("Docs", "Page not found"), probeURL: probeURL), "Page not found")
        XCTAssertNil(
            SilentPass.sameErrorPage(
                page("Docs", "Welcome"), url: "https://docs.example.org/", probe: probe("Docs", "Page not found"),
                probeURL: probeURL))
    }
}
