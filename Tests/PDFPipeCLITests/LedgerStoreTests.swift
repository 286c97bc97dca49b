import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

/// (#67) A ledger in object storage (`--ledger s3://…`), on the loopback store of
/// ObjectStorageTests: one record a run, written create-only after a claim; a retried run keeps
/// the record it has; an attempt killed between claim and record leaves it to the next; what the
/// store holds besides records, or a claim that names another run's record, is passed over or
/// refused, never taken as a record.
extension ObjectStorageTests {
    /// A run on `day` of November 2026 as run `id`, keeping its record in the store's `ledger/`.
    func ledgerRun(day: Int, id: String) throws -> (status: Int32, output: String) {
        try pdfpipe(
            [
                "run", dir + "/p.json", dir + "/docs", "--offline", "--out", dir + "/out",
                "--ledger", "s3://\(bucket)/ledger/",
            ],
            environment(extra: [
                "PDFPIPE_RUN_ID": id, "PDFPIPE_FIXED_DATE": "2026-11-\(String(format: "%02d", day))T03:00:00Z",
            ]))
    }

    func testALedgerInTheStoreKeepsOneRecordARun() throws {
        try LedgerTests.writeBatch(in: dir)
        let client = try S3Client(settings: settings())
        for k in try keys("ledger/") { try client.delete(bucket: bucket, key: k) }

        var r = try ledgerRun(day: 1, id: "night-1")
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(
            r.output.contains(
                "recorded the run in s3://\(bucket)/ledger/20261101030000-night-1.json (2 link findings)"),
            r.output)
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: dir + "/docs/missing-a.pdf"))
        XCTAssertEqual(try ledgerRun(day: 2, id: "night-2").status, 1)
        try FileManager.default.removeItem(atPath: dir + "/docs/missing-a.pdf")
        XCTAssertEqual(try ledgerRun(day: 3, id: "night-3").status, 1)
        // The run's own report reads the ledger in the store: since when, in how many runs.
        let report = try JSONParser.parse(try String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        XCTAssertEqual(
            (report["documents"]?[0]?["findings"]?.arrayValue ?? []).map {
                "\($0["target"]!.stringValue!) \($0["brokenSince"]!.stringValue!) \($0["brokenRuns"]!.intValue!)"
            }.sorted(), ["missing-a.pdf 2026-11-03T03:00:00Z 1", "missing-b.pdf 2026-11-01T03:00:00Z 3"])

        // The same run again, a day later (a retried job): its record is kept, not doubled.
        r = try ledgerRun(day: 4, id: "night-3")
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("run 'night-3' is recorded already (20261103030000-night-3.json)"), r.output)
        // An attempt killed between its claim and its record: the next attempt writes the record
        // under the name claimed.
        try client.put(
            bucket: bucket, key: "ledger/claims/night-4", bytes: Array("20261104030000-night-4.json".utf8),
            createOnly: true)
        XCTAssertEqual(try ledgerRun(day: 5, id: "night-4").status, 1)
        XCTAssertEqual(
            try keys("ledger/").filter { !$0.hasPrefix("ledger/claims/") },
            [
                "ledger/20261101030000-night-1.json", "ledger/20261102030000-night-2.json",
                "ledger/20261103030000-night-3.json", "ledger/20261104030000-night-4.json",
            ])
        // A claim that names another run's record (a store anyone can write to): refused, nothing written.
        try client.put(
            bucket: bucket, key: "ledger/claims/night-9", bytes: Array("20261101030000-night-1.json".utf8),
            createOnly: true)
        r = try ledgerRun(day: 9, id: "night-9")
        XCTAssertEqual(r.status, 3, r.output)
        XCTAssertTrue(r.output.contains("the claim of run 'night-9' names '20261101030000-night-1.json'"), r.output)
        XCTAssertEqual(try keys("ledger/").filter { !$0.hasPrefix("ledger/claims/") }.count, 4)

        // What is not a record: passed over by name (a record cut short), or not looked at.
        try client.put(bucket: bucket, key: "ledger/notes.txt", bytes: Array("not a record".utf8))
        try client.put(
            bucket: bucket, key: "ledger/20261110030000-cut.json",
            bytes: Array(#"{"format": "pdfpipe-ledger-record", "version": 1, "run": "#.utf8))
        let t = try pdfpipe(["trend", "s3://\(bucket)/ledger", "--out", dir + "/trend"], environment())
        XCTAssertEqual(t.status, 0, t.output)
        XCTAssertTrue(
            t.output.contains("s3://\(bucket)/ledger/20261110030000-cut.json: not a ledger record; passed over"),
            t.output)
        XCTAssertFalse(t.output.contains("notes.txt"), t.output)
        let trend = try JSONParser.parse(try String(contentsOfFile: dir + "/trend/trend.json", encoding: .utf8))
        XCTAssertEqual(
            trend["runs"]?.arrayValue?.map { $0["run"]?.stringValue ?? "" },
            ["night-1", "night-2", "night-3", "night-4"])
        XCTAssertEqual(trend["runs"]?.arrayValue?.map { $0["new"] }, [2, 0, 1, 0])
        XCTAssertEqual(trend["runs"]?.arrayValue?.map { $0["fixed"] }, [0, 1, 0, 0])
    }
}
