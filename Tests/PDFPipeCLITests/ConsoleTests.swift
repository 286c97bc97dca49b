import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// What the console prints at the end of a run: errors first, one line per distinct problem with
/// its other pages, a count per rule, notes only when they matter, the summary even with --quiet
/// when the run fails.
final class ConsoleTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Three pages, each with a link to the same missing name (one problem), a zero-area link on
    /// page 2 (a warning, listed after every error), and an http link (a note).
    func writeManual() throws {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>"]
        for p in 0..<3 {
            let extra = p == 1 ? " << /Subtype /Link /Rect [10 10 10 40] /Dest [3 0 R /Fit] >>" : ""
            let note =
                p == 2 ? " << /Subtype /Link /Rect [0 50 50 70] /A << /S /URI /URI (http://example.com/) >> >>" : ""
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [<< /Subtype /Link /Rect [0 0 50 20] /Dest (gone) >>\(extra)\(note)] >>"
            )
        }
        try TestPDF.write(dir + "/manual.pdf", objects: objects)
        try #"{"stages": [{"use": "validate-links"}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
    }

    func testErrorsFirstOneLinePerProblemAndACountPerRule() throws {
        try writeManual()
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", "p.json", "manual.pdf", "--out", "out", "--offline"], in: dir), .findings)
        let lines = cli.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            Array(lines.prefix(3)),
            [
                "manual.pdf:1: error: named destination 'gone' does not exist [dest.name-not-found] (also on pages 2, 3)",
                "manual.pdf:2: warning: the link area [10 10 10 40] has no width or no height; nobody can click it [link.zero-area]",
                "by rule: errors: dest.name-not-found 3; warnings: link.zero-area 1",
            ])
        XCTAssertTrue(lines[3].hasPrefix("pdfpipe: 1 document, 3 pages: 3 errors, 1 warning, 1 note"), lines[3])
        // --verbose lists the note too, last.
        let verbose = CapturedCLI()
        _ = verbose.run(["run", "p.json", "manual.pdf", "--out", "out", "--offline", "--verbose"], in: dir)
        XCTAssertEqual(
            verbose.stdout.split(separator: "\n").dropFirst(2).first.map(String.init),
            "manual.pdf:3: note: 'http://example.com/' uses http; use https where the site supports it [uri.insecure-scheme]"
        )
        // --quiet: nothing on stdout, the summary on stderr because the run failed.
        let quiet = CapturedCLI()
        XCTAssertEqual(
            quiet.run(["run", "p.json", "manual.pdf", "--out", "out", "--offline", "--quiet"], in: dir), .findings)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertTrue(quiet.stderr.hasPrefix("pdfpipe: 1 document, 3 pages: 3 errors"), quiet.stderr)
        let passing = CapturedCLI()
        XCTAssertEqual(
            passing.run(
                ["run", "p.json", "manual.pdf", "--out", "out", "--offline", "--quiet", "--fail-on", "never"], in: dir),
            .clean)
        XCTAssertEqual(passing.stdout + passing.stderr, "")
    }

    /// A one-page document whose links name `broken` missing destinations (each its own problem),
    /// plus `zeroArea` links with no area (warnings).
    func writeDocument(_ name: String, broken: Int, zeroArea: Int = 0) throws {
        var annots: [String] = []
        for i in 0..<broken {
            annots.append("<< /Subtype /Link /Rect [0 \(i % 190) 50 \(i % 190 + 5)] /Dest (n\(i)) >>")
        }
        for i in 0..<zeroArea { annots.append("<< /Subtype /Link /Rect [\(i) 10 \(i) 40] /Dest [3 0 R /Fit] >>") }
        try TestPDF.write(
            dir + "/" + name,
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [\(annots.joined(separator: " "))] >>",
            ])
    }

    /// (#32, 5) Regression: the 100-line budget went in path order: 36 lines for one document's
    /// problems, the document with 687 errors never appeared, nor any warning. By severity, each
    /// given its share; the documents with the most problems first, a few lines each; then how
    /// many more, and where.
    func testTheLineBudgetGoesToTheWorstDocumentsAndEverySeverity() throws {
        for k in 0..<30 { try writeDocument(String(format: "a%02d.pdf", k), broken: 3) }
        try writeDocument("z-worst.pdf", broken: 687)
        try writeDocument("w-warnings.pdf", broken: 0, zeroArea: 4)
        try #"{"stages": [{"use": "validate-links"}], "report": {"formats": ["json", "html"]}}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", "p.json", ".", "--out", "out", "--offline"], in: dir), .findings)
        let lines = cli.stdout.split(separator: "\n").map(String.init)
        let listed = lines.filter { $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains("… and") }
        XCTAssertLessThanOrEqual(listed.count, 100, cli.stdout)
        XCTAssertTrue(lines[0].hasPrefix("z-worst.pdf:1: error: "), "the worst document first: \(lines[0])")
        XCTAssertEqual(lines[4], "z-worst.pdf: … and 683 more errors")
        XCTAssertEqual(lines.filter { $0.hasPrefix("z-worst.pdf") }.count, 5, "a few lines per document")
        XCTAssertEqual(lines.filter { $0.hasPrefix("w-warnings.pdf:1: warning: ") }.count, 4, "warnings are shown")
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("… and ") && $0.hasSuffix(" errors): see report.html") }, cli.stdout)
        XCTAssertTrue(
            lines.contains { $0 == "by rule: errors: dest.name-not-found 777; warnings: link.zero-area 4" },
            cli.stdout)
        XCTAssertTrue(
            lines.dropLast().last?.hasPrefix("pdfpipe: 32 documents, 32 pages: 777 errors, 4 warnings, 0 notes")
                ?? false,
            lines.dropLast().last ?? "")
        XCTAssertEqual(
            lines.last, "pdfpipe: links: 781 in all, 4 ok, 777 broken, 0 blocked, 0 unverified, 0 skipped, 0 redirected"
        )
    }

    /// (#32, 5) The progress line never wraps: cut to the terminal's width (a wrapped line is
    /// not redrawn in place, and each update leaves a line behind).
    func testTheProgressLineFitsTheTerminal() {
        for columns in [20, 40, 80] {
            let err = Locked("")
            let console = Console(
                out: { _ in }, err: { s in err.withLock { $0 += s } }, interactive: true, columns: columns)
            var p = RunProgress(done: 1234, total: 100_000, pages: 56_789, elapsed: 61)
            p.document = "a/very/long/folder/name/with/a/document-named-at-length-\(columns).pdf"
            ProgressLine(console: console).update(p)
            let line = err.withLock { $0 }.replacingOccurrences(of: "\r\u{1B}[K", with: "")
            XCTAssertLessThan(line.count, columns, line)
            XCTAssertTrue(line.hasPrefix(columns >= 40 ? "[1234/100000] 1m01s, " : "[1234/100000] 1m0"), line)
        }
    }

    /// Colour only on a terminal: a console that is not one gets none, and one that is gets the
    /// severity coloured and nothing else (a document's text stays escaped).
    func testColourIsPdfpipesOwn() {
        let out = Locked("")
        let console = Console(out: { s in out.withLock { $0 += s } }, err: { _ in }, interactive: false, colored: true)
        console.print("a\u{1B}[31m.pdf:1: ", severity: .error, ": message [rule]")
        XCTAssertEqual(out.withLock { $0 }, "a\\x1b[31m.pdf:1: \u{1B}[1;31merror\u{1B}[0m: message [rule]\n")
    }

    /// The progress line's times: minutes and hours as people read them, and no trap on an
    /// estimate that is not a number yet (#22: no number formatting that can trap).
    func testProgressDurationsNeverTrap() {
        XCTAssertEqual([0, 59.4, 61, 3_700].map(ProgressLine.duration), ["0s", "59s", "1m01s", "1h01m"])
        XCTAssertEqual(
            [Double.infinity, -.infinity, .nan, -1, 1e300].map(ProgressLine.duration), ["?", "?", "?", "?", "?"])
    }

    /// (#42, 6) Without a terminal, a progress line at a steady interval — never more than one per
    /// 15 s, whatever the batch — on a clock the test sets.
    func testProgressInALogIsOneLineAtASteadyInterval() {
        let lines = Locked<[String]>([])
        let console = Console(out: { _ in }, err: { s in lines.withLock { $0.append(s) } }, interactive: false)
        let progress = LogProgress(console: console, total: 200)
        var p = RunProgress(done: 0, total: 200, pages: 0, elapsed: 0)
        for second in 0..<61 {
            // Ten documents a second, each with 7 links.
            for _ in 0..<10 where p.done < 200 {
                p.done += 1
                p.links += 7
                p.elapsed = Double(second)
                progress.update(p)
            }
            progress.tick(now: Double(second))
        }
        progress.finish()
        progress.tick(now: 120)
        XCTAssertEqual(
            lines.withLock { $0 },
            [
                "pdfpipe: progress: 160/200 documents, 1120 links checked, 15s elapsed, about 4s left\n",
                "pdfpipe: progress: 200/200 documents, 1400 links checked, 30s elapsed\n",
                "pdfpipe: progress: 200/200 documents, 1400 links checked, 45s elapsed\n",
                "pdfpipe: progress: 200/200 documents, 1400 links checked, 1m00s elapsed\n",
            ])
        // (#61, 9) The estimate follows the rate since the last line: 150 documents resumed at
        // once, then one every 3 s; a stall promises nothing; a run without links counts pages.
        let later = Locked<[String]>([])
        let resumed = LogProgress(
            console: Console(out: { _ in }, err: { s in later.withLock { $0.append(s) } }, interactive: false),
            total: 200)
        var q = RunProgress(done: 150, total: 200, pages: 3000, elapsed: 0)
        resumed.update(q)
        for second in 1...45 {
            if second % 3 == 0 && second <= 30 { q.done += 1 }
            q.elapsed = Double(second)
            resumed.update(q)
            resumed.tick(now: Double(second))
        }
        XCTAssertEqual(
            later.withLock { $0 },
            [
                "pdfpipe: progress: 155/200 documents, 3000 pages, 15s elapsed, about 1m53s left\n",
                "pdfpipe: progress: 160/200 documents, 3000 pages, 30s elapsed, about 2m00s left\n",
                "pdfpipe: progress: 160/200 documents, 3000 pages, 45s elapsed, no document finished in the last 15s\n",
            ])
        // A run in a log says so (and nothing with --quiet, nor with --progress never).
        let cli = CapturedCLI()
        XCTAssertEqual(
            cli.run([
                "run", "pipelines/link-audit.json", "--offline", "--out", NSTemporaryDirectory() + "/p", "--progress",
                "sometimes",
            ]),
            .usage)
        XCTAssertTrue(cli.stderr.contains("--progress: 'sometimes' is not one of auto, always, never"), cli.stderr)
    }
}
