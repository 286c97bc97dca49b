/// A service a run keeps for all its documents (validate-links' URL checker, with its threads and
/// cache; the GoToR files read once), started on first use and ended with the run.
public protocol RunService: AnyObject, Sendable {
    /// Ends the service: saves what it keeps across runs, stops its threads. Called once, by
    /// `RunContext.shutdown`.
    func shutdown() throws
    /// Whether the service holds what only `shutdown` ends (threads, unsaved state): a context
    /// dropped while one does was not shut down.
    var needsShutdown: Bool { get }
}

/// The key of a run service, typed by the service it holds (#48): `context.service(key) { … }` and
/// `context.existingService(key)` give that type, with no cast at the call. The name says whose it
/// is (a stage instance's own, so that two instances of a stage keep two services).
public struct ServiceKey<S: RunService>: Sendable, Hashable {
    public let name: String

    public init(_ name: String) { self.name = name }
}

/// What a run shares among its documents besides the stages' configuration: the run-wide
/// services stages start on first use (`service(_:make:)`). The runner owns one and hands it to
/// every job (`Job.context`) and to the stages' run-level calls; `shutdown()` ends every service
/// once, on every path — the CLI after the last document (interrupted or not), a library user when
/// done with the runner (`Runner.finish()`). A context dropped with services still running is a
/// bug, which an assertion catches in debug builds.
public final class RunContext: Sendable {
    private struct State {
        var services: [String: any RunService] = [:]
        var order: [String] = []
        var ended = false
    }

    private let state = Locked(State())
    private let shardCount = Locked(1)
    private let timeout = Locked(0.0)

    public init() {}

    /// How many shards the batch was split into (`--shard K/N`: N; 1 for a whole run): services
    /// that talk to the outside divide their limits among them (validate-links' per-host pace).
    public var shards: Int {
        get { shardCount.withLock { $0 } }
        set { shardCount.withLock { $0 = max(1, newValue) } }
    }

    /// Seconds a document may take (`--timeout`; 0: no limit): budgets inside a document (the web
    /// checks of validate-links) stay within it.
    public var documentTimeout: Double {
        get { timeout.withLock { $0 } }
        set { timeout.withLock { $0 = max(0, newValue) } }
    }

    deinit {
        assert(
            state.withLock { s in s.ended || s.services.values.allSatisfy { !$0.needsShutdown } },
            "a RunContext with running services was not shut down (Runner.finish())")
    }

    /// The service under `key` (a stage instance's own key), made on first use.
    public func service<S: RunService>(_ key: ServiceKey<S>, make: () -> S) -> S {
        let key = key.name
        return state.withLock { s in
            if let existing = s.services[key] as? S { return existing }
            precondition(!s.ended, "a service was asked for after the run's context was shut down")
            let made = make()
            s.services[key] = made
            s.order.append(key)
            return made
        }
    }

    /// The service under `key` if it was made.
    public func existingService<S: RunService>(_ key: ServiceKey<S>) -> S? {
        state.withLock { $0.services[key.name] as? S }
    }

    /// Ends every service, in the order they were made, once (a second call does nothing).
    /// Returns what failed, by key.
    @discardableResult
    public func shutdown() -> [(key: String, error: any Error)] {
        let services = state.withLock { s -> [(String, any RunService)] in
            guard !s.ended else { return [] }
            s.ended = true
            return s.order.compactMap { k in s.services[k].map { (k, $0) } }
        }
        var failures: [(key: String, error: any Error)] = []
        for (key, service) in services {
            do { try service.shutdown() } catch { failures.append((key, error)) }
        }
        return failures
    }
}
