import Dispatch
import Foundation
import PDFPipeCore
import Synchronization
import TestSupport
import XCTest

final class PageHelpersTests: XCTestCase {
    /// An idle worker joins an offer, takes items from the same counter, and the owner's withdrawal
    /// waits for it: every item is done exactly once, some by the helper, none after the withdrawal.
    func testAnIdleWorkerHelpsAndTheOwnerWaitsForIt() {
        final class Work: Sendable {
            let next = Atomic<Int>(0)
            let done = Locked([String](repeating: "", count: 200))
            let inProgress = Atomic<Int>(0)
            func take(_ who: String) {
                while true {
                    let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < 200 else { return }
                    inProgress.wrappingAdd(1, ordering: .relaxed)
                    usleep(500)
                    done.withLock { $0[k] += who }
                    inProgress.wrappingSubtract(1, ordering: .relaxed)
                }
            }
        }
        let work = Work()
        let helpers = PageHelpers()
        let id = helpers.offer(hasWork: { work.next.load(ordering: .relaxed) < 200 }, assist: { _ in work.take("h") })
        let helped = Locked(0)
        let helper = Thread { helped.withLock { $0 = helpers.help() } }
        helper.start()
        // The owner starts once the helper has joined (a slow thread start must not fail the test).
        let deadline = Date().addingTimeInterval(10)
        while work.next.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(200) }
        work.take("o")
        helpers.withdraw(id)
        XCTAssertEqual(work.inProgress.load(ordering: .relaxed), 0, "the withdrawal waited for the helper's last item")
        let done = work.done.withLock { $0 }
        XCTAssertTrue(done.allSatisfy { $0 == "o" || $0 == "h" }, "each item once")
        XCTAssertGreaterThan(done.filter { $0 == "h" }.count, 10, "the helper did its share")
        XCTAssertGreaterThan(done.filter { $0 == "o" }.count, 10)
        while helper.isExecuting { usleep(1000) }
        XCTAssertEqual(helped.withLock { $0 }, 1)
    }

    /// Nothing offered, or nothing left: help returns at once; a withdrawn offer is not joined.
    func testNothingToHelpWith() {
        let helpers = PageHelpers()
        XCTAssertEqual(helpers.help(), 0)
        let spent = helpers.offer(hasWork: { false }, assist: { _ in XCTFail("no work left") })
        XCTAssertEqual(helpers.help(), 0)
        helpers.withdraw(spent)
        let gone = helpers.offer(hasWork: { true }, assist: { _ in XCTFail("withdrawn") })
        helpers.withdraw(gone)
        XCTAssertEqual(helpers.help(), 0)
    }

    /// Regression (trust issue, 1): a helper kept its copy of the offer — work closures included —
    /// a moment after leaving it, and the owner's `withoutActuallyEscaping` trapped the whole run
    /// ("closure argument was escaped"). Here, as in PageWorkers, the owner offers work that lives
    /// in a `withoutActuallyEscaping` block, thousands of times, while three helpers keep asking
    /// and other threads keep the cores busy; and once withdrawn, nothing holds the work: an
    /// object only the closures capture is gone as soon as `withdraw` returns.
    func testWithdrawnWorkIsUnreachableWhileHelpersRaceAndTheCoresAreBusy() {
        final class Items: Sendable {
            let next = Atomic<Int>(0)
            let count: Int
            init(count: Int) { self.count = count }
        }
        final class Tracker: Sendable {}
        let load = CoreLoad()
        defer { load.stop() }
        let helpers = PageHelpers()
        let stop = Atomic<Bool>(false)
        let helperThreads = (0..<3).map { _ in
            Thread {
                while !stop.load(ordering: .relaxed) {
                    if helpers.help() == 0 { sched_yield() }
                }
            }
        }
        for t in helperThreads { t.start() }
        let done = Atomic<Int>(0)
        let joined = Atomic<Int>(0)
        for round in 0..<3000 {
            let items = Items(count: 2 + round % 7)
            weak var weakTracker: Tracker?
            let body: @Sendable (Int) -> Void = { _ in
                var x = 1.0
                for i in 0..<2000 { x = x * 1.000001 + Double(i & 1) }  // a page's worth of work, briefly
                if x > 0 { done.wrappingAdd(1, ordering: .relaxed) }
            }
            withoutActuallyEscaping(body) { body in
                let tracker = Tracker()
                weakTracker = tracker
                @Sendable func take() {
                    _ = tracker
                    while true {
                        let k = items.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard k < items.count else { return }
                        body(k)
                    }
                }
                let id = helpers.offer(
                    hasWork: { items.next.load(ordering: .relaxed) < items.count },
                    assist: { _ in
                        joined.wrappingAdd(1, ordering: .relaxed)
                        take()
                    })
                take()
                helpers.withdraw(id)
            }
            XCTAssertNil(weakTracker, "round \(round): the work closures outlived the withdrawal")
            if weakTracker != nil { break }
        }
        stop.store(true, ordering: .relaxed)
        while helperThreads.contains(where: { $0.isExecuting }) { usleep(1000) }
        XCTAssertEqual(done.load(ordering: .relaxed), (0..<3000).reduce(0) { $0 + 2 + $1 % 7 }, "every item done once")
        XCTAssertGreaterThan(joined.load(ordering: .relaxed), 10, "helpers joined offers")
    }

    /// Process isolation (#62): a worker process has no idle worker of its own; cores another
    /// process leaves idle are lent to it. A helper thread runs on each core lent; when the lease
    /// shrinks the helper stops after the page in hand; the lease is given back at the end; each
    /// item is done once, and the owner's withdrawal waits for the helpers.
    func testLentCoresRunHelpersUntilTheLeaseShrinks() {
        final class Lender: CoreLender {
            /// The leases answered, in order, and the next item's index when each was answered.
            let answers = Locked<[(wanted: Int, granted: Int, at: Int)]>([])
            let position: @Sendable () -> Int
            let grants: [Int]
            init(grants: [Int], position: @escaping @Sendable () -> Int) {
                self.grants = grants
                self.position = position
            }
            func lease(wanted: Int) -> Int {
                answers.withLock { a in
                    let granted = wanted == 0 ? 0 : grants[min(a.filter { $0.wanted > 0 }.count, grants.count - 1)]
                    a.append((wanted, min(granted, wanted), position()))
                    return min(granted, wanted)
                }
            }
        }
        final class Work: Sendable {
            let next = Atomic<Int>(0)
            let count = 400
            let done = Locked([String](repeating: "", count: 400))
            func take(_ who: String, keepGoing: () -> Bool = { true }) {
                while keepGoing() {
                    let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < count else { return }
                    usleep(300)
                    done.withLock { $0[k] += who }
                }
            }
        }
        // Lent two cores for the first three asks, then none: the helpers stop, the owner finishes.
        let work = Work()
        let lender = Lender(grants: [2, 2, 2, 0]) { work.next.load(ordering: .relaxed) }
        let helpers = PageHelpers(lender: lender, maxBorrowed: 3)
        let id = helpers.offer(
            hasWork: { work.next.load(ordering: .relaxed) < work.count },
            assist: { keepGoing in work.take("h", keepGoing: keepGoing) })
        // The owner starts once a helper has taken an item (a slow thread start must not fail the test).
        let deadline = Date().addingTimeInterval(10)
        while work.next.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(200) }
        work.take("o")
        helpers.withdraw(id)
        let done = work.done.withLock { $0 }
        XCTAssertTrue(done.allSatisfy { $0 == "o" || $0 == "h" }, "each item once: \(Set(done))")
        let answers = lender.answers.withLock { $0 }
        XCTAssertEqual(answers.first?.wanted, 3, "asked for the most it may use")
        XCTAssertEqual(answers.first?.granted, 2)
        XCTAssertGreaterThan(helpers.helped, 0, "helpers ran on the lent cores")
        XCTAssertGreaterThan(done.filter { $0 == "h" }.count, 0)
        // The position read at the ask after the lease shrank to nothing comes after the shrink took
        // effect (whatever the scheduler did meanwhile): past it, each of the two helpers claims at
        // most the item it had checked the lease for.
        if let shrunk = answers.firstIndex(where: { $0.wanted > 0 && $0.granted == 0 }), shrunk + 1 < answers.count {
            let after = answers[shrunk + 1].at
            let late = done.indices.filter { $0 >= after && done[$0] == "h" }
            XCTAssertLessThanOrEqual(late.count, 4, "helpers stopped after the lease shrank: \(late)")
        }
        XCTAssertEqual(answers.last?.granted, 0, "the lease ended at nothing (given back, or taken)")

        // Nothing lent: no helper, and no give-back either.
        let alone = Work()
        let stingy = Lender(grants: [0]) { alone.next.load(ordering: .relaxed) }
        let none = PageHelpers(lender: stingy, maxBorrowed: 1)
        let offer = none.offer(
            hasWork: { alone.next.load(ordering: .relaxed) < alone.count },
            assist: { keepGoing in alone.take("h", keepGoing: keepGoing) })
        alone.take("o")
        none.withdraw(offer)
        XCTAssertEqual(none.helped, 0)
        XCTAssertTrue(alone.done.withLock { $0 }.allSatisfy { $0 == "o" })
        XCTAssertFalse(stingy.answers.withLock { $0 }.contains { $0.wanted == 0 }, "nothing to give back")
    }
}
