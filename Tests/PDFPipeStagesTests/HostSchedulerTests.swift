import PDFPipeCore
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// The URL checker's scheduler, driven by hand with the time passed in: every verdict follows from
/// the calls, none from a clock or a sleep.
final class HostSchedulerTests: XCTestCase {
    func scheduler(total: Int = 128, slots: Int = 2, interval: Double = 0) -> HostScheduler {
        HostScheduler(maxConcurrency: total, policy: RetryPolicy(retries: 2, firstWait: 1)) { _ in
            HostScheduler.Limits(slots: slots, interval: interval)
        }
    }

    /// Everything that may start at `now`.
    func drain(_ s: inout HostScheduler, at now: Double) -> [Int] {
        var out: [Int] = []
        while let (id, _) = s.next(now: now) { out.append(id) }
        return out
    }

    func testSlotsIntervalAndTotalLimits() {
        var s = scheduler(total: 3, slots: 2, interval: 0.5)
        for id in 0..<4 { s.enqueue(id, host: "a", now: 0) }
        for id in 10..<14 { s.enqueue(id, host: "b", now: 0) }
        // One per host at t=0 (the interval), round robin between hosts.
        XCTAssertEqual(drain(&s, at: 0), [0, 10])
        XCTAssertEqual(drain(&s, at: 0.4), [], "interval not over")
        XCTAssertEqual(s.nextWake(now: 0.4), 0.5)
        // At 0.5 each host may start its second, but only one fits in the total of 3.
        XCTAssertEqual(drain(&s, at: 0.5), [1])
        s.finished(host: "a", signal: .success, now: 0.6)
        XCTAssertEqual(drain(&s, at: 0.6), [11], "b's turn: its interval is over, a's is not")
        XCTAssertEqual(s.active, 3)
        XCTAssertEqual(s.waiting, 4)
    }

    /// (#61, 3) A host whose name did not resolve: its requests not started are taken out (queued
    /// and waiting for a time), confirmations only when asked; other hosts keep theirs.
    func testAHostsWaitingRequestsAreTakenOut() {
        var s = scheduler(slots: 1, interval: 0)
        for id in 0..<4 { s.enqueue(id, host: "a", now: 0) }
        s.enqueue(10, host: "b", now: 0)
        s.enqueue(5, host: "a", notBefore: 3, now: 0)
        s.enqueue(6, host: "a", confirm: true, now: 0)
        s.enqueue(7, host: "a", notBefore: 3, confirm: true, now: 0)
        XCTAssertEqual(drain(&s, at: 0), [0, 10])
        XCTAssertEqual(s.drain(host: "a", confirmations: false), [1, 2, 3, 5])
        XCTAssertEqual(s.waiting, 2, "the confirmations stay")
        s.finished(host: "a", signal: .failure, now: 1)
        XCTAssertEqual(s.drain(host: "a", confirmations: true), [6, 7])
        XCTAssertEqual(s.waiting, 0)
        XCTAssertEqual(drain(&s, at: 5), [])
        XCTAssertEqual(s.drain(host: "nobody", confirmations: true), [])
    }

    func testPushbackPausesTheWholeHostAndRecoversSlowly() {
        var s = scheduler(slots: 4, interval: 0)
        for id in 0..<40 { s.enqueue(id, host: "a", now: 0) }
        for id in 100..<102 { s.enqueue(id, host: "b", now: 0) }
        XCTAssertEqual(drain(&s, at: 0).count, 6)
        // One 429 with Retry-After: 2 pauses host a for 2 s — every queued request, not only its own.
        s.finished(host: "a", signal: .pushback(retryAfter: 2), now: 0.1)
        s.finished(host: "b", signal: .success, now: 0.1)
        XCTAssertEqual(drain(&s, at: 0.1), [], "a is paused; b has nothing left")
        // The three still in flight were sent at the old pace: their answers do not speed it up.
        for _ in 0..<3 { s.finished(host: "a", signal: .success, now: 0.2, started: 0) }
        XCTAssertEqual(drain(&s, at: 2.0), [], "still paused just before 2.1")
        XCTAssertEqual(s.nextWake(now: 2.0)!, 2.1, accuracy: 1e-9)
        XCTAssertEqual(s.pace(of: "a"), HostScheduler.Limits(slots: 4, interval: 0.1), "an interval, the slots kept")
        XCTAssertEqual(drain(&s, at: 2.1), [4])
        XCTAssertEqual(drain(&s, at: 2.15), [], "the 0.1 s interval")
        XCTAssertEqual(drain(&s, at: 2.2), [5])
        // A second 429, to a request sent before the pause, does not slow the host again.
        s.finished(host: "a", signal: .pushback(retryAfter: nil), now: 2.25, started: 0)
        XCTAssertEqual(s.pace(of: "a")!.interval, 0.1, accuracy: 1e-9)
        // Each success of a request sent since takes 30 % off the interval, down to the configured 0.
        s.finished(host: "a", signal: .success, now: 2.3, started: 2.1)
        XCTAssertEqual(s.pace(of: "a")!.interval, 0.07, accuracy: 1e-9)
        s.finished(host: "a", signal: .success, now: 2.3, started: 2.2)
        XCTAssertEqual(s.pace(of: "a")!.interval, 0.049, accuracy: 1e-9)
        let stats = s.statistics.first { $0.host == "a" }!
        XCTAssertEqual(stats.pauses, 2, "the second 429 extended the pause")
        XCTAssertEqual(stats.leastSlots, 4)
        XCTAssertEqual(stats.longestInterval, 0.1, accuracy: 1e-9)
    }

