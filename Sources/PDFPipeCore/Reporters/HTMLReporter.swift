/// `report.html`: one self-contained page (inline CSS and JavaScript, thumbnails linked next to it)
/// for people that opens on the findings: the totals, then every document's findings (the worst
/// first; the tables that sum them up after them) grouped by page beside the page's
/// thumbnail (with the broken link outlined when the thumbnails stage drew link overlays), and
/// filters by severity and rule. Works from the file system, without a server. The filters can be
/// preset in the address: `report.html#severity=error&rule=dest.name-not-found`.
public struct HTMLReporter: Reporter {
    public init() {}
    public var format: String { "html" }
    public var fileName: String { "report.html" }

    /// The page's header: title, summary, baseline and the filter form.
    func header(_ report: RunReport, rules: Set<String>) -> String {
        let s = report.summary
        var body = ""
        body +=
            "<header><h1>pdfpipe: \(h(report.pipeline))</h1><p class=\"meta\">pdfpipe \(h(report.toolVersion)) · \(h(report.generatedAt))</p>\n"
        if report.incomplete {
            body += "<p class=\"incomplete\"><strong>Incomplete:</strong> \(h(RunReport.incompleteNote))</p>\n"
        }
        body += totals(s)
        if s.suppressed > 0 {
            body +=
                "<p class=\"meta\">\(s.suppressed) finding\(s.suppressed == 1 ? "" : "s") suppressed by the pipeline's <code>ignore</code> list (shown under each document)</p>\n"
        }
        if let b = report.baseline {
            body +=
                "<p class=\"baseline\"><strong>Baseline</strong> <code>\(h(b.file))</code>: \(s.new) new, \(s.unchanged) unchanged (marked <span class=\"badge\">baseline</span>), \(s.fixed) fixed"
            if b.ratchet && s.fixed > 0 { body += " — <strong>update the baseline</strong> (ratchet)" }
            if let removed = report.removedText {
                body += ". " + h(removed.prefix(1).uppercased() + removed.dropFirst())
            }
            body += "</p>\n"
        }
        body += "<form id=\"filters\">"
        for sev in Severity.mostSevereFirst.map(\.rawValue) {
            body +=
                "<label class=\"\(sev)\"><input type=\"checkbox\" name=\"severity\" value=\"\(sev)\" checked> \(sev) <span class=\"c\" data-c=\"\(sev)\"></span></label> "
        }
        body += "<select id=\"rule\"><option value=\"\">all rules</option>"
        for r in rules.sorted() { body += "<option value=\"\(h(r))\">\(h(r))</option>" }
        body +=
            "</select> <input id=\"doc\" type=\"search\" placeholder=\"document contains…\" size=\"18\"> <span id=\"shown\"></span></form></header>\n<main>\n"
        return body
    }

    /// The run's totals in a line or two at the top: findings, documents and pages, and the links'
    /// verdicts (`summary.links`, as the console's last line and report.md say them).
    func totals(_ s: Summary) -> String {
        func n(_ count: Int, _ one: String, _ many: String? = nil) -> String {
            "\(count) \(count == 1 ? one : many ?? one + "s")"
        }
        var out =
            "<p class=\"totals\"><span class=\"error\">\(n(s.errors, "error"))</span>, <span class=\"warning\">\(n(s.warnings, "warning"))</span>, <span class=\"note\">\(n(s.notes, "note"))</span> · \(n(s.documents, "document"))\(s.failedDocuments > 0 ? " (\(s.failedDocuments) failed)" : ""), \(n(s.pages, "page"))"
        if let l = s.links {
            out +=
                "<br>links: \(l.total) in all, \(l.ok) ok, <span class=\"error\">\(l.broken) broken</span>, \(l.blocked) blocked, \(l.unverified) unverified, \(l.skipped) skipped, \(l.redirected) redirected"
        }
        return out + "</p>\n"
    }

