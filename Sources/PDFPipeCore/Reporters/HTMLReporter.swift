/// `report.html`: one self-contained page (inline CSS and JavaScript, thumbnails linked next to it)
/// for people: the summary, then every document's findings grouped by page beside the page's
/// thumbnail (with the broken link outlined when the thumbnails stage drew link overlays), and
/// filters by severity and rule. Works from the file system, without a server. The filters can be
/// preset in the address: `report.html#severity=error&rule=dest.name-not-found`.
public struct HTMLReporter: Reporter {
    public init() {}
    public var format: String { "html" }
    public var fileName: String { "report.html" }

    public func render(_ report: RunReport) -> String {
        let s = report.summary
        // One pass for the index: findings per rule, and a row per document with findings (the
        // page stays bounded whatever the batch: at most `indexRows` rows, `expanded` documents
        // shown in full with at most `rowsPerDocument` findings each; the rest is in report.json).
        var perRule: [String: (severity: Severity, findings: Int, documents: Int)] = [:]
        var index = ""
        var withFindings = 0
        for d in report.results where !d.findings.isEmpty {
            var seen = Set<String>()
            for f in d.findings {
                var r = perRule[f.rule] ?? (f.severity, 0, 0)
                r.findings += 1
                if seen.insert(f.rule).inserted { r.documents += 1 }
                if f.severity > r.severity { r.severity = f.severity }
                perRule[f.rule] = r
            }
            if withFindings < Self.indexRows {
                let e = d.findings.count { $0.severity == .error }, w = d.findings.count { $0.severity == .warning }
                let name = withFindings < Self.expanded ? "<a href=\"#doc-\(withFindings + 1)\">\(h(d.displayPath))</a>" : h(d.displayPath)
                index += "<tr><td class=\"path\">\(name)\(d.status == .failed ? " <span class=\"badge error\">failed</span>" : "")</td>"
                index += "<td class=\"error\">\(e)</td><td class=\"warning\">\(w)</td><td class=\"note\">\(d.findings.count - e - w)</td></tr>"
            }
            withFindings += 1
        }
        let rules = Set(perRule.keys)
        var body = ""
        body += "<header><h1>pdfpipe: \(h(report.pipeline))</h1><p class=\"meta\">pdfpipe \(h(report.toolVersion)) · \(h(report.generatedAt))</p>\n"
        if report.incomplete { body += "<p class=\"incomplete\"><strong>Incomplete:</strong> \(h(RunReport.incompleteNote))</p>\n" }
        body += "<table class=\"summary\"><tr><th>documents</th><th>failed</th><th>pages</th><th>errors</th><th>warnings</th><th>notes</th></tr>"
        body += "<tr><td>\(s.documents)</td><td>\(s.failedDocuments)</td><td>\(s.pages)</td><td class=\"error\">\(s.errors)</td><td class=\"warning\">\(s.warnings)</td><td class=\"note\">\(s.notes)</td></tr></table>\n"
        if s.suppressed > 0 { body += "<p class=\"meta\">\(s.suppressed) finding\(s.suppressed == 1 ? "" : "s") suppressed by the pipeline's <code>ignore</code> list (shown under each document)</p>\n" }
        if let b = report.baseline {
            body += "<p class=\"baseline\"><strong>Baseline</strong> <code>\(h(b.file))</code>: \(s.new) new, \(s.unchanged) unchanged (marked <span class=\"badge\">baseline</span>), \(s.fixed) fixed"
            if b.ratchet && s.fixed > 0 { body += " — <strong>update the baseline</strong> (ratchet)" }
            body += "</p>\n"
        }
        body += "<form id=\"filters\">"
        for sev in ["error", "warning", "note"] {
            body += "<label><input type=\"checkbox\" name=\"severity\" value=\"\(sev)\" checked> \(sev)</label> "
        }
        body += "<select id=\"rule\"><option value=\"\">all rules</option>"
        for r in rules.sorted() { body += "<option value=\"\(h(r))\">\(h(r))</option>" }
        body += "</select> <span id=\"shown\"></span></form></header>\n<main>\n"
        if !report.findings.isEmpty {
            body += "<section class=\"doc\"><h2>pipeline \(h(report.findings.first?.details["file"]?.stringValue ?? ""))</h2>\n"
            body += group(title: "ignore list", findings: report.findings, thumbnail: nil) + "</section>\n"
        }
        let targets = BrokenTarget.collect(report)
        if !targets.isEmpty {
            body += "<section class=\"targets\"><h2>Broken targets <span class=\"count\">\(targets.count), each with the documents that link to it</span></h2><table>"
            body += "<tr><th>target</th><th>rule</th><th>links</th><th>used in</th></tr>"
            for t in targets.prefix(500) {
                body += "<tr class=\"\(t.severity.rawValue)\"><td class=\"target\">\(h(t.target))</td><td><code>\(h(t.rule))</code></td><td>\(t.count)</td><td>\(h(t.usesText(limit: 20)))</td></tr>"
            }
            body += "</table>" + (targets.count > 500 ? "<p>… and \(targets.count - 500) more in report.json</p>" : "") + "</section>\n"
        }
        if !perRule.isEmpty {
            body += "<section class=\"rules\"><h2>Rules <span class=\"count\">\(perRule.count)</span></h2><table><tr><th>rule</th><th>severity</th><th>findings</th><th>documents</th></tr>"
            for (rule, r) in perRule.sorted(by: { ($0.value.severity, $0.value.findings, $1.key) > ($1.value.severity, $1.value.findings, $0.key) }) {
                body += "<tr class=\"\(r.severity.rawValue)\"><td><a href=\"#rule=\(h(rule))\"><code>\(h(rule))</code></a></td><td>\(r.severity.rawValue)</td><td>\(r.findings)</td><td>\(r.documents)</td></tr>"
            }
            body += "</table></section>\n"
        }
        let clean = s.documents - withFindings
        body += "<section class=\"index\"><h2>Documents <span class=\"count\">\(withFindings) with findings, \(clean) without</span></h2>"
        if withFindings > 0 {
            body += "<table><tr><th>document</th><th>errors</th><th>warnings</th><th>notes</th></tr>\(index)</table>"
            if withFindings > Self.indexRows { body += "<p>… and \(withFindings - Self.indexRows) more documents with findings in report.json</p>" }
        }
        if clean > 0 { body += "<p class=\"clean\">\(clean) document\(clean == 1 ? "" : "s") without findings (listed in report.json)</p>" }
        body += "</section>\n"
        var shown = 0
        for d in report.results where !d.findings.isEmpty || !d.suppressed.isEmpty {
            guard shown < Self.expanded else { break }
            shown += 1
            let thumbs = Dictionary(d.artifacts.filter { $0.kind == "thumbnail" }.compactMap { a in a.page.map { ($0, a.path) } }, uniquingKeysWith: { a, _ in a })
            body += "<section class=\"doc\" id=\"doc-\(shown)\" data-path=\"\(h(d.path))\"><h2>\(h(d.displayPath))"
            body += d.status == .failed ? " <span class=\"badge error\">failed</span>" : ""
            body += " <span class=\"count\">\(d.findings.count) finding\(d.findings.count == 1 ? "" : "s")</span></h2>\n"
            if let skipped = d.sections["skippedStages"]?.arrayValue?.compactMap(\.stringValue), !skipped.isEmpty {
                body += "<p class=\"skipped\">skipped stages: \(h(skipped.joined(separator: ", ")))</p>\n"
            }
            var byPage: [Int: [Finding]] = [:]
            var general: [Finding] = []
            for f in d.findings.prefix(Self.rowsPerDocument) {
                if let p = f.page { byPage[p, default: []].append(f) } else { general.append(f) }
            }
            if !general.isEmpty { body += group(title: "document", findings: general, thumbnail: nil) }
            for p in byPage.keys.sorted() {
                let label = byPage[p]!.first?.pageLabel.map { " (\($0))" } ?? ""
                body += group(title: "page \(p)\(label)", findings: byPage[p]!, thumbnail: thumbs[p])
            }
            if d.findings.count > Self.rowsPerDocument {
                body += "<p class=\"more\">… and \(d.findings.count - Self.rowsPerDocument) more findings in report.json</p>\n"
            }
            if !d.suppressed.isEmpty {
                body += "<details class=\"suppressed\"><summary>\(d.suppressed.count) suppressed</summary><ul>"
                for f in d.suppressed {
                    let by = f.details["suppressedBy"]
                    body += "<li>\(f.page.map { "page \($0): " } ?? "")<code>\(h(f.rule))</code> \(h(f.message)) — <em>\(h(by?["reason"]?.stringValue ?? ""))</em> (\(h(by?["ignore"]?.stringValue ?? "")))</li>"
                }
                body += "</ul></details>\n"
            }
            body += "</section>\n"
        }
        if withFindings > shown {
            body += "<p class=\"more\">The findings of \(withFindings - shown) more documents are in report.json (this page shows the first \(Self.expanded) in full).</p>\n"
        }
        body += "</main>\n"
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

