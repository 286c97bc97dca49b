/// What a stage is, for the pipeline loader, `pdfpipe stages` and the JSON Schema.
public struct StageDescriptor: Sendable {
    public var id: String
    public var summary: String
    public var options: [OptionSpec]
    /// Builds the stage from validated options (defaults filled in).
    public var make: @Sendable (OptionValues) throws(PipelineError) -> any Stage
    /// What the stage needs from the stages before it (thumbnails' link overlay needs the link
    /// inventory of validate-links): given its options and the earlier stages, what is missing,
    /// or nil. Checked when the pipeline is loaded, before any document is opened.
    public var requirement:
        (@Sendable (_ options: OptionValues, _ earlier: [(id: String, options: OptionValues)]) -> String?)?

    public init(
        id: String, summary: String, options: [OptionSpec],
        requirement: (
            @Sendable (_ options: OptionValues, _ earlier: [(id: String, options: OptionValues)]) -> String?
        )? = nil,
        make: @escaping @Sendable (OptionValues) throws(PipelineError) -> any Stage
    ) {
        self.id = id
        self.summary = summary
        self.options = options
        self.requirement = requirement
        self.make = make
    }
}

/// A pipeline stage. A stage value is made for one run (each run loads its pipeline) and shared by
/// every worker: it holds its configuration and, for validate-links, run-wide services that are
/// safe to share (the URL checker and its cache, the GoToR documents read once per run), which
/// `runFinished` ends; everything it learns about a document goes into the `Job` (what later
/// stages need, typed, into `Job.products`).
public protocol Stage: Sendable {
    static var descriptor: StageDescriptor { get }

    /// Runs on one document. Throw `DocumentFailure` when the document cannot be processed further
    /// (later stages are then skipped); any other error becomes a `stage.failed` finding.
    func run(_ job: inout Job) throws

    /// Called once after the last document of a run (to save what a stage keeps across runs, such
    /// as the URL cache of validate-links). The default does nothing.
    func runFinished() throws

    /// After the last document: findings about the run as a whole rather than a document
    /// (validate-links: no web link could be requested, the network looks down). They go to the
    /// report's run-level `findings`. The default has none.
    func runFindings() -> [Finding]

    /// With process isolation, the stage's work that is shared by the whole run (validate-links:
    /// each URL requested once per run) stays in the parent process: a worker process's copy of
    /// the stage asks (`forwardQuestions`), the parent's copy answers here. The CLI carries the
    /// JSON both ways without knowing what is asked. The default answers null.
    func answer(_ question: JSONValue) -> JSONValue

    /// In a worker process, before the first document: where this stage's questions go (`ask`
    /// returns the parent's `answer`). The default asks nothing.
    func forwardQuestions(to ask: @escaping @Sendable (JSONValue) -> JSONValue)
}

extension Stage {
    public func runFinished() throws {}
    public func runFindings() -> [Finding] { [] }
    public func answer(_ question: JSONValue) -> JSONValue { .null }
    public func forwardQuestions(to ask: @escaping @Sendable (JSONValue) -> JSONValue) {}
}

/// Thrown by a stage when a document cannot be processed further: becomes a finding with `rule`,
/// the document's status becomes `failed`, and later stages are skipped.
public struct DocumentFailure: Error, Sendable, CustomStringConvertible {
    public var rule: String
    public var message: String
    public var object: String?

    public init(rule: String, message: String, object: String? = nil) {
        self.rule = rule
        self.message = message
        self.object = object
    }

    public var description: String { message }
}

/// A per-document resource that learns of problems while stages use it (pdfpipe's object reader
/// handing an object it cannot read exactly as written to qpdf, say). The runner asks it after every
/// stage, so a problem is reported whichever stage came upon it, and only once.
public protocol PendingFindings: AnyObject {
    /// Reports what was learnt since the last call.
    func flush(into job: inout Job)
    /// Reports what waits for the end of the document (or of the working file): what later reads
    /// might still say better. The default flushes.
    func finish(into job: inout Job)
}

extension PendingFindings {
    public func finish(into job: inout Job) { flush(into: &job) }
}

/// Per-document resources that stages share (an opened document, say), kept for the life of the
/// job on the worker's thread and dropped with it. Not Sendable: it never leaves its worker.
public final class JobResources {
    private var items: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// The cached value of type `T`, made on first use.
    public func value<T: AnyObject>(_ type: T.Type, make: () throws -> T) rethrows -> T {
        if let v = items[ObjectIdentifier(type)] as? T { return v }
        let v = try make()
        items[ObjectIdentifier(type)] = v
        return v
    }