    /// Each broken target once, with the documents that link to it.
    func targetsSection(_ targets: [BrokenTarget], title: String) -> String {
        guard !targets.isEmpty else { return "" }
        // A <details> the page's script folds on a narrow screen: a long table would stand before
        // the first document.
        var body =
            "<details class=\"targets fold\" open><summary><h2>\(title) <span class=\"count\">\(targets.count), each with the documents that link to it</span></h2></summary><table>"
        body += "<tr><th>target</th><th>rule</th><th>links</th><th>used in</th></tr>"
        let rows = Abridged(targets, limit: 500)
        for t in rows.shown {
            body +=
                "<tr class=\"\(t.severity.rawValue)\"><td class=\"target\">\(h(t.target))</td><td>\(ruleID(t.rule))</td><td>\(t.count)</td><td>\(h(t.usesText(limit: 20)))</td></tr>"
        }
        return body + "</table>" + rows.tail { "<p>… and \($0) more in report.json</p>" } + "</details>\n"
    }

    /// With a baseline, the findings it does not have, first thing on the page (at most
    /// `rowsPerDocument` rows): what a reviewer of a change looks for.
    func newFindingsSection(_ report: RunReport) -> String {
        guard report.baseline != nil else { return "" }
        var rows = ""
        var count = 0
        for d in report.results {
            for f in d.findings where f.baseline == .new {
                count += 1
                guard count <= Self.rowsPerDocument else { continue }
                rows +=
                    "<tr class=\"\(f.severity.rawValue)\"><td class=\"path\">\(h(d.displayPath))</td><td>\(h(MarkdownReporter.place(f)))</td><td class=\"sev\">\(f.severity.rawValue)</td><td>\(ruleID(f.rule))</td><td>\(h(f.message))</td></tr>"
            }
        }
        guard count > 0 else {
            return
                "<section class=\"new\"><h2>New since the baseline <span class=\"count\">none</span></h2></section>\n"
        }
        return
            "<section class=\"new\"><h2>New since the baseline <span class=\"count\">\(count)</span></h2><table><tr><th>document</th><th>page</th><th>severity</th><th>rule</th><th>message</th></tr>\(rows)</table>"
            + (count > Self.rowsPerDocument ? "<p>… and \(count - Self.rowsPerDocument) more in report.json</p>" : "")
            + "</section>\n"
    }

    /// Findings and documents per rule, the worst first.
    func rulesSection(_ perRule: [String: (severity: Severity, findings: Int, documents: Int)]) -> String {
        var body = ""
        body +=
            "<details class=\"rules more\"><summary><h2>Rules <span class=\"count\">\(perRule.count)</span></h2></summary><table><tr><th>rule</th><th>severity</th><th>findings</th><th>documents</th></tr>"
        for (rule, r) in perRule.sorted(by: {
            ($0.value.severity, $0.value.findings, $1.key) > ($1.value.severity, $1.value.findings, $0.key)
        }) {
            body +=
                "<tr class=\"\(r.severity.rawValue)\"><td><a href=\"#rule=\(h(rule))\">\(ruleID(rule))</a> <a class=\"about\" href=\"\(h(RulePages.baseURL + rule + ".md"))\" title=\"what it means and how to fix it\">?</a></td><td>\(r.severity.rawValue)</td><td>\(r.findings)</td><td>\(r.documents)</td></tr>"
        }
        body += "</table></details>\n"
        return body
    }

