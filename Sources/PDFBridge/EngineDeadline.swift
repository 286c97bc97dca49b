import Dispatch
import Foundation
import Synchronization

/// Page-engine work with a time budget. Neither poppler-glib nor cairo can be stopped from
/// outside once a page is being drawn (poppler's abort callback is not in its glib API), so the
/// work runs on a thread of its own and the caller waits at most the budget: past it, the caller
/// goes on without the result and the thread is left to finish (it keeps what it uses alive; its
/// result is dropped). A worker process that left work running is retired after its document
/// (`abandoned`), which is what ends that work under isolation, the default for stages that render.
///
/// The thread's stack is `stackSize` (64 MB, against 8 MB for a Dispatch thread): poppler and cairo
/// recurse on nested forms, patterns and Type3 glyphs, and real files nest deeper than 8 MB allows
/// with a hostile one, not a real one, going past 64 MB (that one crashes its worker process).
package enum EngineDeadline {
    /// Work left running past its budget by this process so far.
    package static var abandoned: Int { abandonedCount.load(ordering: .relaxed) }
    private static let abandonedCount = Atomic<Int>(0)
    package static let stackSize = 64 << 20

    /// Where a result crosses from the engine's thread to the caller (after the semaphore).
    private final class Slot<T>: @unchecked Sendable {
        var body: (() -> T)?
        var result: T?
        let done = DispatchSemaphore(value: 0)
        init(_ body: @escaping () -> T) { self.body = body }
    }

    /// How work under a budget ended.
    package enum Outcome<T> {
        case finished(T)
        /// Past the budget, stopped through `cancel` (MuPDF's cookie), and ended within `grace`.
        case cancelled
        /// Past the budget and still running (counted in `abandoned`).
        case abandoned
    }

    /// `body`'s result, or nil when it took more than `seconds` (0: no limit; then it runs on the
    /// caller's thread).
    package static func run<T>(seconds: Double, _ body: @escaping () -> T) -> T? {
        if case .finished(let value) = outcome(seconds: seconds, body) { return value }
        return nil
    }

    /// `body` under a budget of `seconds`; past it, `cancel` (when given) asks the work to stop,
    /// and it is waited for at most `grace` seconds more before it is abandoned.
    ///
    /// The work runs on `thread` when given (a page worker's own, reused from page to page), else
    /// on a thread started for it. A thread per call cost 10-15 % of a bulk thumbnail run (2,182
    /// pages of five manuals: 7.5-8.5 s against 6.6-7.5 s on the caller's thread): a 64 MB stack
    /// mapped, faulted in and unmapped for every page.
    package static func outcome<T>(
        seconds: Double, on thread: EngineThread? = nil, cancel: (() -> Void)? = nil, grace: Double = 5,
        _ body: @escaping () -> T
    ) -> Outcome<T> {
        guard seconds > 0 else { return .finished(body()) }
        let slot = Slot(body)
        let work: @Sendable () -> Void = {
            slot.result = slot.body?()
            slot.body = nil
            slot.done.signal()
        }
        if let thread {
            thread.submit(work)
        } else {
            let fresh = Thread(block: work)
            fresh.stackSize = stackSize
            fresh.start()
        }
        func waited(_ s: Double) -> Bool {
            slot.done.wait(timeout: .now() + .nanoseconds(Int(min(s, 1e7) * 1e9))) == .success
        }
        if waited(seconds), let result = slot.result { return .finished(result) }
        if let cancel {
            cancel()
            if waited(grace) { return .cancelled }
        }
        abandonedCount.add(1, ordering: .relaxed)
        return .abandoned
    }
}

/// A thread with `EngineDeadline.stackSize` of stack that runs the work given to it one piece at a
/// time, for as long as its owner keeps it (a page worker: one per worker, reused for every page).
/// When the owner lets it go the thread ends after the work in hand; work abandoned past a budget
/// keeps the thread until it returns, and its owner gives it no more (`PageWorker.abandoned`).
package final class EngineThread: Sendable {
    /// What the thread and its owner share; the thread holds this, not the owner, so dropping the
    /// owner ends the thread.
    private final class Mailbox: Sendable {
        let pending = Mutex<[@Sendable () -> Void]>([])
        let signal = DispatchSemaphore(value: 0)
    }
    private let mailbox = Mailbox()

    package init() {
        let mailbox = self.mailbox
        let thread = Thread {
            while true {
                mailbox.signal.wait()
                // One signal per piece of work, and one more when the owner lets go.
                let next = mailbox.pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                guard let next else { return }
                next()
            }
        }
        thread.stackSize = EngineDeadline.stackSize
        thread.start()
    }

    deinit { mailbox.signal.signal() }

    /// Runs `work` on the thread, after the work given before it.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        mailbox.pending.withLock { $0.append(work) }
        mailbox.signal.signal()
    }
}