    /// The cached value of type `T`, if any.
    public func existing<T: AnyObject>(_ type: T.Type) -> T? { items[ObjectIdentifier(type)] as? T }

    /// Caches a value under its type.
    public func store<T: AnyObject>(_ value: T) { items[ObjectIdentifier(T.self)] = value }

    /// Forgets every cached value (when the working file changes).
    public func removeAll() { items.removeAll() }

    /// The resources that have findings to give, in a stable order.
    public var pendingFindings: [any PendingFindings] {
        items.values.compactMap { $0 as? any PendingFindings }.sorted { "\(type(of: $0))" < "\(type(of: $1))" }
    }
}

/// Values stages hand to later stages of the same document, one per type.
public struct StageProducts {
    private var items: [ObjectIdentifier: Any] = [:]

    public init() {}

    public subscript<T>(_ type: T.Type) -> T? {
        get { items[ObjectIdentifier(type)] as? T }
        set { items[ObjectIdentifier(type)] = newValue }
    }
}

/// One document on its way through the stages.
public struct Job {
    /// The input as found (absolute path).
    public let source: String
    /// Relative to the input root; what reports show.
    public let relativePath: String
    /// The document's name in the output folder, unique in the batch (`OutputStems`).
    public var outputStem: String
    /// The file stages read: the source, or a copy an earlier stage made (normalize). Setting it
    /// drops the shared resources opened on the old file.
    public var workingFile: String {
        willSet { finishPendingFindings() }
        didSet { resources.removeAll() }
    }
    public let outputDirectory: String
    /// The batch's input root: report paths are relative to it.
    public let inputRoot: String
    public var pageCount: Int?
    /// Redo work that incremental stages would skip (`--force`).
    public var force = false
    /// No network (`--offline`): stages that would reach out skip it.
    public var offline = false
    /// The pipeline's rule levels (`rules`), for stages that act on findings as they will be reported.
    public var ruleLevels: [String: RuleLevel] = [:]
    /// How many threads a stage may use for the pages of this document: the processors that the
    /// document-level workers leave idle (a single big document gets them all).
    public var pageWorkers = 1
    /// The run's idle workers, which stages doing pages in parallel may offer pages to (nil: none).
    public var pageHelpers: PageHelpers?
    /// Page labels, one per page, when the document defines `/PageLabels`.
    public var pageLabels: [String]?
    public var findings: [Finding] = []
    public var artifacts: [Artifact] = []
    public var sections: [String: JSONValue] = [:]
    /// What a stage leaves for the later stages of this document, typed (the thumbnails' overlay
    /// takes validate-links' link placements from here, not from its report section).
    public var products = StageProducts()
    public let resources = JobResources()
    /// The running stage instance's label (set by the runner): its id, `id#2` for a second one.
    public internal(set) var stage = ""

    public init(source: String, relativePath: String, outputDirectory: String, inputRoot: String) {
        self.source = source
        self.relativePath = relativePath
        self.outputStem = OutputStems.base(relativePath)
        self.workingFile = source
        self.outputDirectory = outputDirectory
        self.inputRoot = inputRoot
    }

    /// The findings so far as the report will show them: rule levels applied, rules off dropped.
    public var effectiveFindings: [Finding] {
        findings.compactMap { f in
            guard let s = effectiveSeverity(of: f) else { return nil }
            var f = f
            f.severity = s
            return f
        }
    }

    /// The severity the pipeline's `rules` give `f`; nil when its rule is off.
    public func effectiveSeverity(of f: Finding) -> Severity? {
        switch ruleLevels[f.rule] {
        case .off?: return nil
        case .severity(let s)?: return s
        case nil: return Rules.rule(f.rule)?.offByDefault == true ? nil : f.severity
        }
    }

    /// Reports what the shared resources learnt (see `PendingFindings`).
    public mutating func flushPendingFindings() {
        for r in resources.pendingFindings { r.flush(into: &self) }
    }

    /// Reports everything the shared resources still hold (end of the document or working file).
    public mutating func finishPendingFindings() {
        for r in resources.pendingFindings { r.finish(into: &self) }
    }

    /// Adds a finding from the running stage.
    public mutating func report(_ finding: Finding) {
        var f = finding
        if f.stage == nil { f.stage = stage }
        findings.append(f)
    }
}
