import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization

/// What checking one URL found: the raw facts (kept in the cache) from which the outcome follows.
public struct URLFetch: Sendable, Equatable {
    public struct Hop: Codable, Sendable, Equatable {
        public var url: String
        public var status: Int
    }

    /// Why no acceptable answer could be had, apart from the status.
    public enum Failure: String, Codable, Sendable {
        case timeout, unreachable
        case redirectLoop = "redirect-loop"
        case tooManyRedirects = "too-many-redirects"
        case malformed
        case privateAddress = "private-address"
    }

    /// The URL as requested (after remapping, without fragment).
    public var url: String
    /// The last answer's status, nil when none arrived.
    public var status: Int?
    /// Redirects followed: each hop's URL and the status that sent us on.
    public var redirects: [Hop] = []
    public var finalURL: String
    /// Requests made for this URL, HEAD→GET switches and retries included.
    public var attempts = 0
    /// Retries (after timeouts, connection errors, 429 and 5xx).
    public var retries = 0
    public var failure: Failure?
    public var message: String?
    public var contentType: String?
    /// Seconds since 1970 when it was checked.
    public var checkedAt: Double = 0
    public var fromCache = false
    /// For fragment checks: the fetched PDF's pages and destinations.
    public var document: RemoteDocument?
    /// For fragment checks: the fetched HTML page's anchors (ids, and names of `<a>`), sorted.
    public var anchors: [String]?
    /// The final answer carries a bot protection's signature: why it was judged so (`uri.blocked`).
    public var blocked: String?

    /// A 301 or 308 on the way.
    public var permanentlyRedirected: Bool { redirects.contains { $0.status == 301 || $0.status == 308 } }

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
        case fromCache, document, anchors

        static let forThisRunOnly: [CodingKeys] = [.fromCache, .document, .anchors]
    }

    public init(from decoder: any Decoder) throws {
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
        fromCache = (try? c.decodeIfPresent(Bool.self, forKey: .fromCache)) ?? false
        document = try? c.decodeIfPresent(RemoteDocument.self, forKey: .document)
        anchors = try? c.decodeIfPresent([String].self, forKey: .anchors)
    }
}

/// Checks URLs for a whole run: each distinct URL is requested once, whatever the number of links,
/// documents and workers that ask (a second asker waits for the first's answer). Requests run on
/// the checker's own threads (`maxConcurrency` of them), at most `maxPerHost` at once to one host,
/// starting at least `hostIntervalSeconds` apart per host; retries wait without holding a thread.
public final class URLChecker: @unchecked Sendable {
    /// What to fetch: a URL's status, or (for fragment checks) its content as a PDF.
    public struct Key: Codable, Hashable, Sendable {
        public var url: String
        public var download: Bool
    }

    let options: ExternalOptions
    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var results: [Key: URLFetch] = [:]
    private var pending: Set<Key> = []
    /// Per host: requests in flight, when the last one started, and its queue of tasks ready to go.
    private struct Host {
        var active = 0
        var lastStart = -Double.infinity
        var tasks: [Task] = []
        var head = 0
        var queued: Int { tasks.count - head }
    }
    private var hosts: [String: Host] = [:]
    /// Hosts with queued tasks, in the order they are served (round robin).
    private var waitingHosts: [String] = []
    /// Tasks waiting for a retry's backoff, by the time they may go.
    private var delayed: [Task] = []
    private var threads = 0
    /// Set by `shutdown`: threads end once nothing is pending.
    private var stopping = false
    private var cache: [String: URLFetch]?
    private var cacheDirty = false
    /// Set in an isolated worker process: questions go to the parent, which holds the run's checker,
    /// so each URL is still requested once per run and the cache is the parent's.
    public var forward: (@Sendable ([Key]) -> [Key: URLFetch])? {
        get { forwardHook.withLock { $0 } }
        set { forwardHook.withLock { $0 = newValue } }
    }
    private let forwardHook = Locked<(@Sendable ([Key]) -> [Key: URLFetch])?>(nil)

    public init(options: ExternalOptions) {
        self.options = options
    }

    struct Task {
        var key: Key
        var fetch: URLFetch
        /// The URL of this hop.
        var current: String
        var head: Bool
        /// Retries at this hop.
        var hopRetries = 0
        var triedGet = false
        var visited: Set<String> = []
        var notBefore = 0.0
        var host: String

        init(key: Key, head: Bool) {
            self.key = key
            fetch = URLFetch(url: key.url)
            current = key.url
            self.head = head
            visited = [key.url]
            host = URLParts.host(of: key.url) ?? ""
        }
    }

