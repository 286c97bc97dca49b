/// When the web check asks again, and how long a request and a host wait: every constant of its
/// retries and pacing in one value, as async-http-client's backoff keeps them. The `HostScheduler`
/// holds it: the transfer loop asks the scheduler (`afterFailure`), which answers `.retry(at:)`
/// or `.giveUp(reason:)` from `decide`.
///
/// | what | value | used by |
/// |---|---|---|
/// | retries after a timeout, a failed connection or a 5xx | `external.retries` (default 2) | `decide` |
/// | retries after a 429 | `external.retries` + 4 (`extraRateLimitRetries`) | `decide` |
/// | a retry's wait | `external.retryWaitSeconds` (default 1) doubled per retry, jittered by URL to [0.5, 1) of it | `delay` |
/// | a `Retry-After` | waited as asked, up to 60 s (`longestWait`); longer: not waited for, said | `decide` |
/// | a host's pause after a 429 or 503 | its `Retry-After`, else twice its interval (at least 1 s), up to 60 s | `HostScheduler` |
/// | a slowed host's interval | × 1.5 per pushback (`slowDown`, from at least 0.1 s), up to 10 s (`longestInterval`) | `HostScheduler` |
/// | a slowed host speeding up | interval × 0.7 per answer (`speedUp`); a slot back every 3 answers (`speedUpAfter`) | `HostScheduler` |
/// | a failure confirmed | asked again once, on a new connection, at least 2 s later (`confirmDelay`), after the host's other requests | `URLChecker` |
package struct RetryPolicy: Sendable, Equatable {
    /// Retries after a failure (`external.retries`).
    package var retries: Int
    /// The first retry's wait, in seconds (`external.retryWaitSeconds`).
    package var firstWait: Double

    /// More 429 retries than failure retries: the host is slowed down between them, and a healthy
    /// link should not be given up because its host was busy.
    static let extraRateLimitRetries = 4
    /// The longest a request waits before a retry, or a host pauses.
    static let longestWait = 60.0
    /// The longest interval between a slowed host's requests.
    static let longestInterval = 10.0
    /// A pushback's factor on a host's interval, and the interval it starts from.
    static let slowDown = 1.5
    static let leastSlowedInterval = 0.1
    /// An answer's factor on a slowed host's interval, and how many answers give a slot back.
    static let speedUp = 0.7
    static let speedUpAfter = 3
    /// The least wait before a failure is asked again.
    static let confirmDelay = 2.0

    package init(retries: Int, firstWait: Double) {
        self.retries = retries
        self.firstWait = firstWait
    }

    /// What becomes of a request that may be retried.
    enum Decision: Equatable {
        /// Asked again after this many seconds.
        case retry(after: Double)
        /// Not asked again; the answer stands (with why, when it is not the retries used up).
        case giveUp(String?)
    }

    /// Whether a request of `url` that failed (`rateLimited`: answered 429) after `used` retries
    /// of its kind is asked again, and when; `retryAfter`: the server's `Retry-After`.
    func decide(url: String, used: Int, rateLimited: Bool, retryAfter: Double?) -> Decision {
        guard used < retries + (rateLimited ? Self.extraRateLimitRetries : 0) else { return .giveUp(nil) }
        if let retryAfter, retryAfter > Self.longestWait {
            // A CI job does not sit out an hour-long Retry-After: the answer stands, and says why.
            return .giveUp("the server asks to wait \(Int(retryAfter)) s before retrying (Retry-After); not waited for")
        }
        return .retry(after: Self.delay(url: url, retry: used, base: firstWait, retryAfter: retryAfter))
    }

    /// The seconds a retry waits: the server's `Retry-After` when given (at most 60 s), else
    /// `base` doubled per earlier retry (at most 60 s), scaled by a jitter in [0.5, 1) that
    /// depends on the URL and the attempt only, so that retries of many URLs spread out while a
    /// run stays reproducible.
    static func delay(url: String, retry: Int, base: Double, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), longestWait) }
        let raw = min(base * Double(1 << min(retry, 16)), longestWait)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        hash = (hash ^ UInt64(retry)) &* 0x100_0000_01b3
        return raw * (0.5 + Double(hash % 1000) / 2000)
    }
}
