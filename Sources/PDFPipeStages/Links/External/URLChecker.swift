import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization
import SystemIO

/// What checking one URL found: the raw facts (kept in the cache) from which the outcome follows.
package struct URLFetch: Sendable, Equatable {
    package struct Hop: Codable, Sendable, Equatable {
        package var url: String
        package var status: Int
    }

    /// Why no acceptable answer could be had, apart from the status.
    package enum Failure: String, Codable, Sendable {
        case timeout, unreachable
        case redirectLoop = "redirect-loop"
        case tooManyRedirects = "too-many-redirects"
        case malformed
        case privateAddress = "private-address"
        /// Still answered 429 after the retries (the host slowed down in between): not verified.
        case rateLimited = "rate-limited"
        /// Not answered before the document's web budget ran out (`documentSeconds`): not verified.
        case overBudget = "over-budget"
    }

    /// The URL as requested (after remapping, without fragment).
    package var url: String
    /// What the resolver said when the host's name did not resolve, else nil.
    var unresolvedName: String? {
        failure == .unreachable && message?.hasPrefix("DNS:") == true ? message : nil
    }

    /// The last answer's status, nil when none arrived.
    package var status: Int?
    /// Redirects followed: each hop's URL and the status that sent us on.
    package var redirects: [Hop] = []
    package var finalURL: String
    /// Requests made for this URL, HEAD→GET switches and retries included.
    package var attempts = 0
    /// Retries (after timeouts, connection errors, 429 and 5xx).
    package var retries = 0
    package var failure: Failure?
    package var message: String?
    package var contentType: String?
    /// Seconds since 1970 when it was checked.
    package var checkedAt: Double = 0
    package var fromCache = false
    /// For fragment checks: the fetched PDF's pages and destinations.
    package var document: RemoteDocument?
    /// For fragment checks: the fetched HTML page's anchors (ids, and names of `<a>`), sorted.
    package var anchors: [String]?
    /// The final answer carries a bot protection's signature: why it was judged so (`uri.blocked`).
    package var blocked: String?
    /// It failed twice: when first asked, and when asked again on a new connection at the end.
    package var confirmed = false

    /// A 301 or 308 on the way.
    package var permanentlyRedirected: Bool { redirects.contains { $0.status == 301 || $0.status == 308 } }

    /// What the cache file keeps (`fullJSON` without where the answer came from and the fetched
    /// content, which are for this run only).
    var json: JSONValue {
        guard case .object(var o) = fullJSON else { return .null }
        for k in CodingKeys.forThisRunOnly { o[k.stringValue] = nil }
        return .object(o)
    }

    /// Everything, for a worker process.
    var fullJSON: JSONValue { JSONValue(encoding: self) }

    init(url: String) {
        self.url = url
        finalURL = url
    }

    init?(json: JSONValue) {
        guard let f = try? json.decode(URLFetch.self) else { return nil }
        self = f
    }
}

/// Written and read by one declaration: the cache file's entries and the answers to workers.
/// Writing is synthesized (a nil field left out: only a fetch with a status is cached); reading is
/// lenient where a cache file written by another version may lack a field.
extension URLFetch: Codable {
    enum CodingKeys: String, CodingKey {
        case url, status, finalURL, attempts, retries, checkedAt, redirects, failure, message, contentType, blocked
        case confirmed, fromCache, document, anchors

        static let forThisRunOnly: [CodingKeys] = [.fromCache, .document, .anchors]
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try c.decode(String.self, forKey: .url))
        finalURL = try c.decode(String.self, forKey: .finalURL)
        status = try? c.decodeIfPresent(Int.self, forKey: .status)
        attempts = (try? c.decodeIfPresent(Int.self, forKey: .attempts)) ?? 1
        retries = (try? c.decodeIfPresent(Int.self, forKey: .retries)) ?? 0
        checkedAt = (try? c.decodeIfPresent(Double.self, forKey: .checkedAt)) ?? 0
        redirects = (try? c.decodeIfPresent([Hop].self, forKey: .redirects)) ?? []
        failure = try? c.decodeIfPresent(Failure.self, forKey: .failure)
        message = try? c.decodeIfPresent(String.self, forKey: .message)
        contentType = try? c.decodeIfPresent(String.self, forKey: .contentType)
        blocked = try? c.decodeIfPresent(String.self, forKey: .blocked)
        confirmed = (try? c.decodeIfPresent(Bool.self, forKey: .confirmed)) ?? false
        fromCache = (try? c.decodeIfPresent(Bool.self, forKey: .fromCache)) ?? false
        document = try? c.decodeIfPresent(RemoteDocument.self, forKey: .document)
        anchors = try? c.decodeIfPresent([String].self, forKey: .anchors)
    }
}

