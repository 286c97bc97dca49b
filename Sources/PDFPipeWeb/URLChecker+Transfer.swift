import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization
import SystemIO

/// The transfer loop: one thread drives every request (libcurl's multi interface), paced by
/// `HostScheduler`; what an answer means for its task is `URLChecker+Answers.swift`'s.
extension URLChecker {
    /// Checker threads alive in this process, over every checker (for tests).
    package static var liveThreads: Int { live.load(ordering: .relaxed) }
    static let live = Atomic<Int>(0)

    /// The loop thread's own state.
    struct Loop {
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

    func loop() {
        do {
            let options = self.options
            var state = Loop(
                scheduler: HostScheduler(maxConcurrency: options.maxConcurrency, policy: options.retryPolicy) { host in
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

    func run(_ state: inout Loop, _ multi: HTTPMulti?) {
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

    func queue(_ task: Task, _ state: inout Loop, now: Double) {
        let id = state.nextID
        state.nextID += 1
        state.tasks[id] = task
        state.scheduler.enqueue(
            id, host: task.host, notBefore: task.notBefore, confirm: task.confirming != nil, now: now)
    }

    /// Starts task `id`'s next request (its host's slot is taken).
    func start(_ id: Int, _ state: inout Loop, _ multi: HTTPMulti?, now: Double) {
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
            url, head: task.head, headers: options.headerLines(for: url), timeout: options.timeoutSeconds,
            connectTimeout: min(options.timeoutSeconds, 10), download: download, fresh: task.confirming != nil,
            readStart: task.key.readsStart)
        {
            state.idle.append(connection)
            return answered(id, refused, &state, now: now)
        }
        state.inFlight[ObjectIdentifier(connection)] = (id, connection)
        multi.add(connection)
    }

    /// A request of task `id` ended with `r`: the host's pace adapts, and the task goes on or ends.
    func answered(_ id: Int, _ r: HTTPResponse, _ state: inout Loop, now: Double) {
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
        if var next = advance(&task, r, temporary: temporary, scheduler: state.scheduler, now: now) {
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
                    fetch.document = readDocument(temporary)
                }
            }
            deliver(key, fetch)
        }
    }

    /// `host`'s name did not resolve (`confirmed`: when asked again at the end too): its requests
    /// not yet started get that answer now, without a request each.
    func unresolved(_ host: String, _ message: String, confirmed: Bool, _ state: inout Loop, now: Double) {
        state.unresolved[host] = (message, confirmed)
        for id in state.scheduler.drain(host: host, confirmations: confirmed) {
            guard var waiting = state.tasks.removeValue(forKey: id) else { continue }
            _ = finish(&waiting, .unreachable, message)
            conclude(waiting, &state, now: now)
        }
    }

    /// A task is finished: a failure worth confirming is queued again (once, on a new connection,
    /// after everything else); otherwise its result is delivered.
    func conclude(_ task: Task, _ state: inout Loop, now: Double) {
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
        guard options.confirmFailures, task.key.isStatus,
            Self.needsConfirmation(
                task.fetch, accept: options.accept(for: URLParts.host(of: task.fetch.finalURL) ?? ""))
        else { return deliver(task.key, task.fetch) }
        var again = Task(key: task.key, head: task.key.head(options))
        again.confirming = task.fetch
        again.notBefore = now + RetryPolicy.confirmDelay
        queue(again, &state, now: now)
    }
}
