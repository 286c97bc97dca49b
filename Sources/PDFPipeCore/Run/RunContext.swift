/// A service a run keeps for all its documents (validate-links' URL checker, with its threads and
/// cache; the GoToR files read once), started on first use and ended with the run. It holds the
/// run-wide work a stage's per-document `run` cannot: what the run as a whole says (findings,
/// sections), and, with process isolation, the answers to the questions the workers' copies ask.
/// A stage that keeps one declares it (`StageDescriptor.service`), so the runner can find it by
/// the stage; the stage itself stays `descriptor`, `init(_:)` and `run(_:)`.
public protocol RunService: AnyObject, Sendable {
    /// Ends the service: saves what it keeps across runs, stops its threads. Called once, by
    /// `RunContext.shutdown`.
    func shutdown() throws
    /// Whether the service holds what only `shutdown` ends (threads, unsaved state): a context
    /// dropped while one does was not shut down.
    var needsShutdown: Bool { get }
    /// After the last document, before the run's services end: findings about the run as a whole
    /// rather than a document (validate-links: no web link could be requested, the network looks
    /// down). The runner gives them the pipeline's levels and the stage's label, as it does a
    /// document's. The default has none.
    func runFindings() -> [Finding]
    /// After the last document: what the service says about the run besides findings, under keys
    /// of report.json's run-level `sections` (validate-links: `web`, each host's requests, 429s,
    /// retries and pauses). The default has none.
    func runSections() -> [String: JSONValue]
    /// With process isolation, in the parent: the answer to a question a worker's copy of the
    /// service asked (`forward(to:)`), with the parent's state (validate-links: each URL requested
    /// once per run). The CLI carries the JSON both ways without knowing what is asked. The
    /// default answers null.
    func answer(_ question: JSONValue) -> JSONValue
    /// In a worker process, before the first document: where the service's questions go (`ask`
    /// returns the parent's `answer`). The default asks nothing.
    func forward(to ask: @escaping @Sendable (JSONValue) -> JSONValue)
}

extension RunService {
    public func runFindings() -> [Finding] { [] }
    public func runSections() -> [String: JSONValue] { [:] }
    public func answer(_ question: JSONValue) -> JSONValue { .null }
    public func forward(to ask: @escaping @Sendable (JSONValue) -> JSONValue) {}
}

/// Whose a run service is: a stage instance's (by its label: `validate-links`, `validate-links#2`,
/// so that two instances of a stage keep two services and a failure names the stage), or the
/// run's own (the isolation's worker processes).
public struct ServiceName: Sendable, Hashable, CustomStringConvertible {
    /// The stage instance's label, or nil for the run's own service.
    public let stage: String?
    /// The service's name among its owner's.
    public let name: String

    public init(stage: String?, name: String) {
        self.stage = stage
        self.name = name
    }

    /// `stage 'validate-links'`, or the run's service's name: for messages.
    public var description: String { stage.map { "stage '\($0)'" } ?? name }
}

/// The key of a run service, typed by the service it holds (#48): `context.service(key) { … }` and
/// `context.existingService(key)` give that type, with no cast at the call.
public struct ServiceKey<S: RunService>: Sendable, Hashable {
    public let id: ServiceName

    /// The run's own service called `name`.
    public init(_ name: String) { id = ServiceName(stage: nil, name: name) }

    /// The service `name` of the stage instance labelled `stage` (`Job.stage` while it runs).
    public init(stage: String, _ name: String) { id = ServiceName(stage: stage, name: name) }

    /// The service's name among its owner's (`id.stage`: whose).
    public var name: String { id.name }
}

/// What a run shares among its documents besides the stages' configuration: the run-wide
/// services stages start on first use (`service(_:make:)`). The runner owns one and hands it to
/// every job (`Job.context`) and to the stages' run-level calls; `shutdown()` ends every service
/// once, on every path — the CLI after the last document (interrupted or not), a library user when
/// done with the runner (`Runner.finish()`). A context dropped with services still running is a
/// bug, which an assertion catches in debug builds.
public final class RunContext: Sendable {
    private struct State {
        var services: [ServiceName: any RunService] = [:]
        var order: [ServiceName] = []
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
        let key = key.id
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
        state.withLock { $0.services[key.id] as? S }
    }

    /// The services the stage instance labelled `stage` made, in the order they were made.
    public func services(ofStage stage: String) -> [any RunService] {
        state.withLock { s in s.order.filter { $0.stage == stage }.compactMap { s.services[$0] } }
    }

    /// Ends every service, in the order they were made, once (a second call does nothing).
    /// Returns what failed, by whose service it was.
    @discardableResult
    public func shutdown() -> [(key: ServiceName, error: any Error)] {
        let services = state.withLock { s -> [(ServiceName, any RunService)] in
            guard !s.ended else { return [] }
            s.ended = true
            return s.order.compactMap { k in s.services[k].map { (k, $0) } }
        }
        var failures: [(key: ServiceName, error: any Error)] = []
        for (key, service) in services {
            do { try service.shutdown() } catch { failures.append((key, error)) }
        }
        return failures
    }
}
