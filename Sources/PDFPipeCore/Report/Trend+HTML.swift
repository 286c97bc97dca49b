/// A trend as one self-contained HTML page (`trend.html`): no script, no file beside it; the plots
/// are inline SVG that scale with the page (a phone at 390 px reads it as a desktop at 1280 px).
/// Bounded whatever the ledger: at most `maxRunsPlotted` runs drawn and `htmlRows` rows a table.
extension Trend {
    public static let maxRunsPlotted = 1_000
    public static let htmlRows = 200

    public var html: String {
        let h = { (s: String) in Escape.xml(ConsoleText.escape(s)) }
        var out = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Link rot</title><style>
            body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:12px;max-width:1100px;color:#222}
            h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em}
            .cards{display:flex;flex-wrap:wrap;gap:8px}.card{flex:1 1 140px;border:1px solid #ddd;border-radius:6px;padding:8px}
            .card b{display:block;font-size:1.6em}svg{width:100%;max-width:640px;height:auto;display:block}
            .wrap{overflow-x:auto}table{border-collapse:collapse;width:100%}td,th{padding:3px 6px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
            td.n,th.n{text-align:right}td.t{word-break:break-all}td.d{white-space:nowrap}.legend span{margin-right:12px;white-space:nowrap}
            .sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
            </style></head><body>
            <h1>Link rot</h1>

            """
        guard let first = runs.first, let last = runs.last else {
            return out + "<p>No run in the ledger.</p></body></html>\n"
        }
        out += "<p>\(runs.count) run\(runs.count == 1 ? "" : "s") from \(h(first.time)) to \(h(last.time)).</p>\n"
        var cards = [
            ("broken now", "\(current.count)"), ("new in the last run", "\(last.new)"),
            ("fixed in the last run", "\(last.fixed)"),
        ]
        if let t = timeToFix {
            cards += [("median days to fix", Self.number(t.median)), ("90 % fixed within (days)", Self.number(t.p90))]
        }
        out +=
            "<div class=\"cards\">" + cards.map { "<div class=\"card\"><b>\($0.1)</b>\($0.0)</div>" }.joined()
            + "</div>\n"
        let plotted = Array(runs.suffix(Self.maxRunsPlotted))
        out +=
            "<h2>Findings about links per run, by severity</h2>\n"
            + Self.lines(
                plotted,
                [
                    ("errors (broken)", "#c62828", { Double($0.errors) }),
                    ("warnings", "#ef6c00", { Double($0.warnings) }),
                    ("notes", "#757575", { Double($0.notes) }),
                ])
        out += familyLines(plotted)
        out += "<h2>Broken links: new, fixed and still broken per run</h2>\n" + Self.bars(plotted)
        out += "<h2>Age of the links broken now</h2>\n" + Self.ages(current.map(\.days))
        out += table(
            "Broken now, the oldest first", ["since", "runs", "days", "document", "target"],
            current.prefix(Self.htmlRows).map {
                [String($0.since.prefix(10)), "\($0.runs)", Self.number($0.days), $0.document, $0.target]
            },
            more: current.count - Self.htmlRows)
        out += table(
            "Hosts that rot most", ["host", "broken now", "times a link broke"],
            hosts.prefix(Self.htmlRows).map { [$0.host, "\($0.broken)", "\($0.breaks)"] },
            more: hosts.count - Self.htmlRows)
        out += table(
            "Documents that got worse", ["document", "broken in the first run", "broken now"],
            documents.prefix(Self.htmlRows).map { [$0.document, "\($0.first)", "\($0.last)"] },
            more: documents.count - Self.htmlRows)
        return out + "</body></html>\n"
    }

    /// Colours of the rule families' lines, the most frequent family first.
    static let familyColors = ["#1565c0", "#c62828", "#6a1b9a", "#00838f", "#ef6c00", "#558b2f"]

    /// Findings per run by rule family (`uri`, `gotor`, `dest`, …): the most frequent families
    /// over the runs plotted, one line each; the rest together as `other`.
    func familyLines(_ plotted: [Run]) -> String {
        var totals: [String: Int] = [:]
        for r in plotted { for (f, n) in r.families { totals[f, default: 0] += n } }
        guard !totals.isEmpty else { return "" }
        let ranked = totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let shown = Array(
            ranked.prefix(ranked.count <= Self.familyColors.count ? ranked.count : Self.familyColors.count - 1))
        var series: [(String, String, (Run) -> Double)] = shown.enumerated().map { i, f in
            (f, Self.familyColors[i], { Double($0.families[f] ?? 0) })
        }
        if shown.count < ranked.count {
            let rest = Set(ranked.dropFirst(shown.count))
            series.append(
                (
                    "other", Self.familyColors[shown.count],
                    { r in Double(r.families.filter { rest.contains($0.key) }.values.reduce(0, +)) }
                ))
        }
        return "<h2>Findings about links per run, by rule family</h2>\n" + Self.lines(plotted, series)
    }

    func table(_ title: String, _ head: [String], _ rows: [[String]], more: Int) -> String {
        guard !rows.isEmpty else { return "" }
        let h = { (s: String) in Escape.xml(ConsoleText.escape(s)) }
        let numeric = head.indices.map { i in rows.allSatisfy { Double($0[i]) != nil } }
        var out = "<h2>\(h(title))</h2>\n<div class=\"wrap\"><table><tr>"
        for (i, title) in head.enumerated() {
            let kind = numeric[i] ? "n" : "t"
            out += "<th class=\"\(kind)\">\(h(title))</th>"
        }
        out += "</tr>\n"
        for r in rows {
            out +=
                "<tr>"
                + r.indices.map { i in
                    let kind = numeric[i] ? "n" : Suppression.isDate(r[i]) ? "d" : "t"
                    return "<td class=\"\(kind)\">\(h(r[i]))</td>"
                }.joined() + "</tr>\n"
        }
        out += "</table></div>\n"
        if more > 0 { out += "<p>\(more) more in trend.json.</p>\n" }
        return out
    }

    /// Series as lines over the runs, with a legend and the largest value on the axis.
    static func lines(_ runs: [Run], _ series: [(String, String, (Run) -> Double)]) -> String {
        let (w, hgt) = (600.0, 180.0)
        let top = max(1, series.flatMap { s in runs.map(s.2) }.max() ?? 1)
        func x(_ i: Int) -> Double { runs.count < 2 ? w / 2 : 30 + Double(i) * (w - 40) / Double(runs.count - 1) }
        func y(_ v: Double) -> Double { hgt - 20 - v / top * (hgt - 40) }
        var svg = "<svg viewBox=\"0 0 \(Int(w)) \(Int(hgt))\" role=\"img\"><title>findings per run</title>"
        svg += "<line x1=\"30\" y1=\"\(y(0))\" x2=\"\(w - 10)\" y2=\"\(y(0))\" stroke=\"#999\"/>"
        svg += "<text x=\"2\" y=\"\(y(top) + 6)\" font-size=\"18\">\(number(top))</text>"
        svg += "<text x=\"2\" y=\"\(y(0) + 6)\" font-size=\"18\">0</text>"
        for (_, color, value) in series {
            let points = runs.indices.map { "\(format(x($0))),\(format(y(value(runs[$0]))))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>"
        }
        svg += "</svg>"
        return svg + legend(series.map { ($0.0, $0.1) })
    }

    /// New, fixed (below the axis) and still broken per run, as bars.
    static func bars(_ runs: [Run]) -> String {
        let (w, hgt) = (600.0, 200.0)
        let up = max(1, runs.map { Double($0.new + $0.still) }.max() ?? 1)
        let down = max(1, runs.map { Double($0.fixed) }.max() ?? 1)
        let axis = 10 + (hgt - 20) * up / (up + down)
        let scale = (hgt - 20) / (up + down)
        let step = (w - 40) / Double(max(runs.count, 1))
        var svg = "<svg viewBox=\"0 0 \(Int(w)) \(Int(hgt))\" role=\"img\"><title>new, fixed and still broken</title>"
        for (i, r) in runs.enumerated() {
            let x = 30 + Double(i) * step
            let bw = max(step * 0.8, 0.5)
            let still = Double(r.still) * scale
            let new = Double(r.new) * scale
            svg += rect(x, axis - still, bw, still, "#9e9e9e") + rect(x, axis - still - new, bw, new, "#c62828")
            svg += rect(x, axis, bw, Double(r.fixed) * scale, "#2e7d32")
        }
        svg += "<line x1=\"30\" y1=\"\(format(axis))\" x2=\"\(w - 10)\" y2=\"\(format(axis))\" stroke=\"#555\"/></svg>"
        return svg + legend([("new", "#c62828"), ("still broken", "#9e9e9e"), ("fixed (below)", "#2e7d32")])
    }

    /// How many links broken now are how old.
    static func ages(_ days: [Double]) -> String {
        let buckets: [(String, ClosedRange<Double>)] = [
            ("under a day", 0...0.999), ("1–7 days", 1...6.999), ("1–4 weeks", 7...29.999),
            ("1–3 months", 30...89.999), ("3 months or more", 90...Double.greatestFiniteMagnitude),
        ]
        let counts = buckets.map { b in days.filter { b.1.contains($0) }.count }
        let top = Double(max(1, counts.max() ?? 1))
        var svg = "<svg viewBox=\"0 0 600 \(buckets.count * 34 + 6)\" role=\"img\"><title>ages</title>"
        for (i, (label, _)) in buckets.enumerated() {
            let y = Double(i * 34 + 4)
            svg += "<text x=\"0\" y=\"\(format(y + 21))\" font-size=\"17\">\(label)</text>"
            svg += rect(200, y, max(0, Double(counts[i]) / top * 340), 28, "#c62828")
            svg +=
                "<text x=\"\(format(206 + Double(counts[i]) / top * 340))\" y=\"\(format(y + 21))\" font-size=\"17\">\(counts[i])</text>"
        }
        return svg + "</svg>"
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ color: String) -> String {
        guard h > 0, w > 0 else { return "" }
        return
            "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(w))\" height=\"\(format(h))\" fill=\"\(color)\"/>"
    }

    /// Labels are escaped (a family is a ledger's rule id: data a record writes) and cut at 40 characters.
    static func legend(_ items: [(String, String)]) -> String {
        "<p class=\"legend\">"
            + items.map { label, color in
                let shown = label.count > 40 ? String(label.prefix(40)) + "…" : label
                return
                    "<span><i class=\"sw\" style=\"background:\(color)\"></i>\(Escape.xml(ConsoleText.escape(shown)))</span>"
            }.joined() + "</p>\n"
    }

    static func format(_ v: Double) -> String { String(format: "%.1f", v) }
}
