import Foundation
import PDFPipeCore
import PDFPipeStages
import PDFPipeWeb
import TestSupport
import XCTest

/// The external link check against a real HTTP server on loopback (scripts/http-fixture.py, one
/// route per behaviour). Nothing here reaches beyond 127.0.0.1.
final class ExternalLinkTests: XCTestCase {
    var dir = ""
    var server: Process?
    var port = 0
    var base: String { "http://127.0.0.1:\(port)" }

    override func setUpWithError() throws {
        dir = Repo.temporaryFolder()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw Prerequisite.missing("python3 is not installed (scripts/setup.sh --test installs it)")
        }
        try startServer()
    }

    /// Starts scripts/http-fixture.py (fresh state) and reads its port.
    func startServer() throws {
        (server, port) = try ExternalTool.startServer(
            Repo.root + "/scripts/http-fixture.py", ["--pdf", Repo.root + "/samples/links-internal.pdf", "--slow", "3"])
    }

    override func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A one-page PDF with a link annotation per URI (top to bottom), optionally a /URI /Base.
    /// `info`: the document information dictionary's entries (`/ModDate (D:2020…)`).
    func writeLinks(_ path: String, _ uris: [String], base: String? = nil, pages: Int = 1, info: String? = nil) throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R\(base.map { " /URI << /Base (\($0)) >>" } ?? "") >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\(3 + $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
        ]
        let first = 3 + pages
        for _ in 0..<pages {
            let annots = uris.indices.map { "\(first + $0) 0 R" }.joined(separator: " ")
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [\(annots)] >>")
        }
        for (i, u) in uris.enumerated() {
            let y = 760 - i * 20
            objects.append(
                "<< /Type /Annot /Subtype /Link /Rect [72 \(y) 300 \(y + 12)] /Border [0 0 0] /A << /S /URI /URI (\(u)) >> >>"
            )
        }
        if let info { objects.append("<< \(info) >>") }
        try TestPDF.write(path, objects: objects, trailer: info == nil ? "" : " /Info \(objects.count) 0 R")
    }

    func run(
        _ external: String, inputs: [String]? = nil, environment: [String: String] = [:], flags: [String] = [],
        then more: String = ""
    ) throws -> (Int32, JSONValue, String) {
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": \#(external)}}\#(more)], "report": {"formats": ["json", "sarif"]}}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let (status, stderr) = try Repo.runUnproxied(
            ["run", dir + "/p.json"] + (inputs ?? [dir + "/in"]) + ["--out", dir + "/out", "--quiet"] + flags,
            environment: environment)
        let report = (try? JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))) ?? .null
        return (status, report, stderr)
    }

    /// What the server received: [method, path, X-Token].
    func serverLog() throws -> [[String]] {
        let v = try JSONParser.parse(try fetch("/__log"))
        return (v.arrayValue ?? []).map { ($0.arrayValue ?? []).map { $0.stringValue ?? "" } }
    }

    /// A GET to the fixture (python's urllib: Foundation's URL loading is not linked into the tests).
    func fetch(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [
            "-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
            base + path,
        ]
        var env = ProcessInfo.processInfo.environment
        for k in ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] { env[k] = nil }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    func requests(_ log: [[String]], _ path: String) -> [String] { log.filter { $0[1] == path }.map { $0[0] } }

    /// The fixture host's probe (`probeHosts`, on by default): its URL after `prefix` (`base` for
    /// the whole URL, "" for the path the server logs).
    func probe(_ prefix: String) -> String {
        prefix + (SilentPass.probeURL(for: base + "/") ?? "").dropFirst(base.count)
    }

    func links(_ report: JSONValue) -> [JSONValue] {
        report["documents"]?.arrayValue?.first?["links"]?.arrayValue ?? []
    }

    /// Regression (issue 29, 2): a fragment that cannot be checked was `ok` with no finding. A
    /// body slower than timeoutSeconds, one larger than downloadLimitMB, and a `.pdf` URL that
    /// serves a login page are each `fragment-unverified`, with the reason and a finding.
    func testAFragmentThatCannotBeCheckedIsNeverOK() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let paths = [
            "/slowbody.pdf#page=2", "/huge.pdf#nameddest=chapter.2", "/login.pdf#page=1", "/doc.pdf#page=2",
            "/doc.pdf#page=9", "/page.html#intro", "/ok#section",
        ]
        try writeLinks(dir + "/in/a.pdf", paths.map { base + $0 })
        let (status, report, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "timeoutSeconds": 1, "retries": 0, "downloadLimitMB": 1, "htmlFragments": true}"#
        )
        XCTAssertEqual(status, 1, "the fragment-missing error fails the run")
        var byURI: [String: JSONValue] = [:]
        for l in links(report) { byURI[String(l["uri"]!.stringValue!.dropFirst(base.count))] = l["check"] }
        XCTAssertEqual(
            paths.map { byURI[$0]?["outcome"]?.stringValue ?? "?" },
            [
                "fragment-unverified", "fragment-unverified", "fragment-unverified", "ok", "fragment-missing", "ok",
                "fragment-missing",
            ])
        XCTAssertTrue(byURI["/slowbody.pdf#page=2"]?["reason"]?.stringValue?.contains("timeoutSeconds") == true)
        XCTAssertTrue(
            byURI["/huge.pdf#nameddest=chapter.2"]?["reason"]?.stringValue?.contains("downloadLimitMB") == true)
        XCTAssertTrue(byURI["/login.pdf#page=1"]?["reason"]?.stringValue?.contains("not a PDF") == true)
        let findings = report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []
        let unverified = findings.filter { $0["rule"] == "uri.fragment-unverified" }
        XCTAssertEqual(unverified.count, 3)
        XCTAssertEqual(unverified.first?["severity"], "warning")
        XCTAssertTrue(
            unverified.allSatisfy { $0["message"]?.stringValue?.contains("could not be checked") == true },
            "\(unverified)")
    }

    func testEveryServerBehaviour() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let paths = [
            "/ok", "/status/404", "/status/410", "/status/500", "/flaky/1", "/chain", "/r/302/ok", "/r/307/ok",
            "/r/308/ok",
            "/loop/a", "/deep/0", "/ratelimited/1", "/slow", "/nohead", "/big", "/ok", "/doc.pdf#page=4",
            "/doc.pdf#page=9",
            "/doc.pdf#nameddest=chapter.2", "/doc.pdf#nameddest=nope",
        ]
        // Two pages with the same links: every URL must still be requested once.
        try writeLinks(dir + "/in/a.pdf", paths.map { base + $0 } + ["http://127.0.0.1:9/closed"], pages: 2)
        let started = Date()
        let (status, report, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "timeoutSeconds": 1, "retries": 2, "retryWaitSeconds": 0.05, "maxRedirects": 5}"#
        )
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(status, 1)
        let all = links(report)
        XCTAssertEqual(all.count, 2 * (paths.count + 1))
        var byURI: [String: JSONValue] = [:]
        for l in all.prefix(paths.count + 1) {
            byURI[String(l["uri"]!.stringValue!.dropFirst(base.count))] = l["check"]
        }
        func expect(
            _ path: String, _ outcome: String, _ status: Int?, attempts: Int? = nil, redirects: Int? = nil,
            line: UInt = #line
        ) {
            let c = byURI[path]
            XCTAssertEqual(c?["outcome"]?.stringValue, outcome, path, line: line)
            XCTAssertEqual(c?["status"]?.intValue, status, path, line: line)
            if let attempts { XCTAssertEqual(c?["attempts"]?.intValue, attempts, path, line: line) }
            if let redirects { XCTAssertEqual(c?["redirects"]?.arrayValue?.count, redirects, path, line: line) }
            XCTAssertEqual(c?["fromCache"], false, path, line: line)
        }
        expect("/ok", "ok", 200, attempts: 1, redirects: 0)
        // Each failure is confirmed: asked again (the same way) after everything else.
        expect("/status/404", "http-error", 404, attempts: 4)  // HEAD, then GET; again at the end
        expect("/status/410", "http-error", 410, attempts: 4)
        expect("/status/500", "http-error", 500, attempts: 8)  // HEAD, GET, two retries; again at the end
        expect("/flaky/1", "ok", 200, attempts: 2)  // HEAD failed, GET answered
        expect("/chain", "redirected", 200, redirects: 4)
        expect("/r/302/ok", "ok", 200, redirects: 1)
        expect("/r/307/ok", "ok", 200, redirects: 1)
        expect("/r/308/ok", "redirected", 200, redirects: 1)
        expect("/loop/a", "redirect-loop", 302, redirects: 2)
        expect("/deep/0", "too-many-redirects", 302, redirects: 6)
        expect("/ratelimited/1", "ok-after-retry", 200, attempts: 2)
        expect("/slow", "timeout", nil, attempts: 6)
        for path in ["/status/404", "/status/410", "/status/500", "/slow"] {
            XCTAssertEqual(byURI[path]?["confirmed"], true, path)
        }
        XCTAssertNil(byURI["/ok"]?["confirmed"])
        XCTAssertNil(byURI["/loop/a"]?["confirmed"], "a redirect loop is a fact, not confirmed")
        expect("/nohead", "ok", 200, attempts: 2)
        expect("/big", "ok", 200, attempts: 2)
        expect("/doc.pdf#page=4", "ok", 200)
        expect("/doc.pdf#page=9", "fragment-missing", 200)
        expect("/doc.pdf#nameddest=chapter.2", "ok", 200)
        expect("/doc.pdf#nameddest=nope", "fragment-missing", 200)
        XCTAssertEqual(
            byURI["/chain"]?["redirects"]?.arrayValue?.map { $0["status"]?.intValue ?? 0 }, [301, 302, 307, 308])
        XCTAssertEqual(byURI["/chain"]?["finalURL"]?.stringValue, base + "/ok")
        let closed = all.first { $0["uri"]?.stringValue == "http://127.0.0.1:9/closed" }?["check"]
        XCTAssertEqual(closed?["outcome"], "unreachable")
        XCTAssertEqual(closed?["status"], .null)

        // Findings: one per link (so twice per URL, one per page), with uri and status.
        let findings = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"]?.stringValue != "uri.insecure-scheme"
        }
        var counts: [String: Int] = [:]
        for f in findings { counts[f["rule"]!.stringValue!, default: 0] += 1 }
        XCTAssertEqual(
            counts,
            [
                "uri.http-error": 6, "uri.redirected": 4, "uri.redirect-loop": 2, "uri.too-many-redirects": 2,
                "uri.timeout": 2,
                "uri.fragment-missing": 4, "uri.unreachable": 2,
                // (#61, 5) The link that failed once, then worked: a note, not silence.
                "uri.recovered": 2,
            ])
        let notFound = try XCTUnwrap(findings.first { $0["rule"] == "uri.http-error" })
        XCTAssertEqual(notFound["uri"]?.stringValue, base + "/status/404")
        XCTAssertEqual(notFound["status"], 404)
        XCTAssertEqual(notFound["page"], 1)
        XCTAssertEqual(notFound["message"]?.stringValue, "'\(base)/status/404' answered 404 Not Found")
        let timeout = try XCTUnwrap(findings.first { $0["rule"] == "uri.timeout" })
        XCTAssertEqual(timeout["status"], .null)
        let moved = try XCTUnwrap(findings.first { $0["rule"] == "uri.redirected" })
        XCTAssertEqual(moved["hint"]?.stringValue, "link to '\(base)/ok' instead")
        XCTAssertEqual(
            findings.filter { $0["rule"] == "uri.fragment-missing" }.map { $0["message"]!.stringValue! }.prefix(2),
            [
                "the link asks for page 9 of '\(base)/doc.pdf', which has 4 pages",
                "'\(base)/doc.pdf' has no named destination 'nope'",
            ])

        // What the server saw: each URL once (its own requests), HEAD before GET, bodies not read.
        let log = try serverLog()
        XCTAssertEqual(requests(log, "/ok").count, 1 + 4, "once for itself, once at the end of each redirect chain")
        XCTAssertEqual(requests(log, "/status/404"), ["HEAD", "GET", "HEAD", "GET"])
        XCTAssertEqual(requests(log, "/status/500"), ["HEAD", "GET", "GET", "GET", "HEAD", "GET", "GET", "GET"])
        XCTAssertEqual(requests(log, "/nohead"), ["HEAD", "GET"])
        XCTAssertEqual(requests(log, "/flaky/1"), ["HEAD", "GET"])
        XCTAssertEqual(requests(log, "/ratelimited/1"), ["HEAD", "HEAD"])
        // Retry-After: 1 wins over retryWaitSeconds (0.05).
        let limited = log.filter { $0[1] == "/ratelimited/1" }.compactMap { Double($0[3]) }
        XCTAssertGreaterThanOrEqual((limited.last ?? 0) - (limited.first ?? 0), 0.95)
        // Backoff doubles: /status/500's two retries wait 0.05 s, then 0.1 s.
        let failing = log.filter { $0[1] == "/status/500" }.compactMap { Double($0[3]) }
        XCTAssertEqual(failing.count, 8)
        if failing.count == 8 {
            XCTAssertGreaterThanOrEqual(failing[2] - failing[1], 0.045)
            XCTAssertGreaterThanOrEqual(failing[3] - failing[2], 0.095)
        }
        XCTAssertEqual(requests(log, "/loop/a"), ["HEAD"])
        XCTAssertEqual(requests(log, "/loop/b"), ["HEAD"])
        XCTAssertEqual(requests(log, "/big"), ["HEAD", "GET"])
        XCTAssertEqual(requests(log, "/doc.pdf"), ["HEAD", "GET"], "the status once, the PDF once for both fragments")
        XCTAssertEqual(log.filter { $0[1].hasPrefix("/deep/") }.count, 6)
        let sent = try XCTUnwrap(Int(try fetch("/__bytes")))
        XCTAssertLessThan(sent, 20 << 20, "the 200 MB body of /big was not downloaded")
        // Retry-After: 1 was honoured; the slow URL's 3 attempts are bounded by the 1 s timeout.
        XCTAssertGreaterThan(elapsed, 1.0)
        XCTAssertLessThan(elapsed, 15)

        // SARIF carries the details too.
        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let result = try XCTUnwrap(
            sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first { $0["ruleId"] == "uri.http-error" })
        XCTAssertEqual(result["properties"]?["uri"]?.stringValue, base + "/status/404")
        XCTAssertEqual(result["properties"]?["status"], 404)
    }

    /// (#42, 11) With a proxy set and `no_proxy=localhost.` (or an empty `no_proxy` beside
    /// `NO_PROXY=localhost`), libcurl connects to foo.localhost directly: the policy holds on that
    /// connection (it once checked only a name it could not resolve, and the request went through).
    func testThePrivateAddressPolicyHoldsWhateverTheProxyVariablesSay() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", ["http://foo.localhost:\(port)/ssrf-probe"])
        for noProxy in [["no_proxy": "localhost."], ["no_proxy": "", "NO_PROXY": "localhost"]] {
            let before = try serverLog().count
            let (_, report, _) = try run(
                #"{"enabled": true, "timeoutSeconds": 2, "retries": 0}"#,
                environment: ["http_proxy": "http://127.0.0.1:9"].merging(noProxy) { $1 })
            XCTAssertEqual(links(report).first?["check"]?["reason"], "private-address", "\(noProxy): \(links(report))")
            XCTAssertEqual(
                try serverLog().dropFirst(before).filter { $0[1] == "/ssrf-probe" }.count, 0,
                "never requested: \(noProxy)")
        }
    }

    func testPrivateAddressesAreNotRequestedByDefault() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(
            dir + "/in/a.pdf",
            [
                base + "/ok", "http://localhost:\(port)/ok", "http://[::1]:\(port)/ok",
                "http://169.254.169.254/latest/meta-data/",
            ])
        let (status, report, _) = try run(#"{"enabled": true, "timeoutSeconds": 2}"#)
        XCTAssertEqual(status, 0, "uri.skipped is a note")
        for l in links(report) {
            XCTAssertEqual(l["check"]?["outcome"], "skipped", l["uri"]?.stringValue ?? "")
            XCTAssertEqual(l["check"]?["reason"], "private-address")
        }
        let skipped = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"] == "uri.skipped"
        }
        XCTAssertEqual(skipped.count, 4)
        XCTAssertTrue(
            skipped[0]["message"]?.stringValue?.contains("resolves to 127.0.0.1") == true,
            skipped[0]["message"]?.stringValue ?? "")
        XCTAssertEqual(try serverLog(), [], "nothing reached the server")
        // (#32, 7) A web check that checked nothing says so, once, for the run.
        XCTAssertEqual(
            report["findings"]?.arrayValue?.map {
                "\($0["rule"]?.stringValue ?? "") \($0["severity"]?.stringValue ?? "")"
            }, ["uri.nothing-checked warning"])
        XCTAssertTrue(
            report["findings"]?[0]?["message"]?.stringValue?.hasPrefix(
                "0 of 4 web URLs checked: every one resolves to a private")
                ?? false)
    }

    /// (#32, 7) Regression: with DNS down, 276 "unreachable" errors and nothing suggested the
    /// network. When no host answers at all (three or more), the run says once that the network
    /// looks down; the console and the annotations leave each link's verdict to report.json.
    func testWhenNoHostAnswersTheRunSaysTheNetworkLooksDown() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // Three hosts on loopback where nothing listens (port 9): every connection is refused.
        let uris = ["http://127.0.0.1:9/a", "http://127.0.0.2:9/b", "http://127.0.0.3:9/c", "http://127.0.0.3:9/d"]
        try writeLinks(dir + "/in/a.pdf", uris)
        try writeLinks(dir + "/in/b.pdf", uris)
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}}}], "report": {"formats": ["json", "github"]}}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", "p.json", "in", "--out", "out"], in: dir), .findings)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        XCTAssertEqual(report["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }, ["uri.network-down"])
        XCTAssertEqual(
            report["findings"]?[0]?["message"],
            "the network looks down: none of the 3 web hosts answered (4 URLs: 4 not connected); the web links were not verified"
        )
        // (#61, 3) One error, not nine: each link's verdict stays in report.json as a note that
        // the link was not verified (counted, not an error, not a broken target).
        XCTAssertEqual(report["summary"]?["errors"], 1, "the run's finding only")
        let unreachable = (report["documents"]?.arrayValue ?? []).flatMap { $0["findings"]?.arrayValue ?? [] }
            .filter { $0["rule"] == "uri.unreachable" }
        XCTAssertEqual(unreachable.count, 8)
        for f in unreachable {
            XCTAssertEqual(f["severity"], "note")
            XCTAssertTrue(
                f["message"]?.stringValue?.hasSuffix("; not verified: the network looks down (uri.network-down)")
                    == true, "\(f)")
        }
        XCTAssertEqual(report["summary"]?["links"]?["unverified"], 8)
        XCTAssertEqual(report["summary"]?["links"]?["broken"], 0)
        let lines = cli.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.first,
            "validate-links: error: \(report["findings"]?[0]?["message"]?.stringValue ?? "") [uri.network-down]")
        XCTAssertFalse(cli.stdout.contains("[uri.unreachable]"), cli.stdout)
        XCTAssertTrue(
            cli.stdout.contains("… and 8 unreachable web links not listed: the network looks down"), cli.stdout)
        let github = try String(contentsOfFile: dir + "/out/github.txt", encoding: .utf8)
        XCTAssertFalse(github.contains("title=uri.unreachable"), github)
        XCTAssertTrue(github.contains("title=uri.network-down::the network looks down"), github)
        XCTAssertTrue(github.contains("8 unreachable web links not annotated: the network looks down"), github)
        // Every surface: the Markdown summary lists no broken target, SARIF has no error for a link.
        let quiet = CapturedCLI()
        XCTAssertEqual(
            quiet.run(["run", "p.json", "in", "--out", "out3", "--format", "json,markdown,sarif"], in: dir), .findings)
        let markdown = try String(contentsOfFile: dir + "/out3/report.md", encoding: .utf8)
        XCTAssertFalse(markdown.contains("http://127.0.0.1:9/a"), markdown)
        XCTAssertTrue(markdown.contains("uri.network-down"), markdown)
        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/out3/report.sarif", encoding: .utf8))
        let levels = Set(
            (sarif["runs"]?[0]?["results"]?.arrayValue ?? []).filter { $0["ruleId"] == "uri.unreachable" }.compactMap {
                $0["level"]?.stringValue
            })
        XCTAssertEqual(levels, ["note"])
        // The policy for a runner that may be offline: the run finding at warning passes.
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true, "retries": 0, "timeoutSeconds": 3}}}], "rules": {"uri.network-down": "warning"}}"#
            .write(toFile: dir + "/p2.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(CapturedCLI().run(["run", "p2.json", "in", "--out", "out4", "--quiet"], in: dir), .clean)

        // One host that answers: the network is up, each verdict stands.
        try writeLinks(dir + "/in/c.pdf", [base + "/ok"])
        let up = CapturedCLI()
        XCTAssertEqual(up.run(["run", "p.json", "in", "--out", "out2"], in: dir), .findings)
        let r2 = try JSONParser.parse(String(contentsOfFile: dir + "/out2/report.json", encoding: .utf8))
        XCTAssertNil(r2["findings"], "the network answered")
        XCTAssertTrue(up.stdout.contains("[uri.unreachable]"))
    }

    /// (#61, 3) A runner without DNS: 499 links to 17 hosts took 191 s and gave 503 errors (every
    /// URL asked, retried with backoff behind its slowed host, confirmed). A name that does not
    /// resolve is an answer: not retried, and the host's other URLs share it (asked once more at
    /// the end, once per host); the links are unverified notes under one uri.network-down.
    func testAHostThatDoesNotResolveIsAskedOncePerHost() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // `.invalid` never resolves (RFC 6761).
        let uris = ["a", "b", "c"].flatMap { h in (1...40).map { "http://\(h).pdfpipe-test.invalid/\($0)" } }
        try writeLinks(dir + "/in/a.pdf", uris)
        let (status, report, stderr) = try run(#"{"enabled": true, "retries": 2}"#)
        XCTAssertEqual(status, 1, stderr)
        XCTAssertEqual(report["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }, ["uri.network-down"])
        XCTAssertEqual(report["summary"]?["errors"], 1)
        XCTAssertEqual(report["summary"]?["links"]?["unverified"], 120)
        let attempts = links(report).reduce(0) { $0 + ($1["check"]?["attempts"]?.intValue ?? 0) }
        // At most the host's slots at once before its first answer, and as many confirmations.
        XCTAssertLessThanOrEqual(attempts, 3 * (4 + 4), "requests made: \(attempts) for 120 links")
        XCTAssertGreaterThanOrEqual(attempts, 3)
    }

    /// Regression (trust issue, 9): the URL checker's threads never ended. After a run (here the
    /// CLI in this process) none is left.
    func testTheCheckersThreadsEndWithTheRun() throws {
        func httpThreads() -> Int { URLChecker.liveThreads }
        XCTAssertEqual(httpThreads(), 0)
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/ok", base + "/status/404", base + "/redirect/1"])
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true, "maxConcurrency": 4}}}]}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run(["run", dir + "/p.json", dir + "/in", "--out", dir + "/out", "--quiet"], in: dir), .findings,
            cli.stderr)
        XCTAssertEqual(httpThreads(), 0, "the checker's threads ended with the run")
    }

    /// (#33, 3) A library user runs documents through a `Runner` and ends the run with
    /// `finish()`: the run's context owns the checker, whose threads end there (before, they lived
    /// in the stage value with no enforced end).
    func testALibraryRunEndsTheCheckersThreadsWithFinish() throws {
        XCTAssertEqual(URLChecker.liveThreads, 0)
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/ok", base + "/status/404"])
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true}}}]}"#,
            file: "p.json", catalog: StageTable.all, formats: ["json"])
        let runner = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir + "/in", jobs: 1)
        let r = runner.process(InputDocument(path: dir + "/in/a.pdf", relativePath: "a.pdf"))
        XCTAssertEqual(r.findings.filter { $0.rule == "uri.http-error" }.count, 1, "\(r.findings.map(\.rule))")
        XCTAssertGreaterThan(URLChecker.liveThreads, 0, "the checker's threads wait for more URLs of the run")
        XCTAssertTrue(runner.finish().isEmpty)
        XCTAssertEqual(URLChecker.liveThreads, 0, "finish() ended them")
        XCTAssertTrue(runner.finish().isEmpty, "a second finish does nothing")
    }

    func testCacheKeepsResultsBetweenRuns() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/ok", base + "/status/404", base + "/status/503"])
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "confirmFailures": false, "cache": {"path": "\#(dir)/cache.json"}}"#
        let (_, first, _) = try run(options)
        XCTAssertEqual(links(first).map { $0["check"]?["fromCache"] }, [false, false, false])
        let cache = try JSONParser.parse(String(contentsOfFile: dir + "/cache.json", encoding: .utf8))
        XCTAssertEqual(
            cache["entries"]?.objectValue?.keys.sorted(),
            [base + "/ok", base + "/status/404", "page " + probe(base)], "503 is never cached; the probe is")
        let before = try serverLog().count
        let (_, second, _) = try run(options)
        XCTAssertEqual(links(second).map { $0["check"]?["fromCache"] }, [true, true, false])
        XCTAssertEqual(links(second).map { $0["check"]?["outcome"] }, links(first).map { $0["check"]?["outcome"] })
        XCTAssertEqual(
            try serverLog().dropFirst(before).map { $0[1] }, ["/status/503", "/status/503"],
            "only the uncached URL again (HEAD, GET)")
        // Expired entries are checked again.
        let (_, third, _) = try run(
            options.replacingOccurrences(of: "cache.json\"", with: "cache.json\", \"maxAgeSeconds\": 0"))
        XCTAssertEqual(links(third).map { $0["check"]?["fromCache"] }, [false, false, false])

        // (#42, 13) An entry dated in the future (a clock ahead, a poisoned cache) has expired: the
        // dead URL forged as 200 is asked again, and is broken.
        _ = try run(options)
        var text = try String(contentsOfFile: dir + "/cache.json", encoding: .utf8)
        guard case .object(var root) = try JSONParser.parse(text), case .object(var entries)? = root["entries"],
            case .object(var forged)? = entries[base + "/status/404"]
        else { return XCTFail("cache entries: \(text)") }
        forged["status"] = 200
        forged["checkedAt"] = .double(Date().timeIntervalSince1970 + 10 * 365 * 86400)
        entries[base + "/status/404"] = .object(forged)
        root["entries"] = .object(entries)
        text = JSONWriter.pretty(.object(root))
        try text.write(toFile: dir + "/cache.json", atomically: true, encoding: .utf8)
        let (_, fourth, _) = try run(options)
        XCTAssertEqual(links(fourth).map { $0["check"]?["fromCache"] }, [true, false, false])
        XCTAssertEqual(links(fourth)[1]["check"]?["status"], 404)
        XCTAssertTrue(LinkCache.isFresh(checkedAt: 1000 + LinkCache.clockSkew, now: 1000, maxAge: 10))
        XCTAssertFalse(LinkCache.isFresh(checkedAt: 1001 + LinkCache.clockSkew, now: 1000, maxAge: 10))
    }

    /// (#48) Each web rule's sample (`Rule.sample`, `webServer`) fires there, with the fixture server
    /// behind `PORT`, and not on a clean file; one run per distinct sample (file and stages).
    func testEveryWebRuleFiresOnItsSample() throws {
        let web = StageTable.rules.all.filter { $0.sample?.webServer ?? false }
        XCTAssertGreaterThanOrEqual(web.count, 12)
        func fired(_ file: String, _ stages: String, _ name: String) throws -> Set<String> {
            let folder = dir + "/" + name
            try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: file, toPath: folder + "/in/" + (file as NSString).lastPathComponent)
            // The sample's cache beside the run, not in the test process's folder (the CLI runs
            // in-process here, in another folder than the process's).
            let local = stages.replacingOccurrences(of: "PORT", with: String(port)).replacingOccurrences(
                of: #""path": "links.json""#, with: #""path": "\#(folder)/links.json""#)
            try #"{"stages": \#(local), "report": {"formats": ["json"]}}"#
                .write(toFile: folder + "/p.json", atomically: true, encoding: .utf8)
            let cli = CapturedCLI()
            let status = cli.run(["run", "p.json", "in", "--out", "out"], in: folder)
            guard let text = try? String(contentsOfFile: folder + "/out/report.json", encoding: .utf8) else {
                XCTFail("\(file) by '\(stages)': no report (\(status)): \(cli.stderr)")
                return []
            }
            let report = try JSONParser.parse(text)
            let documents = report["documents"]?.arrayValue?.flatMap { $0["findings"]?.arrayValue ?? [] } ?? []
            let run = report["findings"]?.arrayValue ?? []
            return Set((documents + run).compactMap { $0["rule"]?.stringValue })
        }
        var runs: [String: (sample: Set<String>, clean: Set<String>)] = [:]
        for rule in web {
            let sample = try XCTUnwrap(rule.sample)
            let stages = try XCTUnwrap(sample.stages, "\(rule.id): a web sample names its stages")
            let key = sample.file + stages
            if runs[key] == nil {
                let n = runs.count
                runs[key] = (
                    try fired(Repo.root + "/" + sample.file, stages, "s\(n)"),
                    try fired(Repo.root + "/samples/links-internal.pdf", stages, "c\(n)")
                )
            }
            XCTAssertTrue(
                runs[key]!.sample.contains(rule.id), "\(rule.id): not reported on \(sample.file) by '\(stages)'")
            XCTAssertFalse(runs[key]!.clean.contains(rule.id), "\(rule.id): reported on links-internal.pdf")
        }
    }

    func testFilesMailtoSchemesAndOffline() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repo.root + "/samples/links-internal.pdf", toPath: dir + "/in/sub/target.pdf")
        try writeLinks(
            dir + "/in/a.pdf",
            [
                "sub/target.pdf", "sub/target.pdf#page=2", "sub/target.pdf#page=7", "sub/missing.pdf",
                "file:sub/target.pdf#nameddest=chapter.2",
                "file:///etc/hostname", "mailto:someone@example.org", "mailto:nobody", "ftp://example.org/file",
                base + "/ok",
                "www.example.org/page", "notes.txt",
            ])
        let (status, report, _) = try run(#"{"enabled": true, "offline": true}"#)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            links(report).map { $0["check"]?["outcome"]?.stringValue ?? "-" },
            [
                "ok", "ok", "fragment-missing", "file-missing", "ok", "skipped", "ok", "malformed", "skipped",
                "skipped", "file-missing", "file-missing",
            ])
        XCTAssertEqual(
            links(report).map { $0["check"]?["reason"]?.stringValue ?? "-" }.dropFirst(5).prefix(5),
            ["outside-root", "-", "-", "scheme 'ftp' is not checked", "offline"])
        let rules = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).compactMap {
            $0["rule"]?.stringValue
        }.filter { $0 != "uri.relative" && $0 != "uri.insecure-scheme" }
        XCTAssertEqual(
            rules,
            [
                "uri.absolute-file", "uri.mailto-not-an-address", "uri.fragment-missing", "uri.file-missing",
                "uri.unchecked-scheme", "uri.file-missing", "uri.file-missing",
            ],
            "file:///etc/hostname: one warning (an absolute path), not also a skipped note")
        let missing = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"] == "uri.file-missing"
        }
        XCTAssertEqual(
            missing.map { $0["message"]?.stringValue ?? "" },
            [
                "the file 'sub/missing.pdf' does not exist",
                "the file 'www.example.org/page' does not exist; 'www.example.org/page' looks like a web address without 'https://'",
                "the file 'notes.txt' does not exist",
            ])
        XCTAssertEqual(
            missing.dropFirst().first?["hint"]?.stringValue,
            "write 'https://www.example.org…' (a URI without a scheme is a path relative to the PDF)")
        XCTAssertEqual(try serverLog(), [], "offline: no request")
    }

    /// The trust issue (#60), 1: under the action, the token went to `http://github.com` in clear
    /// text, and a pipeline header `${PDFPIPE_GITHUB_TOKEN}` sent it to any host. Here the fixture
    /// is a plain-http proxy that records what reaches it: the token never does, and a pipeline
    /// that names the token is refused before any request.
    func testTheActionsTokenNeverGoesOverPlainHTTPNorWhereThePipelineSays() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(
            dir + "/in/a.pdf",
            [
                "http://github.com/o/r", "http://api.github.com/repos/o/r", "http://raw.githubusercontent.com/o/r/f",
                "http://attacker.example/collect",
            ])
        let token = "ghs_recordedtoken0123456789"
        let environment = [
            "PDFPIPE_GITHUB_TOKEN": token, "ACTIONS_RUNTIME_TOKEN": "runtime-0123456789",
            "http_proxy": "http://127.0.0.1:\(port)", "no_proxy": "",
        ]
        let (code, report, stderr) = try run(
            #"{"enabled": true, "confirmFailures": false, "retries": 0}"#, environment: environment)
        XCTAssertTrue(code == 0 || code == 1, stderr)
        XCTAssertEqual(links(report).count, 4)
        let log = try serverLog()
        XCTAssertEqual(Set(log.map { $0[1] }).count, 4, "every link went through the proxy: \(log)")
        XCTAssertEqual(Set(log.map { $0[4] }), [""], "no Authorization over plain http")
        for header in [
            #"[{"name": "X-Leak", "value": "${PDFPIPE_GITHUB_TOKEN}", "hosts": "attacker.example"}]"#,
            #"[{"name": "X-Leak", "value": "${ACTIONS_RUNTIME_TOKEN}", "hosts": "attacker.example"}]"#,
            #"[{"name": "X-Leak", "value": "${GITHUB_TOKEN}"}]"#,
        ] {
            let (refused, _, message) = try run(
                #"{"enabled": true, "headers": \#(header)}"#,
                environment: environment.merging(["PDFPIPE_SECRETS": "PDFPIPE_GITHUB_TOKEN=attacker.example"]) { $1 })
            XCTAssertEqual(refused, 2, message)
            XCTAssertTrue(message.contains("never reaches the action's or the runner's tokens"), message)
            XCTAssertFalse(message.contains(token))
        }
        XCTAssertEqual(try serverLog().count, log.count, "refused before any request")
    }

    /// The trust issue (#60), 1: a URL carrying a secret (a link, its redirect chain, its final
    /// URL) was written unscrubbed to every report. Every file written and the console are
    /// scrubbed of every spelling of it.
    func testASecretInAURLIsScrubbedFromEverythingWritten() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let secret = "leaky-secret-0123456789"
        try writeLinks(
            dir + "/in/a.pdf",
            [
                base + "/r/302/status/404?k=" + secret, base + "/chain?k=" + secret,
                base + "/status/410?e=leaky%2Dsecret-0123456789",
            ])
        let (code, report, stderr) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "confirmFailures": false, "retries": 0}"#,
            environment: ["DOCS_TOKEN": secret, "PDFPIPE_SECRETS": "DOCS_TOKEN=docs.example.com"],
            flags: ["--format", "json,sarif,junit,markdown,html,github"])
        XCTAssertEqual(code, 1, stderr)
        XCTAssertEqual(links(report).count, 3)
        XCTAssertTrue(
            links(report).allSatisfy { $0["uri"]?.stringValue?.contains("***") == true }, "\(links(report))")
        var files = 0
        for file in FileManager.default.enumerator(atPath: dir + "/out")!.compactMap({ $0 as? String }) {
            guard let data = FileManager.default.contents(atPath: dir + "/out/" + file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            files += 1
            XCTAssertFalse(text.contains("leaky-secret") || text.contains("leaky%2Dsecret"), file)
        }
        XCTAssertGreaterThanOrEqual(files, 6, "report.json, results.jsonl, SARIF, JUnit, Markdown, HTML")
        XCTAssertFalse(stderr.contains("leaky"), stderr)
    }

    func testHeadersRemapExcludeAndSecrets() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/old/ok", base + "/status/404", base + "/private/x"])
        let options = #"""
            {"enabled": true, "allowPrivateAddresses": true, "confirmFailures": false, "exclude": ["/private/"], "remap": [{"pattern": "/old/(.*)$", "replacement": "/$1"}],
             "headers": [{"name": "X-Token", "value": "Bearer ${PDFPIPE_TEST_TOKEN}", "hosts": "127.0.0.1"},
                         {"name": "X-Plain", "value": "not a secret"}], "userAgent": "audit-bot/1"}
            """#
        let (_, report, stderr) = try run(
            options,
            environment: ["PDFPIPE_TEST_TOKEN": "s3cr3t-value", "PDFPIPE_SECRETS": "PDFPIPE_TEST_TOKEN=127.0.0.1"])
        XCTAssertEqual(
            links(report).map { $0["check"]?["outcome"]?.stringValue ?? "-" }, ["ok", "http-error", "skipped"])
        XCTAssertEqual(links(report).dropFirst(2).first?["check"]?["reason"], "excluded")
        let log = try serverLog()
        XCTAssertEqual(
            log.map { $0[1] }.sorted(), ["/ok", probe(""), "/status/404", "/status/404"],
            "remapped (the probe too), excluded one not requested")
        // A header with a secret goes over https only (docs/security.md): never to this plain-http
        // server, although its owner handed it over for this host.
        XCTAssertEqual(Set(log.map { $0[2] }), [""])
        for file in try FileManager.default.contentsOfDirectory(atPath: dir + "/out") {
            XCTAssertFalse(try String(contentsOfFile: dir + "/out/" + file, encoding: .utf8).contains("s3cr3t"), file)
        }
        XCTAssertFalse(stderr.contains("s3cr3t"))
        // A missing variable is a pipeline error naming the JSON path.
        let (code, _, message) = try run(
            #"{"enabled": true, "headers": [{"name": "X-Token", "value": "${PDFPIPE_NOT_SET_ANYWHERE}", "hosts": "a.example"}]}"#,
            environment: ["PDFPIPE_SECRETS": "PDFPIPE_NOT_SET_ANYWHERE=a.example"])
        XCTAssertEqual(code, 2)
        XCTAssertTrue(message.contains("stages[0].with.external.headers[0].value"), message)
        XCTAssertTrue(message.contains("'PDFPIPE_NOT_SET_ANYWHERE' is not set"), message)
        let (badAccept, _, acceptMessage) = try run(#"{"enabled": true, "accept": "200-2x9"}"#)
        XCTAssertEqual(badAccept, 2)
        XCTAssertTrue(acceptMessage.contains("stages[0].with.external.accept"), acceptMessage)
    }

    /// htmlFragments: a web link's #fragment must name an anchor of the page, fetched once per URL
    /// (after its redirects): ids quoted, single-quoted, bare and percent-encoded UTF-8, `<a name>`,
    /// `#top`; not an attribute that merely ends in "id", nor an id inside a comment. Off by default,
    /// when no page body is fetched at all.
    func testHTMLFragments() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let page = base + "/page.html"
        let fragments = [
            "#intro", "#Caf%C3%A9", "#plain", "#legacy", "#TOP", "#missing", "#not-an-anchor", "#commented",
            "#:~:text=Intro",
        ]
        try writeLinks(
            dir + "/in/a.pdf",
            fragments.map { page + $0 } + [
                page + "?redirected#intro", page + "?redirected#gone", base + "/ok#whatever",
            ])
        let (_, off, _) = try run(#"{"enabled": true, "allowPrivateAddresses": true}"#)
        XCTAssertEqual(
            Set(links(off).map { $0["check"]?["outcome"]?.stringValue ?? "-" }), ["ok", "redirected"],
            "?redirected answers 301")
        XCTAssertEqual(
            try serverLog().filter { $0[0] == "GET" }.map { $0[1] }, [probe("")],
            "without htmlFragments no page is fetched: only the host's probe (a 404 here)")

        let (_, report, _) = try run(#"{"enabled": true, "allowPrivateAddresses": true, "htmlFragments": true}"#)
        XCTAssertEqual(
            links(report).map { $0["check"]?["outcome"]?.stringValue ?? "-" },
            [
                "ok", "ok", "ok", "ok", "ok", "fragment-missing", "fragment-missing", "fragment-missing", "ok",
                "redirected", "fragment-missing", "fragment-missing",
            ])
        let findings = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"] == "uri.fragment-missing"
        }
        XCTAssertEqual(
            findings.map { $0["message"]?.stringValue ?? "" },
            [
                "the page '\(page)' has no element with the id 'missing' (nor an <a> with that name)",
                "the page '\(page)' has no element with the id 'not-an-anchor' (nor an <a> with that name)",
                "the page '\(page)' has no element with the id 'commented' (nor an <a> with that name)",
                "the page '\(page)?redirected' has no element with the id 'gone' (nor an <a> with that name)",
                "the page '\(base)/ok' has no element with the id 'whatever' (nor an <a> with that name)",
            ])
        let gets = try serverLog().filter { $0[0] == "GET" }.map { $0[1] }
        XCTAssertEqual(
            gets.sorted(), ["/ok", "/page.html", "/page.html", "/page.html?redirected", probe(""), probe("")],
            "one fetch per URL, the redirect followed")
        // Worker processes get the anchors from the parent, which fetched the pages.
        let (_, isolated, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "htmlFragments": true}"#,
            flags: ["--isolate", "--jobs", "2"])
        XCTAssertEqual(links(isolated).map { $0["check"]?["outcome"] }, links(report).map { $0["check"]?["outcome"] })
    }

    /// A Retry-After beyond 60 s is not waited for: the 429 stands, and the message says why.
    func testALongRetryAfterIsNotWaitedFor() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/closed-for-an-hour"])
        let started = Date()
        let (_, report, _) = try run(#"{"enabled": true, "allowPrivateAddresses": true, "method": "get"}"#)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        let check = links(report).first?["check"]
        XCTAssertEqual(check?["outcome"], "rate-limited", "a rate limit is not a broken link (#43)")
        XCTAssertEqual(check?["status"], 429)
        XCTAssertEqual(check?["attempts"], 1)
        let finding = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).first {
            $0["rule"] == "uri.rate-limited"
        }
        XCTAssertEqual(finding?["severity"], "warning")
        XCTAssertEqual(
            finding?["message"]?.stringValue,
            "'\(base)/closed-for-an-hour' could not be verified: the server asks to wait 3600 s before retrying (Retry-After); not waited for"
        )
    }

    /// (#44, 6) A document's web checks have a budget (`documentSeconds`, at most `--timeout`): a
    /// link not answered by then is `over-budget` (unverified), one warning names the budget, and
    /// the run does not wait for it. `/slow` answers after 3 s.
    func testADocumentsWebChecksStopAtItsBudget() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/slow", base + "/ok"])
        for (external, flags, lowered) in [
            (
                #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "documentSeconds": 1}"#, [String](),
                false
            ),
            (
                #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0}"#, ["--isolate", "--timeout", "2"],
                true
            ),
        ] {
            let (status, report, stderr) = try run(external, flags: flags)
            XCTAssertEqual(status, 0, "warnings only: " + stderr)
            XCTAssertEqual(links(report).map { $0["check"]?["outcome"] }, ["over-budget", "ok"], "\(flags)")
            XCTAssertEqual(report["summary"]?["links"]?["unverified"], 1)
            let budget = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
                $0["budget"] == "external.documentSeconds"
            }
            XCTAssertEqual(budget.map { $0["rule"] }, ["pdf.limit-exceeded"])
            let message = budget.first?["message"]?.stringValue ?? ""
            XCTAssertTrue(message.hasPrefix("1 web link was not verified: the document's web checks may take"), message)
            XCTAssertEqual(message.contains("lowered to --timeout"), lowered, message)
            XCTAssertTrue(message.hasSuffix("(first: '\(base)/slow')"), message)
        }
    }

    /// (#43, 2) A host that keeps answering 429: each request retried (on a budget of its own, the
    /// whole host paused in between), then "could not verify" — a warning, never uri.http-error;
    /// report.json's run-level `sections.web.hosts` counts the host's 429s and pauses.
    func testAHostThatKeepsRateLimitingIsNotVerifiedNotBroken() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/always429/1", base + "/always429/2", base + "/ok"])
        let (status, report, stderr) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "method": "get"}"#)
        XCTAssertEqual(status, 0, "warnings only: " + stderr)
        XCTAssertEqual(links(report).map { $0["check"]?["outcome"] }, ["rate-limited", "rate-limited", "ok"])
        XCTAssertEqual(links(report).first?["check"]?["attempts"], 5, "1 + 4 retries (retries 0 + 4 for 429s)")
        let rules = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).map { $0["rule"] }
            .filter { $0 != "uri.insecure-scheme" }
        XCTAssertEqual(rules, ["uri.rate-limited", "uri.rate-limited"])
        XCTAssertEqual(report["summary"]?["links"]?["unverified"], 2)
        let hosts = report["sections"]?["web"]?["hosts"]?.arrayValue ?? []
        XCTAssertEqual(hosts.count, 1)
        XCTAssertEqual(hosts.first?["host"], "127.0.0.1")
        XCTAssertEqual(hosts.first?["rateLimited"], 10)
        XCTAssertEqual(hosts.first?["requests"], 12, "11 and the probe of the host whose /ok answered (probeHosts)")
        XCTAssertEqual(hosts.first?["retries"], 8)
        XCTAssertGreaterThanOrEqual(hosts.first?["pauses"]?.intValue ?? 0, 1)
        XCTAssertGreaterThan(hosts.first?["longestInterval"]?.doubleValue ?? 0, 0.08, "the host was slowed down")
    }

    /// (#61, 5) Flaky means flaky: under confirmRuns, a 404 or 410 confirmed in the same run is an
    /// error at once; a 500 (which may pass) waits, as a timeout would.
    func testADefiniteAnswerIsNotFlaky() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/status/404", base + "/status/410", base + "/status/500"])
        let (status, report, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "confirmRuns": 3, "cache": {"path": "\#(dir)/c/links.json"}}"#,
            environment: ["PDFPIPE_RUN_ID": "r1"])
        XCTAssertEqual(status, 1)
        let rules = (report["documents"]?.arrayValue?.first?["findings"]?.arrayValue ?? []).filter {
            $0["rule"] != "uri.insecure-scheme"
        }.map { "\($0["rule"]?.stringValue ?? "") \($0["uri"]?.stringValue ?? "")" }
        XCTAssertEqual(
            rules.sorted(),
            [
                "uri.flaky \(base)/status/500", "uri.http-error \(base)/status/404",
                "uri.http-error \(base)/status/410",
            ])
        let history = try JSONParser.parse(String(contentsOfFile: dir + "/c/links.history.json", encoding: .utf8))
        XCTAssertEqual(history["entries"]?[base + "/status/404"]?["failures"], 1, "still counted")
    }

    /// (#43, 4) confirmRuns: a failing link is uri.flaky (a warning) until it has failed in K runs
    /// in a row (counted beside the cache, once per run id); a run where it works resets it.
    func testALinkIsBrokenOnlyOnceItHasFailedInConfirmRunsRunsInARow() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/status/404", base + "/ok"])
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "confirmRuns": 3, "confirmFailures": false, "cache": {"path": "\#(dir)/c/links.json"}}"#
        func once(_ id: String) throws -> (Int32, JSONValue) {
            let (status, report, _) = try run(options, environment: ["PDFPIPE_RUN_ID": id])
            return (status, report)
        }
        for (n, id) in ["r1", "r2"].enumerated() {
            let (status, report) = try once(id)
            XCTAssertEqual(status, 0, "run \(n + 1): not yet an error")
            let f = report["documents"]?.arrayValue?.first?["findings"]?.arrayValue?.first {
                $0["rule"] != "uri.insecure-scheme"
            }
            XCTAssertEqual(f?["rule"], "uri.flaky")
            XCTAssertEqual(
                f?["message"]?.stringValue,
                "'\(base)/status/404' answered 404 Not Found — failed in \(n + 1) run\(n == 0 ? "" : "s") in a row; an error once it has failed in 3 (confirmRuns)"
            )
            XCTAssertEqual(links(report).first?["check"]?["outcome"], "flaky")
            XCTAssertEqual(links(report).first?["check"]?["fromCache"], false, "a failure is asked again every run")
        }
        // A second shard of run 2 does not count it again.
        XCTAssertEqual(try once("r2").0, 0)
        let (status, third) = try once("r3")
        XCTAssertEqual(status, 1, "three runs in a row: broken")
        XCTAssertEqual(
            third["documents"]?.arrayValue?.first?["findings"]?.arrayValue?.first {
                $0["rule"] != "uri.insecure-scheme"
            }?[
                "rule"], "uri.http-error")
        let history = try JSONParser.parse(String(contentsOfFile: dir + "/c/links.history.json", encoding: .utf8))
        XCTAssertEqual(history["entries"]?[base + "/status/404"]?["failures"], 3)
        XCTAssertNil(history["entries"]?[base + "/ok"], "a link that works is not kept")
        // confirmRuns needs the cache's folder.
        let (bad, _, message) = try run(#"{"enabled": true, "confirmRuns": 2}"#)
        XCTAssertEqual(bad, 2)
        XCTAssert(message.contains("confirmRuns counts the runs a link failed in a file beside the cache"), message)
    }

    /// The trust issue (#60), 2: a committed cache entry (or a shard's shared entry) saying a dead
    /// URL answered 200 a minute ago made the link `ok` for a day. Entries carry a MAC under a key
    /// outside the workspace (`StateSeal`): a planted one is not read, the URL is asked, the link
    /// is broken.
    func testAPlantedCacheOrSharedEntryDoesNotMakeADeadLinkOK() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/c/links.shared", withIntermediateDirectories: true)
        let dead = base + "/status/404"
        try writeLinks(dir + "/in/a.pdf", [dead])
        let now = Date().timeIntervalSince1970 - 60
        let entry =
            #"{"url": "\#(dead)", "finalURL": "\#(dead)", "status": 200, "attempts": 1, "checkedAt": \#(now), "redirects": [], "mac": "00"}"#
        try #"{"version": 1, "entries": {"\#(dead)": \#(entry)}}"#.write(
            toFile: dir + "/c/links.json", atomically: true, encoding: .utf8)
        // The shared entry's file name: FNV-1a of the URL, as URLChecker names it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in dead.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        try entry.write(
            toFile: dir + "/c/links.shared/\(String(hash, radix: 16)).json", atomically: true, encoding: .utf8)
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "confirmFailures": false, "retries": 0, "cache": {"path": "\#(dir)/c/links.json"}}"#
        for flags in [[], ["--shard", "1/1"], ["--shard", "1/2"]] {
            let before = try serverLog().count
            let (status, report, stderr) = try run(options, flags: flags)
            XCTAssertEqual(status, 1, "\(flags): \(stderr)")
            XCTAssertEqual(links(report).first?["check"]?["outcome"], "http-error", "\(flags)")
            XCTAssertEqual(links(report).first?["check"]?["fromCache"], false, "\(flags)")
            XCTAssertGreaterThan(try serverLog().count, before, "\(flags): asked again")
            // Put the planted file back for the next variant (the run rewrote the cache).
            try #"{"version": 1, "entries": {"\#(dead)": \#(entry)}}"#.write(
                toFile: dir + "/c/links.json", atomically: true, encoding: .utf8)
        }
        // What this machine sealed is read back (a 404 is cached: the next run asks nothing).
        let (_, _, _) = try run(options)
        let before = try serverLog().count
        let (_, again, _) = try run(options)
        XCTAssertEqual(links(again).first?["check"]?["fromCache"], true)
        XCTAssertEqual(try serverLog().count, before)
        let cache = try JSONParser.parse(String(contentsOfFile: dir + "/c/links.json", encoding: .utf8))
        XCTAssertEqual(cache["entries"]?[dead]?["mac"]?.stringValue?.count, 64, "sealed: HMAC-SHA256 in hex")
    }

    /// The trust issue (#60), 2: a history entry with failures = Int64.max crashed every later run
    /// (an overflow, no report), a 60 MB history cost 30–54 s and 1.27 GB and was never pruned, and
    /// a symbolic link as the cache folder wrote the run's state outside the workspace.
    func testAPlantedHistoryOrLinkedStateFolderChangesNothing() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/c", withIntermediateDirectories: true)
        let dead = base + "/status/404"
        try writeLinks(dir + "/in/a.pdf", [dead, base + "/ok"])
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "confirmRuns": 3, "confirmFailures": false, "cache": {"path": "\#(dir)/c/links.json"}}"#
        let planted =
            #"{"failures": 9223372036854775807, "firstFailed": "2020-01-01T00:00:00Z", "lastFailed": "2026-01-01T00:00:00Z", "run": "x"}"#
        try #"{"version": 1, "entries": {"\#(dead)": \#(planted)}}"#.write(
            toFile: dir + "/c/links.history.json", atomically: true, encoding: .utf8)
        let (status, report, stderr) = try run(options, environment: ["PDFPIPE_RUN_ID": "r1"])
        XCTAssertEqual(status, 0, "the planted count is not read: the first failure is uri.flaky. \(stderr)")
        XCTAssertEqual(links(report).first?["check"]?["outcome"], "flaky")
        let history = try JSONParser.parse(String(contentsOfFile: dir + "/c/links.history.json", encoding: .utf8))
        XCTAssertEqual(history["entries"]?[dead]?["failures"], 1, "rewritten from this run's verdicts")

        // A history far past its size limit is not read, and is rewritten small.
        var big = #"{"version": 1, "entries": {"#
        let filler =
            #"{"failures": 2, "firstFailed": "2026-01-01T00:00:00Z", "lastFailed": "2026-01-01T00:00:00Z", "run": "x"}"#
        var parts: [String] = []
        for i in 0..<60_000 { parts.append(#""https://x.example/\#(i)": \#(filler)"#) }
        big += parts.joined(separator: ",") + "}}"
        try big.write(toFile: dir + "/c/links.history.json", atomically: true, encoding: .utf8)
        XCTAssertGreaterThan(big.utf8.count, 4 << 20)
        let (bigStatus, _, _) = try run(options, environment: ["PDFPIPE_RUN_ID": "r2"])
        XCTAssertEqual(bigStatus, 0)
        let size = try FileManager.default.attributesOfItem(atPath: dir + "/c/links.history.json")[.size] as? Int
        XCTAssertLessThan(size ?? .max, 4096, "rewritten with this run's one failing link")

        // A symbolic link on the way to the state is refused before any work, naming it.
        let elsewhere = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let work = dir + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work + "/.pdfpipe-cache", withDestinationPath: elsewhere)
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "cache": {"path": ".pdfpipe-cache/links.json"}}}}]}"#
            .write(toFile: work + "/p.json", atomically: true, encoding: .utf8)
        for pipeline in ["p.json"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try Repo.executable())
            p.arguments = ["run", pipeline, dir + "/in", "--out", work + "/out", "--quiet"]
            p.currentDirectoryURL = URL(fileURLWithPath: work)
            let err = Pipe()
            p.standardError = err
            try p.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 2, message)
            XCTAssertTrue(message.contains("'.pdfpipe-cache' is a symbolic link"), message)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [], "nothing written through it")
        // A pipeline file cannot point the state elsewhere on the machine.
        try
            #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "cache": {"path": "/etc/pdfpipe-planted.json"}}}}]}"#
            .write(toFile: work + "/q.json", atomically: true, encoding: .utf8)
        let (outside, _, outsideMessage) = try run(
            #"{"enabled": true, "cache": {"path": "/etc/pdfpipe-planted.json"}}"#)
        XCTAssertEqual(outside, 2)
        XCTAssertTrue(outsideMessage.contains("is outside the working folder"), outsideMessage)
    }

    /// (#43, 1) Many documents' URLs are in flight at once: a document's web verdicts are joined
    /// when they are answered, without holding a worker, and the report is the same whatever the
    /// number of workers (and the same as with the document's worker waiting, --isolate).
    func testDocumentsDoNotWaitForEachOthersURLsAndTheReportStaysTheSame() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        // Every document has one slow URL (3 s, past the 1 s time limit): with a worker held per
        // document, 6 documents on 1 worker would take 6 × (1 + 2 retries) s at least.
        for k in 0..<6 {
            try writeLinks(dir + "/in/d\(k).pdf", [base + "/slow?d=\(k)", base + "/ok?d=\(k)", base + "/status/404"])
        }
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "timeoutSeconds": 1, "retries": 0, "confirmFailures": false, "maxPerHost": 8}"#
        var reports: [String] = []
        for jobs in ["1", "3"] {
            let (status, report, stderr) = try run(options, flags: ["--jobs", jobs])
            XCTAssertEqual(status, 1, stderr)
            reports.append(Self.withoutTimings(report))
        }
        XCTAssertEqual(reports[0], reports[1])
        // The server saw every document's slow URL before the first of them had timed out.
        let log = try serverLog().filter { $0[1].hasPrefix("/slow") }.compactMap { Double($0[3]) }
        XCTAssertGreaterThanOrEqual(log.count, 12)
        XCTAssertLessThan((log.prefix(6).max() ?? 99) - (log.prefix(6).min() ?? 0), 1, "all six in flight together")
    }

    /// (#43, 3) Shards on one machine share answers as they come (`<cache>.shared/`, one file per
    /// URL, written atomically): a URL another shard answered is not requested again; each shard
    /// takes its share of the host's pace.
    func testShardsShareTheirAnswersAndTheHostsPace() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d"] {
            try writeLinks(dir + "/in/\(name).pdf", [base + "/ok", base + "/status/404"])
        }
        let options =
            #"{"enabled": true, "allowPrivateAddresses": true, "confirmFailures": false, "cache": {"path": "\#(dir)/c/links.json"}}"#
        let (_, first, _) = try run(options, flags: ["--shard", "1/2"])
        try FileManager.default.createDirectory(atPath: dir + "/s1", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir + "/out/report.json", toPath: dir + "/s1/report.json")
        let before = try serverLog().count
        let (_, second, _) = try run(options, flags: ["--shard", "2/2"])
        XCTAssertEqual(try serverLog().count, before, "the second shard asked nothing: the first had answered")
        XCTAssertEqual(links(second).map { $0["check"]?["fromCache"] }, [true, true])
        XCTAssertEqual(links(second).map { $0["check"]?["outcome"] }, links(first).map { $0["check"]?["outcome"] })
        let shared = try FileManager.default.contentsOfDirectory(atPath: dir + "/c/links.shared")
        XCTAssertEqual(shared.count, 3, "one entry per URL, and the host's probe")
        let hosts = first["sections"]?["web"]?["hosts"]?.arrayValue ?? []
        XCTAssertEqual(hosts.first?["longestInterval"]?.doubleValue ?? 0, 0.16, accuracy: 1e-9, "2 × 0.08 s")
        // The merge adds the shards' host statistics up: the first shard's requests, none from the second.
        let merge = Process()
        merge.executableURL = URL(fileURLWithPath: try Repo.executable())
        merge.arguments = ["merge", dir + "/s1/report.json", dir + "/out/report.json", "--out", dir + "/merged"]
        merge.standardOutput = FileHandle.nullDevice
        merge.standardError = FileHandle.nullDevice
        try merge.run()
        merge.waitUntilExit()
        let merged = try JSONParser.parse(String(contentsOfFile: dir + "/merged/report.json", encoding: .utf8))
        let mergedHosts = merged["sections"]?["web"]?["hosts"]?.arrayValue ?? []
        XCTAssertEqual(mergedHosts.count, 1)
        XCTAssertEqual(mergedHosts.first?["requests"], hosts.first?["requests"])
        XCTAssertNotNil(hosts.first?["requests"]?.intValue)
    }

    /// A report without what differs between runs: timings and the date.
    static func withoutTimings(_ report: JSONValue) -> String {
        guard case .object(var o) = report else { return "" }
        o["generatedAt"] = nil
        o["sections"] = nil
        o["documents"] = .array(
            (o["documents"]?.arrayValue ?? []).map { d in
                guard case .object(var e) = d else { return d }
                e["timings"] = nil
                return .object(e)
            })
        return JSONWriter.pretty(.object(o))
    }

    func testAcceptedStatusesAndGetOnlyMethod() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", [base + "/status/403", base + "/status/404", base + "/flaky/2"])
        let (status, report, _) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "accept": "200-299,403", "method": "get", "retryWaitSeconds": 0.05}"#
        )
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            links(report).map { $0["check"]?["outcome"]?.stringValue ?? "-" }, ["ok", "http-error", "ok-after-retry"])
        XCTAssertEqual(links(report).map { $0["check"]?["attempts"]?.intValue ?? 0 }, [1, 2, 2], "the 404 confirmed")
        XCTAssertEqual(try serverLog().map { $0[0] }, ["GET", "GET", "GET", "GET", "GET", "GET"], "and the probe")
    }

    /// Regression (CI-gate issue, 13): a bot protection's refusal was a broken link (uri.http-error).
    /// Now it is uri.blocked (a warning) and says why; a plain 403 is still an error; per-host
    /// settings accept a status for some hosts only.
    func testBlockedIsToldFromBrokenAndHostsHaveTheirOwnSettings() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let other = "http://localhost:\(port)"
        try writeLinks(
            dir + "/in/a.pdf",
            [
                base + "/bot/cf-header", base + "/bot/cf-chunked", base + "/bot/captcha", base + "/bot/waf",
                base + "/status/403", base + "/status/404", other + "/status/404",
            ])
        let (status, report, stderr) = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "retries": 0, "hosts": [{"host": "127.0.0.*", "accept": "200-299,404", "maxPerHost": 1}]}"#
        )
        XCTAssertEqual(status, 1, stderr)
        XCTAssertEqual(
            links(report).map { $0["check"]?["outcome"]?.stringValue ?? "-" },
            ["blocked", "blocked", "blocked", "blocked", "http-error", "ok", "http-error"])
        let findings = report["documents"]?[0]?["findings"]?.arrayValue ?? []
        let blocked = findings.filter { $0["rule"] == "uri.blocked" }
        XCTAssertEqual(blocked.map { $0["severity"] }, ["warning", "warning", "warning", "warning"])
        XCTAssertEqual(
            blocked.compactMap { $0["message"]?.stringValue?.components(separatedBy: "to the checker only: ").last },
            [
                "Cloudflare asked for a browser challenge (cf-mitigated: challenge); the link probably works in a browser",
                "Cloudflare answered with a challenge page; the link probably works in a browser",
                "the answer is a page asking for a CAPTCHA ('g-recaptcha'); the link probably works in a browser",
                "AWS WAF asked for a captcha (x-amzn-waf-action); the link probably works in a browser",
            ])
        XCTAssertEqual(
            findings.filter { $0["rule"] == "uri.http-error" }.count, 2,
            "a plain 403, and a 404 from a host without the rule")
    }

    /// Isolated workers ask the parent: still one request per URL for the run, one cache, and the
    /// same report as in-process (and as with one job).
    func testIsolatedWorkersShareTheRunsChecker() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let uris = [base + "/ok", base + "/status/404", base + "/r/301/ok", base + "/doc.pdf#page=9"]
        for name in ["a", "b", "c", "d"] { try writeLinks(dir + "/in/\(name).pdf", uris) }
        let options = #"{"enabled": true, "allowPrivateAddresses": true, "cache": {"path": "\#(dir)/cache.json"}}"#
        let (status, isolated, stderr) = try run(options, flags: ["--isolate", "--jobs", "2"])
        XCTAssertEqual(status, 1, stderr)
        let log = try serverLog()
        XCTAssertEqual(requests(log, "/status/404"), ["HEAD", "GET", "HEAD", "GET"], "asked, then confirmed")
        XCTAssertEqual(requests(log, "/r/301/ok"), ["HEAD"])
        XCTAssertEqual(requests(log, "/doc.pdf"), ["HEAD", "GET"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/cache.json"), "the parent wrote the cache")
        try FileManager.default.removeItem(atPath: dir + "/cache.json")
        let (_, inProcess, _) = try run(options, flags: ["--jobs", "1"])
        func stable(_ r: JSONValue) -> [JSONValue] {
            (r["documents"]?.arrayValue ?? []).map { d in
                guard case .object(var o) = d else { return d }
                o["timings"] = nil
                return .object(o)
            }
        }
        XCTAssertEqual(stable(isolated), stable(inProcess))
        XCTAssertEqual(
            links(isolated).map { $0["check"]?["outcome"]?.stringValue ?? "" },
            ["ok", "http-error", "redirected", "fragment-missing"])
        // --offline wins over the pipeline.
        let before = try serverLog().count
        let (_, offline, _) = try run(options, flags: ["--offline", "--isolate"])
        XCTAssertEqual(Set(links(offline).map { $0["check"]?["reason"]?.stringValue ?? "" }), ["offline"])
        XCTAssertEqual(try serverLog().count, before)
    }

    /// Politeness: at most maxPerHost requests in flight to one host, starts hostIntervalSeconds
    /// apart, and maxConcurrency over all hosts (127.0.0.1 and localhost count as two hosts).
    func testPerHostLimitIntervalAndGlobalConcurrency() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try writeLinks(dir + "/in/a.pdf", (0..<6).map { base + "/hold/\($0)" })
        let started = Date()
        _ = try run(#"{"enabled": true, "allowPrivateAddresses": true, "maxPerHost": 2, "hostIntervalSeconds": 0}"#)
        XCTAssertEqual(try fetch("/__inflight"), "2")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.85, "three rounds of two 0.3 s requests")

        // Intervals: four URLs, 0.25 s apart at least.
        try writeLinks(dir + "/in/a.pdf", (10..<14).map { base + "/ok?i=\($0)" })
        let before = try serverLog().count
        _ = try run(#"{"enabled": true, "allowPrivateAddresses": true, "hostIntervalSeconds": 0.25}"#)
        let times = try serverLog().dropFirst(before).compactMap { Double($0[3]) }.sorted()
        XCTAssertEqual(times.count, 5, "and the probe, paced as any")
        // The client starts them 0.25 s apart; the server sees them when they arrive, which a loaded
        // machine can delay one by one (#33, 7): the span of the five, with room for that.
        XCTAssertGreaterThanOrEqual((times.last ?? 0) - (times.first ?? 0), 0.6, "\(times)")

        // The global limit holds across hosts: 3 at once over two host names.
        server?.terminate()
        server?.waitUntilExit()
        try startServer()
        let other = "http://localhost:\(port)"
        try writeLinks(
            dir + "/in/a.pdf", (0..<4).map { base + "/hold/a\($0)" } + (0..<4).map { other + "/hold/b\($0)" })
        _ = try run(
            #"{"enabled": true, "allowPrivateAddresses": true, "maxPerHost": 4, "maxConcurrency": 3, "hostIntervalSeconds": 0}"#
        )
        XCTAssertEqual(try fetch("/__inflight"), "3")
    }
}
