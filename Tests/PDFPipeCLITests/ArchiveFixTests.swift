import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#65) Dead links fixed from a web archive: the loopback server's archive (`/archive/cdx` in the
/// Wayback Machine's JSON, `/coll/cdx` in pywb's NDJSON, replays beside them) holds captures near
/// and far from the document's date, archived error pages, captures that answered 404, and rows
/// an index should not have offered.
extension ExternalLinkTests {
    /// The dead links of the test document (their captures: ARCHIVE in scripts/http-fixture.py).
    func deadLinks() -> [String] {
        [
            "/status/404?case=near#sec", "/status/410?case=error", "/status/404?case=only404", "/status/404?case=far",
            "/status/404?case=errors", "/status/404?case=mixed", "/status/404?case=none",
        ].map { base + $0 }
    }

    func archiveSection(_ index: String, _ replay: String, more: String = "") -> String {
        #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3, "archive": {"enabled": true, "index": "\#(base + index)", "replay": "\#(base + replay)"\#(more)}}"#
    }

    func testDeadLinksGetTheCaptureClosestToTheDocumentsDate() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // 2020-06-15 07:30 UTC: the captures are chosen by the document's own date.
        try writeLinks(
            dir + "/in/a.pdf", deadLinks() + [base + "/status/500", base + "/status/403", base + "/ok"],
            info: "/ModDate (D:20200615093000+02'00') /CreationDate (D:20190101000000Z)")
        for (index, replay) in [("/archive/cdx", "/archive/web/"), ("/coll/cdx", "/coll/")] {
            try? FileManager.default.removeItem(atPath: dir + "/out")
            let before = try serverLog().count
            let (_, report, stderr) = try run(
                archiveSection(index, replay), flags: ["--format", "json,replacements"],
                then: #", {"use": "fix-links"}"#)
            let doc = try XCTUnwrap(report["documents"]?.arrayValue?.first, stderr)
            let findings = doc["findings"]?.arrayValue ?? []
            func finding(_ uri: String) -> JSONValue? { findings.first { $0["uri"]?.stringValue == base + uri } }
            func capture(_ ts: String, _ path: String) -> String { base + replay + ts + "/" + base + path }
            let changed = (doc["fixes"]?["changed"]?.arrayValue ?? []).map {
                [$0["from"]?.stringValue ?? "", $0["to"]?.stringValue ?? ""]
            }
            XCTAssertEqual(
                changed,
                [
                    // The closest of three (2010, 2020-06-10, 2024), the fragment kept.
                    [base + "/status/404?case=near#sec", capture("20200610120000", "/status/404?case=near") + "#sec"],
                    // The closest (2020-06-14) is an archived "Page not found": the next one.
                    [base + "/status/410?case=error", capture("20200501000000", "/status/410?case=error")],
                    // Far, but the only capture: the distance is said.
                    [base + "/status/404?case=far", capture("20010911000000", "/status/404?case=far")],
                    // The index listed another URL's capture and an impossible date first.
                    [base + "/status/404?case=mixed", capture("20180101000000", "/status/404?case=mixed")],
                ], "\(index)")
            let near = try XCTUnwrap(finding("/status/404?case=near#sec"), "\(findings)")
            XCTAssertEqual(near["archive"]?["capture"], "20200610120000")
            XCTAssertEqual(near["archive"]?["documentDate"], "20200615073000", "the offset is read: UTC")
            XCTAssertEqual(near["archive"]?["dateFrom"], "/ModDate")
            XCTAssertEqual(near["archive"]?["days"], .int(-4))
            XCTAssertTrue(
                near["fix"]?["why"]?.stringValue?.contains("capture of 2020-06-10 (4 days before the document's date")
                    == true, "\(near)")
            XCTAssertEqual(finding("/status/404?case=far")?["archive"]?["days"], .int(-6852))
            // Declined, each with its reason.
            func declined(_ uri: String) -> String { finding(uri)?["fixDeclined"]?.stringValue ?? "" }
            XCTAssertTrue(declined("/status/404?case=only404").contains("no capture of it that answered 200 (of the 1"))
            XCTAssertEqual(declined("/status/404?case=none"), "the web archive has no capture of it")
            XCTAssertTrue(
                declined("/status/404?case=errors").contains(
                    "the 3 captures closest to the document's date that answered 200 are not sound pages (2020-06-15: an archived error page ('Page not found')"
                ), declined("/status/404?case=errors"))
            // A server error and a refusal are not dead: no archive is asked for them.
            XCTAssertNil(finding("/status/500")?["fixDeclined"])
            let requests = try serverLog().dropFirst(before).map { $0[1] }
            let queries = requests.filter { $0.hasPrefix(index + "?") }
            XCTAssertEqual(queries.count, 7, "one index query per dead link: \(queries)")
            XCTAssertTrue(queries.allSatisfy { $0.contains("closest=20200615073000&sort=closest") }, "\(queries)")
            XCTAssertFalse(queries.contains { $0.contains("status%2F500") || $0.contains("status%2F403") })
            // At most three captures read per link, each raw (id_).
            let reads = requests.filter { $0.hasPrefix(replay) && !$0.hasPrefix(index) }
            XCTAssertTrue(reads.allSatisfy { $0.contains("id_/") }, "\(reads)")
            XCTAssertEqual(reads.filter { $0.contains("case=errors") }.count, 3, "\(reads)")
        }
        // The repaired copy: qpdf reads the captures as the links' targets.
        let shown = try ExternalTool.run(
            "/usr/bin/qpdf", ["--qdf", "--object-streams=disable", dir + "/out/fixed/a.pdf", "-"])
        XCTAssertTrue(shown.output.contains("(\(base)/coll/20200501000000/\(base)/status/410?case=error)"))
        XCTAssertEqual(try ExternalTool.run("/usr/bin/qpdf", ["--check", dir + "/out/fixed/a.pdf"]).status, 0)
        // poppler follows the new targets (pdfinfo -url lists each link's URL).
        let urls = try ExternalTool.run("/usr/bin/pdfinfo", ["-url", dir + "/out/fixed/a.pdf"]).output
        XCTAssertTrue(urls.contains("\(base)/coll/20200610120000/\(base)/status/404?case=near#sec"), urls)
        XCTAssertTrue(urls.contains("\(base)/status/404?case=none"), urls)
    }