    /// Queues a task on its host (or among the delayed ones). Called with the lock held.
    private func enqueue(_ task: Task) {
        if task.notBefore > URLChecker.now() {
            delayed.append(task)
            return
        }
        if hosts[task.host, default: Host()].queued == 0 { waitingHosts.append(task.host) }
        hosts[task.host, default: Host()].tasks.append(task)
    }

    /// The next task a thread may start now, its host's slot taken. Called with the lock held.
    private func nextTask(_ now: Double) -> Task? {
        if !delayed.isEmpty {
            var still: [Task] = []
            for t in delayed {
                if t.notBefore <= now {
                    if hosts[t.host, default: Host()].queued == 0 { waitingHosts.append(t.host) }
                    hosts[t.host, default: Host()].tasks.append(t)
                } else {
                    still.append(t)
                }
            }
            delayed = still
        }
        for (i, name) in waitingHosts.enumerated() {
            guard var h = hosts[name], h.active < options.maxPerHost(for: name),
                now - h.lastStart >= options.hostInterval(for: name)
            else { continue }
            let task = h.tasks[h.head]
            h.head += 1
            h.active += 1
            h.lastStart = now
            waitingHosts.remove(at: i)
            if h.queued == 0 {
                h.tasks.removeAll(keepingCapacity: false)
                h.head = 0
            } else {
                if h.head > 256 && h.head * 2 > h.tasks.count {
                    h.tasks.removeFirst(h.head)
                    h.head = 0
                }
                waitingHosts.append(name)  // to the back: round robin between hosts
            }
            hosts[name] = h
            return task
        }
        return nil
    }

    /// When a task could next start, if none can now (nil: only when something finishes).
    private func nextWake(_ now: Double) -> Double? {
        var wake = delayed.map(\.notBefore).min()
        for name in waitingHosts {
            guard let h = hosts[name], h.active < options.maxPerHost(for: name) else { continue }
            let t = h.lastStart + options.hostInterval(for: name)
            wake = min(wake ?? t, t)
        }
        return wake
    }

    // MARK: - Between processes

    /// A worker's question: the keys it needs.
    public static func request(_ keys: [Key]) -> JSONValue { JSONValue(encoding: keys) }

    public static func keys(from json: JSONValue) -> [Key] { (try? json.decode([Key].self)) ?? [] }

    /// The parent's answer: each key with its fetch, sorted.
    struct Answered: Codable {
        var url: String
        var download: Bool
        var fetch: URLFetch
    }

    public static func answer(_ fetches: [Key: URLFetch]) -> JSONValue {
        JSONValue(
            encoding: fetches.sorted { ($0.key.url, $0.key.download ? 1 : 0) < ($1.key.url, $1.key.download ? 1 : 0) }
                .map { k, f in Answered(url: k.url, download: k.download, fetch: f) })
    }

    public static func fetches(from json: JSONValue) -> [Key: URLFetch] {
        var out: [Key: URLFetch] = [:]
        for a in (try? json.decode([Answered].self)) ?? [] { out[Key(url: a.url, download: a.download)] = a.fetch }
        return out
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The results for `keys`, requesting what is neither known nor cached. Blocks until all are in.
    public func check(_ keys: [Key]) -> [Key: URLFetch] {
        if let forward { return forward(keys) }
        condition.lock()
        defer { condition.unlock() }
        loadCacheIfNeeded()
        var added = false
        for key in Set(keys) where results[key] == nil && !pending.contains(key) {
            if !key.download, var cached = cache?[key.url], fresh(cached) {
                cached.fromCache = true
                results[key] = cached
                continue
            }
            pending.insert(key)
            enqueue(Task(key: key, head: options.headFirst && !key.download))
            added = true
        }
        if added {
            while threads < options.maxConcurrency && threads < pending.count {
                threads += 1
                let t = Thread { [self] in work() }
                t.name = "pdfpipe-http"
                t.start()
            }
            condition.broadcast()
        }
        // Wait until every key has its result; answers arrive roughly in order, so a cursor keeps
        // each wake-up cheap however many keys there are.
        var cursor = 0
        while cursor < keys.count {
            if results[keys[cursor]] != nil {
                cursor += 1
            } else {
                condition.wait()
            }
        }
        var out: [Key: URLFetch] = [:]
        for k in keys { out[k] = results[k] }
        return out
    }

    /// What the run's requests gave, over every URL asked (from the cache or the network).
    public struct Outcomes: Sendable, Equatable {
        public var urls = 0
        /// Not requested: the host resolves to a private, loopback or link-local address.
        public var privateAddresses = 0
        /// URLs that got an HTTP answer (any status).
        public var answered = 0
        public var notResolved = 0
        public var notConnected = 0
        public var timedOut = 0
        /// Hosts requested (private ones aside).
        public var hosts = 0

        /// Three or more hosts, none of which answered anything: every request failed to resolve,
        /// connect or answer in time.
        public var networkLooksDown: Bool {
            hosts >= 3 && answered == 0 && notResolved + notConnected + timedOut == urls - privateAddresses
        }
    }

    public func outcomes() -> Outcomes {
        condition.lock()
        defer { condition.unlock() }
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

    /// Whether the checker has threads alive or a cache not yet saved: what `shutdown` and
    /// `saveCache` end.
    public var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threads > 0 || cacheDirty
    }

    /// Ends the checker's threads once their work is done (after the run's last document), and
    /// waits for them: their connections are closed and nothing is left running.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while threads > 0 { condition.wait() }
        condition.unlock()
    }

