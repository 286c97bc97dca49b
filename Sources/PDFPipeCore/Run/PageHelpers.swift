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
///
/// Under process isolation the documents run in worker processes, one at a time each, and no
/// other worker of the same process is ever idle; the cores the other processes leave idle are
/// lent instead (`CoreLender`: the parent knows which processes are busy). An offer then starts a
/// borrower that asks for a lease every `leaseInterval` while pages are left, starts a helper
/// thread for each core lent, and lets a helper go after its page when the lease shrinks (a
/// process that starts a document wants its core back). Pages never leave their document's
/// process, so a crash still costs that document only.
public final class PageHelpers: Sendable {
    /// One offer: `hasWork` says whether pages are left, `assist` does pages until none are
    /// (or until the `keepGoing` it is given says stop, checked before each page).
    final class Offer: Sendable {
        struct Work {
            let hasWork: @Sendable () -> Bool
            let assist: @Sendable (_ keepGoing: @escaping @Sendable () -> Bool) -> Void
        }
        let id: Int
        let helpers = DispatchGroup()
        private let work: Locked<Work?>
        /// Ends a borrower's wait early (`withdraw`).
        let stopBorrowing = DispatchSemaphore(value: 0)

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
        func assist(keepGoing: @escaping @Sendable () -> Bool = { true }) {
            guard let assist = work.withLock({ $0?.assist }) else { return }
            assist(keepGoing)
        }

        /// Drops the closures; called by the owner once no helper is on the offer.
        func drop() { work.withLock { $0 = nil } }
    }

    private let offers = Locked<(next: Int, list: [Offer])>((0, []))
    private let joined = Locked(0)
    private let lender: (any CoreLender)?
    /// The most helper threads a borrower starts for one offer.
    private let maxBorrowed: Int
    /// How often a borrower asks for its lease again while pages are left.
    public static let leaseInterval = 0.01

    /// How many times an idle worker (or a helper on a lent core) joined an offer, over this object's life.
    public var helped: Int { joined.withLock { $0 } }

    /// Helpers from this process's idle workers; with a `lender`, helper threads on up to
    /// `maxBorrowed` cores lent by other processes.
    public init(lender: (any CoreLender)? = nil, maxBorrowed: Int = 0) {
        self.lender = lender
        self.maxBorrowed = lender == nil ? 0 : max(0, maxBorrowed)
    }

    /// Offers pages to idle workers; returns the token for `withdraw`. `assist` does pages until
    /// none are left or the `keepGoing` it is given turns false (asked before each page).
    public func offer(
        hasWork: @escaping @Sendable () -> Bool,
        assist: @escaping @Sendable (_ keepGoing: @escaping @Sendable () -> Bool) -> Void
    ) -> Int {
        let offer = offers.withLock { o in
            o.next += 1
            let offer = Offer(id: o.next, work: Offer.Work(hasWork: hasWork, assist: assist))
            o.list.append(offer)
            return offer
        }
        if let lender, maxBorrowed > 0 {
            offer.helpers.enter()  // the borrower; `withdraw` waits for it as for a helper
            DispatchQueue.global().async { self.borrow(for: offer, from: lender) }
        }
        return offer.id
    }

    /// Takes the offer back (no new helper joins), waits until the helpers on it are done, and
    /// drops its closures: when this returns, no helper can reach the offered work.
    public func withdraw(_ id: Int) {
        let offer = offers.withLock { o -> Offer? in
            guard let i = o.list.firstIndex(where: { $0.id == id }) else { return nil }
            return o.list.remove(at: i)
        }
        guard let offer else { return }
        offer.stopBorrowing.signal()
        offer.helpers.wait()
        offer.drop()
    }

    /// A borrower: while `offer` has pages, asks `lender` for cores and keeps one helper thread
    /// on each core lent; a helper whose rank is past the lease stops after its page. Gives the
    /// lease back when done. Runs inside `offer.helpers` (entered by `offer`).
    private func borrow(for offer: Offer, from lender: any CoreLender) {
        let lease = Locked(0)
        let running = Locked(0)
        while offer.hasWork() {
            let granted = lender.lease(wanted: maxBorrowed)
            lease.withLock { $0 = granted }
            while let rank = running.withLock({ r -> Int? in
                guard r < granted else { return nil }
                r += 1
                return r
            }) {
                offer.helpers.enter()
                joined.withLock { $0 += 1 }
                DispatchQueue.global().async {
                    offer.assist(keepGoing: { rank <= lease.withLock { $0 } })
                    running.withLock { $0 -= 1 }
                    offer.helpers.leave()
                }
            }
            if offer.stopBorrowing.wait(timeout: .now() + Self.leaseInterval) == .success { break }
        }
        if lease.withLock({ l in
            defer { l = 0 }
            return l
        }) > 0 {
            _ = lender.lease(wanted: 0)
        }
        offer.helpers.leave()
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

/// Lends a process cores that other processes of the run leave idle (process isolation: the
/// parent of the worker processes keeps the book).
public protocol CoreLender: Sendable {
    /// How many threads beyond its own this process may run for pages now, asked with how many it
    /// would like: the whole lease, which replaces the one before (0 gives every core back).
    func lease(wanted: Int) -> Int
}