    /// Off by default; without a date the document gives no capture to choose; a silent pass is
    /// looked up only when asked.
    func testArchiveIsAskedOnlyWhenItCanChoose() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/status/404?case=near"])
        let (_, report, _) = try run(archiveSection("/archive/cdx", "/archive/web/"))
        let f = report["documents"]?[0]?["findings"]?.arrayValue?.first { $0["rule"] == "uri.http-error" }
        XCTAssertTrue(
            f?["fixDeclined"]?.stringValue?.contains("the document says no date") == true, "\(String(describing: f))")
        XCTAssertFalse(try serverLog().contains { $0[1].hasPrefix("/archive/") })

        try FileManager.default.removeItem(atPath: dir + "/out")
        let (_, off, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}"#)
        XCTAssertNil(off["documents"]?[0]?["findings"]?[0]?["fixDeclined"])
        XCTAssertFalse(try serverLog().contains { $0[1].hasPrefix("/archive/") })

        // An archive slower than the document's web budget: the link is left, saying so, and the
        // archive's question is no unverified link of the document (confirmFailures off: the 404
        // is settled at once, not asked again 2 s later).
        try FileManager.default.removeItem(atPath: dir + "/out")
        try writeLinks(dir + "/in/a.pdf", [base + "/status/404?case=near"], info: "/ModDate (D:20200615)")
        let (_, slow, _) = try run(
            archiveSection("/slow", "/archive/web/").replacingOccurrences(
                of: #""timeoutSeconds": 3"#,
                with: #""timeoutSeconds": 10, "documentSeconds": 1.5, "confirmFailures": false"#))
        let findings = slow["documents"]?[0]?["findings"]?.arrayValue ?? []
        XCTAssertEqual(
            findings.first { $0["rule"] == "uri.http-error" }?["fixDeclined"],
            "the web archive's index was not answered within the document's web budget (documentSeconds)")
        XCTAssertFalse(findings.contains { $0["rule"] == "pdf.limit-exceeded" }, "\(findings)")
    }

    /// An archive is asked over https, or over http on this machine only; a replay prefix ends
    /// with '/'.
    func testArchiveEndpointsAreChecked() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/ok"])
        for (section, said) in [
            (
                #"{"enabled": true, "archive": {"enabled": true, "index": "http://archive.example/cdx"}}"#,
                "http only to a loopback address"
            ),
            (
                #"{"enabled": true, "archive": {"enabled": true, "replay": "https://archive.example/web"}}"#,
                "ends with '/'"
            ),
            (
                #"{"enabled": true, "archive": {"enabled": true, "index": "https://u:p@archive.example/cdx"}}"#,
                "without user"
            ),
        ] {
            let (status, _, stderr) = try run(section)
            XCTAssertEqual(status, 2, stderr)
            XCTAssertTrue(stderr.contains("external.archive."), stderr)
            XCTAssertTrue(stderr.contains(said), stderr)
        }
    }
}