/// Checks URLs for a whole run: each distinct URL is requested once, whatever the number of links,
/// documents and workers that ask (a second asker is answered with the first's result). Askers do
/// not wait: `submit` queues keys and returns, and calls back when they are all answered, so a
/// document's URLs are in flight while its worker reads the next documents. One thread drives
/// every transfer (libcurl's multi interface, `HTTPMulti`): at most `maxConcurrency` in flight,
/// each host paced by `HostScheduler` (slots, intervals, backoff on 429 and 503). A failure is
/// confirmed before it is reported: asked again, on a new connection, once nothing else is left
/// to ask.
package final class URLChecker: @unchecked Sendable {
    /// What to fetch: a URL's status, or (for fragment checks) its content as a PDF.
    package struct Key: Codable, Hashable, Sendable {
        package var url: String
        package var download: Bool
    }

    let options: ExternalOptions
    /// The checker's clock, in seconds (monotonic; tests of the scheduler inject their own there).
    let clock: @Sendable () -> Double

    /// Everything below is guarded by `lock` (`@unchecked Sendable`: the loop thread's own state —
    /// the scheduler, the tasks, the connections — is touched by that thread only).
    private let lock = NSCondition()
    private var results: [Key: URLFetch] = [:]
    private var pending: Set<Key> = []
    /// Askers waiting for keys: what each still lacks, and its callback.
    private struct Waiter {
        var keys: [Key]
        var missing: Int
        var done: @Sendable ([Key: URLFetch]) -> Void
    }
    private var waiters: [Int: Waiter] = [:]
    private var waitersOf: [Key: [Int]] = [:]
    private var nextWaiter = 0
    /// Tasks for the loop thread to take.
    private var inbox: [Task] = []
    private var loopAlive = false
    private var waker: HTTPMulti.Waker?
    /// Set by `shutdown`: the loop ends once nothing is pending.
    private var stopping = false
    private var cache: [String: URLFetch]?
    private var cacheDirty = false
    /// Runs in a row each link failed before this one (`confirmRuns` > 1), read once.
    private var history: LinkHistory?
    private var hostStatistics: [HostScheduler.Statistics] = []
    /// Set in an isolated worker process: questions go to the parent, which holds the run's checker,
    /// so each URL is still requested once per run and the cache is the parent's.
    package var forward: (@Sendable ([Key], Double) -> [Key: URLFetch])? {
        get { forwardHook.withLock { $0 } }
        set { forwardHook.withLock { $0 = newValue } }
    }
    private let forwardHook = Locked<(@Sendable ([Key], Double) -> [Key: URLFetch])?>(nil)

    package init(options: ExternalOptions, clock: @escaping @Sendable () -> Double = URLChecker.now) {
        self.options = options
        self.clock = clock
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

    // MARK: - Between processes

    /// A worker's question: the keys it needs.
    package static func request(_ keys: [Key], within seconds: Double = .infinity) -> JSONValue {
        seconds.isFinite ? ["keys": JSONValue(encoding: keys), "within": .double(seconds)] : JSONValue(encoding: keys)
    }

    package static func keys(from json: JSONValue) -> [Key] {
        (try? (json["keys"] ?? json).decode([Key].self)) ?? []
    }

    /// The seconds a worker's question may wait (`request(_:within:)`), infinite when not said.
    package static func budget(from json: JSONValue) -> Double { json["within"]?.doubleValue ?? .infinity }

    /// The parent's answer: each key with its fetch, sorted.
    struct Answered: Codable {
        var url: String
        var download: Bool
        var fetch: URLFetch
    }

    package static func answer(_ fetches: [Key: URLFetch]) -> JSONValue {
        JSONValue(
            encoding: fetches.sorted { ($0.key.url, $0.key.download ? 1 : 0) < ($1.key.url, $1.key.download ? 1 : 0) }
                .map { k, f in Answered(url: k.url, download: k.download, fetch: f) })
    }

    package static func fetches(from json: JSONValue) -> [Key: URLFetch] {
        var out: [Key: URLFetch] = [:]
        for a in (try? json.decode([Answered].self)) ?? [] { out[Key(url: a.url, download: a.download)] = a.fetch }
        return out
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
        loadCacheIfNeeded()
        var added = false
        var missing = 0
        let id = nextWaiter
        nextWaiter += 1
        for key in wanted where results[key] == nil {
            if !pending.contains(key) {
                if !key.download, var cached = cache?[key.url] ?? sharedEntry(key.url), fresh(cached) {
                    cached.fromCache = true
                    results[key] = cached
                    continue
                }
                pending.insert(key)
                inbox.append(Task(key: key, head: options.headFirst && !key.download))
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
    private func startLoopIfNeeded() {
        guard !loopAlive else { return }
        loopAlive = true
        URLChecker.live.wrappingAdd(1, ordering: .relaxed)
        let t = Thread { [self] in loop() }
        t.name = "pdfpipe-http"
        t.start()
    }

    /// A key's result is in: kept (and cached), and the askers it completes are called back.
    private func deliver(_ key: Key, _ fetch: URLFetch) {
        var fetch = fetch
        fetch.checkedAt = SystemClock.now.timeIntervalSince1970
        lock.lock()
        results[key] = fetch
        pending.remove(key)
        let share = !key.download && cacheable(fetch) && options.shards > 1 && cache != nil
        if !key.download, cacheable(fetch) {
            cache?[key.url] = fetch
            cacheDirty = true
        }
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
        if share { writeSharedEntry(fetch) }
        for (w, a) in zip(ready, answers) { w.done(a) }
    }

    // MARK: - The cache shared by shards

    /// Under `--shard K/N`, shards on one machine share their answers as they come: each cacheable
    /// result is also written as a file of its own in `<cache>.shared/` (named by a hash of the URL,
    /// written atomically: a reader sees a whole entry or none), and a URL the run's cache lacks is
    /// looked up there before it is requested — another shard may have answered it minutes ago.
    /// The entry names its URL, so a hash collision is a miss; freshness is the cache's.
    private var sharedFolder: String? {
        guard options.shards > 1, let path = options.cachePath else { return nil }
        return Self.sharedFolder(besideCache: path)
    }

    /// `links.json` → `links.shared`.
    static func sharedFolder(besideCache path: String) -> String {
        (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".shared"
    }

    private func sharedPath(_ url: String) -> String? {
        guard let folder = sharedFolder else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return folder + "/" + String(hash, radix: 16) + ".json"
    }

    /// Called with the lock held (reads one small file: a regular one, not a link, sealed).
    private func sharedEntry(_ url: String) -> URLFetch? {
        guard let path = sharedPath(url),
            let data = FileStatus.readRegular(path, maxBytes: StateSeal.maxSharedEntryBytes),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
            let f = Self.unsealed(json, kind: "shared", url: url)
        else { return nil }
        return f
    }

    private func writeSharedEntry(_ f: URLFetch) {
        guard let folder = sharedFolder, let path = sharedPath(f.url) else { return }
        try? FileSystem.createFolder(folder)
        try? AtomicFile.write(JSONWriter.compact(Self.sealed(f, kind: "shared")) + "\n", to: path)
    }

    /// A fetch as a state file keeps it: its JSON and the MAC over it (`StateSeal`).
    static func sealed(_ f: URLFetch, kind: String) -> JSONValue {
        let json = f.json
        guard case .object(var o) = json else { return json }
        o["mac"] = .string(StateSeal.mac(kind, f.url, JSONWriter.compact(json)))
        return .object(o)
    }

    /// The fetch of a state file's entry for `url`, when it is one and its MAC verifies; nil
    /// otherwise (an entry this machine's key did not seal: committed, planted, or from elsewhere).
    static func unsealed(_ json: JSONValue, kind: String, url: String) -> URLFetch? {
        guard let f = URLFetch(json: json), f.url == url,
            StateSeal.verify(json["mac"]?.stringValue, kind, url, JSONWriter.compact(f.json))
        else { return nil }
        return f
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
    var statistics: [HostScheduler.Statistics] {
        lock.lock()
        defer { lock.unlock() }
        return hostStatistics
    }

    /// Whether the checker has its thread alive or a cache not yet saved: what `shutdown` and
    /// `saveCache` end.
    package var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return loopAlive || cacheDirty
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

    // MARK: - The transfer loop

    /// Checker threads alive in this process, over every checker (for tests).
    package static var liveThreads: Int { live.load(ordering: .relaxed) }
    private static let live = Atomic<Int>(0)

    /// The loop thread's own state.
    private struct Loop {
        var scheduler: HostScheduler
        var tasks: [Int: Task] = [:]
        var nextID = 0
        var idle: [HTTPConnection] = []
        var inFlight: [ObjectIdentifier: (id: Int, connection: HTTPConnection)] = [:]
        /// When each task's request in flight started (for the scheduler's one decrease per round).
        var startedAt: [Int: Double] = [:]
        /// Hosts whose name did not resolve (after retries; `true`: its confirmation too), with
        /// what the resolver said: the host's other URLs share that answer instead of each asking
        /// again (390 links to one host on a runner without DNS took 33 s, 96 s with retries).
        var unresolved: [String: (message: String, confirmed: Bool)] = [:]
    }

    private func loop() {
        do {
            let options = self.options
            var state = Loop(
                scheduler: HostScheduler(maxConcurrency: options.maxConcurrency) { host in
                    HostScheduler.Limits(
                        slots: options.maxPerHost(for: host), interval: options.hostInterval(for: host))
                })
            // Without a multi handle the loop still answers its tasks (with the reason), so that no
            // document waits for ever.
            let multi = try? HTTPMulti()
            lock.lock()
            waker = multi?.waker
            lock.unlock()
            run(&state, multi)
            lock.lock()
            waker = nil
            lock.unlock()
            state.idle.removeAll()
        }
        // Its connections closed: only now does the loop count as ended, so that `shutdown` returns
        // when nothing of the checker is left.
        lock.lock()
        loopAlive = false
        URLChecker.live.wrappingSubtract(1, ordering: .relaxed)
        lock.broadcast()
        lock.unlock()
    }

    private func run(_ state: inout Loop, _ multi: HTTPMulti?) {
        while true {
            let now = clock()
            lock.lock()
            let incoming = inbox
            inbox.removeAll()
            let stop = stopping && pending.isEmpty
            // The run is over and what is left was asked only by documents whose web budget ran
            // out (`expire`): nobody waits for it, so it is dropped (never cached).
            let abandon = stopping && waiters.isEmpty && !pending.isEmpty
            if (state.tasks.isEmpty && incoming.isEmpty) || abandon { hostStatistics = state.scheduler.statistics }
            lock.unlock()
            if abandon || (stop && state.tasks.isEmpty && incoming.isEmpty) { return }
            for t in incoming { queue(t, &state, now: now) }
            while let (id, _) = state.scheduler.next(now: now) { start(id, &state, multi, now: now) }
            if let multi, multi.count > 0 {
                for (connection, response) in multi.perform() {
                    guard let (id, _) = state.inFlight.removeValue(forKey: ObjectIdentifier(connection)) else {
                        continue
                    }
                    state.idle.append(connection)
                    answered(id, response, &state, now: clock())
                }
            }
            let wake = state.scheduler.nextWake(now: clock())
            let wait = wake.map { max(0, $0 - clock()) } ?? 1
            if let multi {
                multi.poll(milliseconds: Int((min(wait, 1) * 1000).rounded(.up)))
            } else if state.tasks.isEmpty {
                lock.lock()
                if inbox.isEmpty && !stopping { _ = lock.wait(until: Date(timeIntervalSinceNow: 1)) }
                lock.unlock()
            }
        }
    }

    private func queue(_ task: Task, _ state: inout Loop, now: Double) {
        let id = state.nextID
        state.nextID += 1
        state.tasks[id] = task
        state.scheduler.enqueue(
            id, host: task.host, notBefore: task.notBefore, confirm: task.confirming != nil, now: now)
    }

    /// Starts task `id`'s next request (its host's slot is taken).
    private func start(_ id: Int, _ state: inout Loop, _ multi: HTTPMulti?, now: Double) {
        guard var task = state.tasks[id] else { return }
        let url = task.current
        let host = URLParts.host(of: url) ?? ""
        task.fetch.attempts += 1
        state.startedAt[id] = now
        func settle(_ failure: URLFetch.Failure, _ message: String) {
            state.scheduler.finished(host: task.host, signal: .success, now: now)
            state.tasks[id] = nil
            _ = finish(&task, failure, message)
            conclude(task, &state, now: now)
        }
        guard let multi else { return settle(.unreachable, "libcurl could not be initialised") }
        if let dns = state.unresolved[task.host], task.confirming == nil || dns.confirmed {
            return settle(.unreachable, dns.message)
        }
        if !options.allowPrivateAddresses, HTTPConnection.proxyConfigured(for: url),
            let address = HTTPConnection.privateAddress(of: host)
        {
            return settle(
                .privateAddress,
                "'\(host)' resolves to \(address), a loopback, private, link-local or multicast address")
        }
        guard
            let connection = state.idle.popLast()
                ?? (try? HTTPConnection(
                    userAgent: options.userAgent, allowPrivateAddresses: options.allowPrivateAddresses))
        else { return settle(.unreachable, "libcurl could not be initialised") }
        var download: (path: String, limit: Int)?
        if task.key.download {
            let path = FileSystem.temporaryDirectory + "/pdfpipe-\(UUID().uuidString).pdf"
            task.temporary = path
            download = (path, options.downloadLimit)
        }
        state.tasks[id] = task
        if let refused = connection.prepare(
            url, head: task.head, headers: options.headerLines(for: url), timeout: options.timeout,
            connectTimeout: min(options.timeout, 10), download: download, fresh: task.confirming != nil)
        {
            state.idle.append(connection)
            return answered(id, refused, &state, now: now)
        }
        state.inFlight[ObjectIdentifier(connection)] = (id, connection)
        multi.add(connection)
    }

    /// A request of task `id` ended with `r`: the host's pace adapts, and the task goes on or ends.
    private func answered(_ id: Int, _ r: HTTPResponse, _ state: inout Loop, now: Double) {
        guard var task = state.tasks.removeValue(forKey: id) else { return }
        let signal: HostScheduler.Signal
        switch (r.failure, r.status) {
        case (nil, 429?): signal = .pushback(retryAfter: r.retryAfter)
        case (nil, 503?) where r.retryAfter != nil: signal = .pushback(retryAfter: r.retryAfter)
        case (.timeout?, _), (.unreachable?, _): signal = .failure
        case (nil, let s?) where s >= 500: signal = .failure
        default: signal = .success
        }
        let started = state.startedAt.removeValue(forKey: id) ?? now
        state.scheduler.finished(host: task.host, signal: signal, now: now, started: started)
        if r.status != nil { state.unresolved[task.host] = nil }  // the name resolves again
        let temporary = task.temporary
        task.temporary = nil
        let retriesBefore = task.fetch.retries
        if var next = advance(&task, r, temporary: temporary, now: now) {
            if let temporary { FileSystem.unlink(temporary) }
            state.scheduler.note(host: task.host, status: r.status, retried: next.fetch.retries > retriesBefore)
            next.host = URLParts.host(of: next.current) ?? ""
            queue(next, &state, now: now)
            return
        }
        state.scheduler.note(host: task.host, status: r.status, retried: false)
        if let dns = task.fetch.unresolvedName {
            unresolved(task.host, dns, confirmed: task.confirming != nil, &state, now: now)
        }
        guard let temporary else { return conclude(task, &state, now: now) }
        // Reading a downloaded PDF or page is CPU work: off the loop, which keeps the transfers going.
        let accepted = options.accept(for: URLParts.host(of: task.current) ?? "").contains(task.fetch.status ?? 0)
        let truncated = r.truncated
        let contentType = r.contentType
        let limit = options.downloadLimit
        let key = task.key
        let first = task.fetch
        DispatchQueue.global().async { [self] in
            defer { FileSystem.unlink(temporary) }
            var fetch = first
            if accepted {
                if truncated {
                    fetch.message = "larger than \(limit >> 20) MB (downloadLimitMB); its fragment was not checked"
                } else if HTMLAnchors.isHTML(contentType) {
                    fetch.anchors = HTMLAnchors.parse(FileSystem.contents(temporary) ?? [])
                        .sorted()
                } else {
                    fetch.document = RemoteDocument.load(temporary)
                }
            }
            deliver(key, fetch)
        }
    }

    /// `host`'s name did not resolve (`confirmed`: when asked again at the end too): its requests
    /// not yet started get that answer now, without a request each.
    private func unresolved(_ host: String, _ message: String, confirmed: Bool, _ state: inout Loop, now: Double) {
        state.unresolved[host] = (message, confirmed)
        for id in state.scheduler.drain(host: host, confirmations: confirmed) {
            guard var waiting = state.tasks.removeValue(forKey: id) else { continue }
            _ = finish(&waiting, .unreachable, message)
            conclude(waiting, &state, now: now)
        }
    }

    /// A task is finished: a failure worth confirming is queued again (once, on a new connection,
    /// after everything else); otherwise its result is delivered.
    private func conclude(_ task: Task, _ state: inout Loop, now: Double) {
        if let first = task.confirming {
            var f = task.fetch
            f.attempts += first.attempts
            f.retries += first.retries
            if Self.needsConfirmation(f, accept: options.accept(for: URLParts.host(of: f.finalURL) ?? "")) {
                f.confirmed = true
            } else {
                // It answered the second time: what it answered stands, and the report says it
                // failed once (`retries`).
                f.retries += 1
            }
            return deliver(task.key, f)
        }
        guard options.confirmFailures, !task.key.download,
            Self.needsConfirmation(
                task.fetch, accept: options.accept(for: URLParts.host(of: task.fetch.finalURL) ?? ""))
        else { return deliver(task.key, task.fetch) }
        var again = Task(key: task.key, head: options.headFirst)
        again.confirming = task.fetch
        again.notBefore = now + Self.confirmDelay
        queue(again, &state, now: now)
    }

    /// The least wait before a failure is asked again.
    static let confirmDelay = 2.0

    /// A failure that would be reported broken or unverified, and that a second look might
    /// overturn: a timeout, a failed connection, a status not accepted (other than 429, which has
    /// its own retries, and a bot wall's). Loops, malformed URLs and the address policy are facts.
    static func needsConfirmation(_ f: URLFetch, accept: StatusSet) -> Bool {
        switch f.failure {
        case .timeout?, .unreachable?: return true
        case nil: return f.blocked == nil && f.status != 429 && !accept.contains(f.status ?? 0)
        default: return false
        }
    }

    /// What a request's answer `r` means for the task: the task to queue again (next hop, retry,
    /// GET after HEAD; with `notBefore` set for a retry), or nil when the task is finished (its
    /// `fetch` filled in; a download's file is read by the caller).
    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): what happens
    /// to one answer (a retry, a redirect, GET after HEAD, pushback) read in one place, each branch
    /// ending by saying what becomes of the task.
    private func advance(_ task: inout Task, _ r: HTTPResponse, temporary: String?, now: Double) -> Task? {
        let url = task.current
        let host = URLParts.host(of: url) ?? ""
        task.fetch.status = r.status
        task.fetch.contentType = r.contentType
        task.fetch.blocked = nil
        switch r.failure {
        case .blockedAddress(let address)?:
            return finish(
                &task, .privateAddress,
                "'\(host)' resolves to \(address), a loopback, private, link-local or multicast address")
        case .timeout?:
            return retry(&task, after: nil, now: now)
                ?? finish(&task, .timeout, "no answer within \(JSONWriter.format(options.timeout)) s")
        case .unreachable(let text)? where text.hasPrefix("DNS:"):
            // A name that does not resolve is an answer, not a passing failure: no retries (the
            // end-of-run confirmation asks once more, once per host).
            return finish(&task, .unreachable, scrub(text))
        case .unreachable(let text)?:
            return retry(&task, after: nil, now: now) ?? finish(&task, .unreachable, scrub(text))
        case .other(let text)?:
            return finish(&task, .malformed, scrub(text))
        case nil:
            break
        }
        let status = r.status ?? 0
        if [301, 302, 303, 307, 308].contains(status), let written = r.location {
            let location = URIReference.resolve(written, against: url)
            task.fetch.redirects.append(URLFetch.Hop(url: url, status: status))
            if task.visited.contains(location) {
                return finish(&task, .redirectLoop, "the redirects loop back to '\(location)'")
            }
            if task.fetch.redirects.count > options.maxRedirects {
                return finish(&task, .tooManyRedirects, "more than \(options.maxRedirects) redirects")
            }
            task.visited.insert(location)
            task.current = location
            task.fetch.finalURL = location
            task.hopRetries = 0
            task.triedGet = false
            task.head = options.headFirst && !task.key.download
            task.notBefore = -.infinity
            return task
        }
        let accept = options.accept(for: host)
        // 429: the host is slowed (HostScheduler); the request waits (Retry-After) and asks the
        // same way again, on a budget of its own. Still refused after it: not verified.
        if status == 429 && !accept.contains(status) {
            if let again = retry(&task, after: r.retryAfter, rateLimited: true, now: now) { return again }
            task.fetch.failure = .rateLimited
            if task.fetch.message == nil {
                task.fetch.message =
                    "it still answered 429 Too Many Requests after \(task.rateRetries) retr\(task.rateRetries == 1 ? "y" : "ies"), its host slowed down in between"
            }
            return nil
        }
        // 5xx: a server failing HEAD may still answer GET, so switch first and retry the GET.
        if (500...599).contains(status) && !accept.contains(status) && !(task.head && !task.triedGet) {
            if let again = retry(&task, after: r.retryAfter, now: now) { return again }
        }
        if task.head && !accept.contains(status) && !task.triedGet
            && (status == 405 || status == 501 || (options.getAfterAnyError && status >= 400))
        {
            task.head = false
            task.triedGet = true
            task.notBefore = -.infinity
            return task
        }
        if !accept.contains(status) {
            task.fetch.blocked = BotProtection.signature(
                status: status, server: r.server, signals: r.signals, body: r.snippet)
        }
        return nil
    }

    /// More 429 retries than failure retries: the host is slowed down between them, and a healthy
    /// link should not be given up because its host was busy.
    static let extraRateLimitRetries = 4

    /// The task again after the backoff, or nil when the retries are used up.
    private func retry(_ task: inout Task, after retryAfter: Double?, rateLimited: Bool = false, now: Double) -> Task? {
        let used = rateLimited ? task.rateRetries : task.hopRetries
        guard used < options.retries + (rateLimited ? Self.extraRateLimitRetries : 0) else { return nil }
        if let retryAfter, retryAfter > HostScheduler.longestPause {
            // A CI job does not sit out an hour-long Retry-After: the answer stands, and says why.
            task.fetch.message =
                "the server asks to wait \(Int(retryAfter)) s before retrying (Retry-After); not waited for"
            return nil
        }
        let wait = HostScheduler.retryDelay(
            url: task.current, retry: used, base: options.retryWait, retryAfter: retryAfter)
        if rateLimited { task.rateRetries += 1 } else { task.hopRetries += 1 }
        task.fetch.retries += 1
        task.notBefore = now + wait
        return task
    }

    private func finish(_ task: inout Task, _ failure: URLFetch.Failure, _ message: String) -> Task? {
        task.fetch.failure = failure
        task.fetch.message = message
        if failure != .redirectLoop && failure != .tooManyRedirects {
            task.fetch.status = failure == .privateAddress ? nil : task.fetch.status
        }
        return nil
    }

    /// Messages never carry a header's secret value (everything written is scrubbed again:
    /// `Secrets`).
    private func scrub(_ text: String) -> String {
        var t = text
        for s in options.secrets { t = t.replacingOccurrences(of: s, with: "***") }
        return Secrets.scrub(t)
    }

    // MARK: - Cache

    private func fresh(_ f: URLFetch) -> Bool {
        Self.isFresh(checkedAt: f.checkedAt, now: SystemClock.now.timeIntervalSince1970, maxAge: options.cacheMaxAge)
            && cacheable(f)
    }

    /// Clocks of runners sharing a cache may differ by this much.
    package static let clockSkew = 300.0

    /// A cache entry is fresh when it was checked at most `maxAge` seconds ago — and not after now
    /// beyond the clock skew: an entry dated in the future (a runner whose clock was ahead, or a
    /// poisoned CI cache) would otherwise never expire, and a dead URL would stay `ok` for ever.
    package static func isFresh(checkedAt: Double, now: Double, maxAge: Double) -> Bool {
        let age = now - checkedAt
        return age >= -clockSkew && age <= maxAge
    }

    private func cacheable(_ f: URLFetch) -> Bool {
        guard let status = f.status, !options.neverCache.contains(status) else { return false }
        // With confirmRuns, a failure is asked again in every run: each failing run must be seen.
        if options.confirmRuns > 1 && isWebFailure(f) == true { return false }
        // Timeouts, connection errors and the address policy say nothing lasting about the URL.
        return f.failure == nil || f.failure == .redirectLoop || f.failure == .tooManyRedirects
    }

    /// Whether a URL's answer is a failure that makes its link broken (true), a success (false), or
    /// neither (nil: not requested, rate-limited, a bot wall, a malformed URL).
    func isWebFailure(_ f: URLFetch) -> Bool? {
        switch f.failure {
        case .timeout?, .unreachable?, .redirectLoop?, .tooManyRedirects?: return true
        case .malformed?, .privateAddress?, .rateLimited?, .overBudget?: return nil
        case nil:
            let status = f.status ?? 0
            if options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(status) { return false }
            return f.blocked == nil && status != 429 ? true : nil
        }
    }

    /// Runs in a row `url` failed before this run (`confirmRuns`; 0 without a history).
    package func failuresBefore(_ url: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if history == nil {
            history =
                options.confirmRuns > 1
                ? options.cachePath.map { LinkHistory.load(LinkHistory.path(besideCache: $0)) } : nil
            if history == nil { history = LinkHistory() }
        }
        return history?.failuresBefore(url, run: LinkHistory.runID) ?? 0
    }

    /// Adds this run's verdicts to the history file (`confirmRuns` > 1). Called once, at the end.
    private func saveHistory() throws {
        guard options.confirmRuns > 1, let cachePath = options.cachePath else { return }
        var verdicts: [String: Bool] = [:]
        for (key, f) in results where !key.download {
            if let failed = isWebFailure(f) { verdicts[key.url] = failed }
        }
        guard !verdicts.isEmpty else { return }
        let date = ISO8601DateFormatter().string(from: SystemClock.now)
        try LinkHistory.update(
            LinkHistory.path(besideCache: cachePath), with: verdicts, run: LinkHistory.runID, date: date)
    }

    private func loadCacheIfNeeded() {
        guard cache == nil, let path = options.cachePath else { return }
        cache = [:]
        // A regular file (not a link) of at most 8 MB; entries without a valid MAC are not read.
        guard let data = FileStatus.readRegular(path, maxBytes: StateSeal.maxCacheBytes),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)), json["version"]?.intValue == 1
        else { return }
        for (url, v) in json["entries"]?.objectValue ?? [:] {
            if let f = Self.unsealed(v, kind: "cache", url: url) { cache?[url] = f }
        }
    }

    /// Writes the cache file (atomically), dropping expired entries. Called once at the end of a run.
    package func saveCache() throws {
        lock.lock()
        defer { lock.unlock() }
        try saveHistory()
        guard let path = options.cachePath, let cache, cacheDirty else { return }
        var entries: [String: JSONValue] = [:]
        for (url, f) in cache where fresh(f) { entries[url] = Self.sealed(f, kind: "cache") }
        let folder = (path as NSString).deletingLastPathComponent
        do throws(Errno) {
            if !folder.isEmpty { try FileSystem.createFolder(folder) }
        } catch {
            throw PDFPipeIOError("cannot create the folder '\(folder)': \(error)")
        }
        let json: JSONValue = [
            "version": 1, "tool": .string("pdfpipe \(PDFPipeVersion.string)"), "entries": .object(entries),
        ]
        try AtomicFile.write(JSONWriter.compact(json) + "\n", to: path)
        cacheDirty = false
    }
}
