import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#65) Successes that are not the page meant, against the loopback server's three sites: a site
/// without 404s (127.0.0.2), a parked domain (127.0.0.3), a page behind a sign-in.
extension ExternalLinkTests {
    func site(_ n: Int) -> String { "http://127.0.0.\(n):\(port)" }

    func testSilentPassesAreSaidWithTheirEvidence() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // A real page whose title is about errors, on the host without 404s: not its error page.
        let healthy = [
            base + "/ok", base + "/page.html", base + "/r/301/ok", site(2) + "/welcome",
            site(2) + "/http-404-explained",
        ]
        try writeLinks(
            dir + "/in/a.pdf",
            [
                site(2) + "/moved-away", site(3) + "/docs/guide", base + "/account/private",
                base + "/r/301/account/private",
            ]
                + healthy)
        // A second document on the same hosts: each host is still asked its made-up path once.
        try writeLinks(dir + "/in/b.pdf", [site(2) + "/another", site(3) + "/"])
        let external = #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}"#
        let (_, report, stderr) = try run(external, then: #", {"use": "fix-links"}"#)
        let docs = try XCTUnwrap(report["documents"]?.arrayValue, stderr)
        func said(_ doc: JSONValue) -> [String: String] {
            var out: [String: String] = [:]
            for f in doc["findings"]?.arrayValue ?? [] where f["severity"] != "note" {
                out[f["uri"]?.stringValue ?? ""] = f["rule"]?.stringValue
            }
            return out
        }
        XCTAssertEqual(
            said(docs[0]),
            [
                site(2) + "/moved-away": "uri.soft-404", site(3) + "/docs/guide": "uri.parked",
                base + "/account/private": "uri.login-wall", base + "/r/301/account/private": "uri.login-wall",
            ])
        XCTAssertEqual(said(docs[1]), [site(2) + "/another": "uri.soft-404", site(3) + "/": "uri.parked"])
        // The evidence: the page's title, and the host's answer to a path that cannot exist.
        let soft = try XCTUnwrap(docs[0]["findings"]?.arrayValue?.first { $0["rule"] == "uri.soft-404" })
        let message = soft["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("its page says 'Page not found | Soft Site'"), message)
        XCTAssertTrue(message.contains("answers 200 to a path that cannot exist"), message)
        XCTAssertEqual(soft["severity"], "warning")
        // Each link's check says it, and none is fixed: a permanent redirect to a sign-in page is
        // not where the link should go.
        let checks = (docs[0]["links"]?.arrayValue ?? []).map { $0["check"]?["outcome"]?.stringValue ?? "" }
        XCTAssertEqual(checks.filter { $0 == "ok" || $0 == "redirected" }.count, healthy.count, "\(checks)")
        let fixed = (docs[0]["fixes"]?["changed"]?.arrayValue ?? []).compactMap { $0["from"]?.stringValue }
        XCTAssertEqual(fixed, [base + "/r/301/ok"])

        // One probe per host over both documents; the healthy site's pages were not read.
        let requests = try serverLog().map { $0[0] + " " + $0[1] }
        XCTAssertEqual(requests.filter { $0.contains("/pdfpipe-probe-") }.count, 3, "\(requests)")
        XCTAssertFalse(requests.contains("GET /ok"), "\(requests)")
        XCTAssertTrue(requests.contains("GET /welcome"), "a soft site's real page is read, and passes")
        XCTAssertTrue(requests.contains("GET /http-404-explained"), "read, and not the host's error page")

        // probeHosts off: no probe, and the soft 404 and the parked page pass as before.
        try FileManager.default.removeItem(atPath: dir + "/out")
        let (_, off, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3, "probeHosts": false}"#
        )
        let rules = (off["documents"]?.arrayValue ?? []).flatMap { $0["findings"]?.arrayValue ?? [] }.compactMap {
            $0["rule"]?.stringValue
        }
        XCTAssertEqual(Set(rules).intersection(["uri.soft-404", "uri.parked"]), [])
        XCTAssertTrue(rules.contains("uri.login-wall"), "a redirect to a sign-in page needs no probe")
    }
}
