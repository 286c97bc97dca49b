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
        let id = helpers.offer(hasWork: { work.next.load(ordering: .relaxed) < 200 }, assist: { work.take("h") })
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
        let spent = helpers.offer(hasWork: { false }, assist: { XCTFail("no work left") })
        XCTAssertEqual(helpers.help(), 0)
        helpers.withdraw(spent)
        let gone = helpers.offer(hasWork: { true }, assist: { XCTFail("withdrawn") })
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
                    assist: {
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
}
