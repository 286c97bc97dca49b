import Foundation
import PDFPipeCLI
import PDFPipeCore
import PDFPipeStages
import Synchronization
import TestSupport
import XCTest

/// (#67) The link-rot ledger: each run keeps one record (`--ledger`), once; `pdfpipe trend` reads
/// them. Links to files that come and go: a link is fixed when its file appears, broken again when
/// it goes.
final class LedgerTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = Repo.temporaryFolder()
        try Self.writeBatch(in: dir)
    }

    /// `docs/manual.pdf`, whose two links go to files that come and go (`docs/missing-a.pdf`,
    /// `missing-b.pdf`), and `p.json`, the pipeline that checks them.
    static func writeBatch(in dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir + "/docs", withIntermediateDirectories: true)
        try TestPDF.write(
            dir + "/docs/manual.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R 5 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 0 50 8] /A << /S /GoToR /F (missing-a.pdf) /D [0 /Fit] >> >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 20 50 28] /A << /S /GoToR /F (missing-b.pdf) /D [0 /Fit] >> >>",
            ])
        try #"{"version": 1, "stages": [{"use": "validate-links", "with": {"gotor": true}}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A run on `day` (of November 2026) keeping its record in `ledger/`.
    @discardableResult
    func run(day: Int) -> (ExitCode, String) {
        let out = Mutex("")
        let console = Console(
            out: { s in out.withLock { $0 += s } }, err: { s in out.withLock { $0 += s } }, interactive: false)
        let code = CLI(
            console: console, directory: dir, fixedDate: "2026-11-\(String(format: "%02d", day))T03:00:00Z",
            stages: StageTable.all, reporters: Reporters.all
        ).run(["run", "p.json", "docs", "--offline", "--ledger", "ledger", "--out", "out/run", "--quiet"])
        return (code, out.withLock { $0 })
    }

    func testRunsKeepRecordsAndTheTrendReadsThem() throws {
        let fm = FileManager.default
        run(day: 1)
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: dir + "/docs/missing-a.pdf"))
        run(day: 2)
        try fm.removeItem(atPath: dir + "/docs/missing-a.pdf")
        run(day: 3)
        // The run's own report says how long each broken link has been broken, from the ledger.
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/run/report.json", encoding: .utf8))
        let said = (report["documents"]?[0]?["findings"]?.arrayValue ?? []).map {
            "\($0["target"]!.stringValue!) \($0["brokenSince"]!.stringValue!) \($0["brokenRuns"]!.intValue!)"
        }
        XCTAssertEqual(
            said.sorted(), ["missing-a.pdf 2026-11-03T03:00:00Z 1", "missing-b.pdf 2026-11-01T03:00:00Z 3"])
        // The same run again (a retried job): its record is kept, not doubled.
        let (_, again) = run(day: 3)
        XCTAssertTrue(again.contains("is recorded already"), again)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir + "/ledger").count, 3)
        // A record cut short (a write that never finished outside pdfpipe's own rename): passed over.
        try Data(#"{"format": "pdfpipe-ledger-record", "version": 1, "run": "#.utf8).write(
            to: URL(fileURLWithPath: dir + "/ledger/20261104030000-cut.json"))

        let out = Mutex("")
        let console = Console(
            out: { s in out.withLock { $0 += s } }, err: { s in out.withLock { $0 += s } }, interactive: false)
        let code = CLI(console: console, directory: dir, stages: StageTable.all, reporters: Reporters.all)
            .run(["trend", "ledger", "--out", "out/trend"])
        XCTAssertEqual(code, .clean, out.withLock { $0 })
        XCTAssertTrue(out.withLock { $0 }.contains("20261104030000-cut.json: not a ledger record; passed over"))
        let trend = try JSONParser.parse(try String(contentsOfFile: dir + "/out/trend/trend.json", encoding: .utf8))
        XCTAssertEqual(trend["runs"]?.arrayValue?.map { $0["new"] }, [2, 0, 1])
        XCTAssertEqual(trend["runs"]?.arrayValue?.map { $0["fixed"] }, [0, 1, 0])
        XCTAssertEqual(trend["runs"]?.arrayValue?.map { $0["still"] }, [0, 1, 1])
        XCTAssertEqual(
            trend["brokenNow"]?.arrayValue?.map { "\($0["target"]!.stringValue!) \($0["runs"]!.intValue!)" },
            ["missing-b.pdf 3", "missing-a.pdf 1"])
        XCTAssertEqual(trend["timeToFix"]?["medianDays"], .double(1))
        let html = try String(contentsOfFile: dir + "/out/trend/trend.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<svg") && html.contains("missing-b.pdf"), html)
        let markdown = try String(contentsOfFile: dir + "/out/trend/trend.md", encoding: .utf8)
        XCTAssertTrue(
            markdown.contains("3 runs from 2026-11-01T03:00:00Z to 2026-11-03T03:00:00Z. Broken now: **2**"), markdown)
        XCTAssertTrue(
            markdown.contains("| 2026-11-01T03:00:00Z | 3 | 2 | docs/manual.pdf | missing-b.pdf |")
                || markdown.contains("| 2026-11-01T03:00:00Z | 3 | 2 | manual.pdf | missing-b.pdf |"), markdown)
    }

    /// Shards keep no record; their merge keeps the one record of the whole batch.
    func testTheMergeOfShardsKeepsOneRecord() throws {
        try FileManager.default.copyItem(atPath: dir + "/docs/manual.pdf", toPath: dir + "/docs/second.pdf")
        for k in 1...2 {
            let cli = CapturedCLI()
            _ = cli.run(
                [
                    "run", "p.json", "docs", "--offline", "--shard", "\(k)/2", "--ledger", "ledger", "--out",
                    "out/s\(k)",
                ],
                in: dir)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ledger"))
        let merge = CapturedCLI()
        _ = merge.run(["merge", "out/s1", "out/s2", "--out", "out/merged", "--ledger", "ledger"], in: dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/ledger")
        XCTAssertEqual(names.count, 1, merge.stdout + merge.stderr)
        let record = try XCTUnwrap(
            LedgerRecord(
                json: try JSONParser.parse(try String(contentsOfFile: dir + "/ledger/" + names[0], encoding: .utf8))))
        XCTAssertEqual(record.documents.sorted(), ["manual.pdf", "second.pdf"])
        XCTAssertEqual(record.links.count, 4)
    }

    /// A run's record is its own by the whole id after the time: run `1` is not run `github-5-1`
    /// (whose name ends the same). A file planted beside the records is neither read nor counted.
    func testARunIsKnownByItsWholeID() throws {
        try FileManager.default.createDirectory(atPath: dir + "/ledger", withIntermediateDirectories: true)
        try "{}".write(toFile: dir + "/ledger/notes.json", atomically: true, encoding: .utf8)
        for (day, id) in [(1, "github-5-1"), (2, "1"), (3, "1")] {
            let (status, stderr) = try Repo.runUnproxied(
                ["run", "p.json", "docs", "--offline", "--ledger", "ledger", "--out", "out/run", "--quiet"], in: dir,
                environment: ["PDFPIPE_RUN_ID": id, "PDFPIPE_FIXED_DATE": "2026-11-0\(day)T03:00:00Z"])
            XCTAssertEqual(status, 1, stderr)
            XCTAssertEqual(stderr.contains("is recorded already"), day == 3, "day \(day): \(stderr)")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/ledger").sorted(),
            ["20261101030000-github-5-1.json", "20261102030000-1.json", "notes.json"])
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["trend", "ledger", "--out", "out/trend"], in: dir), .clean, cli.stderr)
        XCTAssertFalse(cli.stderr.contains("notes.json"), cli.stderr)
        XCTAssertTrue(cli.stdout.contains("2 runs"), cli.stdout)
    }

    /// The folder keeps the newest 1,000 records (`CLI.maxLedgerRecords`, docs/reference.md): a
    /// run past it removes the oldest (by name, that is by time), and only those.
    func testTheLedgerKeepsTheNewestRecords() throws {
        try FileManager.default.createDirectory(atPath: dir + "/ledger", withIntermediateDirectories: true)
        let fm = FileManager.default
        let kept = 1_000
        for k in 0..<kept {
            XCTAssertTrue(
                fm.createFile(
                    atPath: dir + "/ledger/20260101\(String(format: "%06d", k))-old-\(k).json",
                    contents: Data("{}".utf8)))
        }
        let (status, stderr) = try Repo.runUnproxied(
            ["run", "p.json", "docs", "--offline", "--ledger", "ledger", "--out", "out/run", "--quiet"], in: dir,
            environment: ["PDFPIPE_RUN_ID": "new", "PDFPIPE_FIXED_DATE": "2026-11-01T03:00:00Z"])
        XCTAssertEqual(status, 1, stderr)
        let names = try fm.contentsOfDirectory(atPath: dir + "/ledger")
        XCTAssertEqual(names.count, kept)
        XCTAssertTrue(names.contains("20261101030000-new.json"))
        XCTAssertFalse(names.contains("20260101000000-old-0.json"), "the oldest went")
        XCTAssertTrue(names.contains("20260101000001-old-1.json"))
    }

    /// A run killed at any moment leaves the ledger readable, each record whole or absent: runs
    /// of the real program stopped with SIGKILL after ever longer delays, then the trend read.
    func testARunKilledMidWriteLeavesNoPartialRecord() throws {
        for k in 0..<12 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try Repo.executable())
            p.arguments = ["run", "p.json", "docs", "--offline", "--ledger", "ledger", "--out", "out/k\(k)", "--quiet"]
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            p.environment = ["PDFPIPE_RUN_ID": "killed-\(k)", "PATH": "/usr/bin:/bin"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(useconds_t(5_000 * k * k))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/ledger")) ?? []
        // A write cut short leaves at most its hidden temporary file, never a record's name.
        for name in all where name.hasPrefix(".") { XCTAssertTrue(name.contains(".tmp-"), name) }
        let names = all.filter { !$0.hasPrefix(".") }
        for name in names {
            XCTAssertTrue(name.hasSuffix(".json"), "no temporary file left under a record's name: \(name)")
            let text = try String(contentsOfFile: dir + "/ledger/" + name, encoding: .utf8)
            XCTAssertNotNil(LedgerRecord(json: try JSONParser.parse(text)), "\(name) is whole")
        }
        let cli = CapturedCLI()
        let exists = FileManager.default.fileExists(atPath: dir + "/ledger")
        XCTAssertEqual(
            cli.run(["trend", "ledger", "--out", "out/trend"], in: dir), exists ? .clean : .usage, cli.stderr)
        XCTAssertFalse(cli.stderr.contains("not a ledger record"), cli.stderr)
    }

    func testBadLedgersAreNamed() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["trend", "nowhere"], in: dir), .usage)
        XCTAssertTrue(cli.stderr.contains("nowhere: error: not a ledger folder"), cli.stderr)
        let since = CapturedCLI()
        XCTAssertEqual(since.run(["trend", "docs", "--since", "yesterday"], in: dir), .usage)
        // A ledger folder that is, or holds, a symbolic link (a cache a pull request restored).
        let outside = dir + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: outside)
        let linked = CapturedCLI()
        XCTAssertEqual(linked.run(["run", "p.json", "docs", "--offline", "--ledger", "linked"], in: dir), .usage)
        XCTAssertTrue(linked.stderr.contains("symbolic link"), linked.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
        XCTAssertEqual(CapturedCLI().run(["trend", "linked"], in: dir), .usage)
        // A ledger in object storage is checked before any work (LedgerStoreTests writes one).
        let s3 = CapturedCLI()
        XCTAssertEqual(s3.run(["run", "p.json", "docs", "--ledger", "s3://no bucket/ledger"], in: dir), .usage)
        XCTAssertTrue(s3.stderr.contains("'no bucket' is not a bucket name"), s3.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out"), "no work done")
    }
}
