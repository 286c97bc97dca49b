/// The report's list of broken targets: each broken URL, missing file or missing named destination
/// once, with every document and page that points at it. The fix is usually in one place (the
/// generator, a moved page, a template), so this is where a reader starts.
package struct BrokenTarget: Sendable, Equatable {
    /// The URL, file, or `#name` (`file#name` in another PDF).
    package var target: String
    package var rule: String
    package var severity: Severity
    /// Documents (as shown to people) and the pages in each, in report order.
    package var uses: [(path: String, pages: [Int])]
    /// Links pointing at it, in all documents.
    package var count: Int
    /// Of those, links whose finding is not in the baseline: a target with any is a new break.
    package var newCount = 0

    package static func == (a: BrokenTarget, b: BrokenTarget) -> Bool {
        a.target == b.target && a.rule == b.rule && a.count == b.count && a.uses.map(\.path) == b.uses.map(\.path)
            && a.uses.map(\.pages) == b.uses.map(\.pages)
    }

    /// Targets of errors and warnings (baselined ones too: still broken), most used first, then
    /// by target.
    package static func collect(_ report: RunReport) -> [BrokenTarget] {
        var order: [String: Int] = [:]
        var out: [BrokenTarget] = []
        for d in report.results {
            for f in d.findings where f.severity >= .warning {
                guard let target = f.details["uri"]?.stringValue ?? f.details["target"]?.stringValue, !target.isEmpty
                else { continue }
                let key = f.rule + "\u{0}" + target
                let i: Int
                if let k = order[key] {
                    i = k
                } else {
                    i = out.count
                    order[key] = i
                    out.append(BrokenTarget(target: target, rule: f.rule, severity: f.severity, uses: [], count: 0))
                }
                out[i].count += 1
                if f.baseline == .new { out[i].newCount += 1 }
                out[i].severity = max(out[i].severity, f.severity)
                if let last = out[i].uses.indices.last, out[i].uses[last].path == d.displayPath {
                    if let p = f.page, out[i].uses[last].pages.last != p { out[i].uses[last].pages.append(p) }
                } else {
                    out[i].uses.append((d.displayPath, f.page.map { [$0] } ?? []))
                }
            }
        }
        return out.enumerated().sorted { x, y in
            let (a, b) = (x.element, y.element)
            if a.severity != b.severity { return a.severity > b.severity }
            if a.count != b.count { return a.count > b.count }
            return x.offset < y.offset
        }.map(\.element)
    }

    /// With a baseline, what people read first: the targets with a new break, then the ones the
    /// baseline already has (each in `collect`'s order). Without one, all are `rest`.
    package static func split(_ report: RunReport) -> (new: [BrokenTarget], rest: [BrokenTarget]) {
        let all = collect(report)
        guard report.baseline != nil else { return ([], all) }
        return (all.filter { $0.newCount > 0 }, all.filter { $0.newCount == 0 })
    }

    /// `a.pdf (pages 3, 7), b.pdf (page 2)`, at most `limit` documents.
    package func usesText(limit: Int = 10) -> String {
        var parts = uses.prefix(limit).map { u in
            u.path + (u.pages.isEmpty ? "" : " (\(Pages.list(u.pages)))")
        }
        if uses.count > limit { parts.append("\(uses.count - limit) more documents") }
        return parts.joined(separator: ", ")
    }
}

/// Page lists for people: `page 3`, `pages 3, 7, 12 and 41 more`.
package enum Pages {
    package static func list(_ pages: [Int], limit: Int = 5) -> String {
        "page\(pages.count == 1 ? "" : "s") " + Abridged(pages, limit: limit).joined { String($0) }
    }
}
