import Foundation
import PDFPipeCLI
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

final class ShardTests: XCTestCase {
    var out = ""

    override func setUp() { out = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    /// Three shards, merged, give the report one run over the whole batch gives.
    func testThreeShardsMergedEqualOneRun() throws {
        XCTAssertEqual(
            CapturedCLI().run(["run", "pipelines/link-audit.json", "--out", out + "/all", "--quiet", "--offline"]),
            .findings)
        var counts: [Int] = []
        for k in 1...3 {
            XCTAssertEqual(
                CapturedCLI().run([
                    "run", "pipelines/link-audit.json", "--shard", "\(k)/3", "--out", out + "/s\(k)", "--quiet",
                    "--offline",
                ]).rawValue <= 1, true)
            let r = try Repo.stableReport(out + "/s\(k)/report.json")
            XCTAssertEqual(r["shard"], .string("\(k)/3"))
            counts.append(r["documents"]?.arrayValue?.count ?? 0)
        }
        XCTAssertEqual(counts.reduce(0, +), 21, "the shards split the batch: \(counts)")
        XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(counts)")
        let merge = CapturedCLI()
        XCTAssertEqual(
            merge.run([
                "merge", out + "/s2/report.json", out + "/s1/report.json", out + "/s3/report.json", "--out", out + "/m",
                "--format", "json,junit",
            ]), .findings)
        assertSameReport(try Repo.stableReport(out + "/m/report.json"), try Repo.stableReport(out + "/all/report.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/m/junit.xml"))
        XCTAssertTrue(
            merge.stdout.contains(
                "pdfpipe: 21 documents, 3 failed, 59 pages: 25 errors, 21 warnings, 7 notes; wrote \(out)/m/report.json, \(out)/m/junit.xml\npdfpipe: links: 126 in all"
            ), merge.stdout)
        // The merge step is the CI gate: its exit code follows --fail-on.
        XCTAssertEqual(
            CapturedCLI().run([
                "merge", out + "/s1/report.json", out + "/s2/report.json", out + "/s3/report.json", "--out",
                out + "/m2", "--fail-on", "never", "--quiet",
            ]), .clean)
    }

    /// Regression (CI-gate issue, 6): GitHub shows 10 error and 10 warning annotations per step and
    /// drops the rest silently; pdfpipe wrote every finding in input order. Now: errors first, one
    /// annotation per distinct problem with its pages, within the budget, and a notice for the rest.
    func testGitHubAnnotationsStayWithinGitHubsBudget() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let link = { (name: String) in "<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /Dest (\(name)) >>" }
        for d in 0..<4 {
            // Three pages with the same broken link, and 5 distinct broken names on page 1.
            var objects = [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
            ]
            objects += [
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [6 0 R 7 0 R 8 0 R 9 0 R 10 0 R 11 0 R] >>"
            ]
            objects += [
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [6 0 R] >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [6 0 R] >>",
            ]
            objects += [link("same")] + (0..<5).map { link("other\($0)") }
            try TestPDF.write(out + "/in/doc\(d).pdf", objects: objects)
        }
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", out + "/in", "--offline", "--out", out + "/o", "--format", "github",
                "--quiet",
            ]), .findings)
        let lines = try String(contentsOfFile: out + "/o/github.txt", encoding: .utf8).split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("::error ") }
        XCTAssertEqual(errors.count, 10, "at most 10 error annotations")
        XCTAssertTrue(errors[0].contains("pages 1, 2, 3: named destination 'same' does not exist"), String(errors[0]))
        XCTAssertEqual(
            lines.last,
            "::notice title=pdfpipe::14 more distinct problems not shown as annotations (GitHub shows 10 errors and 10 warnings per step); every finding is in report.md (the step summary) and report.json"
        )
    }

    /// The link audit of the samples as shards 1…n of n, into out/s1 … out/sN.
    func runShards(_ n: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        for k in 1...n {
            XCTAssertEqual(
                CapturedCLI().run([
                    "run", "pipelines/link-audit.json", "--shard", "\(k)/\(n)", "--fail-on", "never", "--out",
                    out + "/s\(k)", "--quiet", "--offline",
                ]), .clean, file: file, line: line)
        }
    }

    /// The trust issue (#60), 3: merge trusted the shape of shard reports. 200,000-deep nesting in
    /// a document crashed it (SIGSEGV after 20 s at 4.8 GB: the copy is written by a recursive
    /// writer); a document with two `path` keys passed the duplicate check; an emptied shard
    /// report passed as a complete set. Each is refused (exit 2) naming the report, at once.
    func testMalformedShardSetsAreRefused() throws {
        try runShards(2)
        let good = try String(contentsOfFile: out + "/s2/report.json", encoding: .utf8)
        let first = try XCTUnwrap(try Repo.stableReport(out + "/s1/report.json")["documents"]?[0]?["path"]?.stringValue)
        let second = try XCTUnwrap(
            try Repo.stableReport(out + "/s2/report.json")["documents"]?[0]?["path"]?.stringValue)
        let path = "\"path\": \"\(second)\""
        XCTAssertTrue(good.contains(path))
        func refused(_ text: String, _ expected: String, _ what: String) throws {
            let file = out + "/bad-\(UUID().uuidString).json"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let cli = CapturedCLI()
            XCTAssertEqual(
                cli.run(["merge", out + "/s1/report.json", file, "--out", out + "/m", "--quiet"]), .usage, what)
            XCTAssertTrue(cli.stderr.contains(expected), "\(what): \(cli.stderr)")
            XCTAssertTrue(cli.stderr.hasPrefix(file) || cli.stderr.hasPrefix("pdfpipe: error"), cli.stderr)
        }
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        try refused(
            good.replacingOccurrences(of: path, with: "\"deep\": \(deep), " + path), "nesting deeper than 512 levels",
            "deep")
        // The second "path" before or after the first: either way the document names two.
        try refused(
            good.replacingOccurrences(of: path, with: "\"path\": \"\(first)\", " + path),
            "the key 'path' is given twice",
            "path twice, before")
        try refused(
            good.replacingOccurrences(of: path, with: path + ", \"path\": \"\(first)\""),
            "the key 'path' is given twice",
            "path twice, after")
        // Emptied: against its own summary, and (the summary made to match) against the batch.
        var emptied = try JSONParser.parse(good)
        guard case .object(var o) = emptied else { return XCTFail() }
        o["documents"] = .array([])
        emptied = .object(o)
        try refused(JSONWriter.pretty(emptied), "lists 0 documents where its summary counts", "emptied")
        guard case .object(var summary) = o["summary"] else { return XCTFail() }
        summary["documents"] = 0
        o["summary"] = .object(summary)
        try refused(JSONWriter.pretty(.object(o)), "the shards list", "emptied, summary matched")
        // A shard of another batch.
        guard case .object(var batch) = o["batch"] else { return XCTFail("a shard's report names its batch") }
        batch["documents"] = 99
        o["batch"] = .object(batch)
        try refused(JSONWriter.pretty(.object(o)), "comes from another batch", "another batch")
    }

    /// Regression (CI-gate issue, 1 and 2): shards run with `--fail-on never` (so that the matrix
    /// finishes) made the merge pass with 29 errors; a merge of 2 of 3 shards passed silently.
    func testTheMergeGatesOnThePipelineAndRefusesAPartialSet() throws {
        try runShards(3)
        let all = [1, 2, 3].map { out + "/s\($0)/report.json" }
        XCTAssertEqual(
            CapturedCLI().run(["merge"] + all + ["--out", out + "/m", "--quiet"]), .findings,
            "the pipeline's failOn (error) decides")
        XCTAssertEqual(try Repo.stableReport(out + "/m/report.json")["failOn"], "error")
        XCTAssertEqual(
            CapturedCLI().run(["merge"] + all + ["--out", out + "/m", "--quiet", "--fail-on", "never"]), .clean,
            "--fail-on still wins")
        let partial = CapturedCLI()
        XCTAssertEqual(partial.run(["merge", all[0], all[2], "--out", out + "/p", "--quiet"]), .usage)
        XCTAssertEqual(
            partial.stderr,
            "pdfpipe: error: merge: missing shard 2/3; rerun --shard 2/3 (each with --resume in its own output folder) (--allow-partial merges them anyway)\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/p"), "nothing written")
        // (#31, 3) A shard whose run was interrupted wrote "incomplete": it is not done.
        let unfinishedReport = out + "/s2-unfinished.json"
        let text = try String(contentsOfFile: all[1], encoding: .utf8)
        try text.replacingOccurrences(
            of: "{\n", with: "{\n  \"incomplete\": true,\n", options: [], range: text.range(of: "{\n")
        )
        .write(toFile: unfinishedReport, atomically: true, encoding: .utf8)
        let unfinished = CapturedCLI()
        XCTAssertEqual(
            unfinished.run(["merge", all[0], unfinishedReport, all[2], "--out", out + "/u", "--quiet"]), .usage)
        XCTAssertTrue(
            unfinished.stderr.contains("unfinished shard 2/3 (\(unfinishedReport))")
                && unfinished.stderr.contains("rerun --shard 2/3"),
            unfinished.stderr)
        let twice = CapturedCLI()
        XCTAssertEqual(twice.run(["merge", all[0], all[1], all[1], all[2], "--out", out + "/t", "--quiet"]), .usage)
        XCTAssertTrue(twice.stderr.contains("shard 2/3 given 2 times"), twice.stderr)
        let partialMerge = CapturedCLI()
        XCTAssertEqual(
            partialMerge.run([
                "merge", all[0], all[2], "--allow-partial", "--out", out + "/p", "--format",
                "json,markdown,html,github,sarif,junit",
            ]), .findings)
        XCTAssertEqual(try Repo.stableReport(out + "/p/report.json")["incomplete"], true, "a partial merge says so")
        // (CI-gate issue, 9) ... in every format people read, and on the console.
        XCTAssertTrue(partialMerge.stdout.contains("pdfpipe: INCOMPLETE: "), partialMerge.stdout)
        for (file, text) in [
            ("report.md", "**Incomplete:**"), ("report.html", "<strong>Incomplete:</strong>"),
            ("github.txt", "::warning title=pdfpipe::the report is incomplete"),
            ("report.sarif", "\"executionSuccessful\": false"),
        ] {
            XCTAssertTrue(try String(contentsOfFile: out + "/p/" + file, encoding: .utf8).contains(text), file)
        }
    }

    /// Merges compose (#46): a merge of some shards says which it holds, and merging it with the
    /// others' merge is the one-level merge, complete; memory does not hold the batch (the reports
    /// are merged as sorted streams).
    func testAMergeOfMergesIsTheOneLevelMerge() throws {
        try runShards(4)
        let all = (1...4).map { out + "/s\($0)/report.json" }
        XCTAssertEqual(CapturedCLI().run(["merge"] + all + ["--out", out + "/one", "--quiet"]), .findings)
        XCTAssertEqual(
            CapturedCLI().run(["merge", all[0], all[2], "--allow-partial", "--out", out + "/a", "--quiet"]), .findings)
        let a = try Repo.stableReport(out + "/a/report.json")
        XCTAssertEqual(a["shard"], "1,3/4")
        XCTAssertEqual(a["incomplete"], true)
        XCTAssertEqual(
            CapturedCLI().run(["merge", all[1], all[3], "--allow-partial", "--out", out + "/b", "--quiet"]), .findings)
        XCTAssertEqual(try Repo.stableReport(out + "/b/report.json")["shard"], "2,4/4")
        // Without the other half, a merge of a merge still says what is missing.
        let half = CapturedCLI()
        XCTAssertEqual(half.run(["merge", out + "/a", "--out", out + "/h", "--quiet"]), .usage)
        XCTAssertTrue(half.stderr.contains("missing shards 2/4, 4/4"), half.stderr)
        XCTAssertEqual(
            CapturedCLI().run(["merge", out + "/a", out + "/b", "--out", out + "/tree", "--quiet"]), .findings)
        var tree = try Repo.stableReport(out + "/tree/report.json")
        var one = try Repo.stableReport(out + "/one/report.json")
        XCTAssertNotEqual(tree["incomplete"], true)
        XCTAssertNil(tree["shard"])
        // The same report but where it lives.
        tree = Self.withoutLocations(tree)
        one = Self.withoutLocations(one)
        XCTAssertEqual(tree, one)
        // A document in two of them is refused.
        let twice = CapturedCLI()
        XCTAssertEqual(
            twice.run(["merge", out + "/a", all[0], all[1], all[3], "--out", out + "/x", "--quiet"]), .usage)
        XCTAssertTrue(twice.stderr.contains("shard 1/4 given 2 times"), twice.stderr)
    }

    static func withoutLocations(_ v: JSONValue) -> JSONValue {
        guard case .object(var o) = v else { return v }
        o["locations"] = nil
        return .object(o)
    }

    /// Regression (CI-gate issue, 3): a glob that matched nothing, or a folder with no PDF, exited 0
    /// and replaced the last report with an empty one.
    func testNothingToCheckIsAnErrorThatLeavesTheOutputAlone() throws {
        try FileManager.default.createDirectory(atPath: out + "/empty", withIntermediateDirectories: true)
        try "not a pdf".write(toFile: out + "/empty/notes.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/default.json", "samples/links-internal.pdf", "--out", out + "/o", "--quiet",
            ]), .clean)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/o/report.json"))
        for inputs in [[out + "/empty"], [out + "/empty/*.pdf"], [out + "/nothing-here-*.pdf"]] {
            let cli = CapturedCLI()
            XCTAssertEqual(
                cli.run(["run", "pipelines/default.json"] + inputs + ["--out", out + "/o"]), .usage, "\(inputs)")
            XCTAssertTrue(
                cli.stderr.hasPrefix("pdfpipe: error: no PDF file in the inputs (searched '\(inputs[0])' for *.pdf)"),
                cli.stderr)
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: out + "/o/report.json")), before,
                "the last report is untouched")
        }
        let allowed = CapturedCLI()
        XCTAssertEqual(
            allowed.run([
                "run", "pipelines/default.json", out + "/empty", "--out", out + "/e", "--allow-empty", "--quiet",
            ]), .clean)
        XCTAssertEqual(try Repo.stableReport(out + "/e/report.json")["documents"], .array([]))
    }

    func testShardAndMergeErrors() throws {
        let cases: [([String], String)] = [
            (
                ["run", "pipelines/link-audit.json", "--offline", "--shard", "4/3"],
                "pdfpipe: error: --shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '4/3'"
            ),
            (["merge"], "pdfpipe: error: merge needs report files: pdfpipe merge REPORT.json|DIR..."),
            (["merge", "nope.json"], "nope.json: error: cannot read the report: no such file"),
            (
                ["merge", "samples/README.md"],
                "samples/README.md:1:1: error: malformed JSON: unexpected '#', expected a value"
            ),
        ]
        for (args, message) in cases {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(args), .usage, "\(args)")
            XCTAssertEqual(cli.stderr, message + "\n", "\(args)")
        }
        XCTAssertEqual(
            CapturedCLI().run(["run", "pipelines/link-audit.json", "--offline", "--out", out + "/a", "--quiet"]),
            .findings)
        XCTAssertEqual(CapturedCLI().run(["run", "pipelines/default.json", "--out", out + "/b", "--quiet"]), .findings)
        let mixed = CapturedCLI()
        XCTAssertEqual(
            mixed.run(["merge", out + "/a/report.json", out + "/b/report.json", "--out", out + "/refused"]), .usage)
        XCTAssertEqual(
            mixed.stderr,
            "\(out)/b/report.json: error: comes from pipeline 'default', the first report from 'link-audit'\n")
        let twice = CapturedCLI()
        XCTAssertEqual(
            twice.run(["merge", out + "/a/report.json", out + "/a/report.json", "--out", out + "/refused"]), .usage)
        XCTAssertEqual(twice.stderr, "\(out)/a/report.json: error: 'actions.pdf' is in more than one report\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/refused"), "a refused merge leaves nothing")
    }
}