    func testPushbackWithoutRetryAfterPausesAtLeastASecondAndIntervalsAreBounded() {
        var s = scheduler(slots: 1, interval: 1)
        s.enqueue(0, host: "a", now: 0)
        s.enqueue(1, host: "a", now: 0)
        XCTAssertEqual(drain(&s, at: 0), [0])
        for k in 0..<10 { s.finished(host: "a", signal: .pushback(retryAfter: nil), now: Double(k)) }
        let stats = s.statistics[0]
        XCTAssertEqual(stats.longestInterval, RetryPolicy.longestInterval, "doubling stops at 10 s")
        XCTAssertEqual(s.nextWake(now: 9)!, 9 + RetryPolicy.longestInterval * 2, accuracy: 1e-9)
        s.finished(host: "a", signal: .pushback(retryAfter: 3600), now: 20)
        XCTAssertEqual(s.nextWake(now: 20)!, 20 + RetryPolicy.longestWait, accuracy: 1e-9, "at most 60 s")
    }

    func testDelayedRequestsAndConfirmationsGoLast() {
        var s = scheduler(slots: 8)
        s.enqueue(0, host: "a", notBefore: 5, now: 0)
        s.enqueue(1, host: "a", confirm: true, now: 0)
        s.enqueue(2, host: "b", now: 0)
        XCTAssertEqual(drain(&s, at: 0), [2], "a's confirmation waits while a retry of a's is still to come")
        XCTAssertEqual(s.nextWake(now: 0), 5)
        XCTAssertEqual(drain(&s, at: 5), [0, 1], "then nothing else of a's is ready or waiting")
    }

    func testRetryDelaysAreJitteredDeterministicallyAndBounded() {
        let a = RetryPolicy.delay(url: "https://a/x", retry: 0, base: 1, retryAfter: nil)
        XCTAssertEqual(a, RetryPolicy.delay(url: "https://a/x", retry: 0, base: 1, retryAfter: nil))
        XCTAssert((0.5..<1).contains(a))
        let delays = (0..<50).map {
            RetryPolicy.delay(url: "https://a/\($0)", retry: 1, base: 1, retryAfter: nil)
        }
        XCTAssert(delays.allSatisfy { (1..<2).contains($0) }, "doubled, jittered")
        XCTAssertGreaterThan(Set(delays).count, 25, "different URLs wait different times")
        XCTAssertEqual(RetryPolicy.delay(url: "u", retry: 30, base: 10, retryAfter: nil), 60, accuracy: 30)
        XCTAssertLessThanOrEqual(RetryPolicy.delay(url: "u", retry: 30, base: 10, retryAfter: nil), 60)
        XCTAssertEqual(RetryPolicy.delay(url: "u", retry: 0, base: 1, retryAfter: 2), 2, "Retry-After wins")
    }

