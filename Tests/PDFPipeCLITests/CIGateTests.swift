import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// The CI gate (CI-gate issue, 5, 11, 12): paths as the inputs were named, baselines with a
/// ratchet, and suppressions with reasons and expiry — run through the CLI as a CI job would.
final class CIGateTests: XCTestCase {
    var dir = ""
    let linkAudit = Repo.root + "/pipelines/link-audit.json"

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A one-page PDF whose links point at named destinations that do not exist.
    func writeDocument(_ path: String, brokenNames: [String]) throws {
        try TestPDF.withBrokenNames(dir + "/" + path, brokenNames)
    }

    func run(_ args: [String]) -> (ExitCode, CapturedCLI) {
        let cli = CapturedCLI()
        return (cli.run(args, in: dir), cli)
    }

    func report(_ path: String) throws -> JSONValue { try Repo.stableReport(dir + "/" + path) }

    /// Shard K of N of the link audit over docs/, compared with b.json, into `out`: it passes
    /// (`--fail-on never`; the merge is the gate).
    func runShard(_ k: Int, of n: Int, into out: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            run([
                "run", linkAudit, "docs", "--offline", "--shard", "\(k)/\(n)", "--out", out, "--quiet", "--fail-on",
                "never", "--baseline", "b.json",
            ]).0, .clean, file: file, line: line)
    }

    func findings(_ report: JSONValue, _ key: String = "findings") -> [JSONValue] {
        (report["documents"]?.arrayValue ?? []).flatMap { $0[key]?.arrayValue ?? [] }
    }

    /// Regression (5): annotations and SARIF pointed at `actions.pdf` for input `build/pdf`;
    /// GitHub attaches annotations to repository paths only.
    func testPathsAreTheOnesTheInputsWereNamedBy() throws {
        try writeDocument("build/pdf/a.pdf", brokenNames: ["x"])
        try writeDocument("build/pdf/my doc#1.pdf", brokenNames: ["y"])
        let (code, cli) = run([
            "run", linkAudit, "build/pdf", "--offline", "--out", "out", "--format",
            "json,github,sarif,junit,markdown,html",
        ])
        XCTAssertEqual(code, .findings)
        XCTAssertTrue(
            cli.stdout.contains("build/pdf/a.pdf:1: error: named destination 'x' does not exist [dest.name-not-found]"),
            cli.stdout)
        let r = try report("out/report.json")
        let docs = r["documents"]?.arrayValue ?? []
        XCTAssertEqual(docs.map { $0["path"] }, ["a.pdf", "my doc#1.pdf"], "report.json keeps path as documented")
        XCTAssertEqual(docs.map { $0["workingPath"] }, ["build/pdf/a.pdf", "build/pdf/my doc#1.pdf"])
        let github = try String(contentsOfFile: dir + "/out/github.txt", encoding: .utf8)
        XCTAssertTrue(github.contains("::error file=build/pdf/a.pdf,title=dest.name-not-found::"), github)
        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let locations = (sarif["runs"]?[0]?["results"]?.arrayValue ?? []).map {
            $0["locations"]?[0]?["physicalLocation"]?["artifactLocation"]
        }
        XCTAssertEqual(
            locations,
            [
                ["uri": "build/pdf/a.pdf", "uriBaseId": "%SRCROOT%"],
                ["uri": "build/pdf/my%20doc%231.pdf", "uriBaseId": "%SRCROOT%"],
            ])
        let junit = try String(contentsOfFile: dir + "/out/junit.xml", encoding: .utf8)
        XCTAssertTrue(junit.contains("<testsuite name=\"build/pdf/a.pdf\""), junit)
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/out/report.md", encoding: .utf8).contains("## build/pdf/a.pdf\n"))
        // The HTML names it so, and links to it relative to the report (out/ is beside build/).
        let html = try String(contentsOfFile: dir + "/out/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains(#"<h2><a href="../build/pdf/a.pdf">build/pdf/a.pdf</a>"#))
        XCTAssertTrue(html.contains(#"<h2><a href="../build/pdf/my%20doc%231.pdf">build/pdf/my doc#1.pdf</a>"#))

        // Inputs outside the working folder are shown by their absolute path (a file:// URI in SARIF).
        let elsewhere = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        try FileManager.default.copyItem(atPath: dir + "/build/pdf/a.pdf", toPath: elsewhere + "/a.pdf")
        XCTAssertEqual(
            run(["run", linkAudit, elsewhere, "--offline", "--out", "out2", "--format", "json,sarif", "--quiet"]).0,
            .findings)
        XCTAssertEqual(try report("out2/report.json")["documents"]?[0]?["workingPath"], .string(elsewhere + "/a.pdf"))
        let sarif2 = try JSONParser.parse(String(contentsOfFile: dir + "/out2/report.sarif", encoding: .utf8))
        XCTAssertEqual(
            sarif2["runs"]?[0]?["results"]?[0]?["locations"]?[0]?["physicalLocation"]?["artifactLocation"],
            ["uri": .string("file://" + elsewhere + "/a.pdf")])
    }

    /// (11) Adopting the gate on an old document set: no new broken links from day one.
    func testBaselineNewUnchangedFixedAndTheRatchet() throws {
        try writeDocument("docs/a.pdf", brokenNames: ["x", "y"])
        try writeDocument("docs/b.pdf", brokenNames: ["z"])
        XCTAssertEqual(run(["run", linkAudit, "docs", "--offline", "--out", "first", "--quiet"]).0, .findings)
        let (written, cli) = run(["baseline", "first/report.json", "--out", "ci/pdfpipe-baseline.json"])
        XCTAssertEqual(written, .clean, cli.stderr)
        XCTAssertEqual(cli.stdout, "pdfpipe: wrote ci/pdfpipe-baseline.json: 3 findings of 2 documents\n")
        let baseline = try JSONParser.parse(String(contentsOfFile: dir + "/ci/pdfpipe-baseline.json", encoding: .utf8))
        XCTAssertEqual(baseline["format"], "pdfpipe-baseline")
        XCTAssertEqual(
            baseline["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue },
            Array(repeating: "dest.name-not-found", count: 3))

        // Unchanged: the same findings do not fail the run.
        XCTAssertEqual(
            run([
                "run", linkAudit, "docs", "--offline", "--out", "same", "--quiet", "--baseline",
                "ci/pdfpipe-baseline.json",
            ]).0, .clean)
        XCTAssertEqual(
            try report("same/report.json")["baseline"],
            ["file": "ci/pdfpipe-baseline.json", "ratchet": false, "new": 0, "unchanged": 3, "fixed": 0])

        // 'y' fixed, a new document with a new broken link.
        try writeDocument("docs/a.pdf", brokenNames: ["x"])
        try writeDocument("docs/c.pdf", brokenNames: ["w"])
        let (code, gate) = run([
            "run", linkAudit, "docs", "--offline", "--out", "pr", "--baseline", "ci/pdfpipe-baseline.json", "--format",
            "json,github,sarif,markdown",
        ])
        XCTAssertEqual(code, .findings, "a new broken link fails the gate")
        XCTAssertTrue(
            gate.stdout.contains(
                "(baseline: 1 new, 2 unchanged, 1 fixed); wrote pr/report.json, pr/github.txt, pr/report.sarif, pr/report.md\npdfpipe: links: 3 in all, 0 ok, 3 broken, 0 blocked, 0 unverified, 0 skipped, 0 redirected\n"
            ), gate.stdout)
        XCTAssertFalse(gate.stdout.contains("docs/b.pdf:1: error"), "baselined findings are not listed: \(gate.stdout)")
        let pr = try report("pr/report.json")
        XCTAssertEqual(pr["baseline"]?["new"], 1)
        let states = Dictionary(
            uniqueKeysWithValues: findings(pr).map {
                ($0["message"]?.stringValue ?? "", $0["baseline"]?.stringValue ?? "")
            })
        XCTAssertEqual(
            states,
            [
                "named destination 'x' does not exist": "unchanged",
                "named destination 'z' does not exist": "unchanged",
                "named destination 'w' does not exist": "new",
            ])
        XCTAssertEqual(
            findings(pr, "fixedSinceBaseline").compactMap { $0["message"]?.stringValue },
            ["named destination 'y' does not exist"])
        let github = try String(contentsOfFile: dir + "/pr/github.txt", encoding: .utf8)
        XCTAssertEqual(github.split(separator: "\n").filter { $0.hasPrefix("::error") }.count, 1, github)
        XCTAssertTrue(github.contains("::error file=docs/c.pdf,"), github)
        XCTAssertTrue(github.contains("2 findings already in the baseline not annotated"), github)
        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/pr/report.sarif", encoding: .utf8))
        XCTAssertEqual(
            Set((sarif["runs"]?[0]?["results"]?.arrayValue ?? []).compactMap { $0["baselineState"]?.stringValue }),
            ["new", "unchanged"])
        let md = try String(contentsOfFile: dir + "/pr/report.md", encoding: .utf8)
        XCTAssertTrue(md.contains("1 new, 2 unchanged (not listed below), 1 fixed"), md)
        XCTAssertFalse(md.contains("## docs/b.pdf"), md)

        // A previous report.json is a baseline too.
        XCTAssertEqual(
            run(["run", linkAudit, "docs", "--offline", "--out", "pr2", "--quiet", "--baseline", "first/report.json"])
                .0, .findings)
        XCTAssertEqual(try report("pr2/report.json")["baseline"]?["unchanged"], 2)

        // The ratchet: fixed findings must leave the baseline.
        try FileManager.default.removeItem(atPath: dir + "/docs/c.pdf")
        XCTAssertEqual(
            run([
                "run", linkAudit, "docs", "--offline", "--out", "r", "--quiet", "--baseline",
                "ci/pdfpipe-baseline.json",
            ]).0, .clean)
        let (ratchet, stale) = run([
            "run", linkAudit, "docs", "--offline", "--out", "r", "--quiet", "--baseline", "ci/pdfpipe-baseline.json",
            "--ratchet",
        ])
        XCTAssertEqual(ratchet, .findings)
        // --quiet: the summary line (the run fails), then what the ratchet wants.
        XCTAssertEqual(
            stale.stderr,
            "pdfpipe: 2 documents, 2 pages: 2 errors, 0 warnings, 0 notes (baseline: 0 new, 2 unchanged, 1 fixed); wrote r/report.json\n"
                + "pdfpipe: ratchet: 1 finding of the baseline is fixed; record that: pdfpipe baseline r/report.json --out ci/pdfpipe-baseline.json\n"
        )
        XCTAssertEqual(run(["baseline", "r/report.json", "--out", "ci/pdfpipe-baseline.json"]).0, .clean)
        XCTAssertEqual(
            run([
                "run", linkAudit, "docs", "--offline", "--out", "r", "--quiet", "--baseline",
                "ci/pdfpipe-baseline.json", "--ratchet",
            ]).0, .clean)

        // Bad baselines are usage errors naming the file.
        try "{]".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let (bad, badCLI) = run(["run", linkAudit, "docs", "--offline", "--out", "r", "--baseline", "bad.json"])
        XCTAssertEqual(bad, .usage)
        XCTAssertTrue(badCLI.stderr.hasPrefix("bad.json:1:2: error: malformed JSON"), badCLI.stderr)
        XCTAssertEqual(
            run(["run", linkAudit, "docs", "--offline", "--out", "r", "--ratchet"]).1.stderr,
            "pdfpipe: error: --ratchet (report.ratchet) needs a baseline: --baseline FILE or report.baseline\n")
    }

    /// (#32, 1) Regression: removing a document gave "0 new, 2467 unchanged, 0 fixed" and the
    /// ratchet passed. A document the baseline knows that the batch no longer has: its findings are
    /// fixed, in every report, and a ratchet fails saying why; shards leave it to the merge.
    func testADocumentRemovedFromTheBatchHasItsBaselineFindingsFixed() throws {
        try writeDocument("docs/a.pdf", brokenNames: ["x", "y"])
        try writeDocument("docs/b.pdf", brokenNames: ["z"])
        try writeDocument("docs/c.pdf", brokenNames: ["v", "w"])
        XCTAssertEqual(run(["run", linkAudit, "docs", "--offline", "--out", "first", "--quiet"]).0, .findings)
        XCTAssertEqual(run(["baseline", "first/report.json", "--out", "b.json"]).0, .clean)
        try FileManager.default.removeItem(atPath: dir + "/docs/b.pdf")
        try FileManager.default.removeItem(atPath: dir + "/docs/c.pdf")

        let (code, cli) = run([
            "run", linkAudit, "docs", "--offline", "--out", "r", "--baseline", "b.json", "--format",
            "json,github,markdown,html",
        ])
        XCTAssertEqual(code, .clean, "nothing new: the gate passes")
        XCTAssertTrue(cli.stdout.contains("(baseline: 0 new, 2 unchanged, 3 fixed)"), cli.stdout)
        let removed =
            "2 documents of the baseline are no longer in the batch (b.pdf: 1 finding, c.pdf: 2 findings): their findings count as fixed"
        XCTAssertEqual(cli.stderr, "pdfpipe: baseline: \(removed)\n")
        let r = try report("r/report.json")
        XCTAssertEqual(r["baseline"]?["fixed"], 3)
        XCTAssertEqual(r["removedSinceBaseline"], [["path": "b.pdf", "fixed": 1], ["path": "c.pdf", "fixed": 2]])
        let github = try String(contentsOfFile: dir + "/r/github.txt", encoding: .utf8)
        XCTAssertTrue(github.hasPrefix("::notice title=pdfpipe baseline::\(removed)\n"), github)
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/r/report.md", encoding: .utf8).contains(
                "0 new, 2 unchanged (not listed below), 3 fixed. 2 documents of the baseline are no longer in the batch"
            ))
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/r/report.html", encoding: .utf8).contains(
                "3 fixed. 2 documents of the baseline are no longer in the batch (b.pdf: 1 finding"))

        // The ratchet fails, and says why, on the console and as an annotation.
        let (ratchet, stale) = run([
            "run", linkAudit, "docs", "--offline", "--out", "r2", "--quiet", "--baseline", "b.json", "--ratchet",
            "--format", "json,github",
        ])
        XCTAssertEqual(ratchet, .findings)
        XCTAssertTrue(
            stale.stderr.hasSuffix(
                "pdfpipe: ratchet: 3 findings of the baseline are fixed; \(removed); record that: pdfpipe baseline r2/report.json --out b.json\n"
            ), stale.stderr)
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/r2/github.txt", encoding: .utf8).hasPrefix(
                "::error title=pdfpipe ratchet::ratchet: 3 findings of the baseline are fixed; 2 documents"))

        // Shards cannot tell; the merge can (from --baseline, or the file the shards name).
        for k in 1...2 {
            runShard(k, of: 2, into: "s/\(k)")
            XCTAssertNil(try report("s/\(k)/report.json")["removedSinceBaseline"])
        }
        XCTAssertEqual(run(["merge", "s", "--out", "m", "--quiet"]).0, .clean)
        XCTAssertEqual(try report("m/report.json")["baseline"]?["fixed"], 3)
        XCTAssertEqual(run(["merge", "s", "--out", "m2", "--quiet", "--ratchet"]).0, .findings)
        XCTAssertEqual(
            try report("m2/report.json")["removedSinceBaseline"],
            [["path": "b.pdf", "fixed": 1], ["path": "c.pdf", "fixed": 2]])
    }

    /// (#32, 2) Regression: with a baseline, report.md's broken-targets table listed 50 old targets
    /// and stopped ("… and 57 more"), the 3 new ones among those left out. What is new comes first
    /// in the Markdown and HTML reports: its broken targets and findings, then the rest.
    func testWithABaselineWhatIsNewComesFirst() throws {
        try writeDocument("docs/old.pdf", brokenNames: (1...60).map { "old\($0)" })
        XCTAssertEqual(run(["run", linkAudit, "docs", "--offline", "--out", "first", "--quiet"]).0, .findings)
        XCTAssertEqual(run(["baseline", "first/report.json", "--out", "b.json"]).0, .clean)
        try writeDocument("docs/zz-new.pdf", brokenNames: ["fresh1", "fresh2", "fresh3"])
        let (code, _) = run([
            "run", linkAudit, "docs", "--offline", "--out", "r", "--quiet", "--baseline", "b.json", "--format",
            "json,markdown,html",
        ])
        XCTAssertEqual(code, .findings)
        let md = try String(contentsOfFile: dir + "/r/report.md", encoding: .utf8)
        let headings = md.split(separator: "\n").filter { $0.hasPrefix("## ") }
        XCTAssertEqual(
            headings, ["## New broken targets", "## docs/zz-new.pdf", "## Broken targets already in the baseline"])
        let newTable = md.components(separatedBy: "## docs/zz-new.pdf")[0]
        for name in ["fresh1", "fresh2", "fresh3"] { XCTAssertTrue(newTable.contains("| #\(name) |"), newTable) }
        XCTAssertFalse(newTable.contains("#old"), "the new table has only new breaks")
        XCTAssertTrue(md.contains("… and 10 more in report.html and report.json"), "the old ones are cut, not the new")
        let html = try String(contentsOfFile: dir + "/r/report.html", encoding: .utf8)
        let newSection = try XCTUnwrap(html.range(of: "<h2>New since the baseline <span class=\"count\">3</span>"))
        let oldTargets = try XCTUnwrap(html.range(of: "<h2>Broken targets already in the baseline"))
        XCTAssertLessThan(newSection.lowerBound, oldTargets.lowerBound)
        XCTAssertLessThan(try XCTUnwrap(html.range(of: "<h2>New broken targets")).lowerBound, oldTargets.lowerBound)
    }

    /// (11) Shards compare with the baseline each; the merge adds up their fixed findings, or
    /// compares afresh with `--baseline`.
    func testBaselineThroughShardsAndMerge() throws {
        for (i, names) in [["a"], ["b", "c"], ["d"], ["e"], ["f"]].enumerated() {
            try writeDocument("docs/d\(i).pdf", brokenNames: names)
        }
        XCTAssertEqual(run(["run", linkAudit, "docs", "--offline", "--out", "first", "--quiet"]).0, .findings)
        XCTAssertEqual(run(["baseline", "first/report.json", "--out", "b.json"]).0, .clean)
        try writeDocument("docs/d1.pdf", brokenNames: ["b"])
        try writeDocument("docs/d9.pdf", brokenNames: ["new"])
        for k in 1...2 { runShard(k, of: 2, into: "s\(k)") }
        XCTAssertEqual(run(["merge", "s1/report.json", "s2/report.json", "--out", "m", "--quiet"]).0, .findings)
        let merged = try report("m/report.json")
        XCTAssertEqual(merged["baseline"], ["file": "b.json", "ratchet": false, "new": 1, "unchanged": 5, "fixed": 1])
        XCTAssertEqual(
            run([
                "merge", "s1/report.json", "s2/report.json", "--out", "m2", "--quiet", "--baseline",
                "first/report.json",
            ]).0, .findings)
        XCTAssertEqual(
            try report("m2/report.json")["baseline"],
            ["file": "first/report.json", "ratchet": false, "new": 1, "unchanged": 5, "fixed": 1])
        XCTAssertEqual(
            run([
                "merge", "s1/report.json", "s2/report.json", "--out", "m3", "--quiet", "--ratchet", "--fail-on",
                "never",
            ]).0, .findings, "the ratchet in the merge")
    }

    /// (12) Suppressions with reasons: listed, not counted; an expired one counts again and is a
    /// warning; one that matched nothing in the whole batch is a note.
    func testSuppressionsWithReasonsAndExpiry() throws {
        try writeDocument("docs/a.pdf", brokenNames: ["x", "y"])
        try writeDocument("docs/b.pdf", brokenNames: ["z"])
        try writeDocument("docs/c.pdf", brokenNames: ["q"])
        try #"""
        {"version": 1, "stages": [{"use": "validate-links"}],
         "ignore": [
           {"rule": "dest.name-not-found", "path": "docs/a.pdf", "uri": "^#x$", "reason": "tracked in DOC-1"},
           {"rule": "dest.*", "path": "b.pdf", "reason": "legacy", "expires": "2025-12-31"},
           {"rule": "uri.http-error", "reason": "the wiki is down on Sundays"},
           {"path": "**/c.pdf", "page": 1, "reason": "vendor manual", "expires": "2027-03-31"}
         ]}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let (valid, lint) = run(["validate", "p.json"])
        XCTAssertEqual(valid, .clean)
        XCTAssertEqual(
            lint.stderr,
            "p.json: warning: ignore[1] expired on 2025-12-31; its findings count again [config.suppression-expired]\n")
        let (code, cli) = run([
            "run", "p.json", "docs", "--out", "out", "--format", "json,github,sarif,markdown,html,junit",
        ])
        XCTAssertEqual(code, .findings)
        let r = try report("out/report.json")
        XCTAssertEqual(r["summary"]?["suppressed"], 2)
        XCTAssertEqual(r["summary"]?["errors"], 2, "y and z (the expired entry no longer applies)")
        XCTAssertEqual(r["summary"]?["warnings"], 1, "the expired entry")
        XCTAssertEqual(r["summary"]?["notes"], 1, "the entry that matched nothing")
        let suppressed = findings(r, "suppressed")
        XCTAssertEqual(suppressed.map { $0["suppressedBy"]?["reason"] }, ["tracked in DOC-1", "vendor manual"])
        XCTAssertEqual(suppressed.map { $0["suppressedBy"]?["ignore"] }, ["ignore[0]", "ignore[3]"])
        XCTAssertEqual(
            r["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue },
            ["config.suppression-expired", "config.suppression-unused"])
        XCTAssertEqual(r["findings"]?[0]?["file"], "p.json")
        XCTAssertEqual(r["suppressions"]?.arrayValue?.compactMap { $0["matched"]?.intValue }, [1, 0, 0, 1])
        XCTAssertTrue(
            cli.stdout.contains(
                "p.json: warning: ignore[1] expired on 2025-12-31; the findings it took out count again"), cli.stdout)
        XCTAssertFalse(cli.stdout.contains("'x' does not exist"), cli.stdout)
        let sarif = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let justifications = (sarif["runs"]?[0]?["results"]?.arrayValue ?? []).compactMap {
            $0["suppressions"]?[0]?["justification"]?.stringValue
        }
        XCTAssertEqual(justifications, ["tracked in DOC-1 (ignore[0])", "vendor manual (ignore[3])"])
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/out/report.html", encoding: .utf8).contains("<em>tracked in DOC-1</em>"))
        XCTAssertTrue(
            try String(contentsOfFile: dir + "/out/github.txt", encoding: .utf8).contains(
                "::warning file=p.json,title=config.suppression-expired::"))

        // The same findings keep their fingerprints whatever is suppressed around them.
        try #"{"version": 1, "stages": [{"use": "validate-links"}]}"#.write(
            toFile: dir + "/plain.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(run(["run", "plain.json", "docs", "--out", "plain", "--quiet"]).0, .findings)
        let all = Dictionary(
            uniqueKeysWithValues: findings(try report("plain/report.json")).map {
                ($0["message"]?.stringValue ?? "", $0["fingerprint"])
            })
        for f in findings(r) + suppressed {
            XCTAssertEqual(f["fingerprint"], all[f["message"]?.stringValue ?? ""] ?? nil)
        }

        // Shards cannot tell an unused entry; the merge can.
        for k in 1...2 {
            XCTAssertNotEqual(
                run(["run", "p.json", "docs", "--shard", "\(k)/2", "--out", "s\(k)", "--quiet"]).0, .usage)
        }
        for k in 1...2 {
            XCTAssertFalse(
                try report("s\(k)/report.json")["findings"]?.arrayValue?.contains {
                    $0["rule"] == "config.suppression-unused"
                } ?? false)
        }
        XCTAssertEqual(run(["merge", "s1/report.json", "s2/report.json", "--out", "m", "--quiet"]).0, .findings)
        let merged = try report("m/report.json")
        XCTAssertEqual(merged["findings"], r["findings"])
        XCTAssertEqual(merged["suppressions"], r["suppressions"])
        XCTAssertEqual(merged["summary"], r["summary"])
    }

    func testBadIgnoreEntriesAreValidationErrorsWithTheirPath() throws {
        try #"""
        {"version": 1, "stages": [{"use": "validate-links"}],
         "ignore": [{"rule": "dest.name-not-found"}, {"rule": "dest.nmae-not-found", "reason": "r"},
                    {"reason": "r", "expires": "31/03/2027"}, {"reason": "r", "uri": "("}, {"reason": "r", "pgae": 3}]}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let (code, cli) = run(["validate", "p.json"])
        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            cli.stderr,
            """
            p.json:2:13: error: ignore[0]: missing key 'reason': say why these findings may be ignored (it is shown beside each)
            p.json:2:55: error: ignore[1].rule: unknown rule 'dest.nmae-not-found'; did you mean 'dest.name-not-found'? (`pdfpipe rules` lists them; * matches part of an id)
            p.json:3:40: error: ignore[2].expires: expected a date YYYY-MM-DD, got '31/03/2027'
            p.json:3:78: error: ignore[3].uri: not a valid regular expression: '('
            p.json:3:108: error: ignore[4].pgae: unknown key 'pgae'; did you mean 'page'? (known keys: rule, path, uri, page, reason, expires)

            """)
    }
}
