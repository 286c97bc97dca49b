/// What a ledger's records say over time (`pdfpipe trend`): broken links per run (by severity and
/// rule family), new, fixed and still broken per run, the age of each link broken now, the time
/// broken links took to be fixed, the hosts that rot most and the documents that got worse. A link
/// is its document and target; it is broken in a run when the run has an error about it, fixed in
/// the first later run that checked its document without one (a run that did not check the
/// document says nothing about it). Pure: the same records give the same trend.
public struct Trend: Sendable {
    public struct Run: Sendable, Equatable {
        public var run: String
        public var time: String
        public var pipeline: String
        public var errors = 0
        public var warnings = 0
        public var notes = 0
        /// Link findings by rule family (`uri`, `dest`, `gotor`, …).
        public var families: [String: Int] = [:]
        /// Broken links (errors) first broken in this run, fixed in it, and broken before and now.
        public var new = 0
        public var fixed = 0
        public var still = 0
        /// The run's own counts (its record's `counts`: documents, links checked by outcome, …).
        public var counts: [String: Int] = [:]
    }

    public struct Broken: Sendable, Equatable {
        public var document: String
        public var target: String
        public var rule: String
        /// The run it has been broken since (its time), and in how many runs in a row.
        public var since: String
        public var runs: Int
        public var days: Double
    }

    public struct Host: Sendable, Equatable {
        public var host: String
        /// Links of the host broken now, and how many times one of them broke.
        public var broken: Int
        public var breaks: Int
    }

    public struct DocumentChange: Sendable, Equatable {
        public var document: String
        public var first: Int
        public var last: Int
    }

    public var runs: [Run] = []
    /// Broken in the last run, the oldest first.
    public var current: [Broken] = []
    /// Days each fixed link had been broken, in the order they were fixed.
    public var fixDays: [Double] = []
    public var hosts: [Host] = []
    public var documents: [DocumentChange] = []

    /// The trend of `records` (any order), those before `since` (`YYYY-MM-DD`), of other pipelines,
    /// or (with `host`) links to other hosts left out.
    public init(records: [LedgerRecord], since: String? = nil, pipeline: String? = nil, host: String? = nil) {
        let kept = records.filter { r in
            (since.map { r.time >= $0 } ?? true) && (pipeline.map { r.pipeline == $0 } ?? true)
        }.sorted { ($0.time, $0.run) < ($1.time, $1.run) }
        var walk = Walk(host: host?.lowercased())
        for r in kept { runs.append(walk.add(r, fixDays: &fixDays)) }
        let end = kept.last?.time ?? ""
        current = walk.streaks.map { k, s in
            Broken(
                document: k.document, target: k.target, rule: s.rule, since: s.since, runs: s.runs,
                days: Self.days(from: s.since, to: end))
        }.sorted { ($0.since, $0.document, $0.target) < ($1.since, $1.document, $1.target) }
        var now: [String: Int] = [:]
        for b in current { if let h = Self.host(of: b.target) { now[h, default: 0] += 1 } }
        hosts = walk.breaks.map { Host(host: $0.key, broken: now[$0.key] ?? 0, breaks: $0.value) }
            .sorted { ($1.broken, $1.breaks, $0.host) < ($0.broken, $0.breaks, $1.host) }
        documents = walk.lastCount.compactMap { d, last in
            let first = walk.firstCount[d] ?? 0
            return last > first ? DocumentChange(document: d, first: first, last: last) : nil
        }.sorted { ($1.last - $1.first, $0.document) < ($0.last - $0.first, $1.document) }
    }

    /// The runs read in order: the streak each broken link is in, and per host and document what
    /// the trend reports.
    private struct Walk {
        struct Key: Hashable {
            var document: String
            var target: String
        }
        let host: String?
        var streaks: [Key: (since: String, runs: Int, rule: String)] = [:]
        var breaks: [String: Int] = [:]
        var firstCount: [String: Int] = [:]
        var lastCount: [String: Int] = [:]

        init(host: String?) { self.host = host }

