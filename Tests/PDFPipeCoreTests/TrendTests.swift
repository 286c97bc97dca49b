import XCTest

@testable import PDFPipeCore

/// (#67) The trend of a ledger on a known schedule: 30 nightly runs of links that break, recover
/// and flap; the counts, ages and times to fix are the schedule's, computed here independently.
final class TrendTests: XCTestCase {
    /// Which links are broken in run `i` (0-based): `a` breaks at 5 and is fixed at 12; `b` is
    /// broken from the first run on; `c` flaps (broken on odd runs from 10 to 19); `d` (another
    /// host, another document) breaks at 20 for good; `e` breaks at 8 in a document that runs 14
    /// to 16 do not check, and is fixed at 17.
    static func broken(_ i: Int) -> [(document: String, target: String)] {
        var out: [(String, String)] = []
        if (5..<12).contains(i) { out.append(("a.pdf", "https://rot.example/a")) }
        out.append(("a.pdf", "https://rot.example/b"))
        if (10..<20).contains(i), i % 2 == 1 { out.append(("a.pdf", "https://flap.example/c")) }
        if i >= 20 { out.append(("b.pdf", "https://other.example/d")) }
        if (8..<17).contains(i), !(14..<17).contains(i) { out.append(("c.pdf", "https://rot.example/e")) }
        return out
    }

    static func time(_ i: Int) -> String { "2026-11-\(String(format: "%02d", i + 1))T03:00:00Z" }

    static func records() -> [LedgerRecord] {
        (0..<30).map { i in
            let documents = (14..<17).contains(i) ? ["a.pdf", "b.pdf"] : ["a.pdf", "b.pdf", "c.pdf"]
            let links = broken(i).map { b in
                LedgerRecord.Link(
                    document: documents.firstIndex(of: b.document)!, page: 1, target: b.target, rule: "uri.http-error",
                    severity: .error, fingerprint: "f")
            }
            // A warning every run, which is not a broken link.
            let warning = LedgerRecord.Link(
                document: 0, page: 2, target: "http://insecure.example/", rule: "uri.insecure-scheme",
                severity: .warning,
                fingerprint: "w")
            return LedgerRecord(
                run: "run-\(i)", time: time(i), pipeline: "nightly", documents: documents, links: links + [warning])
        }
    }

    func testTheTrendIsTheSchedule() throws {
        // Shuffled: the ledger's order is the records' times, not the folder's.
        let trend = Trend(records: Self.records().reversed())
        XCTAssertEqual(trend.runs.count, 30)
        // Independently: the schedule's new, fixed and still per run.
        var previous = Set<String>()
        for i in 0..<30 {
            let now = Set(Self.broken(i).map { $0.document + " " + $0.target })
            let unchecked = (14..<17).contains(i) ? Set(previous.filter { $0.hasPrefix("c.pdf") }) : []
            let carried = now.union(unchecked)
            let r = trend.runs[i]
            XCTAssertEqual(r.new, now.subtracting(previous).count, "run \(i) new")
            XCTAssertEqual(r.fixed, previous.subtracting(carried).count, "run \(i) fixed")
            XCTAssertEqual(r.still, now.intersection(previous).count, "run \(i) still")
            XCTAssertEqual(r.errors, now.count)
            XCTAssertEqual(r.warnings, 1)
            XCTAssertEqual(r.families["uri"], now.count + 1)
            previous = carried
        }
        // Broken now: b since the first run (30 runs, 29 days), d since run 20 (10 runs, 9 days).
        XCTAssertEqual(
            trend.current.map { "\($0.target) \($0.since) \($0.runs) \($0.days)" },
            [
                "https://rot.example/b 2026-11-01T03:00:00Z 30 29.0",
                "https://other.example/d 2026-11-21T03:00:00Z 10 9.0",
            ])
        // Fixed: a after 7 days; c five times after 1 day each (odd runs 11…19, fixed the next);
        // e after 9 days (broken at 8, unchecked 14-16, fixed when checked again at 17).
        XCTAssertEqual(trend.fixDays.sorted(), [1, 1, 1, 1, 1, 7, 9])
        let fix = try XCTUnwrap(trend.timeToFix)
        XCTAssertEqual(fix.median, 1)
        XCTAssertEqual(fix.p90, 9)
        // Hosts by links broken now, then by how often one broke.
        XCTAssertEqual(trend.hosts.map(\.host), ["rot.example", "other.example", "flap.example"])
        XCTAssertEqual(trend.hosts.map(\.breaks), [3, 1, 5])
        XCTAssertEqual(trend.hosts.map(\.broken), [1, 1, 0])
        XCTAssertEqual(trend.documents.map(\.document), ["b.pdf"])
    }

