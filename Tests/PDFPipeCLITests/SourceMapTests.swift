import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#66) Findings on the source lines that made them: LaTeX through SyncTeX (pdfLaTeX and XeTeX),
/// pandoc Markdown, HTML printed by Chromium and Sphinx's reStructuredText through search, on the fixtures
/// scripts/make-source-fixtures.sh builds (Tests/Fixtures/sources; expected.json lists the line
/// that spells each broken target).
final class SourceMapTests: XCTestCase {
    var dir = ""
    let fixtures = "Tests/Fixtures/sources"

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-sources-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try #"{"version": 1, "stages": [{"use": "validate-links", "with": {"gotor": true}}]}"#
            .write(toFile: dir + "/map.json", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The run's findings on `pdf` with `--sources` (nil: without).
    func findings(_ pdf: String, sources: String?, formats: String = "json", in directory: String = Repo.root)
        throws -> [JSONValue]
    {
        let cli = CapturedCLI()
        var args = ["run", dir + "/map.json", pdf, "--out", dir + "/out", "--offline", "--format", formats]
        if let sources { args += ["--sources", sources] }
        let code = cli.run(args, in: directory)
        XCTAssertEqual(code, .findings, cli.stdout + cli.stderr)
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        return report["documents"]?[0]?["findings"]?.arrayValue ?? []
    }

    /// expected.json: target → the lines that spell it, as `file:line` under `src`.
    func expected(_ kind: String) throws -> [String: Set<String>] {
        let list = try JSONParser.parse(
            try String(contentsOfFile: Repo.root + "/\(fixtures)/\(kind)/expected.json", encoding: .utf8))
        var out: [String: Set<String>] = [:]
        for e in list.arrayValue ?? [] {
            let target = e["target"]!.stringValue!
            out[target, default: []].insert(
                "\(fixtures)/\(kind)/src/\(e["file"]!.stringValue!):\(e["line"]!.intValue!)")
        }
        return out
    }

    /// Each finding's place as the report gives it (`file:line`) by its target, and the ones unmapped.
    func places(_ fs: [JSONValue]) -> (mapped: [(target: String, at: String, mapper: String)], unmapped: [JSONValue]) {
        var mapped: [(String, String, String)] = []
        var unmapped: [JSONValue] = []
        for f in fs {
            guard let s = f["source"] else { continue }
            if let file = s["file"]?.stringValue, let line = s["line"]?.intValue {
                mapped.append((s["target"]!.stringValue!, "\(file):\(line)", s["mapper"]!.stringValue!))
            } else {
                unmapped.append(f)
            }
        }
        return (mapped, unmapped)
    }

    func assertRight(_ mapped: [(target: String, at: String, mapper: String)], _ expected: [String: Set<String>]) {
        for m in mapped {
            let lines = expected[m.target] ?? expected[String(m.target.dropLast(4))] ?? []
            XCTAssertTrue(lines.contains(m.at), "\(m.target) mapped to \(m.at), not one of \(lines)")
        }
    }

    /// 100 links in 5 input files, 20 broken: every finding on its line, by SyncTeX, with either engine
    /// (a link whose text runs over two source lines is on the line that spells its target; the
    /// target used in two files is told apart).
    func testLaTeXFindingsLandOnTheLinesThatMadeThem() throws {
        let expected = try expected("latex")
        for engine in ["pdflatex", "xelatex"] {
            let fs = try findings("\(fixtures)/latex/\(engine)/manual.pdf", sources: "\(fixtures)/latex/src")
            XCTAssertEqual(fs.count, 20, engine)
            let (mapped, unmapped) = places(fs)
            XCTAssertEqual(mapped.count, 20, "\(engine): \(unmapped)")
            XCTAssertEqual(Set(mapped.map(\.mapper)), ["synctex"], engine)
            assertRight(mapped, expected)
            XCTAssertEqual(Set(mapped.map(\.at)).count, 20, "each broken link on a line of its own")
        }
    }

    /// In a worker process (`--isolate`) the result comes back without the page boxes validate-links
    /// measured, and the mapping reads them from the document: the same lines either way.
    func testIsolatedDocumentsMapToTheSameLines() throws {
        let pdf = "\(fixtures)/latex/pdflatex/manual.pdf"
        var sources: [[JSONValue]] = []
        for mode in ["--no-isolate", "--isolate"] {
            let out = dir + "/out" + mode
            XCTAssertEqual(
                try Repo.status([
                    "run", dir + "/map.json", pdf, "--out", out, "--offline", "--sources", "\(fixtures)/latex/src",
                    mode,
                ]), 1)
            let report = try JSONParser.parse(try String(contentsOfFile: out + "/report.json", encoding: .utf8))
            sources.append((report["documents"]?[0]?["findings"]?.arrayValue ?? []).compactMap { $0["source"] })
        }
        XCTAssertEqual(sources[0].count, 20)
        XCTAssertEqual(sources[0].filter { $0["mapper"] == "synctex" && $0["line"] != nil }.count, 20)
        XCTAssertEqual(sources[0], sources[1])
    }

    /// Without SyncTeX, search places what only one line spells and declines the rest, listing the
    /// candidates: never a wrong line.
    func testSearchAloneDeclinesWhatItCannotTell() throws {
        try FileManager.default.copyItem(
            atPath: Repo.root + "/\(fixtures)/latex/pdflatex/manual.pdf", toPath: dir + "/manual.pdf")
        let fs = try findings(dir + "/manual.pdf", sources: "\(fixtures)/latex/src")
        let (mapped, unmapped) = places(fs)
        assertRight(mapped, try expected("latex"))
        XCTAssertEqual(Set(mapped.map(\.mapper)), ["search"])
        XCTAssertEqual(mapped.count, 18)
        XCTAssertEqual(unmapped.count, 2, "the target two files spell")
        for f in unmapped {
            XCTAssertEqual(f["source"]?["unmapped"], .string("'htps://example.com/shared/broken' is spelt in 2 places"))
            XCTAssertEqual(f["source"]?["candidates"]?.arrayValue?.count, 2)
        }
    }

    /// pandoc Markdown, HTML printed by Chromium and reStructuredText by Sphinx's LaTeX builder:
    /// every finding placed by search.
    func testMarkdownHTMLAndSphinxFindingsAreFoundBySearch() throws {
        for (kind, producer) in [("markdown", "pandoc"), ("html", "chromium"), ("sphinx", "sphinx")] {
            let expected = try expected(kind)
            let fs = try findings("\(fixtures)/\(kind)/\(producer)/manual.pdf", sources: "\(fixtures)/\(kind)/src")
            let (mapped, unmapped) = places(fs)
            XCTAssertEqual(unmapped.count, 0, "\(kind): \(unmapped)")
            XCTAssertEqual(Set(mapped.map(\.target)), Set(expected.keys), kind)
            assertRight(mapped, expected)
        }
    }

    /// GitHub annotations, SARIF and GitLab Code Quality point at the source line, the PDF beside
    /// it; the Markdown report shows `file:line` next to the page; fingerprints do not move.
    func testReportsPointAtTheSourceLine() throws {
        let pdf = "\(fixtures)/latex/pdflatex/manual.pdf"
        let plain = try findings(pdf, sources: nil).map { $0["fingerprint"] }
        let fs = try findings(pdf, sources: "\(fixtures)/latex/src", formats: "json,github,sarif,codequality,markdown")
        XCTAssertEqual(fs.map { $0["fingerprint"] }, plain, "the mapping is not part of a finding's identity")
        let first = try XCTUnwrap(fs.first { $0["source"]?["file"] != nil })
        let file = first["source"]!["file"]!.stringValue!
        let line = first["source"]!["line"]!.intValue!

        let github = try String(contentsOfFile: dir + "/out/github.txt", encoding: .utf8)
        XCTAssertTrue(github.contains("file=\(file),line=\(line),title="), github)
        XCTAssertTrue(github.contains("::\(pdf), page"), github)

        let sarif = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.sarif", encoding: .utf8))
        let results = sarif["runs"]?[0]?["results"]?.arrayValue ?? []
        let r = try XCTUnwrap(results.first { $0["partialFingerprints"]?["pdfpipe/v1"] == first["fingerprint"] })
        let physical = r["locations"]?[0]?["physicalLocation"]
        XCTAssertEqual(physical?["artifactLocation"]?["uri"], .string(file))
        XCTAssertEqual(physical?["region"]?["startLine"], .int(line))
        XCTAssertEqual(r["relatedLocations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"], .string(pdf))

        let quality = try JSONParser.parse(
            try String(contentsOfFile: dir + "/out/gl-code-quality-report.json", encoding: .utf8))
        let issue = try XCTUnwrap(quality.arrayValue?.first { $0["fingerprint"] == first["fingerprint"] })
        XCTAssertEqual(issue["location"]?["path"], .string(file))
        XCTAssertEqual(issue["location"]?["lines"]?["begin"], .int(line))

        let markdown = try String(contentsOfFile: dir + "/out/report.md", encoding: .utf8)
        XCTAssertTrue(markdown.contains(" · \(file):\(line) |"), markdown)
    }

    /// What a pull request controls: a SyncTeX file naming paths outside the roots, damaged
    /// records, a file cut short; pdfpipe's own reports and ignored files under the roots. None
    /// of it places a finding on a wrong line.
    func testHostileSyncTeXAndSourcesPlaceNothingWrong() throws {
        let src = dir + "/src"
        try FileManager.default.createDirectory(atPath: src + "/out", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repo.root + "/\(fixtures)/latex/pdflatex/manual.pdf", toPath: dir + "/manual.pdf")
        // The target spelt only in a report of an earlier run and in an ignored file.
        try "x\n".write(toFile: src + "/out/results.jsonl", atomically: true, encoding: .utf8)
        try "htps://example.com/main.tex/broken-0\n".write(
            toFile: src + "/out/report.md", atomically: true, encoding: .utf8)
        try "ignored.md\n".write(toFile: src + "/.gitignore", atomically: true, encoding: .utf8)
        try "[a](htps://example.com/main.tex/broken-0)\n".write(
            toFile: src + "/ignored.md", atomically: true, encoding: .utf8)
        // A SyncTeX file that names /etc/passwd for every record, with garbage between.
        var text = "SyncTeX Version:1\nInput:1:/etc/passwd\nInput:99999999999999999999:x\nUnit:0\nContent:\n{1\n"
        for y in stride(from: 0, to: 60_000_000, by: 600_000) { text += "k1,\(y % 97):1000,\(y):5\n(((\nk-1,-5:,\n" }
        text += "}1\n"
        try text.write(toFile: dir + "/manual.synctex", atomically: true, encoding: .utf8)
        let fs = try findings(dir + "/manual.pdf", sources: src)
        XCTAssertEqual(fs.count, 20)
        XCTAssertEqual(places(fs).mapped.count, 0, "\(places(fs).mapped)")
        XCTAssertTrue(
            fs.allSatisfy {
                $0["source"]?["unmapped"]?.stringValue?.hasPrefix("no source file under the roots") == true
            })

        // A SyncTeX file naming a real source with lines past its end, all over the page.
        try FileManager.default.copyItem(
            atPath: Repo.root + "/\(fixtures)/latex/src/main.tex", toPath: src + "/main.tex")
        var grid = "SyncTeX Version:1\nInput:1:src/main.tex\nContent:\n{1\n"
        for h in stride(from: 0, to: 40_000_000, by: 400_000) {
            for v in stride(from: 0, to: 52_000_000, by: 520_000) { grid += "k1,999999:\(h),\(v):5\n" }
        }
        try (grid + "}1\n").write(toFile: dir + "/manual.synctex", atomically: true, encoding: .utf8)
        let past = try findings(dir + "/manual.pdf", sources: src)
        XCTAssertTrue(past.allSatisfy { $0["source"]?["mapper"] == .string("synctex") || $0["source"]?["file"] != nil })
        for m in places(past).mapped { XCTAssertEqual(m.mapper, "search", "\(m)") }
        assertRight(
            places(past).mapped.map {
                ($0.target, $0.at.replacingOccurrences(of: dir + "/src/", with: "\(fixtures)/latex/src/"), $0.mapper)
            },
            try expected("latex"))

        // A gzip file cut short: read as far as it goes, nothing wrong.
        let gz = try Data(contentsOf: URL(fileURLWithPath: Repo.root + "/\(fixtures)/latex/pdflatex/manual.synctex.gz"))
        try FileManager.default.removeItem(atPath: dir + "/manual.synctex")
        try gz.prefix(gz.count / 3).write(to: URL(fileURLWithPath: dir + "/manual.synctex.gz"))
        let cut = try findings(dir + "/manual.pdf", sources: "\(fixtures)/latex/src")
        assertRight(places(cut).mapped, try expected("latex"))
    }

    /// A folder of many documents' sources spells a URL once in an unrelated file (found on
    /// Debian's texlive-doc: a newsgroup's address in another package's README): not the source
    /// of this link, unless its text or the file's name ties it to the document.
    func testAnUnrelatedFileThatSpellsTheTargetIsNotTheSource() throws {
        let src = dir + "/src"
        try FileManager.default.createDirectory(atPath: src + "/other-package", withIntermediateDirectories: true)
        try "Report problems to htps://example.com/md/broken-0 please.\n".write(
            toFile: src + "/other-package/README.txt", atomically: true, encoding: .utf8)
        let fs = try findings("\(fixtures)/markdown/pandoc/manual.pdf", sources: src)
        let f = try XCTUnwrap(fs.first { $0["source"]?["target"] == .string("htps://example.com/md/broken-0") })
        XCTAssertNil(f["source"]?["file"], "\(f)")
        XCTAssertEqual(f["source"]?["candidates"], [.string(src + "/other-package/README.txt:1")])
        // Named like the PDF, the same file is its source.
        try FileManager.default.moveItem(atPath: src + "/other-package/README.txt", toPath: src + "/manual.txt")
        let named = try findings("\(fixtures)/markdown/pandoc/manual.pdf", sources: src)
        XCTAssertEqual(
            named.first { $0["source"]?["target"] == .string("htps://example.com/md/broken-0") }?["source"]?["line"],
            .int(1))
    }

    func testSourcesMustBeFolders() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", dir + "/map.json", "samples", "--sources", "nowhere"]), .usage)
        XCTAssertTrue(cli.stderr.contains("nowhere: error: not a folder"), cli.stderr)
    }
}
