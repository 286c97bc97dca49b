import PDFPipeCore

/// report.json's run-level `web` section: each host's requests, 429 and 503 answers, retries,
/// pauses and pace (`HostScheduler.Statistics`), written by validate-links' run service and merged
/// across shards by its type.
struct WebSection: RunSection, Equatable {
    static let key = "web"
    var hosts: [HostScheduler.Statistics]

    /// The shards' sections as one run's: per host, the counts summed, the peak per second and
    /// the longest interval the largest, the least slots the smallest; hosts in name order.
    static func merged(_ sections: [WebSection]) -> WebSection? {
        var byHost: [String: HostScheduler.Statistics] = [:]
        for s in sections {
            for h in s.hosts {
                guard var m = byHost[h.host] else {
                    byHost[h.host] = h
                    continue
                }
                m.requests += h.requests
                m.rateLimited += h.rateLimited
                m.unavailable += h.unavailable
                m.retries += h.retries
                m.pauses += h.pauses
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
}
