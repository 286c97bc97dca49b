import PDFPipeCore

/// report.json's run-level `web` section: each host's requests, 429 and 503 answers, retries,
/// pauses and pace (`HostScheduler.Statistics`), written by validate-links' run service and merged
/// across shards by its type.
package struct WebSection: RunSection, Equatable {
    package static let key = "web"
    package var hosts: [HostScheduler.Statistics]

    package init(hosts: [HostScheduler.Statistics]) { self.hosts = hosts }

    /// The shards' sections as one run's: per host, the counts summed (saturating: a shard report
    /// is data, and Int.max in one must not trap the merge), the peak per second and the longest
    /// interval the largest, the least slots the smallest; hosts in name order.
    package static func merged(_ sections: [WebSection]) -> WebSection? {
        var byHost: [String: HostScheduler.Statistics] = [:]
        for s in sections {
            for h in s.hosts {
                guard var m = byHost[h.host] else {
                    byHost[h.host] = h
                    continue
                }
                m.requests = sum(m.requests, h.requests)
                m.rateLimited = sum(m.rateLimited, h.rateLimited)
                m.unavailable = sum(m.unavailable, h.unavailable)
                m.retries = sum(m.retries, h.retries)
                m.pauses = sum(m.pauses, h.pauses)
                m.pausedSeconds += h.pausedSeconds
                m.peakPerSecond = max(m.peakPerSecond, h.peakPerSecond)
                m.longestInterval = max(m.longestInterval, h.longestInterval)
                m.leastSlots = min(m.leastSlots, h.leastSlots)
                byHost[h.host] = m
            }
        }
        guard !byHost.isEmpty else { return nil }
        return WebSection(hosts: byHost.keys.sorted().map { byHost[$0]! })
    }

    /// `a + b`, clamped to `Int`'s range.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : s
    }
}
