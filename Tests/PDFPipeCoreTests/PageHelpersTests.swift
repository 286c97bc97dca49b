import Dispatch
import Foundation
import PDFPipeCore
import Synchronization
import XCTest

final class PageHelpersTests: XCTestCase {
    /// An idle worker joins an offer, takes items from the same counter, and the owner's withdrawal
    /// waits for it: every item is done exactly once, some by the helper, none after the withdrawal.
    func testAnIdleWorkerHelpsAndTheOwnerWaitsForIt() {
        final class Work: Sendable {
            let next = Atomic<Int>(0)
            let done = Mutex([String](repeating: "", count: 200))
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
        let helped = Mutex(0)
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
}
