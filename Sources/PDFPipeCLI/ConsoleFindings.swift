import PDFPipeCore

/// What the console shows of a run's findings, within a budget of lines: by severity (errors,
/// then warnings, then notes when they are listed), each severity given its share of the budget
/// (a share one does not need goes to the others, so a run with 700 errors still shows its
/// warnings), the documents with the most problems of that severity first, at most `perDocument`
/// lines each (one per distinct problem, with the other pages it is on), and a line for the rest
/// of a document. Memory is bounded whatever the batch: only the `budget` worst documents of each
/// severity are kept while reading.
struct ConsoleFindings {
    enum Line: Equatable {
        /// `before` + severity + `after`: a finding in compiler style.
        case finding(String, Severity, String)
        case plain(String)
    }

    var budget = 100
    var perDocument = 5

    /// A document's distinct problems of one severity: its first lines and how many there are.
    struct Entry {
        var position: Int
        var path: String
        var problems: Int
        var lines: [Line]
    }

    func lines(_ report: RunReport, lowest: Severity, moreIn file: String) -> [Line] {
        let severities = [Severity.error, .warning, .note].filter { $0 >= lowest }
        let collapsed = report.collapsedRules
        var top: [Severity: [Entry]] = [:]
        var totals: [Severity: Int] = [:]
        var position = 0
        for d in report.results {
            position += 1
            for severity in severities {
                let entry = self.entry(d, severity: severity, position: position, leaving: collapsed)
                guard entry.problems > 0 else { continue }
                totals[severity, default: 0] += entry.problems
                top[severity, default: []].append(entry)
                if top[severity]!.count >= 2 * budget {
                    top[severity] = Array(top[severity]!.sorted(by: Self.worse).prefix(budget))
                }
            }
        }
        for s in severities { top[s] = Array((top[s] ?? []).sorted(by: Self.worse).prefix(budget)) }

        // Each severity's share: equal parts of the budget, what one does not need going to the others.
        func cost(_ e: Entry) -> Int { min(e.problems, perDocument) + (e.problems > perDocument ? 1 : 0) }
        let demand = Dictionary(
            uniqueKeysWithValues: severities.map { s in (s, (top[s] ?? []).reduce(0) { $0 + cost($1) }) })
        var share: [Severity: Int] = [:]
        var left = budget
        var open = severities.filter { demand[$0]! > 0 }
        while left > 0 && !open.isEmpty {
            let each = max(1, left / open.count)
            for s in open where left > 0 {
                let give = min(each, demand[s]! - share[s, default: 0], left)
                share[s, default: 0] += give
                left -= give
            }
            open = open.filter { share[$0, default: 0] < demand[$0]! }
        }

        var out: [Line] = []
        var hidden: [Severity: Int] = [:]
        for s in severities {
            var room = share[s, default: 0]
            var shown = 0
            for e in top[s] ?? [] {
                guard room > 0 else { break }
                // One line kept for "and N more" when the document has more than it can show.
                let fits = e.problems <= min(perDocument, room) ? e.problems : max(min(perDocument, room) - 1, 1)
                out += e.lines.prefix(fits)
                room -= fits
                shown += fits
                if e.problems > fits && room > 0 {
                    let n = e.problems - fits
                    out.append(.plain("\(e.path): … and \(n) more \(Self.plural(n, s.rawValue))"))
                    room -= 1
                }
            }
            hidden[s] = (totals[s] ?? 0) - shown
        }
        let rest = severities.filter { hidden[$0, default: 0] > 0 }
        if !rest.isEmpty {
            let parts = rest.map { "\(hidden[$0]!) \(Self.plural(hidden[$0]!, $0.rawValue))" }
            let n = rest.reduce(0) { $0 + hidden[$1]! }
            out.append(
                .plain("… and \(n) more \(Self.plural(n, "problem")) (\(parts.joined(separator: ", "))): see \(file)"))
        }
        return out
    }

    /// Worse first: more problems, then report order.
    static func worse(_ a: Entry, _ b: Entry) -> Bool {
        a.problems != b.problems ? a.problems > b.problems : a.position < b.position
    }

    /// One line per rule and message, at its first page, naming the others (at most
    /// `perDocument` lines kept).
    func entry(_ d: DocumentResult, severity: Severity, position: Int, leaving collapsed: Set<String> = []) -> Entry {
        var order: [String] = []
        var groups: [String: (first: Finding, pages: [Int])] = [:]
        for f in d.findings where f.severity == severity && f.baseline != .unchanged && !collapsed.contains(f.rule) {
            let key = f.rule + "\u{0}" + f.message
            if groups[key] == nil {
                groups[key] = (f, [])
                order.append(key)
            } else if let p = f.page, p != groups[key]!.first.page, groups[key]!.pages.last != p {
                groups[key]!.pages.append(p)
            }
        }
        let lines = order.prefix(perDocument).map { key -> Line in
            let (f, pages) = groups[key]!
            var place = d.displayPath
            if let t = f.pageText { place += ":" + t }
            let also = pages.isEmpty ? "" : " (also on \(Pages.list(pages)))"
            return .finding("\(place): ", f.severity, ": \(f.message) [\(f.rule)]\(also)")
        }
        return Entry(position: position, path: d.displayPath, problems: order.count, lines: lines)
    }

    /// `1 error`, `2 errors`.
    static func plural(_ n: Int, _ word: String) -> String { n == 1 ? word : word + "s" }
}
