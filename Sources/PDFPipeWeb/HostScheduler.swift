/// When the URL checker's requests may start: per-host slots and intervals, host-wide backoff on
/// pushback, and the retry delays — decided with no I/O and the time passed in, so that its tests
/// are deterministic (no sleeps, no timing thresholds). The transfer loop drives it: it queues
/// requests (`enqueue`), starts what `next` gives, reports how each ended (`finished`),
/// asks what becomes of one that failed (`afterFailure`: `.retry(at:)` or `.giveUp(reason:)`, by
/// its `RetryPolicy`), and sleeps until `nextWake`.
///
/// Politeness, as lychee's per-host limiter and browsers' connection pools do it, plus adaptation:
/// - at most `slots` requests in flight to a host and at least `interval` seconds between two
///   starts; both start at the configured values (`maxPerHost`, `hostIntervalSeconds`, `hosts`);
/// - a 429, or a 503 that says when to come back (`Retry-After`), pauses the whole host: for its `Retry-After` when it gives
///   one (at most 60 s), else for twice the current interval (at least a second); the interval
///   grows by half (at least 0.1 s, at most 10 s) — once per round:
///   answers to requests sent before the host was last slowed do not slow it again (a burst of
///   429s to the requests in flight is one pushback); a 503 without `Retry-After` is a failure;
/// - every success shortens the interval by 30 %, down to the configured one: a host that pushed back is not hit at
///   full rate again at once, and one that pushed back once (a 429 for one URL) is soon back at
///   full pace. A host's confirmations (re-checks of its failures) wait until nothing else of that
///   host is ready or waiting.
package struct HostScheduler: Sendable {
    /// The configured pace of one host.
    struct Limits: Sendable, Equatable {
        var slots: Int
        var interval: Double
    }

    /// What becomes of a request that failed (`afterFailure`); a request that may start is
    /// `next`'s answer.
    package enum Retry: Sendable, Equatable {
        /// Ask again, no earlier than this time.
        case retry(at: Double)
        /// Do not ask again: the answer stands (with why, when it is not the retries used up).
        case giveUp(reason: String?)
    }

    /// How a request ended, as far as the host's pace is concerned.
    enum Signal: Sendable, Equatable {
        case success
        /// 429, or a 503 with `Retry-After`: the host asks to slow down (`Retry-After` in seconds).
        case pushback(retryAfter: Double?)
        /// A connection error, a timeout or another 5xx: the request is retried; the host's pace stays.
        case failure
    }

    /// What a host saw during the run (report.json's `web.hosts`).
    package struct Statistics: Sendable, Equatable, Codable {
        package var host: String
        package var requests = 0
        /// 429 answers.
        package var rateLimited = 0
        /// 503 answers.
        package var unavailable = 0
        /// Requests queued again after a failure or pushback.
        package var retries = 0
        /// Times the host was paused, and the seconds it stayed paused.
        package var pauses = 0
        package var pausedSeconds = 0.0
        /// The most requests started within one second.
        package var peakPerSecond = 0
        /// The slowest pace it was brought down to: least slots, longest interval.
        package var leastSlots = 0
        package var longestInterval = 0.0

        package init(host: String) { self.host = host }
    }

    /// Requests of one host: the ones ready to go, in order, and its pace.
    private struct Host {
        var limits: Limits
        var slots: Int
        var interval: Double
        var active = 0
        var lastStart = -Double.infinity
        var pausedUntil = -Double.infinity
        /// When the last pushback slowed the host: answers to requests started before it were
        /// sent at the old pace and slow it no further (one decrease per round, as TCP's).
        var slowedAt = -Double.infinity
        var successes = 0
        var queue: [Int] = []
        var head = 0
        /// Confirmations (re-checks of failures) wait until nothing else of the host is ready or
        /// waiting (`delayedOthers`: its requests waiting for a time, confirmations aside).
        var confirm: [Int] = []
        var delayedOthers = 0
        /// Starts within the current second, for the peak.
        var window: (second: Double, count: Int) = (-1, 0)
        var stats: Statistics

        var queued: Int { queue.count - head }
    }

    let maxConcurrency: Int
    let limits: @Sendable (String) -> Limits

    private var hosts: [String: Host] = [:]
    /// Hosts with ready requests, in the order they are served (round robin).
    private var rotation: [String] = []
    private var inRotation: Set<String> = []
    /// Requests waiting for a time, by id: host, when, and whether a confirmation.
    private var delayed: [Int: (host: String, at: Double, confirm: Bool)] = [:]
    private(set) var active = 0

    /// Whether and when a failed request is asked again, and the pacing constants.
    let policy: RetryPolicy

    init(maxConcurrency: Int, policy: RetryPolicy, limits: @escaping @Sendable (String) -> Limits) {
        self.maxConcurrency = max(1, maxConcurrency)
        self.policy = policy
        self.limits = limits
    }

    /// Requests queued or waiting, not yet started.
    var waiting: Int { delayed.count + hosts.values.reduce(0) { $0 + $1.queued + $1.confirm.count } }

    private mutating func host(_ name: String) -> Host {
        if let h = hosts[name] { return h }
        let l = limits(name)
        var stats = Statistics(host: name)
        stats.leastSlots = max(1, l.slots)
        stats.longestInterval = l.interval
        let h = Host(limits: l, slots: max(1, l.slots), interval: l.interval, stats: stats)
        hosts[name] = h
        return h
    }

    /// Queues request `id` for `host`, to start no earlier than `notBefore`; a confirmation starts
    /// only when no other request is ready or waiting.
    mutating func enqueue(
        _ id: Int, host name: String, notBefore: Double = -.infinity, confirm: Bool = false, now: Double
    ) {
        var h = host(name)
        if notBefore > now {
            delayed[id] = (name, notBefore, confirm)
            if !confirm { h.delayedOthers += 1 }
            hosts[name] = h
            return
        }
        if inRotation.insert(name).inserted { rotation.append(name) }
        if confirm { h.confirm.append(id) } else { h.queue.append(id) }
        hosts[name] = h
    }

    /// Takes out every request of `host` not yet started (confirmations too when asked), and
    /// returns their ids in the order they were queued: the checker answers them itself (a host
    /// whose name did not resolve).
    mutating func drain(host name: String, confirmations: Bool) -> [Int] {
        guard var h = hosts[name] else { return [] }
        var ids = Array(h.queue[h.head...])
        h.queue.removeAll()
        h.head = 0
        if confirmations {
            ids += h.confirm
            h.confirm.removeAll()
        }
        for (id, d) in delayed.sorted(by: { $0.key < $1.key }) where d.host == name && (confirmations || !d.confirm) {
            delayed[id] = nil
            if !d.confirm { h.delayedOthers -= 1 }
            ids.append(id)
        }
        hosts[name] = h
        return ids
    }

    /// The next request that may start now (its host's slot taken), or nil.
    mutating func next(now: Double) -> (id: Int, host: String)? {
        // Due ones in a stable order (time, then id): the same calls give the same starts.
        for (id, d) in delayed.filter({ $0.value.at <= now }).sorted(by: {
            ($0.value.at, $0.key) < ($1.value.at, $1.key)
        }) {
            delayed[id] = nil
            if !d.confirm { hosts[d.host]?.delayedOthers -= 1 }
            enqueue(id, host: d.host, confirm: d.confirm, now: now)
        }
        guard active < maxConcurrency else { return nil }
        for (i, name) in rotation.enumerated() {
            guard var h = hosts[name], h.active < h.slots, now >= h.pausedUntil, now - h.lastStart >= h.interval
            else { continue }
            let id: Int
            if h.queued > 0 {
                id = h.queue[h.head]
                h.head += 1
                if h.queued == 0 {
                    h.queue.removeAll(keepingCapacity: false)
                    h.head = 0
                } else if h.head > 256 && h.head * 2 > h.queue.count {
                    h.queue.removeFirst(h.head)
                    h.head = 0
                }
            } else if !h.confirm.isEmpty && h.delayedOthers == 0 {
                id = h.confirm.removeFirst()
            } else {
                continue
            }
            h.active += 1
            h.lastStart = now
            h.stats.requests += 1
            let second = now.rounded(.down)
            h.window = h.window.second == second ? (second, h.window.count + 1) : (second, 1)
            h.stats.peakPerSecond = max(h.stats.peakPerSecond, h.window.count)
            rotation.remove(at: i)
            if h.queued > 0 || !h.confirm.isEmpty {
                rotation.append(name)  // to the back: round robin
            } else {
                inRotation.remove(name)
            }
            hosts[name] = h
            active += 1
            return (id, name)
        }
        return nil
    }

    /// What becomes of a request of `url` that failed (`rateLimited`: answered 429) after `used`
    /// retries of its kind: asked again at a time (`RetryPolicy.decide`'s wait from `now`), or
    /// given up.
    func afterFailure(url: String, used: Int, rateLimited: Bool, retryAfter: Double?, now: Double) -> Retry {
        switch policy.decide(url: url, used: used, rateLimited: rateLimited, retryAfter: retryAfter) {
        case .retry(let wait): .retry(at: now + wait)
        case .giveUp(let why): .giveUp(reason: why)
        }
    }

    /// A request to `host` (started at `started`) ended: its slot is free, and the host's pace
    /// adapts to `signal`.
    mutating func finished(host name: String, signal: Signal, now: Double, started: Double = .infinity) {
        guard var h = hosts[name] else { return }
        h.active = max(0, h.active - 1)
        active = max(0, active - 1)
        switch signal {
        case .success:
            // Answers to requests sent before the host was slowed say nothing of the new pace.
            guard started >= h.slowedAt else { break }
            h.successes += 1
            h.interval = max(h.limits.interval, h.interval * RetryPolicy.speedUp)
            if h.successes >= RetryPolicy.speedUpAfter {
                h.successes = 0
                h.slots = min(h.limits.slots, h.slots + 1)
            }
        case .pushback(let retryAfter):
            h.successes = 0
            if started >= h.slowedAt {
                h.slowedAt = now
                h.interval = min(
                    RetryPolicy.longestInterval,
                    max(h.interval * RetryPolicy.slowDown, RetryPolicy.leastSlowedInterval))
                // The slots stay: the interval sets the pace, and halving them let two requests
                // waiting for a slow answer (20 s) stall a host that was merely asked to slow down.
                h.slots = max(1, min(h.slots, h.limits.slots))
            }
            let pause = min(RetryPolicy.longestWait, retryAfter ?? max(1, h.interval * 2))
            let until = now + pause
            if until > h.pausedUntil {
                h.stats.pauses += 1
                h.stats.pausedSeconds += until - max(now, h.pausedUntil)
                h.pausedUntil = until
            }
            h.stats.leastSlots = min(h.stats.leastSlots, h.slots)
            h.stats.longestInterval = max(h.stats.longestInterval, h.interval)
        case .failure:
            h.successes = 0
        }
        hosts[name] = h
    }

    /// Counts an answer for the statistics (429 and 503) and a retry.
    mutating func note(host name: String, status: Int?, retried: Bool) {
        guard var h = hosts[name] else { return }
        if status == 429 { h.stats.rateLimited += 1 }
        if status == 503 { h.stats.unavailable += 1 }
        if retried { h.stats.retries += 1 }
        hosts[name] = h
    }

    /// When a request could next start, if none can now and none is in flight to wake us (nil:
    /// only when a request ends or one is queued).
    func nextWake(now: Double) -> Double? {
        var wake = delayed.values.map(\.at).min()
        guard active < maxConcurrency else { return wake }
        for name in rotation {
            guard let h = hosts[name], h.active < h.slots, h.queued > 0 || (!h.confirm.isEmpty && h.delayedOthers == 0)
            else {
                continue
            }
            let t = max(h.lastStart + h.interval, h.pausedUntil)
            wake = min(wake ?? t, t)
        }
        return wake
    }

    /// A host's current pace (for tests).
    func pace(of name: String) -> Limits? { hosts[name].map { Limits(slots: $0.slots, interval: $0.interval) } }

    /// Every host's statistics, by host name.
    var statistics: [Statistics] { hosts.values.map(\.stats).sorted { $0.host < $1.host } }
}
