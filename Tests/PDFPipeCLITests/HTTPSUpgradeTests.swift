import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#65) httpsUpgrade: an http link whose https address answers the same is proposed as https,
/// against the fixture serving TLS on the same port (its certificate trusted through
/// CURL_CA_BUNDLE, as curl names the variable).
extension ExternalLinkTests {
    func testHTTPLinksThatAnswerTheSameOverHTTPSAreUpgraded() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw Prerequisite.missing("openssl is not installed")
        }
        let cert = dir + "/cert.pem"
        let key = dir + "/key.pem"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let made = try ExternalTool.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj",
                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        XCTAssertEqual(made.status, 0, made.output)
        server?.terminate()
        server?.waitUntilExit()
        (server, port) = try ExternalTool.startServer(
            Repo.root + "/scripts/http-fixture.py", ["--tls", cert, key])
        let secure = "https://127.0.0.1:\(port)"
        try writeLinks(
            dir + "/in/a.pdf",
            [
                base + "/https/same#part", base + "/https/gone", base + "/https/other-type", secure + "/https/same",
                base + "/r/301/https/same",
            ])
        let external =
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3, "httpsUpgrade": true}"#
        let (_, report, stderr) = try run(
            external, environment: ["CURL_CA_BUNDLE": cert], then: #", {"use": "fix-links"}"#)
        let doc = try XCTUnwrap(report["documents"]?.arrayValue?.first, stderr)
        let upgrades = (doc["findings"]?.arrayValue ?? []).filter { $0["rule"] == "uri.https-available" }
        XCTAssertEqual(upgrades.map { $0["uri"]?.stringValue ?? "" }, [base + "/https/same#part"], "\(doc)")
        XCTAssertTrue(upgrades.first?["message"]?.stringValue?.contains("(200, text/html)") == true)
        let changed = (doc["fixes"]?["changed"]?.arrayValue ?? []).map {
            [$0["from"]?.stringValue ?? "", $0["to"]?.stringValue ?? ""]
        }
        XCTAssertEqual(
            changed,
            [
                [base + "/https/same#part", secure + "/https/same#part"],
                // A permanent redirect's own fix (to where it leads, on http), not an https guess.
                [base + "/r/301/https/same", base + "/https/same"],
            ])
        let shown = try ExternalTool.run(
            "/usr/bin/qpdf", ["--qdf", "--object-streams=disable", dir + "/out/fixed/a.pdf", "-"])
        XCTAssertTrue(shown.output.contains("(\(secure)/https/same#part)"))
        // The https addresses were asked over TLS: the already-secure link, and the upgrades.
        let asked = try serverLog().map { $0[1] }
        XCTAssertTrue(asked.contains("/https/gone") && asked.contains("/https/other-type"))

        // A certificate the checker does not trust: the https address fails, nothing is proposed.
        try FileManager.default.removeItem(atPath: dir + "/out")
        let (_, untrusted, _) = try run(external)
        XCTAssertFalse(
            (untrusted["documents"]?[0]?["findings"]?.arrayValue ?? []).contains { $0["rule"] == "uri.https-available" }
        )
    }
}
