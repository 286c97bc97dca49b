import Foundation
import PDFReader
import TestSupport
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// (#65) What a web archive's index says, read as data: both answer formats, an answer cut
/// short, rows that do not belong; archive timestamps; the document's own date.
final class WebArchiveTests: XCTestCase {
    let wayback = """
        [["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
        ["org,example)/a", "20200610120000", "http://www.example.org:80/a", "text/html", "200", "D", "1415"],
        ["org,example)/a", "20200614000000", "https://example.org/a", "text/html", "404", "D", "1402"],
        ["org,example)/a", "2020061", "https://example.org/a", "text/html", "200", "D", "1402"],
        ["org,example)/a", "20201340000000", "https://example.org/a", "text/html", "200", "D", "1402"],
        ["org,example)/a", "20200101000000", "https://example.org/a", "warc/revisit", "-", "D", "1402"]]
        """

    func testTheWaybackMachinesRowsAreReadByTheirFieldNames() {
        XCTAssertEqual(
            WebArchive.captures(in: wayback),
            [
                .init(timestamp: "20200610120000", original: "http://www.example.org:80/a", status: 200),
                .init(timestamp: "20200614000000", original: "https://example.org/a", status: 404),
                // A revisit has no status: listed, never offered (only 200s are).
                .init(timestamp: "20200101000000", original: "https://example.org/a", status: nil),
            ])
        // Cut short in the middle of a row (only an answer's first bytes are kept): whole rows still count.
        let cut = String(
            wayback.prefix(wayback.range(of: "\"text/html\", \"404\"")!.lowerBound.utf16Offset(in: wayback)))
        XCTAssertEqual(WebArchive.captures(in: cut).map(\.timestamp), ["20200610120000"])
        // Fields in another order.
        XCTAssertEqual(
            WebArchive.captures(
                in: #"[["original","statuscode","timestamp"],["https://example.org/a","200","20190101000000"]]"#),
            [.init(timestamp: "20190101000000", original: "https://example.org/a", status: 200)])
        XCTAssertEqual(WebArchive.captures(in: "[]\n"), [])
        XCTAssertEqual(WebArchive.captures(in: "<html>Service unavailable</html>"), [])
    }

    func testPywbsNDJSONIsReadToo() {
        let ndjson = """
            {"urlkey": "org,example)/a", "timestamp": "20190304050607", "url": "https://example.org/a", "mime": "text/html", "status": "200"}
            {"urlkey": "org,example)/a", "timestamp": "20190304050608", "url": "https://example.org/a", "status": 301}
            not json
            {"timestamp": "20190304050609"}
            """
        XCTAssertEqual(
            WebArchive.captures(in: ndjson),
            [
                .init(timestamp: "20190304050607", original: "https://example.org/a", status: 200),
                .init(timestamp: "20190304050608", original: "https://example.org/a", status: 301),
            ])
        // At most `listed` rows, whatever the server sends.
        let many = (0..<50).map {
            #"{"timestamp": "2019030405\#(String(format: "%04d", $0))", "url": "https://e.org/"}"#
        }
        XCTAssertEqual(WebArchive.captures(in: many.joined(separator: "\n")).count, WebArchive.listed)
    }

    func testACaptureMustBeOfTheLinksResource() {
        XCTAssertTrue(WebArchive.sameResource("http://www.example.org:80/a", "https://example.org/a"))
        XCTAssertTrue(WebArchive.sameResource("https://Example.org", "http://example.org/"))
        XCTAssertTrue(WebArchive.sameResource("https://example.org/a?x=1", "https://example.org/a?x=1"))
        XCTAssertFalse(WebArchive.sameResource("https://example.org/a?x=2", "https://example.org/a?x=1"))
        XCTAssertFalse(WebArchive.sameResource("https://example.org/b", "https://example.org/a"))
        XCTAssertFalse(WebArchive.sameResource("https://evil.example/a", "https://example.org/a"))
        XCTAssertFalse(WebArchive.sameResource("https://example.org:8443/a", "https://example.org/a"))
        XCTAssertFalse(WebArchive.sameResource("ftp://example.org/a", "ftp://example.org/a"))
    }

    func testTheQueryAsksForTheClosestCapturesOfTheURLEscaped() {
        XCTAssertEqual(
            WebArchive.queryURL(
                index: "https://web.archive.org/cdx/search/cdx", url: "https://example.org/a b?x=1&y=2",
                closest: "20200615073000"),
            "https://web.archive.org/cdx/search/cdx?url=https%3A%2F%2Fexample.org%2Fa%20b%3Fx%3D1%26y%3D2&output=json&closest=20200615073000&sort=closest&limit=10"
        )
        XCTAssertEqual(
            WebArchive.replayURL(
                prefix: "https://web.archive.org/web/", timestamp: "20200610120000", url: "https://e.org/", raw: true),
            "https://web.archive.org/web/20200610120000id_/https://e.org/")
    }

    func testTimestampsAreRealDates() {
        XCTAssertEqual(Timestamp.seconds("19700101000000"), nil, "before the web")
        XCTAssertEqual(Timestamp.seconds("20000101000000"), 946_684_800)
        XCTAssertEqual(Timestamp.seconds("20000229120000"), 951_825_600)
        XCTAssertNil(Timestamp.seconds("20010229120000"), "not a leap year")
        XCTAssertNil(Timestamp.seconds("2020061512000"))
        XCTAssertNil(Timestamp.seconds("2020061512000x"))
        XCTAssertNil(Timestamp.seconds("20200615250000"))
        for t in ["19910806000000", "20000229235959", "20241231120000", "21000301000000"] {
            XCTAssertEqual(Timestamp.seconds(t).map(Timestamp.text), t)
        }
        XCTAssertEqual(Timestamp.day("20200615073000"), "2020-06-15")
    }

    func testTheDocumentsDateIsReadInUTCFromItsFields() {
        XCTAssertEqual(DocumentDate.pdfDate("D:20200615093000+02'00'").map(Timestamp.text), "20200615073000")
        XCTAssertEqual(DocumentDate.pdfDate("D:20200615093000-05'30").map(Timestamp.text), "20200615150000")
        XCTAssertEqual(DocumentDate.pdfDate("20200615093000Z").map(Timestamp.text), "20200615093000")
        XCTAssertEqual(DocumentDate.pdfDate("D:2020").map(Timestamp.text), "20200101000000")
        XCTAssertEqual(DocumentDate.pdfDate("D:202006").map(Timestamp.text), "20200601000000")
        XCTAssertNil(DocumentDate.pdfDate("D:20201315"))
        XCTAssertNil(DocumentDate.pdfDate("D:20200615093000+25'00'"))
        XCTAssertNil(DocumentDate.pdfDate("yesterday"))
        XCTAssertEqual(DocumentDate.xmpDate("2020-06-15T09:30:00+02:00").map(Timestamp.text), "20200615073000")
        XCTAssertEqual(DocumentDate.xmpDate("2020-06-15T09:30:00.123Z").map(Timestamp.text), "20200615093000")
        XCTAssertEqual(DocumentDate.xmpDate("2020-06-15T09:30").map(Timestamp.text), "20200615093000")
        XCTAssertEqual(DocumentDate.xmpDate("2020-06").map(Timestamp.text), "20200601000000")
        XCTAssertNil(DocumentDate.xmpDate("2020-6-15"))
    }

    /// `/ModDate` first; a date in the future or unreadable is passed over for the next field;
    /// XMP's when the information dictionary has none.
    func testTheDocumentsDateComesFromItsFirstSoundField() throws {
        let dir = NSTemporaryDirectory() + "webarchive-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func date(info: String?, xmp: String?) throws -> DocumentDate? {
            var objects = [
                "<< /Type /Catalog /Pages 2 0 R\(xmp == nil ? "" : " /Metadata 4 0 R") >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
            ]
            if let xmp {
                let packet =
                    #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" \#(xmp)/></rdf:RDF></x:xmpmeta>"#
                objects.append(
                    "<< /Type /Metadata /Subtype /XML /Length \(packet.utf8.count) >>\nstream\n\(packet)\nendstream")
            } else {
                objects.append("<< >>")
            }
            if let info { objects.append("<< \(info) >>") }
            let path = dir + "/d.pdf"
            try TestPDF.write(path, objects: objects, trailer: info == nil ? "" : " /Info 5 0 R")
            return DocumentDate.of(try PDFReader(path: path), now: Timestamp.seconds("20260101000000")!)
        }
        XCTAssertEqual(
            try date(
                info: "/ModDate (D:20200615093000Z) /CreationDate (D:20190101)", xmp: #"xmp:ModifyDate="2021-01-01""#),
            DocumentDate(timestamp: "20200615093000", field: "/ModDate"))
        XCTAssertEqual(
            try date(
                info: "/ModDate (D:20990101) /CreationDate (D:20190101)", xmp: #"xmp:ModifyDate="2021-01-01T10:00:00Z""#
            ),
            DocumentDate(timestamp: "20210101100000", field: "xmp:ModifyDate"), "a date after today is passed over")
        XCTAssertEqual(
            try date(info: "/ModDate (garbage) /CreationDate (D:20190101)", xmp: nil),
            DocumentDate(timestamp: "20190101000000", field: "/CreationDate"))
        XCTAssertEqual(
            try date(info: nil, xmp: #"xmp:CreateDate="2018-03-04""#),
            DocumentDate(timestamp: "20180304000000", field: "xmp:CreateDate"))
        XCTAssertNil(try date(info: "/Title (no dates)", xmp: nil))
    }

    /// The Wayback Machine shuts out fast askers: its hosts get one request at a time, one a
    /// second, unless `hosts` says otherwise; an archive on this machine is not slowed.
    func testAnArchiveIsAskedPolitely() throws {
        var section = ExternalSection()
        section.archive.enabled = true
        let options = try ExternalOptions(section, path: "external", version: "1")
        XCTAssertEqual(options.maxPerHost(for: "web.archive.org"), 1)
        XCTAssertEqual(options.hostInterval(for: "web.archive.org"), 1.0)
        XCTAssertEqual(options.maxPerHost(for: "example.org"), 4)
        var host = ExternalSection.Host()
        host.host = "web.archive.org"
        host.intervalSeconds = 0.5
        section.hosts = [host]
        XCTAssertEqual(
            try ExternalOptions(section, path: "external", version: "1").hostInterval(for: "web.archive.org"), 0.5)
        section.archive.index = "http://127.0.0.1:8080/coll/cdx"
        section.archive.replay = "http://127.0.0.1:8080/coll/"
        XCTAssertEqual(try ExternalOptions(section, path: "external", version: "1").archiveHosts, [])
        section.archive.enabled = false
        XCTAssertEqual(try ExternalOptions(section, path: "external", version: "1").archiveHosts, [])
    }
}
