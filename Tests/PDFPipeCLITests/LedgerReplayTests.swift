import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#67) Thirty nights replayed through a real web server on loopback (scripts/http-fixture.py's
/// `/rot/NAME`, whose links break, recover and flap on a known schedule), each night a run of the
/// built program keeping its record in a ledger: what the runs say (each broken link's
/// `brokenSince` and `brokenRuns`) and what `pdfpipe trend` says (new, fixed and still broken per
/// run, the links broken now and their ages, the times to fix, the hosts) are the schedule's,
/// computed here from the schedule alone. Nothing here reaches beyond 127.0.0.0/8.
final class LedgerReplayTests: XCTestCase {
    var dir = ""
    var server: Process?
    var port = 0

    override func setUpWithError() throws {
        dir = Repo.temporaryFolder()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw Prerequisite.missing("python3 is not installed (scripts/setup.sh --test installs it)")
        }
        (server, port) = try ExternalTool.startServer(Repo.root + "/scripts/http-fixture.py")
    }

    override func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The schedule, as scripts/http-fixture.py's ROT has it: is link `name` broken on night `n`?
    static func broken(_ name: String, _ n: Int) -> Bool {
        switch name {
        case "a": (5..<12).contains(n)
        case "b": true
        case "c": (10..<20).contains(n) && n % 2 == 1
        case "d": n >= 20
        case "e": (8..<17).contains(n)
        default: false
        }
    }

    /// Each link: its document, its name in the schedule, its host.
    static let links: [(document: String, name: String, host: String)] = [
        ("in/a.pdf", "a", "127.0.0.1"), ("in/a.pdf", "b", "127.0.0.1"), ("in/a.pdf", "c", "127.0.0.20"),
        ("in/b.pdf", "d", "127.0.0.21"), ("in/c.pdf", "e", "127.0.0.1"),
    ]

    /// The documents checked on night `n`: c.pdf is left out on nights 14 to 16.
    static func documents(_ n: Int) -> [String] {
        (14..<17).contains(n) ? ["in/a.pdf", "in/b.pdf"] : ["in/a.pdf", "in/b.pdf", "in/c.pdf"]
    }

    static func time(_ n: Int) -> String { "2026-11-\(String(format: "%02d", n + 1))T03:00:00Z" }

    func url(_ link: (document: String, name: String, host: String)) -> String {
        "http://\(link.host):\(port)/rot/\(link.name)"
    }

    /// A one-page PDF with a link annotation per URI.
    func write(_ path: String, _ uris: [String]) throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [\(uris.indices.map { "\(4 + $0) 0 R" }.joined(separator: " "))] >>",
        ]
        for (i, u) in uris.enumerated() {
            let y = 700 - i * 20
            objects.append(
                "<< /Type /Annot /Subtype /Link /Rect [72 \(y) 300 \(y + 12)] /A << /S /URI /URI (\(u)) >> >>")
        }
        try TestPDF.write(path, objects: objects)
    }

    /// Runs the built program in the test's folder, proxies unset, with `environment`.
    func pdfpipe(_ args: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        try Repo.runUnproxied(args, in: dir, environment: environment)
    }

    func testThirtyReplayedNightsAreTheSchedule() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for document in ["in/a.pdf", "in/b.pdf", "in/c.pdf"] {
            // a.pdf has a link that always works too: never in the ledger.
            let own = Self.links.filter { $0.document == document }.map(url)
            try write(dir + "/" + document, own + (document == "in/a.pdf" ? ["http://127.0.0.1:\(port)/ok"] : []))
        }
        // Loopback is private; a 404 is not asked again two seconds later (30 nights in seconds, not minutes).
        try
            #"{"version": 1, "stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "allowPrivateAddresses": true, "retries": 0, "confirmFailures": false}}}]}"#
            .write(
                toFile: dir + "/nightly.json", atomically: true, encoding: .utf8)

        // The schedule's streaks, night by night: a link's streak starts on the night it broke,
        // goes on over nights its document is not checked, and ends on the first night its
        // document is checked and it works.
        var streak: [String: (since: Int, runs: Int)] = [:]
        var fixDays: [Double] = []
        var previous = Set<String>()
        var expectedRuns: [(new: Int, fixed: Int, still: Int)] = []
        for night in 0..<30 {
            _ = try ExternalTool.run(
                "/usr/bin/curl", ["-s", "--noproxy", "*", "http://127.0.0.1:\(port)/__night/\(night)"])
            let (status, stderr) = try pdfpipe(
                ["run", "nightly.json"] + Self.documents(night) + ["--ledger", "ledger", "--out", "out", "--quiet"],
                environment: ["PDFPIPE_RUN_ID": "night-\(night)", "PDFPIPE_FIXED_DATE": Self.time(night)])
            XCTAssertEqual(status, 1, "night \(night): \(stderr)")

            var now = Set<String>()
            for link in Self.links where Self.documents(night).contains(link.document) {
                let key = url(link)
                if Self.broken(link.name, night) {
                    now.insert(key)
                    let s = streak[key]
                    streak[key] = (s?.since ?? night, (s?.runs ?? 0) + 1)
                } else if let s = streak.removeValue(forKey: key) {
                    fixDays.append(Double(night - s.since))
                }
            }
            let carried = Set(streak.keys)
            expectedRuns.append(
                (now.subtracting(previous).count, previous.subtracting(carried).count, now.intersection(previous).count)
            )
            previous = carried

            // The run's own report: each broken link since when, in how many runs.
            let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
            var said: [String] = []
            for d in report["documents"]?.arrayValue ?? [] {
                for f in d["findings"]?.arrayValue ?? [] where f["rule"] == "uri.http-error" {
                    said.append(
                        "\(f["uri"]?.stringValue ?? "?") \(f["brokenSince"]?.stringValue ?? "-") \(f["brokenRuns"]?.intValue ?? 0)"
                    )
                }
            }
            let expected = now.map { "\($0) \(Self.time(streak[$0]!.since)) \(streak[$0]!.runs)" }
            XCTAssertEqual(said.sorted(), expected.sorted(), "night \(night)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/ledger").count, 30)

        let (status, stderr) = try pdfpipe(["trend", "ledger", "--out", "out/trend"])
        XCTAssertEqual(status, 0, stderr)
        let trend = try JSONParser.parse(try String(contentsOfFile: dir + "/out/trend/trend.json", encoding: .utf8))
        let runs = try XCTUnwrap(trend["runs"]?.arrayValue)
        XCTAssertEqual(runs.count, 30)
        for (night, (r, e)) in zip(runs, expectedRuns).enumerated() {
            XCTAssertEqual(r["new"]?.intValue, e.new, "night \(night) new")
            XCTAssertEqual(r["fixed"]?.intValue, e.fixed, "night \(night) fixed")
            XCTAssertEqual(r["still"]?.intValue, e.still, "night \(night) still")
            XCTAssertEqual(r["time"]?.stringValue, Self.time(night))
            // The run's counts, from its record: the documents and links it checked.
            let checked = Self.links.filter { Self.documents(night).contains($0.document) }
            XCTAssertEqual(r["counts"]?["documents"]?.intValue, Self.documents(night).count, "night \(night)")
            XCTAssertEqual(r["counts"]?["links.total"]?.intValue, checked.count + 1, "night \(night): and /ok")
            XCTAssertEqual(
                r["counts"]?["links.broken"]?.intValue, checked.filter { Self.broken($0.name, night) }.count,
                "night \(night)")
        }
        // Each broken link's outcome in the record: its rule and the status the server answered.
        let last = try JSONParser.parse(
            try String(contentsOfFile: dir + "/ledger/20261130030000-night-29.json", encoding: .utf8))
        XCTAssertEqual(
            Set((last["links"]?.arrayValue ?? []).map { "\($0[3]?.stringValue ?? "") \($0[6]?.intValue ?? 0)" }),
            ["uri.http-error 404"])
        // Broken now, the oldest first: since when, in how many runs, how many days.
        let now = streak.sorted { $0.value.since < $1.value.since }.map {
            "\($0.key) \(Self.time($0.value.since)) \($0.value.runs) \(Double(29 - $0.value.since))"
        }
        XCTAssertEqual(
            trend["brokenNow"]?.arrayValue?.map {
                "\($0["target"]!.stringValue!) \($0["since"]!.stringValue!) \($0["runs"]!.intValue!) \($0["days"]!.doubleValue!)"
            }, now)
        XCTAssertEqual(now.count, 2, "b since the first night, d since night 20")
        // Times to fix: a after 7 days, c five times after 1 day, e after 9 (its unchecked nights count).
        XCTAssertEqual(fixDays.sorted(), [1, 1, 1, 1, 1, 7, 9])
        // Nearest rank: the 4th of 7 is the median, the 7th the 90th percentile.
        XCTAssertEqual(trend["timeToFix"]?["fixed"]?.intValue, 7)
        XCTAssertEqual(trend["timeToFix"]?["medianDays"]?.doubleValue, 1)
        XCTAssertEqual(trend["timeToFix"]?["p90Days"]?.doubleValue, 9)
        // Hosts by links broken now, then by how often a link broke there.
        XCTAssertEqual(
            trend["hosts"]?.arrayValue?.map {
                "\($0["host"]!.stringValue!) \($0["brokenNow"]!.intValue!) \($0["breaks"]!.intValue!)"
            }, ["127.0.0.1 1 3", "127.0.0.21 1 1", "127.0.0.20 0 5"])
        XCTAssertEqual(
            trend["documentsWorse"]?.arrayValue?.map { $0["document"]?.stringValue }, ["b.pdf"],
            "the input root is their folder")
    }
}
