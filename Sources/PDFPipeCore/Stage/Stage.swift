/// What a stage is, for the pipeline loader, `pdfpipe stages` and the JSON Schema.
public struct StageDescriptor: Sendable {
    public var id: String
    public var summary: String
    public var options: [OptionSpec]
    /// The rules the stage reports besides Core's (`CoreRules`), declared beside its code. A
    /// finding of any other rule from this stage trips an assertion in debug builds (`Job.report`).
    public var rules: [Rule]
    /// Builds the stage from validated options (defaults filled in).
    public var make: @Sendable (OptionValues) throws(PipelineError) -> any Stage
    /// The values this stage leaves in `Job.products` for later stages (validate-links:
    /// `LinkPlacements`), by type.
    public var produces: [Product]
    /// What the stage needs from the stages before it, given its options (thumbnails' link overlay
    /// needs `LinkPlacements`): a product type and why, or none. The loader checks, before any
    /// document is opened, that an earlier stage `produces` each; no stage names another's id.
    public var needs: (@Sendable (_ options: OptionValues) -> [Need])?
    /// The run-wide service a stage instance keeps (validate-links: its URL checker and GoToR
    /// files), made on first use in the run's context under the instance's label: the runner
    /// finds it by the stage to read the run's findings and sections, to answer the isolated
    /// workers' questions and, in a worker, to forward them. Nil: the stage keeps none.
    public var service: (@Sendable (_ stage: any Stage, _ label: String, RunContext) -> (any RunService)?)?
    /// The run-level sections its service writes (validate-links: `web`), by type: `merge` joins
    /// shards' reports through them.
    public var runSections: [any RunSection.Type] = []

    /// A type of `Job.products`, as a value (its identity and its name for messages).
    public struct Product: Sendable, Hashable, CustomStringConvertible {
        let id: ObjectIdentifier
        public let description: String

        public static func of<T>(_ type: T.Type) -> Product {
            Product(id: ObjectIdentifier(type), description: String(describing: type))
        }
    }

    /// A product a stage needs, and what for (the loader's message when no earlier stage makes it).
    public struct Need: Sendable {
        public var product: Product
        public var why: String

        public init<T>(_ type: T.Type, why: String) {
            self.product = .of(type)
            self.why = why
        }
    }
    /// The stage reads the findings of the stages before it (thumbnails' overlay, review copies):
    /// work those stages deferred (`Job.defer`) is finished before it runs.
    public var readsEarlierFindings = false
    /// The stage runs a page engine (poppler and cairo, or MuPDF) over the document's pages: with
    /// `isolation: auto` (the default) such a pipeline runs each document in a worker process.
    public var runsPageEngine = false

    public init(
        id: String, summary: String, rules: [Rule] = [], options: [OptionSpec],
        produces: [Product] = [], needs: (@Sendable (_ options: OptionValues) -> [Need])? = nil,
        readsEarlierFindings: Bool = false, runsPageEngine: Bool = false,
        service: (@Sendable (_ stage: any Stage, _ label: String, RunContext) -> (any RunService)?)? = nil,
        make: @escaping @Sendable (OptionValues) throws(PipelineError) -> any Stage
    ) {
        self.service = service
        self.readsEarlierFindings = readsEarlierFindings
        self.runsPageEngine = runsPageEngine
        self.id = id
        self.summary = summary
        self.options = options
        self.rules = rules
        self.produces = produces
        self.needs = needs
        self.make = make
    }
}

extension StageDescriptor {
    /// The descriptor of `stage`, made from its types (#48): its options are `S.Options`' declared
    /// properties (`@Option`), and the loader builds it as `S(options)` from the validated, typed
    /// values; what it needs is said from its typed options; its run-wide service is made from
    /// the typed stage (`service`).
    public init<S: Stage>(
        _ stage: S.Type, id: String, summary: String, rules: [Rule] = [], produces: [Product] = [],
        needs: (@Sendable (S.Options) -> [Need])? = nil, readsEarlierFindings: Bool = false,
        runsPageEngine: Bool = false,
        service: (@Sendable (_ stage: S, _ label: String, RunContext) -> any RunService)? = nil,
        runSections: [any RunSection.Type] = []
    ) {
        var typedService: (@Sendable (any Stage, String, RunContext) -> (any RunService)?)?
        if let service {
            typedService = { stage, label, context in (stage as? S).map { service($0, label, context) } }
        }
        var typedNeeds: (@Sendable (OptionValues) -> [Need])?
        if let needs {
            typedNeeds = { values in
                guard let options = try? S.Options.read(values) else { return [] }
                return needs(options)
            }
        }
        let make: @Sendable (OptionValues) throws(PipelineError) -> any Stage = { values throws(PipelineError) in
            let options: S.Options = try S.Options.read(values)
            return try S(options)
        }
        self.init(
            id: id, summary: summary, rules: rules, options: S.Options.specs, produces: produces, needs: typedNeeds,
            readsEarlierFindings: readsEarlierFindings, runsPageEngine: runsPageEngine, service: typedService,
            make: make)
        self.runSections = runSections
    }
}

/// A stage with no options.
public struct NoOptions: OptionGroup {
    public init() {}
}

/// A pipeline stage. A stage value is made for one run (each run loads its pipeline) and shared by
/// every worker: it holds its configuration only. What a run shares besides — validate-links' URL
/// checker and its cache, the GoToR documents read once — is the stage's `RunService`, declared in
/// its descriptor (`StageDescriptor.service`) and kept in the run's `RunContext`, which the run
/// ends; everything a stage learns about a document goes into the `Job` (what later stages need,
/// typed, into `Job.products`). What the run as a whole says is its service's, not the stage's.
public protocol Stage: Sendable {
    /// The stage's options: an `OptionGroup` whose `@Option` properties declare them.
    associatedtype Options: OptionGroup = NoOptions

    static var descriptor: StageDescriptor { get }

    /// The stage, configured from its validated options (throws what its options cannot be, with
    /// the option's path).
    init(_ options: Options) throws(PipelineError)

    /// Runs on one document. Throw `DocumentFailure` when the document cannot be processed further
    /// (later stages are then skipped); any other error becomes a `stage.failed` finding.
    func run(_ job: inout Job) throws
}

/// Thrown by a stage when a document cannot be processed further: becomes a finding with `rule`,
/// the document's status becomes `failed`, and later stages are skipped.
public struct DocumentFailure: Error, Sendable, CustomStringConvertible {
    public var rule: Rule
    public var message: String
    public var object: String?

    public init(rule: Rule, message: String, object: String? = nil) {
        self.rule = rule
        self.message = message
        self.object = object
    }

    public var description: String { message }
}