    // MARK: - Workers

    /// Checker threads alive in this process, over every checker (for tests).
    public static var liveThreads: Int { live.load(ordering: .relaxed) }
    private static let live = Atomic<Int>(0)

    private func work() {
        URLChecker.live.wrappingAdd(1, ordering: .relaxed)
        do {
            // Without a handle the thread still answers its tasks (with the reason), so that no
            // document waits forever.
            let connection = try? HTTPConnection(
                userAgent: options.userAgent, allowPrivateAddresses: options.allowPrivateAddresses)
            serve(connection)
        }
        // Its connection closed: only now does the thread count as ended, so that `shutdown`
        // returns when nothing of the checker is left (not while a thread still closes it).
        condition.lock()
        threads -= 1
        URLChecker.live.wrappingSubtract(1, ordering: .relaxed)
        condition.broadcast()
        condition.unlock()
    }

    /// A thread's loop, until the checker shuts down with nothing left to do.
    private func serve(_ connection: HTTPConnection?) {
        condition.lock()
        while true {
            let now = URLChecker.now()
            if var task = nextTask(now) {
                let host = task.host
                condition.unlock()
                let next = step(&task, connection)
                condition.lock()
                hosts[host]!.active -= 1
                if var next {
                    next.host = URLParts.host(of: next.current) ?? ""
                    enqueue(next)
                } else {
                    task.fetch.checkedAt = Date().timeIntervalSince1970
                    results[task.key] = task.fetch
                    pending.remove(task.key)
                    if !task.key.download, cacheable(task.fetch) {
                        cache?[task.key.url] = task.fetch
                        cacheDirty = true
                    }
                }
                condition.broadcast()
                continue
            }
            // Shut down with nothing left to do: the thread ends and its connection is closed.
            if stopping && pending.isEmpty {
                condition.unlock()
                return
            }
            // Nothing may start now: sleep until something could, or until a request finishes or
            // a document queues URLs (both broadcast).
            if let wake = nextWake(now) {
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(wake - now, 0.0005)))
            } else {
                condition.wait()
            }
        }
    }

    /// Makes one request for a task; returns the task to queue again (next hop, retry, GET after
    /// HEAD), or nil when the task is finished (its `fetch` filled in).
    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): what happens
    /// to one request (an answer, a retry, a redirect, GET after HEAD, a download) read in one
    /// place, each branch ending by saying what becomes of the task.
    private func step(_ task: inout Task, _ connection: HTTPConnection?) -> Task? {
        let url = task.current
        task.fetch.attempts += 1
        guard let connection else { return finish(&task, .unreachable, "libcurl could not be initialised") }
        if !options.allowPrivateAddresses, HTTPConnection.proxyConfigured(for: url), let host = URLParts.host(of: url),
            let address = HTTPConnection.privateAddress(of: host)
        {
            return finish(
                &task, .privateAddress,
                "'\(host)' resolves to \(address), a loopback, private, link-local or multicast address")
        }
        var download: (path: String, limit: Int)?
        let temporary =
            task.key.download
            ? FileManager.default.temporaryDirectory.appendingPathComponent("pdfpipe-\(UUID().uuidString).pdf").path
            : nil
        if let temporary { download = (temporary, options.downloadLimit) }
        defer { if let temporary { unlink(temporary) } }
        let host = URLParts.host(of: url) ?? ""
        let r = connection.request(
            url, head: task.head, headers: options.headerLines(for: host), timeout: options.timeout,
            connectTimeout: min(options.timeout, 10), download: download)
        task.fetch.status = r.status
        task.fetch.contentType = r.contentType
        task.fetch.blocked = nil
        switch r.failure {
        case .blockedAddress(let address)?:
            return finish(
                &task, .privateAddress,
                "'\(host)' resolves to \(address), a loopback, private, link-local or multicast address")
        case .timeout?:
            return retry(&task, after: nil)
                ?? finish(&task, .timeout, "no answer within \(JSONWriter.format(options.timeout)) s")
        case .unreachable(let text)?:
            return retry(&task, after: nil) ?? finish(&task, .unreachable, scrub(text))
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
            task.notBefore = 0
            return task
        }
        // 429: wait (Retry-After) and ask the same way again. 5xx: a server failing HEAD may still
        // answer GET, so switch first and retry the GET.
        let accept = options.accept(for: host)
        if status == 429 || ((500...599).contains(status) && !(task.head && !task.triedGet && !accept.contains(status)))
        {
            if let again = retry(&task, after: r.retryAfter) { return again }
        }
        if task.head && !accept.contains(status) && !task.triedGet
            && (status == 405 || status == 501 || (options.getAfterAnyError && status >= 400))
        {
            task.head = false
            task.triedGet = true
            task.notBefore = 0
            return task
        }
        if !accept.contains(status) {
            task.fetch.blocked = BotProtection.signature(
                status: status, server: r.server, signals: r.signals, body: r.snippet)
        }
        if task.key.download, let temporary, accept.contains(status) {
            if r.truncated {
                task.fetch.message =
                    "larger than \(options.downloadLimit >> 20) MB (downloadLimitMB); its fragment was not checked"
            } else if HTMLAnchors.isHTML(r.contentType) {
                task.fetch.anchors = HTMLAnchors.parse(Array(FileManager.default.contents(atPath: temporary) ?? Data()))
                    .sorted()
            } else {
                task.fetch.document = RemoteDocument.load(temporary)
            }
        }
        return nil
    }

    /// The task again after the backoff, or nil when the retries are used up.
    private func retry(_ task: inout Task, after retryAfter: Double?) -> Task? {
        guard task.hopRetries < options.retries else { return nil }
        if let retryAfter, retryAfter > 60 {
            // A CI job does not sit out an hour-long Retry-After: the answer stands, and says why.
            task.fetch.message =
                "the server asks to wait \(Int(retryAfter)) s before retrying (Retry-After); not waited for"
            return nil
        }
        let wait = min(retryAfter ?? options.retryWait * pow(2, Double(task.hopRetries)), 60)
        task.hopRetries += 1
        task.fetch.retries += 1
        task.notBefore = URLChecker.now() + wait
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

    /// Messages never carry a header's secret value.
    private func scrub(_ text: String) -> String {
        var t = text
        for s in options.secrets { t = t.replacingOccurrences(of: s, with: "***") }
        return t
    }

    // MARK: - Cache

    private func fresh(_ f: URLFetch) -> Bool {
        Self.isFresh(checkedAt: f.checkedAt, now: Date().timeIntervalSince1970, maxAge: options.cacheMaxAge)
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
        // Timeouts, connection errors and the address policy say nothing lasting about the URL.
        return f.failure == nil || f.failure == .redirectLoop || f.failure == .tooManyRedirects
    }

    private func loadCacheIfNeeded() {
        guard cache == nil, let path = options.cachePath else { return }
        cache = [:]
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)), json["version"]?.intValue == 1
        else { return }
        for (url, v) in json["entries"]?.objectValue ?? [:] {
            if let f = URLFetch(json: v), f.url == url { cache?[url] = f }
        }
    }

    /// Writes the cache file (atomically), dropping expired entries. Called once at the end of a run.
    public func saveCache() throws {
        condition.lock()
        defer { condition.unlock() }
        guard let path = options.cachePath, let cache, cacheDirty else { return }
        var entries: [String: JSONValue] = [:]
        for (url, f) in cache where fresh(f) { entries[url] = f.json }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let json: JSONValue = [
            "version": 1, "tool": .string("pdfpipe \(PDFPipeVersion.string)"), "entries": .object(entries),
        ]
        try AtomicFile.write(JSONWriter.pretty(json) + "\n", to: path)
        cacheDirty = false
    }
}
