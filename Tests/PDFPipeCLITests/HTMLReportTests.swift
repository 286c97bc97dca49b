import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// The HTML report in a real headless browser (Debian's chromium, which `scripts/setup.sh --test`
/// installs): the page's script runs, the filters work, the thumbnails are there.
final class HTMLReportTests: XCTestCase {
    var out = ""

    override func setUp() { out = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func chromium() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The DOM after the page's script ran (`flags`: more of Chromium's).
    func dom(_ url: String, flags: [String] = []) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try XCTUnwrap(chromium()))
        p.arguments =
            ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(out)/profile"] + flags + [
                "--dump-dom", url,
            ]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testTheReportRendersItsFindingsInABrowser() throws {
        try brokenLinkReportOfTheSamples()
        let page = "file://" + out + "/report.html"
        let all = try dom(page)
        let total =
            (try Repo.stableReport(out + "/report.json"))["documents"]?.arrayValue?.reduce(0) {
                $0 + ($1["findings"]?.arrayValue?.count ?? 0)
            } ?? 0
        XCTAssertTrue(all.contains("Showing \(total) of \(total) findings"), "the script ran and counted")
        XCTAssertTrue(all.contains("named destination 'no.such.name' does not exist"))
        XCTAssertTrue(all.contains("<img src=\"thumbnails/broken-links/1.png\""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/thumbnails/broken-links/1.png"))
        let errors = try dom(page + "#severity=error")
        XCTAssertTrue(errors.contains("Showing 25 of \(total) findings"), "the severity filter")
        XCTAssertTrue(
            errors.contains("the link asks for page 9 of 'links-internal.pdf', which has 4 pages"),
            "external-check findings are shown")
        let one = try dom(page + "#rule=dest.name-not-found")
        XCTAssertTrue(one.contains("Showing 4 of \(total) findings"), "the rule filter")
        XCTAssertTrue(one.contains("bookmark 'Partie 2 — Übersicht / Broken child'"))
    }

    /// 10,000 documents (copies of the samples' link-audit results, in a results file as a run
    /// leaves them): the page stays bounded — an index of the rules and of the documents with
    /// findings, the first 500 of those in full, the rest in report.json — and opens in Chromium.
    func testTenThousandDocumentsGiveABoundedPageThatOpens() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        XCTAssertEqual(
            CapturedCLI().run(["run", "pipelines/link-audit.json", "--out", out + "/a", "--quiet", "--offline"]),
            .findings)
        let samples = try XCTUnwrap(
            JSONParser.parse(String(contentsOfFile: out + "/a/report.json", encoding: .utf8))["documents"]?.arrayValue
        )
        .map { try DocumentResult(json: $0) }
        let store = try ResultStore(directory: out + "/big", count: 10_000, pipelineHash: "test")
        for i in 0..<10_000 {
            var d = samples[i % samples.count]
            d.path = "batch/\(i / 100)/\(i)-\(d.path)"
            d.workingPath = nil
            store.append(d, at: i, input: nil)
        }
        try store.finish()
        var report = RunReport(toolVersion: "1", pipeline: "big", documents: [], generatedAt: "now")
        report.store = store
        let withFindings = samples.count { !$0.findings.isEmpty }
        let html = HTMLReporter().render(report)
        try html.write(toFile: out + "/big/report.html", atomically: true, encoding: .utf8)
        XCTAssertLessThan(html.utf8.count, 6_000_000, "bounded")
        XCTAssertEqual(html.components(separatedBy: "<section class=\"doc\"").count - 1, 500)
        let total =
            10_000 / samples.count * withFindings
            + samples.prefix(10_000 % samples.count).count { !$0.findings.isEmpty }
        XCTAssertTrue(
            html.contains("\(total) with findings, \(10_000 - total) without"), "the index counts every document")
        XCTAssertTrue(html.contains("… and \(total - 5_000) more documents with findings in report.json"))
        XCTAssertTrue(html.contains("The findings of \(total - 500) more documents are in report.json"))
        let dom = try dom("file://" + out + "/big/report.html#rule=dest.name-not-found")
        XCTAssertTrue(dom.contains("Showing "), "the script ran")
        XCTAssertTrue(
            dom.contains(
                "<a href=\"#rule=dest.name-not-found\"><code class=\"rule\">dest.name-not-found</code></a>"))
        // (#32, 10) Each rule of the rules table links to its page.
        XCTAssertTrue(html.contains("href=\"\(RulePages.baseURL)dest.name-not-found.md\""))
        // (#32, 4) The header's counts are the run's; the page says how many of them it shows.
        XCTAssertTrue(
            html.contains("<p class=\"capped\">This page shows "), "the cap is explained at the top")
    }

    /// (#21, 4) A document named `C# guide?.pdf`: its thumbnail's path went into the page as
    /// written, and a browser read `#` as a fragment — a broken image. Paths are percent-encoded.
    func testImagePathsAreURLEncoded() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repo.root + "/samples/broken-links.pdf", toPath: out + "/in/C# guide?.pdf")
        _ = CapturedCLI().run([
            "run", "pipelines/broken-link-report.json", out + "/in", "--out", out + "/out", "--quiet", "--offline",
        ])
        let html = try String(contentsOfFile: out + "/out/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains(#"<img src="thumbnails/C%23%20guide%3F/1.png""#), "encoded")
        XCTAssertFalse(html.contains(#"src="thumbnails/C# guide?"#))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: out + "/out/thumbnails/C# guide?/1.png"),
            "the decoded path is the file")
    }

    /// (#21, 3) Readable on a phone: at 400 px nothing runs off the right edge (it did: the summary
    /// table, the targets and the findings), and a page's findings stack under its thumbnail; at
    /// desktop width the thumbnail stays beside them. Measured in Chromium, the report in a frame
    /// of that width (`--allow-file-access-from-files` lets the harness read the frame's layout).
    func testTheReportFitsA400PixelScreen() throws {
        try brokenLinkReportOfTheSamples()
        func layout(width: Int) throws -> String {
            let harness = """
                <!DOCTYPE html><html><body><iframe id="f" src="report.html" style="width:\(width)px;height:900px;border:0"></iframe><pre id="out">pending</pre>
                <script>document.getElementById('f').addEventListener('load',function(){var d=this.contentDocument,w=d.documentElement.clientWidth,wide=0;
                d.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();if(r.width>0&&r.right>w+1)wide++;});
                var img=d.querySelector('.page img'),t=img.closest('.page').querySelector('.findings');
                var below=t.getBoundingClientRect().top>=img.getBoundingClientRect().bottom-1;
                document.getElementById('out').textContent='overflowing='+wide+' stacked='+below+' img='+img.complete+','+img.naturalWidth;});</script></body></html>
                """
            try harness.write(toFile: out + "/harness-\(width).html", atomically: true, encoding: .utf8)
            // The harness reads the frame's layout: file pages may read each other only with this flag.
            let dom = try dom(
                "file://\(out)/harness-\(width).html",
                flags: ["--allow-file-access-from-files", "--virtual-time-budget=5000"])
            guard let r = dom.range(of: "<pre id=\"out\">"),
                let e = dom.range(of: "</pre>", range: r.upperBound..<dom.endIndex)
            else { return dom }
            return String(dom[r.upperBound..<e.lowerBound])
        }
        let narrow = try layout(width: 400)
        XCTAssertTrue(narrow.hasPrefix("overflowing=0 stacked=true img=true,"), narrow)
        XCTAssertFalse(narrow.hasSuffix(",0"), "the thumbnail loaded: \(narrow)")
        XCTAssertTrue(try layout(width: 1200).hasPrefix("overflowing=0 stacked=false"))
    }

    /// (#61, 4) The report opens on the findings: the worst document's first finding is on the
    /// first screen at 1280×800 and at 390×844 (it was ~2,000 px down, after a 38-row rules table
    /// and a 59-row documents table); the totals, links included, at the top; the tables after the
    /// findings, the rules and documents folded; a rule id on one line.
    func testTheReportOpensOnTheFindings() throws {
        try brokenLinkReportOfTheSamples()
        let script = #"""
            var row=d.querySelector('tr.finding'),doc=row.closest('section.doc'),top=row.getBoundingClientRect().top;
            var lines=0;d.querySelectorAll('tr.finding code.rule').forEach(function(c){if(c.getClientRects().length>1)lines++;});
            done('top='+(top<f.clientHeight)+' doc='+doc.id+' split='+lines);
            """#
        XCTAssertEqual(try measure(width: 1280, height: 800, script), "top=true doc=doc-1 split=0")
        XCTAssertEqual(try measure(width: 390, height: 844, script), "top=true doc=doc-1 split=0")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(
            html.contains(
                "<br>links: 126 in all, 82 ok, <span class=\"error\">23 broken</span>, 0 blocked, 0 unverified, 21 skipped, 0 redirected</p>"
            ), "the totals")
        let first = try XCTUnwrap(html.range(of: "<section class=\"doc\" id=\"doc-1\"")).lowerBound
        for table in [
            "<details class=\"targets fold\"", "<details class=\"rules more\">", "<details class=\"index more\">",
        ] {
            XCTAssertLessThan(first, try XCTUnwrap(html.range(of: table), table).lowerBound, table)
        }
    }

    /// (#32, 4) Regression: at 400 px rule ids broke mid-word ("gotor.fil e-missing") and the
    /// broken-targets table stood ~10,000 px tall before the first document. A rule id breaks only
    /// after its dot or at a hyphen; on a narrow screen the targets tables start folded, on a wide
    /// one open. The document index and the documents in full come worst first.
    func testNarrowScreensAndTheWorstDocumentsFirst() throws {
        try brokenLinkReportOfTheSamples()
        let script = #"""
            var bad=[];d.querySelectorAll('code.rule').forEach(function(c){var w=d.createTreeWalker(c,NodeFilter.SHOW_TEXT),n,prev=null,ch='';
              while((n=w.nextNode())){for(var i=0;i<n.length;i++){var r=d.createRange();r.setStart(n,i);r.setEnd(n,i+1);var t=r.getBoundingClientRect().top;
                if(prev!==null&&t>prev+2&&'.-'.indexOf(ch)<0)bad.push(c.textContent);prev=t;ch=n.data[i];}}});
            var folded=0,open=0;d.querySelectorAll('details.fold').forEach(function(x){if(x.open)open++;else folded++;});
            done('midword='+bad.length+' folded='+folded+' open='+open+(bad.length?' '+bad.slice(0,3).join():''));
            """#
        XCTAssertEqual(try measure(width: 400, script), "midword=0 folded=1 open=0")
        XCTAssertEqual(try measure(width: 1200, script), "midword=0 folded=0 open=1")

        // Worst first: the index by errors, then warnings; the documents in full in that order.
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        let index = try XCTUnwrap(html.components(separatedBy: "<details class=\"index more\">").last)
            .components(separatedBy: "</details>")[0]
        let rows = index.components(separatedBy: "<tr><td class=\"path\">").dropFirst().map { row -> [Int] in
            func count(_ cls: String) -> Int {
                Int(row.components(separatedBy: "<td class=\"\(cls)\">")[1].prefix { $0.isNumber }) ?? -1
            }
            return [count("error"), count("warning")]
        }
        XCTAssertGreaterThan(rows.count, 3)
        XCTAssertEqual(
            rows, rows.sorted { $0.lexicographicallyPrecedes($1) }.reversed(), "errors, then warnings, the most first")
        let firstIndexed = try XCTUnwrap(index.components(separatedBy: "<a href=\"#doc-1\">").dropFirst().first)
            .prefix { $0 != "<" }
        let firstShown = try XCTUnwrap(html.components(separatedBy: "id=\"doc-1\" data-path=\"").dropFirst().first)
        XCTAssertTrue(
            html.components(separatedBy: "<section class=\"doc\" id=\"doc-").dropFirst().first?.contains(
                ">\(firstIndexed)<") ?? false,
            "the first document in full is the first of the index: \(firstShown.prefix(80))")
    }

    /// (#32, 4) Regression: on dense pages the numbers of the links covered each other. Thirty
    /// broken links 8 pt apart: on the thumbnail (and enlarged) no two numbers overlap, and every
    /// number is there.
    func testTheNumbersOfDenseLinksDoNotOverlap() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [\((0..<30).map { "\($0 + 4) 0 R" }.joined(separator: " "))] >>"
        )
        for i in 0..<30 {
            objects.append(
                "<< /Type /Annot /Subtype /Link /Rect [72 \(700 - i * 8) 300 \(706 - i * 8)] /Dest (gone\(i)) >>")
        }
        let input = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: input) }
        try TestPDF.write(input + "/dense.pdf", objects: objects)
        try
            #"{"stages": [{"use": "validate-links"}, {"use": "thumbnails", "with": {"width": 400, "overlay": "links"}}], "report": {"formats": ["json", "html"]}}"#
            .write(toFile: out + "/dense.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            CapturedCLI().run(["run", out + "/dense.json", input + "/dense.pdf", "--out", out, "--quiet"]), .findings)
        let script = #"""
            var fig=d.querySelector('.shot');var count=function(){var r=Array.prototype.map.call(fig.querySelectorAll('.mark b'),function(b){return b.getBoundingClientRect();}),n=0;
              for(var i=0;i<r.length;i++)for(var j=i+1;j<r.length;j++)if(r[i].left<r[j].right&&r[i].right>r[j].left&&r[i].top<r[j].bottom&&r[i].bottom>r[j].top)n++;return r.length+' '+n;};
            var small=count();fig.click();var big=count();done('small='+small+' big='+big);
            """#
        XCTAssertEqual(try measure(script), "small=30 0 big=30 0")
    }

    /// The report's layout measured by a harness page: `script` runs with `d` (the report's
    /// document in a frame of `width`) and returns a string, which this returns.
    /// The broken-link report of the samples in `out`, for a browser to read (Chromium needed).
    func brokenLinkReportOfTheSamples() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        XCTAssertEqual(
            CapturedCLI().run(["run", "pipelines/broken-link-report.json", "--out", out, "--quiet", "--offline"]),
            .findings)
    }

    func measure(width: Int = 1200, height: Int = 900, _ script: String) throws -> String {
        let harness = """
            <!DOCTYPE html><html><body><iframe id="f" src="report.html" style="width:\(width)px;height:\(height)px;border:0"></iframe><pre id="out">pending</pre>
            <script>document.getElementById('f').addEventListener('load',function(){var d=this.contentDocument,f=this;
            var done=function(t){document.getElementById('out').textContent=t;};
            var imgs=d.querySelectorAll('.shot img'),n=imgs.length;imgs.forEach(function(i){i.loading='eager';});
            var go=function(){try{\(script)}catch(e){done('exception: '+e);}};
            var wait=function(){var all=true;imgs.forEach(function(i){if(!i.complete)all=false;});if(all)go();else setTimeout(wait,20);};wait();});</script></body></html>
            """
        try harness.write(toFile: out + "/harness.html", atomically: true, encoding: .utf8)
        let dom = try dom(
            "file://\(out)/harness.html", flags: ["--allow-file-access-from-files", "--virtual-time-budget=8000"])
        guard let r = dom.range(of: "<pre id=\"out\">"),
            let e = dom.range(of: "</pre>", range: r.upperBound..<dom.endIndex)
        else { return dom }
        return String(dom[r.upperBound..<e.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// (#21, 5) The boxes on a page's thumbnail are numbered, each number sits on the rectangle
    /// the thumbnails stage drew for that link (read back from the image's pixels in Chromium), the
    /// rows carry the same numbers, a click enlarges the page, and each row shows the link's text,
    /// its target and links to the page of the document and of its review copy.
    func testNumberedBoxesMatchTheRowsAndTheDrawnRectangles() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        let pipeline = """
            {"version": 1, "name": "boxes", "stages": [{"use": "resolve-destinations"}, {"use": "validate-links"},
              {"use": "thumbnails", "with": {"width": 400, "overlay": "links"}},
              {"use": "review-copy", "with": {"minimumSeverity": "note", "summaryPage": true}}],
             "report": {"formats": ["json", "html"]}}
            """
        try pipeline.write(toFile: out + "/boxes.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            CapturedCLI().run([
                "run", out + "/boxes.json", "samples/broken-links.pdf", "--out", out, "--quiet", "--offline",
            ]), .findings)
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        XCTAssertTrue(
            html.contains("link text <q>undefined name</q> → <span class=\"target\">#no.such.name</span>"),
            "text under the link, and its target")
        // The page links resolve, from the report's folder, to the document and the review copy.
        let base = URL(fileURLWithPath: out + "/report.html")
        let hrefs = html.components(separatedBy: "class=\"open\" href=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        let page1 = try XCTUnwrap(hrefs.first { $0.hasSuffix("broken-links.pdf#page=1") })
        XCTAssertEqual(
            URL(string: page1, relativeTo: base)?.standardizedFileURL.path, Repo.root + "/samples/broken-links.pdf")
        let review = try XCTUnwrap(
            hrefs.first { $0.contains("review") && $0.hasSuffix("#page=2") },
            "page 1 is page 2 of the review copy (a summary page in front): \(hrefs)")
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: try XCTUnwrap(URL(string: review, relativeTo: base)?.standardizedFileURL.path)))

        // In the browser: every numbered box lies on a rectangle of the box's colour in the image
        // (red for errors and warnings, yellow for notes), the numbers match the rows one to one.
        let result = try measure(
            #"""
            var fig=d.querySelector('.shot'),img=fig.querySelector('img'),c=document.createElement('canvas');
            c.width=img.naturalWidth;c.height=img.naturalHeight;var g=c.getContext('2d');g.drawImage(img,0,0);
            var px=g.getImageData(0,0,c.width,c.height).data,on=0,miss=[],marks=fig.querySelectorAll('.mark');
            marks.forEach(function(m){var x=parseFloat(m.style.left)/100*c.width,y=parseFloat(m.style.top)/100*c.height,h=parseFloat(m.style.height)/100*c.height;
              var red=m.classList.contains('error')||m.classList.contains('warning'),hit=false;
              for(var dx=-2;dx<=2;dx++)for(var dy=-2;dy<=2;dy++){var i=(Math.round(y+h/2+dy)*c.width+Math.round(x+dx))*4;
                if(px[i]>180&&px[i+2]<px[i]-90&&(red?px[i+1]<px[i]-90:px[i+1]>120))hit=true;}if(hit)on++;else miss.push(m.textContent);});
            var rows=[];fig.parentNode.querySelectorAll('tr.finding .n').forEach(function(n){rows.push(n.textContent);});
            var nums=[];marks.forEach(function(m){nums.push(m.textContent);});
            var before=img.getBoundingClientRect().width;fig.click();var after=img.getBoundingClientRect().width;
            done('marks='+marks.length+' on='+on+' same='+(Array.from(new Set(rows)).join()==nums.join())+' bigger='+(after>2*before)+(miss.length?' missed '+miss.join():''));
            """#)
        // Box 15 is the link outside the page (link.off-page): nothing drawn there; its number sits
        // at the image's edge.
        XCTAssertEqual(result, "marks=15 on=14 same=true bigger=true missed 15")
        XCTAssertTrue(
            html.contains(#"<b class="n">15</b> warning</td><td><code class="rule">link.off-page</code> "#))
    }

    /// (#21, 6) The filters' counts follow the other filters; the document filter narrows the
    /// findings to documents whose path contains the text.
    func testFilterCountsFollowTheOtherFilters() throws {
        guard chromium() != nil else {
            throw Prerequisite.missing("chromium is not installed (scripts/setup.sh --test installs it)")
        }
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--out", out, "--quiet", "--offline", "--format", "json,html",
            ]), .findings)
        let report = try Repo.stableReport(out + "/report.json")
        var count: [String: Int] = [:]
        for d in report["documents"]?.arrayValue ?? [] where (d["path"]?.stringValue ?? "").contains("gotor") {
            for f in d["findings"]?.arrayValue ?? [] { count[f["severity"]?.stringValue ?? "", default: 0] += 1 }
        }
        let script = """
            var t=[];d.querySelectorAll('.c').forEach(function(c){t.push(c.dataset.c+c.textContent);});
            var o=Array.from(d.getElementById('rule').options).filter(function(o){return o.value==='gotor.file-missing';})[0];
            done(t.join(' ')+' | '+o.textContent+' | '+d.getElementById('shown').textContent);
            """
        try FileManager.default.copyItem(atPath: out + "/report.html", toPath: out + "/all.html")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        // The same page with the document filter preset, as `report.html#doc=gotor` would.
        try html.replacingOccurrences(of: "location.hash.slice(1)", with: "'doc=gotor'").write(
            toFile: out + "/report.html", atomically: true, encoding: .utf8)
        let gotor = try measure(script)
        let (e, w, n) = (count["error", default: 0], count["warning", default: 0], count["note", default: 0])
        XCTAssertTrue(gotor.hasPrefix("error(\(e)) warning(\(w)) note(\(n)) | gotor.file-missing ("), gotor)
        XCTAssertTrue(
            gotor.hasSuffix(
                "Showing \(e + w + n) of \(try XCTUnwrap(html.components(separatedBy: "<tr class=\"finding").count - 1)) findings in 1 document"
            ), gotor)
        try html.replacingOccurrences(of: "location.hash.slice(1)", with: "'rule=gotor.file-missing'").write(
            toFile: out + "/report.html", atomically: true, encoding: .utf8)
        let rule = try measure(script)
        let missing = (report["documents"]?.arrayValue ?? []).flatMap { $0["findings"]?.arrayValue ?? [] }.filter {
            $0["rule"] == "gotor.file-missing"
        }
        let sev = try XCTUnwrap(missing.first?["severity"]?.stringValue)
        XCTAssertTrue(rule.contains("\(sev)(\(missing.count))"), "the severity counts follow the rule filter: \(rule)")
        XCTAssertTrue(rule.contains(" | gotor.file-missing (\(missing.count)) | Showing \(missing.count) of "), rule)
    }
}