final class CIReportTests: XCTestCase {
    var out = ""

    override func setUp() { out = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    /// The link audit of the samples in every format but JSON (which has its own), against golden files
    /// (JUnit times zeroed).
    func testCIFormatsMatchTheirGoldenFiles() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out, "--format",
                "junit,sarif,markdown,github,html", "--quiet",
            ]), .findings)
        for name in ["junit.xml", "report.sarif", "report.md", "github.txt", "report.html"] {
            var text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            text = text.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="0""#, options: .regularExpression)
            // The HTML links to the documents relative to itself: from this temporary folder to the
            // repository, which differs between machines.
            text = text.replacingOccurrences(
                of: "href=\"" + Paths.link(from: Paths.standardize(out), to: Repo.root + "/samples"),
                with: "href=\"{repo}/samples")
            try Golden.check(text, against: Repo.root + "/Tests/PDFPipeCLITests/Golden/link-audit-" + name, name: name)
        }
    }

    /// A gated run (a baseline with a new, unchanged and fixed finding; an ignore list with a match,
    /// an expired and an unused entry) in every format, against golden files.
    func testAGatedRunMatchesItsGoldenFiles() throws {
        try FileManager.default.copyItem(atPath: Repo.root + "/samples", toPath: out + "/samples")
        var pipeline = try String(contentsOfFile: Repo.root + "/pipelines/link-audit.json", encoding: .utf8)
        pipeline = pipeline.replacingOccurrences(
            of: #""report": {"#,
            with: #"""
                "ignore": [
                    { "rule": "gotor.*", "path": "samples/gotor.pdf", "reason": "the linked files ship separately" },
                    { "rule": "action.launch", "reason": "the installer link is wanted", "expires": "2025-06-30" },
                    { "rule": "uri.http-error", "uri": "^https://intranet\\.", "reason": "intranet, checked by IT" }
                  ],
                  "report": {
                """#)
        try pipeline.write(toFile: out + "/gate.json", atomically: true, encoding: .utf8)
        func cli(_ args: [String]) -> ExitCode { CapturedCLI().run(args, in: out) }
        XCTAssertEqual(cli(["run", "gate.json", "samples", "--offline", "--out", "first", "--quiet"]), .findings)
        XCTAssertEqual(cli(["baseline", "first/report.json", "--out", "baseline.json"]), .clean)
        // One finding leaves the baseline (it becomes new), a finding that is gone joins it (fixed).
        var baseline = try JSONParser.parse(String(contentsOfFile: out + "/baseline.json", encoding: .utf8))
        guard case .object(var top) = baseline, case .array(var entries)? = top["findings"] else {
            return XCTFail("baseline")
        }
        let dropped = try XCTUnwrap(entries.firstIndex { $0["rule"] == "action.launch-target-missing" })
        entries.remove(at: dropped)
        entries.append([
            "fingerprint": "00000000000000aa", "path": "broken-links.pdf", "rule": "dest.name-not-found",
            "severity": "error", "message": "named destination 'renamed' does not exist", "page": 2,
        ])
        top["findings"] = .array(entries)
        baseline = .object(top)
        try JSONWriter.pretty(baseline).write(toFile: out + "/baseline.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            cli([
                "run", "gate.json", "samples", "--offline", "--out", "gate", "--baseline", "baseline.json", "--quiet",
                "--format", "json,junit,sarif,markdown,github,html",
            ]), .findings)
        let report = try Repo.stableReport(out + "/gate/report.json")
        XCTAssertEqual(
            report["baseline"], ["file": "baseline.json", "ratchet": false, "new": 1, "unchanged": 48, "fixed": 1])
        XCTAssertEqual(report["summary"]?["suppressed"], 4, "the four GoToR findings of gotor.pdf")
        for name in ["report.json", "junit.xml", "report.sarif", "report.md", "github.txt", "report.html"] {
            var text =
                name == "report.json"
                ? JSONWriter.pretty(report) : try String(contentsOfFile: out + "/gate/" + name, encoding: .utf8)
            text = text.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="0""#, options: .regularExpression)
            try Golden.check(text, against: Repo.root + "/Tests/PDFPipeCLITests/Golden/gate-" + name, name: name)
        }
    }

    func testJUnitIsWellFormedXMLWithTheRightCounts() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out, "--format", "junit", "--quiet",
            ]), .findings)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: out + "/junit.xml"))
        final class Counter: NSObject, XMLParserDelegate {
            var suites = 0
            var cases = 0
            var failures = 0
            var skipped = 0
            func parser(
                _ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                switch e {
                case "testsuite": suites += 1
                case "testcase": cases += 1
                case "failure": failures += 1
                case "skipped": skipped += 1
                default: break
                }
            }
        }
        let parser = XMLParser(data: data)
        let counter = Counter()
        parser.delegate = counter
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(counter.suites, 22, "one per document, and the totals (#42, 5)")
        XCTAssertEqual(counter.cases, 42, "two stages for each of 21 documents")
        XCTAssertEqual(counter.skipped, 3, "validate-links skipped on the three unreadable files")
        XCTAssertEqual(counter.failures, 9, "outline-cycle.pdf's loop is a warning: viewers stop at it")
    }

    func testSARIFStructure() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out, "--format", "sarif", "--quiet",
            ]), .findings)
        let v = try JSONParser.parse(String(contentsOfFile: out + "/report.sarif", encoding: .utf8))
        XCTAssertEqual(v["version"], "2.1.0")
        let run = try XCTUnwrap(v["runs"]?.arrayValue?.first)
        let rules = try XCTUnwrap(run["tool"]?["driver"]?["rules"]?.arrayValue)
        let results = try XCTUnwrap(run["results"]?.arrayValue)
        // The rules that fired, each once, in the catalog's order.
        let fired = Set(results.compactMap { $0["ruleId"]?.stringValue })
        XCTAssertEqual(
            rules.compactMap { $0["id"]?.stringValue }, StageTable.rules.all.map(\.id).filter(fired.contains))
        XCTAssertEqual(results.count, 31 + 16 + 6, "every finding of the offline link audit")
        for r in results {
            let id = try XCTUnwrap(r["ruleId"]?.stringValue)
            XCTAssertEqual(rules[try XCTUnwrap(r["ruleIndex"]?.intValue)]["id"]?.stringValue, id)
            XCTAssertNotNil(
                r["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue)
            XCTAssertTrue(["error", "warning", "note"].contains(r["level"]?.stringValue ?? ""))
        }
        let zero = try XCTUnwrap(results.first { $0["ruleId"] == "link.zero-area" })
        XCTAssertEqual(zero["properties"]?["rect"], [400, 100, 400, 130])
        XCTAssertEqual(zero["properties"]?["page"], 1)
    }
}

extension CIReportTests {
    /// #61 (8): the step summary lists the documents worst first with the totals at the top and a
    /// fix column; Code Quality gets errors and warnings (192 "use https" notes were sent to a merge
    /// request), notes only when the run fails on them.
    func testTheSummaryIsWorstFirstAndCodeQualityLeavesNotesOut() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out, "--format", "markdown,codequality",
                "--quiet",
            ]), .findings)
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        let links = try XCTUnwrap(md.range(of: "Links: 126 in all")).lowerBound
        XCTAssertLessThan(links, try XCTUnwrap(md.range(of: "## Broken targets")).lowerBound, "the totals at the top")
        let counts = md.components(separatedBy: "\n## ").dropFirst().compactMap { section -> [Int]? in
            let lines = section.split(separator: "\n")
            guard lines.count > 1, lines[1].contains(" error") else { return nil }
            let words = lines[1].split(separator: " ")
            return [Int(words[0]) ?? -1, Int(words[2]) ?? -1]
        }
        XCTAssertGreaterThan(counts.count, 5)
        XCTAssertEqual(counts, counts.sorted { $0.lexicographicallyPrecedes($1) }.reversed(), "worst first")
        XCTAssertTrue(md.contains("| page | severity | rule | message | fix |"))
        XCTAssertTrue(md.contains("| fix: ") == false && md.contains("define the destination"), "the hint is the fix")
        let quality = try JSONParser.parse(
            String(contentsOfFile: out + "/gl-code-quality-report.json", encoding: .utf8))
        XCTAssertEqual(quality.arrayValue?.count, 46)
        XCTAssertFalse(quality.arrayValue?.contains { $0["severity"] == "info" } ?? true)
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out + "/n", "--format", "codequality",
                "--quiet", "--fail-on", "note",
            ]), .findings)
        let all = try JSONParser.parse(String(contentsOfFile: out + "/n/gl-code-quality-report.json", encoding: .utf8))
        XCTAssertEqual(all.arrayValue?.count, 53, "with --fail-on note, the notes too")
    }
}
