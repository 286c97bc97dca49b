import Dispatch

/// Workers of a run that have no document left lend a hand with the pages of the documents still
/// running.
///
/// A document's page workers are counted when its stage starts (the cores over the concurrent
/// documents), so at the end of a batch the last big document went on with one thread while the
/// other cores sat idle: three manuals with --jobs 2 took 5.05 s of text extraction where 4.71 s
/// was possible. A page-parallel stage offers its remaining pages here (`offer`); an idle worker
/// (`help`) joins with a document of its own and takes pages from the same counter; the stage
/// withdraws its offer when its own workers are done and waits for the helpers still on a page.
/// Results go by page index, so who did a page never shows in the report.
///
/// Ownership: the work closures belong to the stage that offered them, which may call this from
/// inside `withoutActuallyEscaping` (its page body lives on its stack). So a helper never holds a
/// closure of its own: it holds the `Offer` object, and reaches the closures through it only
/// between joining and leaving; `withdraw` waits for every helper that joined and then drops the
/// closures, so when it returns nothing in the process refers to them any more, whatever the
/// helper threads still hold. (Before, a helper kept its copy of the offer — closures included —
/// for a moment after leaving, and the owner's `withoutActuallyEscaping` trapped the whole run.)
public final class PageHelpers: Sendable {
    /// One offer: `hasWork` says whether pages are left, `assist` does pages until none are.
    final class Offer: Sendable {
        struct Work {
            let hasWork: @Sendable () -> Bool
            let assist: @Sendable () -> Void
        }
        let id: Int
        let helpers = DispatchGroup()
        private let work: Locked<Work?>

        init(id: Int, work: Work) {
            self.id = id
            self.work = Locked(work)
        }

        /// Whether pages are left; false once withdrawn.
        func hasWork() -> Bool {
            // Called under the offer list's lock; the closure only reads an atomic counter.
            work.withLock { $0?.hasWork() ?? false }
        }

        /// Does pages until none are left. The closure is copied out of the lock (it runs for
        /// long) into this frame only; it is released when this call returns, before the caller
        /// leaves `helpers`.
        @inline(never)
        func assist() {
            guard let assist = work.withLock({ $0?.assist }) else { return }
            assist()
        }

        /// Drops the closures; called by the owner once no helper is on the offer.
        func drop() { work.withLock { $0 = nil } }
    }

    private let offers = Locked<(next: Int, list: [Offer])>((0, []))
    private let joined = Locked(0)

    /// How many times an idle worker joined an offer, over this object's life.
    public var helped: Int { joined.withLock { $0 } }

    public init() {}

    /// Offers pages to idle workers; returns the token for `withdraw`.
    public func offer(hasWork: @escaping @Sendable () -> Bool, assist: @escaping @Sendable () -> Void) -> Int {
        offers.withLock { o in
            o.next += 1
            o.list.append(Offer(id: o.next, work: Offer.Work(hasWork: hasWork, assist: assist)))
            return o.next
        }
    }

    /// Takes the offer back (no new helper joins), waits until the helpers on it are done, and
    /// drops its closures: when this returns, no helper can reach the offered work.
    public func withdraw(_ id: Int) {
        let offer = offers.withLock { o -> Offer? in
            guard let i = o.list.firstIndex(where: { $0.id == id }) else { return nil }
            return o.list.remove(at: i)
        }
        guard let offer else { return }
        offer.helpers.wait()
        offer.drop()
    }

    /// Helps with offered pages until no offer has any left; returns how many offers it helped.
    @discardableResult
    public func help() -> Int {
        var helped = 0
        while true {
            // Joining happens under the lock, so a withdrawal waits for every helper it let in.
            let chosen = offers.withLock { o -> Offer? in
                guard let offer = o.list.last(where: { $0.hasWork() }) else { return nil }
                offer.helpers.enter()
                return offer
            }
            guard let chosen else { return helped }
            joined.withLock { $0 += 1 }
            chosen.assist()
            chosen.helpers.leave()
            helped += 1
        }
    }
}