    /// (#64) The retry decisions are the policy's: failures get `retries`, 429s four more, and a
    /// Retry-After past a minute is not waited for (and said).
    func testTheRetryPolicyDecidesWhetherAndWhenARequestIsAskedAgain() {
        let p = RetryPolicy(retries: 2, firstWait: 1)
        XCTAssertEqual(
            p.decide(url: "u", used: 0, rateLimited: false, retryAfter: nil),
            .retry(after: RetryPolicy.delay(url: "u", retry: 0, base: 1, retryAfter: nil)))
        XCTAssertEqual(p.decide(url: "u", used: 1, rateLimited: false, retryAfter: 3), .retry(after: 3))
        XCTAssertEqual(p.decide(url: "u", used: 2, rateLimited: false, retryAfter: nil), .giveUp(nil))
        XCTAssertEqual(p.decide(url: "u", used: 5, rateLimited: true, retryAfter: 1), .retry(after: 1))
        XCTAssertEqual(p.decide(url: "u", used: 6, rateLimited: true, retryAfter: 1), .giveUp(nil))
        XCTAssertEqual(
            p.decide(url: "u", used: 0, rateLimited: true, retryAfter: 3600),
            .giveUp("the server asks to wait 3600 s before retrying (Retry-After); not waited for"))
        XCTAssertEqual(
            RetryPolicy(retries: 0, firstWait: 1).decide(url: "u", used: 0, rateLimited: false, retryAfter: nil),
            .giveUp(nil))
        // The scheduler answers the transfer loop with a time to start again, from now.
        let s = scheduler()
        XCTAssertEqual(s.afterFailure(url: "u", used: 1, rateLimited: false, retryAfter: 3, now: 100), .retry(at: 103))
        XCTAssertEqual(
            s.afterFailure(url: "u", used: 0, rateLimited: false, retryAfter: nil, now: 10),
            .retry(at: 10 + RetryPolicy.delay(url: "u", retry: 0, base: 1, retryAfter: nil)))
        XCTAssertEqual(
            s.afterFailure(url: "u", used: 2, rateLimited: false, retryAfter: nil, now: 10), .giveUp(reason: nil))
        XCTAssertEqual(
            s.afterFailure(url: "u", used: 0, rateLimited: true, retryAfter: 7200, now: 0),
            .giveUp(reason: "the server asks to wait 7200 s before retrying (Retry-After); not waited for"))
    }

    /// (#64) The run-level `web` section is merged by its type: counts summed, the peak and the
    /// longest interval the largest, the least slots the smallest; a section that does not read as
    /// one is left out.
    func testShardsWebSectionsMergeByTheirType() throws {
        var a = HostScheduler.Statistics(host: "a.example")
        a.requests = 3
        a.rateLimited = 1
        a.peakPerSecond = 2
        a.leastSlots = 4
        a.longestInterval = 0.1
        a.pausedSeconds = 1.5
        var b = a
        b.requests = 5
        b.peakPerSecond = 7
        b.leastSlots = 1
        b.longestInterval = 0.05
        let c = HostScheduler.Statistics(host: "b.example")
        let shards: [[String: JSONValue]] = [
            WebSection(hosts: [a]).runSection, WebSection(hosts: [c, b]).runSection, ["web": "not a section"], [:],
        ]
        var merged: [String: JSONValue] = [:]
        WebSection.merge(shards, into: &merged)
        let web = try XCTUnwrap(WebSection.read(from: merged))
        XCTAssertEqual(web.hosts.map(\.host), ["a.example", "b.example"])
        XCTAssertEqual(web.hosts[0].requests, 8)
        XCTAssertEqual(web.hosts[0].rateLimited, 2)
        XCTAssertEqual(web.hosts[0].peakPerSecond, 7)
        XCTAssertEqual(web.hosts[0].leastSlots, 1)
        XCTAssertEqual(web.hosts[0].longestInterval, 0.1)
        XCTAssertEqual(web.hosts[0].pausedSeconds, 3)
        // A shard report is data: counts at Int.max, or past it, do not trap the merge.
        var huge = a
        huge.requests = .max
        var hostile: [String: JSONValue] = [:]
        WebSection.merge(
            [
                WebSection(hosts: [huge]).runSection, WebSection(hosts: [huge]).runSection,
                ["web": ["hosts": [["host": "a.example", "requests": 1e300]]]],
            ],
            into: &hostile)
        XCTAssertEqual(WebSection.read(from: hostile)?.hosts.first?.requests, .max)
        var none: [String: JSONValue] = [:]
        WebSection.merge([[:], ["web": 1]], into: &none)
        XCTAssertTrue(none.isEmpty, "no shard has a web section: none is made up")
    }

    func testPeakPerSecondIsCounted() {
        var s = scheduler(slots: 100)
        for id in 0..<10 { s.enqueue(id, host: "a", now: 0) }
        XCTAssertEqual(drain(&s, at: 0.2).count, 10)
        XCTAssertEqual(s.statistics[0].peakPerSecond, 10)
        XCTAssertEqual(s.statistics[0].requests, 10)
    }

    /// Under --shard K/N each shard takes its share of every host's pace.
    func testShardsDivideTheHostLimits() throws {
        var o = ExternalOptions()
        o.section.maxPerHost = 4
        o.section.hostIntervalSeconds = 0.05
        o.shards = 4
        XCTAssertEqual(o.maxPerHost(for: "h"), 1)
        XCTAssertEqual(o.hostInterval(for: "h"), 0.2, accuracy: 1e-9)
        o.divideHostLimitsAmongShards = false
        XCTAssertEqual(o.maxPerHost(for: "h"), 4)
        XCTAssertEqual(o.hostInterval(for: "h"), 0.05, accuracy: 1e-9)
    }
}
