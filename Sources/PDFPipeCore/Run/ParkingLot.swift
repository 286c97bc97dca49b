import Dispatch
import Foundation
import Synchronization
import SystemIO

/// A document between its stages and its result: the job, how its stages went, and the trimmed
/// copy it reads (removed when it is concluded). `@unchecked Sendable`: it passes from the worker
/// that parked it to the one that concludes it, never used by two at once.
final class ParkedDocument: @unchecked Sendable {
    var job: Job
    let relativePath: String
    var timings: [String: Double] = [:]
    var status = DocumentStatus.ok
    var skipped: [String] = []
    var trimmedCopy: String?
    /// The input's size and modification time when its turn came (`pdf.changed-during-run`).
    var stamp: ResultStore.InputStamp?

    init(job: Job, relativePath: String) {
        self.job = job
        self.relativePath = relativePath
    }
}

/// The run's parked documents (`Runner.begin`): counted while their deferred work is outstanding,
/// handed to a worker once all of it is ready.
final class ParkingLot: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var parked = 0
    private var ready: [(index: Int, document: ParkedDocument)] = []
    private var head = 0
    let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// Parks document `index`; it becomes ready when every deferred work of its job is.
    func park(_ index: Int, _ document: ParkedDocument) {
        let works = document.job.deferred
        condition.lock()
        parked += 1
        condition.unlock()
        let left = Atomic<Int>(works.count)
        for w in works {
            w.whenReady { [self] in
                guard left.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 else { return }
                condition.lock()
                ready.append((index, document))
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// A ready document, if any; with `wait`, waits for one while any is parked.
    func take(wait: Bool) -> (Int, ParkedDocument)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if head < ready.count {
                let r = ready[head]
                head += 1
                if head == ready.count {
                    ready.removeAll()
                    head = 0
                }
                parked -= 1
                return r
            }
            if !wait || parked == 0 { return nil }
            condition.wait()
        }
    }

    /// Too many documents parked to start another.
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return parked >= limit
    }
}