    /// One document in full: its findings by page beside the page's thumbnail, then the suppressed.
    func documentSection(_ d: DocumentResult, number shown: Int, report: RunReport) -> String {
        var body = ""
        let thumbs = Dictionary(
            d.artifacts.filter { $0.kind == "thumbnail" }.compactMap { a in a.page.map { ($0, a.path) } },
            uniquingKeysWith: { a, _ in a })
        let links = DocumentLinks(d, locations: report.locations)
        body += "<section class=\"doc\" id=\"doc-\(shown)\" data-path=\"\(h(d.path))\"><h2>"
        body += links.document.map { "<a href=\"\(h($0))\">\(h(d.displayPath))</a>" } ?? h(d.displayPath)
        body += d.status == .failed ? " <span class=\"badge error\">failed</span>" : ""
        body +=
            " <span class=\"count\">\(d.findings.count) finding\(d.findings.count == 1 ? "" : "s")</span></h2>\n"
        if let skipped = d.section(SkippedStagesSection.self)?.stages, !skipped.isEmpty {
            body += "<p class=\"skipped\">skipped stages: \(h(skipped.joined(separator: ", ")))</p>\n"
        }
        var byPage: [Int: [Finding]] = [:]
        var general: [Finding] = []
        for f in d.findings.prefix(Self.rowsPerDocument) {
            if let p = f.page { byPage[p, default: []].append(f) } else { general.append(f) }
        }
        if !general.isEmpty {
            body += group(title: "document", findings: general, page: nil, thumbnail: nil, links: links)
        }
        for p in byPage.keys.sorted() {
            body += group(
                title: "page \(byPage[p]!.first?.pageText ?? "\(p)")", findings: byPage[p]!, page: p,
                thumbnail: thumbs[p], links: links)
        }
        if d.findings.count > Self.rowsPerDocument {
            body +=
                "<p class=\"more\">… and \(d.findings.count - Self.rowsPerDocument) more findings in report.json</p>\n"
        }
        if !d.suppressed.isEmpty {
            body += "<details class=\"suppressed\"><summary>\(d.suppressed.count) suppressed</summary><ul>"
            for f in d.suppressed {
                let by = f.details["suppressedBy"]
                body +=
                    "<li>\(f.page.map { "page \($0): " } ?? "")\(ruleID(f.rule)) \(h(f.message)) — <em>\(h(by?["reason"]?.stringValue ?? ""))</em> (\(h(by?["ignore"]?.stringValue ?? "")))</li>"
            }
            body += "</ul></details>\n"
        }
        body += "</section>\n"
        return body
    }