    /// Documents shown in full, rows of the document index, findings shown per document.
    static let expanded = 500
    static let indexRows = 5_000
    static let rowsPerDocument = 200

    func group(title: String, findings: [Finding], thumbnail: String?) -> String {
        var out = "<div class=\"page\">"
        if let thumbnail {
            let url = h(Escape.uriPath(thumbnail))
            out += "<a href=\"\(url)\"><img src=\"\(url)\" alt=\"\(h(title))\" loading=\"lazy\"></a>"
        }
        out += "<div class=\"findings\"><h3>\(h(title))</h3><table>"
        for f in findings {
            out += "<tr class=\"finding \(f.severity.rawValue)\" data-severity=\"\(f.severity.rawValue)\" data-rule=\"\(h(f.rule))\">"
            out += "<td class=\"sev\">\(f.severity.rawValue)</td><td><code>\(h(f.rule))</code></td><td>\(h(f.message))"
            if f.baseline == .unchanged { out += " <span class=\"badge\">baseline</span>" }
            if let hint = f.hint { out += "<div class=\"hint\">fix: \(h(hint))</div>" }
            out += "</td></tr>"
        }
        return out + "</table></div></div>\n"
    }

    func h(_ s: String) -> String { Escape.xml(s) }

    static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}header{padding:12px 20px;background:#f4f4f6;border-bottom:1px solid #ddd;position:sticky;top:0}
        h1{font-size:20px;margin:0}.incomplete{background:#fff3cd;border:1px solid #e0b000;padding:6px 10px;margin:6px 0}.meta{color:#666;margin:2px 0 8px}table.summary td,table.summary th{padding:2px 10px;text-align:right}
        main{padding:10px 20px}.doc{border-bottom:1px solid #eee;padding:8px 0}.doc h2{font-size:16px}.count{color:#888;font-weight:normal;font-size:13px}
        .page{display:flex;gap:14px;margin:8px 0}.page img{width:160px;border:1px solid #ccc}.findings{flex:1}.findings h3{font-size:13px;margin:0 0 4px;color:#555}
        .findings table{border-collapse:collapse;width:100%}.findings td{border-top:1px solid #eee;padding:3px 6px;vertical-align:top}
        .sev{font-weight:bold;width:5em}.error .sev,.error{color:#c00}.warning .sev,.warning{color:#b60}.note .sev,.note{color:#15c}
        .hint{color:#555;font-size:12px}.badge{font-size:12px;border:1px solid;border-radius:3px;padding:0 4px}.skipped{color:#888}
        .targets table{border-collapse:collapse}.targets td,.targets th{border-top:1px solid #eee;padding:3px 6px;text-align:left;vertical-align:top}.target{word-break:break-all}
        .suppressed{color:#666;font-size:13px}.baseline{margin:4px 0}.rules table,.index table{border-collapse:collapse}.rules td,.rules th,.index td,.index th{border-top:1px solid #eee;padding:2px 8px;text-align:left}
        .index td.error,.index td.warning,.index td.note{text-align:right}.clean,.more{color:#666}.path{word-break:break-all}
        td{overflow-wrap:anywhere}
        @media (max-width:600px){header{position:static;padding:8px 10px}main{padding:6px 10px}
        table.summary th,table.summary td{padding:2px 3px;font-size:12px}#filters select{max-width:100%}
        .page{flex-direction:column;gap:6px}.page img{width:100%;max-width:360px;height:auto}
        .targets table,.rules table,.index table,.findings table{width:100%;table-layout:fixed}.sev{width:4.5em}}
        """

    static let script = """
        (function(){
          var boxes=document.querySelectorAll('input[name=severity]'),rule=document.getElementById('rule');
          var params=new URLSearchParams(location.hash.slice(1));
          if(params.get('severity')){var keep=params.get('severity').split(',');boxes.forEach(function(b){b.checked=keep.indexOf(b.value)>=0;});}
          if(params.get('rule')){rule.value=params.get('rule');}
          function apply(){
            var on={};boxes.forEach(function(b){on[b.value]=b.checked;});
            var rows=document.querySelectorAll('tr.finding'),shown=0;
            rows.forEach(function(r){var v=on[r.dataset.severity]&&(!rule.value||r.dataset.rule===rule.value);r.style.display=v?'':'none';if(v)shown++;});
            document.querySelectorAll('.page').forEach(function(p){p.style.display=p.querySelector('tr.finding:not([style*="none"])')?'':'none';});
            var filtered=rule.value!=='';boxes.forEach(function(b){if(!b.checked)filtered=true;});
            document.querySelectorAll('.doc').forEach(function(d){var any=d.querySelector('tr.finding:not([style*="none"])');d.style.display=(any||!filtered)?'':'none';});
            document.getElementById('shown').textContent='Showing '+shown+' of '+rows.length+' findings';
          }
          boxes.forEach(function(b){b.addEventListener('change',apply);});rule.addEventListener('change',apply);
          window.addEventListener('hashchange',function(){var p=new URLSearchParams(location.hash.slice(1));if(p.get('rule')!==null){rule.value=p.get('rule');apply();}});apply();
        })();
        """
}
