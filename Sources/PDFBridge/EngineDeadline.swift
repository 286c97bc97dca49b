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
    package static func outcome<T>(
        seconds: Double, cancel: (() -> Void)? = nil, grace: Double = 5, _ body: @escaping () -> T
    ) -> Outcome<T> {
        guard seconds > 0 else { return .finished(body()) }
        let slot = Slot(body)
        let thread = Thread {
            slot.result = slot.body?()
            slot.body = nil
            slot.done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
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
