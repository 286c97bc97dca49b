import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#67) The trend page in a real headless browser: it fits a 390 px phone and a 1280 px desktop
/// (nothing wider than the page), its plots drawn; screenshots of both are kept in
/// .build/test-output/ (the tests' output).
extension HTMLReportTests {
    func testTheTrendPageReadsAt390And1280Pixels() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        let records = (0..<30).map { night in
            LedgerRecord(
                run: "night-\(night)", time: "2026-11-\(String(format: "%02d", night + 1))T03:00:00Z",
                pipeline: "nightly",
                documents: ["build/pdf/a-rather-long-document-name-that-wraps.pdf", "build/pdf/b.pdf"],
                links: (0..<(night % 7 + 3)).map { k in
                    LedgerRecord.Link(
                        document: k % 2, page: 1,
                        target:
                            "https://a-very-long-host-name-that-must-wrap.example/and/a/longer/path/\(k)?query=\(k)",
                        rule: k % 3 == 0 ? "gotor.file-missing" : "uri.http-error", severity: .error,
                        fingerprint: "f\(k)")
                })
        }
        try Trend(records: records).html.write(toFile: out + "/trend.html", atomically: true, encoding: .utf8)
        let shots = Repo.root + "/.build/test-output"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        for width in [390, 1280] {
            let harness = """
                <!DOCTYPE html><html><body><iframe id="f" src="trend.html" style="width:\(width)px;height:900px;border:0"></iframe><pre id="out">pending</pre>
                <script>document.getElementById('f').addEventListener('load',function(){var d=this.contentDocument,w=d.documentElement.clientWidth,wide=0;
                d.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();if(r.width>0&&r.right>w+1)wide++;});
                var svgs=d.querySelectorAll('svg'),drawn=0;svgs.forEach(function(s){if(s.getBoundingClientRect().height>20)drawn++;});
                document.getElementById('out').textContent='overflowing='+wide+' plots='+svgs.length+' drawn='+drawn;});</script></body></html>
                """
            try harness.write(toFile: out + "/harness-\(width).html", atomically: true, encoding: .utf8)
            let page = try dom(
                "file://\(out)/harness-\(width).html",
                flags: ["--allow-file-access-from-files", "--virtual-time-budget=5000"])
            let said = page.range(of: "<pre id=\"out\">").flatMap { r in
                page.range(of: "</pre>", range: r.upperBound..<page.endIndex).map {
                    String(page[r.upperBound..<$0.lowerBound])
                }
            }
            XCTAssertEqual(said, "overflowing=0 plots=4 drawn=4", "at \(width) px")
            _ = try dom(
                "file://\(out)/trend.html",
                flags: ["--screenshot=\(shots)/trend-\(width).png", "--window-size=\(width),1400", "--hide-scrollbars"])
            print("trend page at \(width) px: \(shots)/trend-\(width).png")
        }
    }
}