    public func render(_ report: RunReport) -> String {
        let s = report.summary
        let (perRule, withFindings, totalFindings, order) = Self.tally(report)
        // Document position → its number on the page (#doc-N), for the ones shown in full.
        var rank: [Int: Int] = [:]
        for (i, r) in order.prefix(Self.expanded).enumerated() { rank[r.position] = i + 1 }
        let onPage = order.prefix(Self.expanded).reduce(0) {
            $0 + min($1.errors + $1.warnings + $1.notes, Self.rowsPerDocument)
        }
        let rules = Set(perRule.keys)
        var body = header(report, rules: rules)
        if onPage < totalFindings {
            // The page is bounded; the counts above are the run's. Said before anything is counted
            // again below (the filters count the rows on this page).
            body +=
                "<p class=\"capped\">This page shows \(onPage) of the \(totalFindings) findings: the \(Self.expanded) documents with the most errors in full, at most \(Self.rowsPerDocument) findings each. Every finding is in report.json.</p>\n"
        }
        if !report.findings.isEmpty {
            body +=
                "<section class=\"doc\"><h2>pipeline \(h(report.findings.first?.details["file"]?.stringValue ?? ""))</h2>\n"
            body += group(title: "ignore list", findings: report.findings, page: nil, thumbnail: nil) + "</section>\n"
        }
        // The findings first, the worst document's at the top of the first screen; the tables that
        // sum them up after them (the rules and the documents folded).
        let (fresh, rest) = BrokenTarget.split(report)
        body += newFindingsSection(report)
        body += documentSections(report, rank: rank)
        body += targetsSection(fresh, title: "New broken targets")
        body += targetsSection(
            rest, title: report.baseline == nil ? "Broken targets" : "Broken targets already in the baseline")
        if !perRule.isEmpty { body += rulesSection(perRule) }
        body += indexSection(order, rank: rank, withFindings: withFindings, documents: s.documents) + "</main>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>pdfpipe: \(h(report.pipeline))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>\(Self.css)</style></head>
            <body>
            \(body)<script>\(Self.script)</script>
            </body></html>

            """
    }

    /// The documents in full, in rank order (rendered as they are read, placed by rank), and how
    /// many more have findings.
    func documentSections(_ report: RunReport, rank: [Int: Int]) -> String {
        var sections: [Int: String] = [:]
        var position = 0
        for d in report.results where !d.findings.isEmpty || !d.suppressed.isEmpty {
            position += 1
            guard let n = rank[position] else { continue }
            sections[n] = documentSection(d, number: n, report: report)
        }
        var body = ""
        for n in sections.keys.sorted() { body += sections[n]! }
        let shown = sections.count
        if position > shown {
            body +=
                "<p class=\"more\">The findings of \(position - shown) more documents are in report.json (this page shows the \(Self.expanded) with the most errors in full).</p>\n"
        }
        return body
    }

    /// One pass over the documents for the index: findings per rule, how many documents have
    /// findings and how many findings there are, and the documents the page shows, the worst
    /// first (errors, then warnings, then notes, then report order). The page stays bounded
    /// whatever the batch: at most `indexRows` rows are kept while reading, `expanded` documents
    /// are shown in full with at most `rowsPerDocument` findings each; the rest is in report.json.
    static func tally(_ report: RunReport) -> (
        perRule: [String: (severity: Severity, findings: Int, documents: Int)], withFindings: Int,
        totalFindings: Int, order: [RankedDocument]
    ) {
        var perRule: [String: (severity: Severity, findings: Int, documents: Int)] = [:]
        var withFindings = 0
        var totalFindings = 0
        // The documents the page shows, the worst first (errors, then warnings, then notes, then
        // report order); at most `indexRows` are kept while reading, so memory stays bounded.
        var ranked = RankedDocuments(limit: indexRows)
        var position = 0
        for d in report.results where !d.findings.isEmpty || !d.suppressed.isEmpty {
            position += 1
            var seen = Set<String>()
            for f in d.findings {
                var r = perRule[f.rule] ?? (f.severity, 0, 0)
                r.findings += 1
                if seen.insert(f.rule).inserted { r.documents += 1 }
                if f.severity > r.severity { r.severity = f.severity }
                perRule[f.rule] = r
            }
            if !d.findings.isEmpty { withFindings += 1 }
            totalFindings += d.findings.count
            let e = d.findings.count { $0.severity == .error }
            let w = d.findings.count { $0.severity == .warning }
            ranked.add(
                .init(
                    position: position, path: d.displayPath, failed: d.status == .failed, errors: e, warnings: w,
                    notes: d.findings.count - e - w))
        }
        return (perRule, withFindings, totalFindings, ranked.sorted)
    }

    /// The index of the documents with findings (linked to their sections when shown in full), and
    /// how many have none.
    func indexSection(_ order: [RankedDocument], rank: [Int: Int], withFindings: Int, documents: Int) -> String {
        var index = ""
        var indexRows = 0
        for r in order where r.errors + r.warnings + r.notes > 0 {
            indexRows += 1
            let name = rank[r.position].map { "<a href=\"#doc-\($0)\">\(h(r.path))</a>" } ?? h(r.path)
            index +=
                "<tr><td class=\"path\">\(name)\(r.failed ? " <span class=\"badge error\">failed</span>" : "")</td>"
            index +=
                "<td class=\"error\">\(r.errors)</td><td class=\"warning\">\(r.warnings)</td><td class=\"note\">\(r.notes)</td></tr>"
        }
        let clean = documents - withFindings
        var body = ""
        body +=
            "<details class=\"index more\"><summary><h2>Documents <span class=\"count\">\(withFindings) with findings, \(clean) without</span></h2></summary>"
        if withFindings > 0 {
            body += "<table><tr><th>document</th><th>errors</th><th>warnings</th><th>notes</th></tr>\(index)</table>"
            if withFindings > indexRows {
                body += "<p>… and \(withFindings - indexRows) more documents with findings in report.json</p>"
            }
        }
        if clean > 0 {
            body +=
                "<p class=\"clean\">\(clean) document\(clean == 1 ? "" : "s") without findings (listed in report.json)</p>"
        }
        body += "</details>\n"
        return body
    }

    /// A document of the index: where it is in the report, and its counts.
    struct RankedDocument {
        var position: Int
        var path: String
        var failed: Bool
        var errors: Int
        var warnings: Int
        var notes: Int

        /// Worse first: more errors, then warnings, then notes; then report order.
        static func worse(_ a: Self, _ b: Self) -> Bool {
            if a.errors != b.errors { return a.errors > b.errors }
            if a.warnings != b.warnings { return a.warnings > b.warnings }
            if a.notes != b.notes { return a.notes > b.notes }
            return a.position < b.position
        }
    }

    /// The `limit` worst documents of a batch of any size: kept in a buffer of at most twice the
    /// limit, cut back to the limit when full.
    struct RankedDocuments {
        let limit: Int
        var buffer: [RankedDocument] = []
        init(limit: Int) { self.limit = limit }
        mutating func add(_ d: RankedDocument) {
            buffer.append(d)
            if buffer.count >= 2 * limit {
                buffer.sort(by: RankedDocument.worse)
                buffer.removeLast(buffer.count - limit)
            }
        }
        var sorted: [RankedDocument] { Array(buffer.sorted(by: RankedDocument.worse).prefix(limit)) }
    }

    /// Documents shown in full, rows of the document index, findings shown per document.
    static let expanded = 500
    static let indexRows = 5_000
    static let rowsPerDocument = 200

    /// Where a document's rows link to: the document and its review copy (relative to the report,
    /// when the report knows where it and the documents are), and where each link with findings
    /// lies on its thumbnail (the thumbnails stage's `labels`).
    struct DocumentLinks {
        var document: String?
        var reviewCopy: String?
        var reviewOffset = 0
        /// page → annotation index → box (fractions of the image: x, y, width, height).
        var boxes: [Int: [Int: [Double]]] = [:]

        static let none = DocumentLinks()
        private init() {}

        init(_ d: DocumentResult, locations: RunReport.Locations?) {
            if let l = locations {
                document = Escape.uriPath(
                    Paths.link(from: l.report, to: Paths.absolute(d.displayPath, relativeTo: l.working)))
            }
            if let copy = d.artifacts.first(where: { $0.kind == "review-copy" }) {
                reviewCopy = Escape.uriPath(copy.path)
                reviewOffset = d.section(ReviewCopySection.self)?.summaryPages ?? 0
            }
            for l in d.section(ThumbnailsSection.self)?.labels ?? [] {
                boxes[l.page, default: [:]][l.annotationIndex] = l.box
            }
        }
    }

    /// One page's (or the document's) findings, beside the page's thumbnail. Links with findings
    /// get a number on the thumbnail, and their rows the same number.
    func group(
        title: String, findings: [Finding], page: Int?, thumbnail: String?, links: DocumentLinks = DocumentLinks.none
    ) -> String {
        var out = "<div class=\"page\">"
        // Numbers in row order, one per link (a link with two findings has one number).
        var numbers: [Int: Int] = [:]
        var marks: [(n: Int, box: [Double], severity: Severity)] = []
        let boxes = page.flatMap { links.boxes[$0] } ?? [:]
        if thumbnail != nil {
            for f in findings {
                guard let k = f.annotationIndex, let b = boxes[k] else { continue }
                if let n = numbers[k] {
                    if f.severity > marks[n - 1].severity { marks[n - 1].severity = f.severity }
                } else {
                    numbers[k] = marks.count + 1
                    marks.append((marks.count + 1, b, f.severity))
                }
            }
        }
        if let thumbnail {
            let url = h(Escape.uriPath(thumbnail))
            out +=
                "<figure class=\"shot\" title=\"click to enlarge\"><img src=\"\(url)\" alt=\"\(h(title))\" loading=\"lazy\">"
            for m in marks {
                // Within the image: a link off the page gets its number at the nearest edge.
                func unit(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
                let x = unit(m.box[0])
                let y = unit(m.box[1])
                let w = unit(m.box[0] + m.box[2]) - x
                let hh = unit(m.box[1] + m.box[3]) - y
                func pc(_ v: Double) -> String { JSONWriter.format((max(v, 0) * 10_000).rounded() / 100) + "%" }
                out +=
                    "<span class=\"mark \(m.severity.rawValue)\" style=\"left:\(pc(x));top:\(pc(y));width:\(pc(w));height:\(pc(hh))\"><b>\(m.n)</b></span>"
            }
            out += "</figure>"
        }
        out += "<div class=\"findings\"><h3>\(h(title))"
        if let doc = links.document {
            out += " <a class=\"open\" href=\"\(h(doc))\(page.map { "#page=\($0)" } ?? "")\">open</a>"
        }
        if let copy = links.reviewCopy {
            out +=
                " <a class=\"open\" href=\"\(h(copy))#page=\((page ?? 1) + (page == nil ? 0 : links.reviewOffset))\">review copy</a>"
        }
        out += "</h3><table>"
        for f in findings {
            out +=
                "<tr class=\"finding \(f.severity.rawValue)\" data-severity=\"\(f.severity.rawValue)\" data-rule=\"\(h(f.rule))\">"
            let n = f.annotationIndex.flatMap { numbers[$0] }
            out +=
                "<td class=\"sev\">\(n.map { "<b class=\"n\">\($0)</b> " } ?? "")\(f.severity.rawValue)</td><td>\(ruleID(f.rule)) \(h(f.message))"
            if f.baseline == .unchanged { out += " <span class=\"badge\">baseline</span>" }
            let text = f.details["linkText"]?.stringValue
            let target = f.details["target"]?.stringValue
            if text != nil || target != nil {
                out += "<div class=\"link\">"
                if let text { out += "link text <q>\(h(text))</q>" }
                if let target { out += "\(text == nil ? "" : " ")→ <span class=\"target\">\(h(target))</span>" }
                out += "</div>"
            }
            if let hint = f.hint { out += "<div class=\"hint\">fix: \(h(hint))</div>" }
            if let fix = f.suggestedFix {
                out +=
                    "<div class=\"hint\">replace with <span class=\"target\">\(h(fix.to))</span>\(fix.why.isEmpty ? "" : " (\(h(fix.why)))")</div>"
            }
            out += "</td></tr>"
        }
        return out + "</table></div></div>\n"
    }

    /// Text into HTML: made safe as every people-facing text is (`ConsoleText.escape`), then escaped.
    func h(_ s: String) -> String { Escape.xml(ConsoleText.escape(s)) }

    /// A rule id that a narrow column breaks after its dot or at its hyphens, never inside a word
    /// ("gotor.fil e-missing" at 400 px).
    /// A rule id, never broken over lines (it is one word to search for).
    func ruleID(_ rule: String) -> String { "<code class=\"rule\">" + h(rule) + "</code>" }

    static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}header{padding:12px 20px;background:#f4f4f6;border-bottom:1px solid #ddd;position:sticky;top:0;z-index:2}
        h1{font-size:20px;margin:0}.incomplete{background:#fff3cd;border:2px solid #e0b000;padding:8px 12px;margin:6px 0;font-size:15px}.meta{color:#666;margin:2px 0 8px}table.summary td,table.summary th{padding:2px 10px;text-align:right}
        main{padding:10px 20px}.doc{border-bottom:1px solid #eee;padding:8px 0}.doc h2{font-size:16px}.count{color:#888;font-weight:normal;font-size:13px}
        .page{display:flex;gap:14px;margin:8px 0}.findings{flex:1;min-width:0}
        .shot{position:relative;margin:0;flex:none;width:160px;align-self:flex-start;cursor:zoom-in}.shot img{width:100%;display:block;border:1px solid #ccc}
        .page.big{flex-direction:column}.page.big .shot{width:min(100%,760px);cursor:zoom-out}
        .mark{position:absolute;box-sizing:border-box;pointer-events:none}.mark b{position:absolute;right:100%;top:50%;transform:translateY(-50%);margin-right:1px}
        .mark b,.n{font:bold 9px/11px system-ui,sans-serif;color:#fff;background:#c00;border-radius:5px;padding:0 3px}.page.big .mark b{font-size:12px;line-height:15px}
        .mark.warning b,.warning .n{background:#b60}.mark.note b,.note .n{background:#15c}.n{display:inline-block;margin-right:3px}
        .link{font-size:13px;color:#333;overflow-wrap:anywhere}.link q{font-style:italic}.open{font-size:12px;font-weight:normal;margin-left:6px}.findings h3{font-size:13px;margin:0 0 4px;color:#555}
        .findings table{border-collapse:collapse;width:100%}.findings td{border-top:1px solid #eee;padding:3px 6px;vertical-align:top}
        .sev{font-weight:bold;width:5em}.error .sev,.error{color:#c00}.warning .sev,.warning{color:#b60}.note .sev,.note{color:#15c}
        .hint{color:#555;font-size:12px}.badge{font-size:12px;border:1px solid;border-radius:3px;padding:0 4px}.skipped{color:#888}
        .targets table,.new table{border-collapse:collapse}.targets td,.targets th,.new td,.new th{border-top:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}.target{word-break:break-all}
        .about{font-size:11px;color:#888;text-decoration:none}.fold summary{cursor:pointer}.fold summary h2{display:inline}code.rule{white-space:nowrap}td.sev{white-space:nowrap;width:6em;vertical-align:top}.findings table{width:100%;table-layout:fixed}.totals{margin:4px 0;font-size:15px}.totals .error{font-weight:600}.more summary{cursor:pointer}.more summary h2{display:inline;font-size:16px}.capped{background:#eef3fb;border:1px solid #c9d6ec;padding:6px 10px;margin:6px 0}
        .suppressed{color:#666;font-size:13px}.baseline{margin:4px 0}.rules table,.index table{border-collapse:collapse}.rules td,.rules th,.index td,.index th{border-top:1px solid #eee;padding:2px 8px;text-align:left}
        .index td.error,.index td.warning,.index td.note{text-align:right}.clean,.more{color:#666}.path{word-break:break-all}
        td{overflow-wrap:anywhere}
        @media (max-width:600px){header{position:static;padding:8px 10px}main{padding:6px 10px}
        table.summary th,table.summary td{padding:2px 3px;font-size:12px}#filters select{max-width:100%}
        .page{flex-direction:column;gap:6px}.shot{width:100%;max-width:360px}
        .targets table,.rules table,.index table,.findings table{width:100%;table-layout:fixed}.sev{width:4.5em}}
        """

    static let script = """
        (function(){
          var boxes=document.querySelectorAll('input[name=severity]'),rule=document.getElementById('rule'),doc=document.getElementById('doc');
          var rows=Array.prototype.slice.call(document.querySelectorAll('tr.finding'));
          rows.forEach(function(r){var d=r.closest('.doc');r.dataset.doc=d&&d.dataset.path?d.dataset.path.toLowerCase():'';});
          var names={};Array.prototype.forEach.call(rule.options,function(o){names[o.value]=o.textContent;});
          function read(){var p=new URLSearchParams(location.hash.slice(1));
            if(p.get('severity')!==null){var keep=p.get('severity').split(',');boxes.forEach(function(b){b.checked=keep.indexOf(b.value)>=0;});}
            if(p.get('rule')!==null){rule.value=p.get('rule');}if(p.get('doc')!==null){doc.value=p.get('doc');}}
          function apply(){
            var on={};boxes.forEach(function(b){on[b.value]=b.checked;});
            var q=doc.value.toLowerCase(),shown=0,docs=0,bySev={error:0,warning:0,note:0},byRule={};
            rows.forEach(function(r){var inDoc=!q||r.dataset.doc.indexOf(q)>=0,sev=on[r.dataset.severity],ru=!rule.value||r.dataset.rule===rule.value;
              // Each filter's counts follow the other filters.
              if(inDoc&&ru)bySev[r.dataset.severity]++;if(inDoc&&sev)byRule[r.dataset.rule]=(byRule[r.dataset.rule]||0)+1;
              var v=inDoc&&sev&&ru;r.style.display=v?'':'none';if(v)shown++;});
            document.querySelectorAll('.c').forEach(function(c){c.textContent='('+bySev[c.dataset.c]+')';});
            Array.prototype.forEach.call(rule.options,function(o){o.textContent=o.value?names[o.value]+' ('+(byRule[o.value]||0)+')':names[o.value];});
            document.querySelectorAll('.page').forEach(function(p){p.style.display=p.querySelector('tr.finding:not([style*="none"])')?'':'none';});
            var filtered=rule.value!==''||q!=='';boxes.forEach(function(b){if(!b.checked)filtered=true;});
            document.querySelectorAll('.doc').forEach(function(d){var any=d.querySelector('tr.finding:not([style*="none"])');if(any)docs++;d.style.display=(any||!filtered)?'':'none';});
            document.getElementById('shown').textContent='Showing '+shown+' of '+rows.length+' findings in '+docs+' document'+(docs==1?'':'s');
          }
          boxes.forEach(function(b){b.addEventListener('change',apply);});rule.addEventListener('change',apply);doc.addEventListener('input',apply);
          window.addEventListener('hashchange',function(){read();apply();});
          // Numbers of links close together would cover each other: each is moved down below the
          // ones it would overlap (the boxes stay where the links are).
          function spread(s){var bs=Array.prototype.slice.call(s.querySelectorAll('.mark b'));
            bs.forEach(function(b){b.style.marginTop='';});
            var all=bs.map(function(b){return {b:b,r:b.getBoundingClientRect()};}).sort(function(x,y){return x.r.top-y.r.top||x.r.left-y.r.left;});
            var placed=[];all.forEach(function(x){var t=x.r.top,h=x.r.height,moved=true;
              while(moved){moved=false;placed.forEach(function(p){if(x.r.left<p.right&&x.r.right>p.left&&t<p.bottom&&t+h>p.top){t=p.bottom+1;moved=true;}});}
              if(t!==x.r.top)x.b.style.marginTop=(t-x.r.top)+'px';placed.push({left:x.r.left,right:x.r.right,top:t,bottom:t+h});});}
          function spreadAll(){document.querySelectorAll('.shot').forEach(spread);}
          document.querySelectorAll('.shot img').forEach(function(i){if(i.complete)spread(i.parentNode);else i.addEventListener('load',function(){spread(i.parentNode);});});
          window.addEventListener('resize',spreadAll);
          // A click on a thumbnail enlarges the page (and its numbered boxes); another click shrinks it.
          document.querySelectorAll('.shot').forEach(function(s){s.addEventListener('click',function(){s.parentNode.classList.toggle('big');spread(s);});});
          // On a narrow screen the broken-targets tables start folded: the documents come first.
          if(window.matchMedia&&window.matchMedia('(max-width:600px)').matches)document.querySelectorAll('details.fold').forEach(function(d){d.open=false;});
          read();apply();
        })();
        """
}