        mutating func add(_ r: LedgerRecord, fixDays: inout [Double]) -> Run {
            var run = Run(run: r.run, time: r.time, pipeline: r.pipeline)
            run.counts = r.counts
            var broken: [Key: String] = [:]
            var perDocument: [String: Int] = [:]
            for l in r.links {
                if let host, Trend.host(of: l.target) != host { continue }
                switch l.severity {
                case .error: run.errors += 1
                case .warning: run.warnings += 1
                case .note: run.notes += 1
                }
                run.families[String(l.rule.split(separator: ".").first ?? ""), default: 0] += 1
                guard l.severity == .error else { continue }
                let k = Key(document: r.documents[l.document], target: l.target)
                if broken[k] == nil { perDocument[k.document, default: 0] += 1 }
                broken[k] = broken[k] ?? l.rule
            }
            let checked = Set(r.documents)
            for (k, s) in streaks {
                if broken[k] != nil {
                    streaks[k]!.runs = s.runs + 1
                    run.still += 1
                } else if checked.contains(k.document) {
                    fixDays.append(Trend.days(from: s.since, to: r.time))
                    streaks[k] = nil
                    run.fixed += 1
                }
            }
            for (k, rule) in broken where streaks[k] == nil {
                streaks[k] = (r.time, 1, rule)
                run.new += 1
                if let h = Trend.host(of: k.target) { breaks[h, default: 0] += 1 }
            }
            for d in r.documents {
                if firstCount[d] == nil { firstCount[d] = perDocument[d] ?? 0 }
                lastCount[d] = perDocument[d] ?? 0
            }
            return run
        }
    }

    /// The links broken in the last of `records` and still broken when it ran, by document and
    /// target: the run they have been broken since and in how many runs in a row (what a run given
    /// the ledger says beside each broken link).
    public static func streaks(_ records: [LedgerRecord]) -> [String: [String: LinkStreak]] {
        var out: [String: [String: LinkStreak]] = [:]
        for b in Trend(records: records).current {
            out[b.document, default: [:]][b.target] = LinkStreak(since: b.since, runs: b.runs)
        }
        return out
    }

    /// The median and the 90th percentile (nearest rank) of the days broken links took to be fixed.
    public var timeToFix: (median: Double, p90: Double)? {
        guard !fixDays.isEmpty else { return nil }
        let s = fixDays.sorted()
        func rank(_ p: Double) -> Double { s[max(0, Int((p * Double(s.count)).rounded(.up)) - 1)] }
        return (rank(0.5), rank(0.9))
    }

    /// A URL's host, lower case; nil for what is not a URL with one (a file, a destination name).
    public static func host(of target: String) -> String? {
        guard let scheme = target.range(of: "://") else { return nil }
        let rest = target[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last ?? authority
        let host = hostPort.hasPrefix("[") ? hostPort.prefix { $0 != "]" } + "]" : hostPort.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }

    /// Days between two ISO 8601 times (`2026-12-06T03:17:00Z`); 0 when either is not one.
    public static func days(from a: String, to b: String) -> Double {
        guard let x = seconds(a), let y = seconds(b) else { return 0 }
        return Double(y - x) / 86_400
    }

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SS` (UTC; a zone or fraction after it is ignored).
    public static func seconds(_ t: String) -> Int? {
        let d = Array(t.utf8)
        func n(_ i: Int, _ len: Int) -> Int? {
            guard i + len <= d.count else { return nil }
            var v = 0
            for b in d[i..<(i + len)] {
                guard b >= 48 && b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            return v
        }
        guard let y = n(0, 4), let m = n(5, 2), let day = n(8, 2), (1...12).contains(m), (1...31).contains(day)
        else { return nil }
        let (hh, mm, ss) = (n(11, 2) ?? 0, n(14, 2) ?? 0, n(17, 2) ?? 0)
        // Days from the civil date (Howard Hinnant's algorithm).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return (era * 146_097 + doe - 719_468) * 86_400 + hh * 3600 + mm * 60 + ss
    }
}

/// How long a link has been broken: since a run's time, in so many runs in a row.
public struct LinkStreak: Sendable, Equatable {
    public var since: String
    public var runs: Int

    public init(since: String, runs: Int) {
        self.since = since
        self.runs = runs
    }
}