    /// 100,000 link-runs (100 nights of 1,000 broken links, a tenth of them fixed and others
    /// broken each night): the page stays under 1 MB (its tables cut at 200 rows, the rest in
    /// trend.json). Its build time is bench/trend.sh's to measure.
    /// Broken links over time by rule family: one line per family, the five most frequent and
    /// the rest as `other` past six.
    func testTheFamiliesArePlottedTheMostFrequentFirst() {
        let families = ["uri", "gotor", "dest", "action", "launch", "outline", "js", "embedded"]
        let record = LedgerRecord(
            run: "r", time: Self.time(0), pipeline: "p", documents: ["a.pdf"],
            links: families.enumerated().flatMap { i, f in
                (0..<(10 - i)).map { k in
                    LedgerRecord.Link(
                        document: 0, page: 1, target: "t\(f)\(k)", rule: "\(f).x", severity: .error, fingerprint: "\(k)"
                    )
                }
            })
        let html = Trend(records: [record]).html
        let legend = html.components(separatedBy: "by rule family</h2>")[1].components(separatedBy: "</p>")[0]
        let names = legend.components(separatedBy: "</i>").dropFirst().map { $0.components(separatedBy: "</span>")[0] }
        XCTAssertEqual(names, ["uri", "gotor", "dest", "action", "launch", "other"])
        let two = Trend(records: Self.records()).html
        XCTAssertTrue(two.contains("by rule family</h2>"))
        XCTAssertTrue(two.contains("by severity</h2>"))
    }

    /// A record keeps each link's HTTP status and the run's counts, and reads back what it wrote;
    /// what another writer put there is bounded (a status no server sends, counts past 32, negative ones).
    func testARecordReadsBackItsStatusesAndCounts() throws {
        var record = LedgerRecord(
            run: "r", time: Self.time(0), pipeline: "p", documents: ["a.pdf"],
            links: [
                LedgerRecord.Link(
                    document: 0, page: 1, target: "https://x.example/", rule: "uri.http-error", severity: .error,
                    fingerprint: "f", status: 404),
                LedgerRecord.Link(
                    document: 0, page: nil, target: "b.pdf", rule: "gotor.file-missing", severity: .error,
                    fingerprint: "g"),
            ])
        record.counts = ["documents": 1, "links.total": 7, "links.broken": 2]
        XCTAssertEqual(LedgerRecord(json: try JSONParser.parse(JSONWriter.compact(record.json))), record)
        var hostile = try JSONParser.parse(JSONWriter.compact(record.json))
        guard case .object(var o) = hostile else { return XCTFail() }
        o["links"] = [[0, 1, "https://x.example/", "uri.http-error", "error", "f", 99999]]
        o["counts"] = .object(
            Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", JSONValue.int($0 - 1)) }))
        hostile = .object(o)
        let read = try XCTUnwrap(LedgerRecord(json: hostile))
        XCTAssertNil(read.links[0].status)
        XCTAssertEqual(read.counts.count, 31, "32 read, the negative one left out")
        XCTAssertNil(read.counts["k0"])
    }

    /// A record is data anyone who can write the ledger wrote: its rule ids (the families in the
    /// legend) and times reach the page and the Markdown escaped.
    func testARecordsTextIsEscapedOnThePageAndInTheMarkdown() {
        let record = LedgerRecord(
            run: "r", time: "<img src=x onerror=alert(1)>|x", pipeline: "p", documents: ["a.pdf"],
            links: [
                LedgerRecord.Link(
                    document: 0, page: 1, target: "t", rule: "<script>alert(1)</script>.x", severity: .error,
                    fingerprint: "f")
            ])
        let trend = Trend(records: [record])
        XCTAssertFalse(trend.html.contains("<script>alert"), trend.html)
        XCTAssertFalse(trend.html.contains("<img src=x"), trend.html)
        XCTAssertTrue(trend.html.contains("&lt;script&gt;"), trend.html)
        XCTAssertFalse(trend.markdown.contains("<img src=x"), trend.markdown)
    }

    func testTheTrendPageOfAHundredThousandLinkRunsIsSmall() {
        let records = (0..<100).map { night in
            LedgerRecord(
                run: "night-\(night)", time: Self.time(night % 28) + "-\(night)", pipeline: "nightly",
                documents: (0..<50).map { "docs/manual-\($0).pdf" },
                links: (0..<1000).map { k in
                    LedgerRecord.Link(
                        document: k % 50, page: 1 + k % 30,
                        target: "https://host-\(k % 37).example/\((k + night / 10 * 100) % 1500)",
                        rule: "uri.http-error", severity: .error, fingerprint: "f\(k)")
                })
        }
        let trend = Trend(records: records)
        let html = trend.html
        XCTAssertLessThan(html.utf8.count, 1 << 20)
        XCTAssertTrue(html.contains("<svg"))
        XCTAssertTrue(html.contains("more in trend.json"))
        XCTAssertEqual(trend.runs.count, 100)
    }

    func testFiltersAndRecordsRoundTrip() throws {
        let records = Self.records()
        for r in records { XCTAssertEqual(LedgerRecord(json: try JSONParser.parse(JSONWriter.compact(r.json))), r) }
        XCTAssertEqual(Trend(records: records, since: "2026-11-21").runs.count, 10)
        XCTAssertEqual(Trend(records: records, pipeline: "other").runs.count, 0)
        let flap = Trend(records: records, host: "FLAP.example")
        XCTAssertEqual(flap.fixDays.count, 5)
        XCTAssertEqual(flap.current, [])
        XCTAssertNil(LedgerRecord(json: ["format": "something else"]))
        XCTAssertEqual(Trend.host(of: "https://user@Host.Example:8443/x?y"), "host.example")
        XCTAssertNil(Trend.host(of: "missing.pdf"))
        XCTAssertEqual(Trend.days(from: "2024-02-28T00:00:00Z", to: "2024-03-01T12:00:00Z"), 2.5)
    }
}
