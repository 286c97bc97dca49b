import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization
import SystemIO

/// Checks URLs for a whole run: each distinct URL is requested once, whatever the number of links,
/// documents and workers that ask (a second asker is answered with the first's result). Askers do
/// not wait: `submit` queues keys and returns, and calls back when they are all answered, so a
/// document's URLs are in flight while its worker reads the next documents. One thread drives
/// every transfer (libcurl's multi interface, `HTTPMulti`): at most `maxConcurrency` in flight,
/// each host paced by `HostScheduler` (slots, intervals, backoff on 429 and 503). A failure is
/// confirmed before it is reported: asked again, on a new connection, once nothing else is left
/// to ask.
package final class URLChecker: @unchecked Sendable {
    /// What to fetch: a URL's status, or (for fragment checks) its content as a PDF, or (`page`:
    /// to tell a soft 404 or a parked domain) its status with what its first bytes say
    /// (`URLFetch.page`), asked with GET; or (`captures`: a web archive's index query) the
    /// captures it lists (`URLFetch.captures`).
    package struct Key: Codable, Hashable, Sendable {
        package var url: String
        package var download: Bool
        package var page = false
        package var captures = false

        package init(url: String, download: Bool, page: Bool = false, captures: Bool = false) {
            self.url = url
            self.download = download
            self.page = page
            self.captures = captures
        }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decode(String.self, forKey: .url)
            download = try c.decode(Bool.self, forKey: .download)
            page = (try c.decodeIfPresent(Bool.self, forKey: .page)) ?? false
            captures = (try c.decodeIfPresent(Bool.self, forKey: .captures)) ?? false
        }

        /// Its status goes into the history (a download or a page read goes with its status key).
        var isStatus: Bool { !download && !page && !captures }
        /// Its name in the cache: the URL for a status, `page URL` for a page read and `captures
        /// URL` for an index query (a space is in no URL), none for a download (its content is for
        /// this run only).
        var cacheName: String? { download ? nil : page ? "page " + url : captures ? "captures " + url : url }
        /// Its answer's first bytes are read (a page's title, an index's rows).
        var readsStart: Bool { page || captures }
        /// Asked with HEAD when the options say so (downloads and pages need the body).
        func head(_ options: ExternalOptions) -> Bool { options.headFirst && isStatus }
    }

    let options: ExternalOptions
    /// Reads a downloaded PDF's pages and named destinations (for `#page=` and `#nameddest=`
    /// fragments). Given by validate-links: PDFs are read there; this module only fetches them.
    let readDocument: @Sendable (_ path: String) -> RemoteDocument
    /// The checker's clock, in seconds (monotonic; tests of the scheduler inject their own there).
    let clock: @Sendable () -> Double

    /// Everything below is guarded by `lock` (`@unchecked Sendable`: the loop thread's own state —
    /// the scheduler, the tasks, the connections — is touched by that thread only).
    let lock = NSCondition()
    var results: [Key: URLFetch] = [:]
    var pending: Set<Key> = []
    /// Askers waiting for keys: what each still lacks, and its callback.
    struct Waiter {
        var keys: [Key]
        var missing: Int
        var done: @Sendable ([Key: URLFetch]) -> Void
    }
    var waiters: [Int: Waiter] = [:]
    var waitersOf: [Key: [Int]] = [:]
    var nextWaiter = 0
    /// Tasks for the loop thread to take.
    var inbox: [Task] = []
    var loopAlive = false
    var waker: HTTPMulti.Waker?
    /// Set by `shutdown`: the loop ends once nothing is pending.
    var stopping = false
    /// The cache file, the shards' folder and the history of failing runs.
    var cache: LinkCache
    var hostStatistics: [HostScheduler.Statistics] = []
    /// Set in an isolated worker process: questions go to the parent, which holds the run's checker,
    /// so each URL is still requested once per run and the cache is the parent's.
    package var forward: (@Sendable ([Key], Double) -> [Key: URLFetch])? {
        get { forwardHook.withLock { $0 } }
        set { forwardHook.withLock { $0 = newValue } }
    }
    private let forwardHook = Locked<(@Sendable ([Key], Double) -> [Key: URLFetch])?>(nil)

    package init(
        options: ExternalOptions, readDocument: @escaping @Sendable (_ path: String) -> RemoteDocument,
        clock: @escaping @Sendable () -> Double = URLChecker.now
    ) {
        self.options = options
        self.readDocument = readDocument
        self.clock = clock
        cache = LinkCache(options: options)
    }

    /// One URL's progress through its requests (hops, retries, GET after HEAD, a confirmation).
    struct Task {
        var key: Key
        var fetch: URLFetch
        /// The URL of this hop.
        var current: String
        var head: Bool
        /// Retries at this hop: after failures, and after 429s (a budget of their own).
        var hopRetries = 0
        var rateRetries = 0
        var triedGet = false
        var visited: Set<String> = []
        var notBefore = -Double.infinity
        var host: String
        /// The failure being confirmed, when this is its second check.
        var confirming: URLFetch?
        /// The temporary file of a download in flight.
        var temporary: String?

        init(key: Key, head: Bool) {
            self.key = key
            fetch = URLFetch(url: key.url)
            current = key.url
            self.head = head
            visited = [key.url]
            host = URLParts.host(of: key.url) ?? ""
        }
    }

    @Sendable package static func now() -> Double { SystemClock.uptime }

    /// The results for `keys`, requesting what is neither known nor cached. Blocks until all are in,
    /// or `seconds` have passed (the keys not in by then are `overBudget`).
    package func check(_ keys: [Key], within seconds: Double = .infinity) -> [Key: URLFetch] {
        if let forward { return forward(keys, seconds) }
        let answered = Locked<[Key: URLFetch]>([:])
        let done = DispatchSemaphore(value: 0)
        submit(keys, within: seconds) { fetches in
            answered.withLock { $0 = fetches }
            done.signal()
        }
        done.wait()
        return answered.withLock { $0 }
    }

    /// Queues `keys` and returns at once; `done` is called (on the checker's thread, or on this one
    /// when everything is known already) with every key's result once all are in, or after
    /// `seconds` with the keys not in yet as `overBudget` (their requests go on for the run).
    package func submit(
        _ keys: [Key], within seconds: Double = .infinity, then done: @escaping @Sendable ([Key: URLFetch]) -> Void
    ) {
        if let forward {
            DispatchQueue.global().async { done(forward(keys, seconds)) }
            return
        }
        let wanted = Array(Set(keys))
        lock.lock()
        cache.load()
        var added = false
        var missing = 0
        let id = nextWaiter
        nextWaiter += 1
        for key in wanted where results[key] == nil {
            if !pending.contains(key) {
                if let name = key.cacheName, var cached = cache.answer(for: name) {
                    (cached.url, cached.fromCache) = (key.url, true)
                    results[key] = cached
                    continue
                }
                pending.insert(key)
                inbox.append(Task(key: key, head: key.head(options)))
                added = true
            }
            missing += 1
            waitersOf[key, default: []].append(id)
        }
        if missing == 0 {
            var out: [Key: URLFetch] = [:]
            for k in wanted { out[k] = results[k] }
            lock.unlock()
            done(out)
            return
        }
        waiters[id] = Waiter(keys: wanted, missing: missing, done: done)
        if seconds.isFinite {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(min(seconds, 1e6) * 1000))) {
                [self] in expire(id, after: seconds)
            }
        }
        if added { startLoopIfNeeded() }
        // Under the lock: the loop clears `waker` (under it) before its multi handle is freed.
        waker?.wakeup()
        lock.unlock()
    }

    /// Ends a waiter whose budget ran out: what is in, and the rest `overBudget`.
    private func expire(_ id: Int, after seconds: Double) {
        lock.lock()
        guard let w = waiters.removeValue(forKey: id) else { return lock.unlock() }
        var out: [Key: URLFetch] = [:]
        for k in w.keys {
            if let r = results[k] {
                out[k] = r
            } else {
                var f = URLFetch(url: k.url)
                f.failure = .overBudget
                f.message = "not answered within the document's \(JSONWriter.format(seconds)) s for web checks"
                out[k] = f
            }
        }
        lock.unlock()
        w.done(out)
    }

    /// Called with the lock held.
    func startLoopIfNeeded() {
        guard !loopAlive else { return }
        loopAlive = true
        URLChecker.live.wrappingAdd(1, ordering: .relaxed)
        let t = Thread { [self] in loop() }
        t.name = "pdfpipe-http"
        t.start()
    }

    /// A key's result is in: kept (and cached), and the askers it completes are called back.
    func deliver(_ key: Key, _ fetch: URLFetch) {
        var fetch = fetch
        fetch.checkedAt = SystemClock.now.timeIntervalSince1970
        lock.lock()
        results[key] = fetch
        pending.remove(key)
        var kept = fetch
        if let name = key.cacheName { kept.url = name }
        let share = key.cacheName.map { cache.keep(kept, as: $0) } ?? false
        var ready: [Waiter] = []
        for id in waitersOf.removeValue(forKey: key) ?? [] where waiters[id] != nil {
            waiters[id]!.missing -= 1
            if waiters[id]!.missing == 0, let w = waiters.removeValue(forKey: id) { ready.append(w) }
        }
        let answers = ready.map { w in
            var out: [Key: URLFetch] = [:]
            for k in w.keys { out[k] = results[k] }
            return out
        }
        lock.broadcast()
        lock.unlock()
        if share { cache.shared?.write(kept) }
        for (w, a) in zip(ready, answers) { w.done(a) }
    }

    /// What the run's requests gave, over every URL asked (from the cache or the network).
    package struct Outcomes: Sendable, Equatable {
        package var urls = 0
        /// Not requested: the host resolves to a private, loopback or link-local address.
        package var privateAddresses = 0
        /// URLs that got an HTTP answer (any status).
        package var answered = 0
        package var notResolved = 0
        package var notConnected = 0
        package var timedOut = 0
        /// Hosts requested (private ones aside).
        package var hosts = 0

        /// Three or more hosts, none of which answered anything: every request failed to resolve,
        /// connect or answer in time.
        package var networkLooksDown: Bool {
            hosts >= 3 && answered == 0 && notResolved + notConnected + timedOut == urls - privateAddresses
        }
    }

    package func outcomes() -> Outcomes {
        lock.lock()
        defer { lock.unlock() }
        var o = Outcomes()
        var hosts = Set<String>()
        for f in results.values {
            o.urls += 1
            switch f.failure {
            case .privateAddress?:
                o.privateAddresses += 1
                continue
            case .timeout?: o.timedOut += 1
            case .unreachable? where f.status == nil:
                if f.message?.hasPrefix("DNS:") == true { o.notResolved += 1 } else { o.notConnected += 1 }
            default: if f.status != nil { o.answered += 1 }
            }
            hosts.insert(URLParts.host(of: f.url) ?? f.url)
        }
        o.hosts = hosts.count
        return o
    }

    /// Each host's requests, pushbacks, retries and pauses so far (as of the last time the checker
    /// had nothing in flight), by host name.
    package var statistics: [HostScheduler.Statistics] {
        lock.lock()
        defer { lock.unlock() }
        return hostStatistics
    }

    /// Runs in a row `url` failed before this run (`confirmRuns`; 0 without a history).
    package func failuresBefore(_ url: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return cache.failuresBefore(url)
    }

    /// Writes the history and the cache file (`LinkCache.save`). Called once at the end of a run.
    package func saveCache() throws {
        lock.lock()
        defer { lock.unlock() }
        try cache.save(results: results)
    }

    /// Whether the checker has its thread alive or a cache not yet saved: what `shutdown` and
    /// `saveCache` end.
    package var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return loopAlive || cache.dirty
    }

    /// Ends the checker's thread once its work is done (after the run's last document), and waits
    /// for it: its connections are closed and nothing is left running.
    package func shutdown() {
        lock.lock()
        stopping = true
        waker?.wakeup()
        while loopAlive { lock.wait() }
        lock.unlock()
    }
}
