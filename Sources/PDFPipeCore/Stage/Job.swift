import Dispatch

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
    /// The pipeline's rule levels (`Pipeline.ruleLevels`: `rules`, and `off` for the rules off by
    /// default), for stages that act on findings as they will be reported.
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
    /// The report entry's sections as JSON, by report.json's key (the JSON edge: the runner
    /// writes them out). Stages write and read them typed, `job[.text] = section` (`SectionKey`).
    public internal(set) var sections: [String: JSONValue] = [:]
    /// What a stage leaves for the later stages of this document, typed (the thumbnails' overlay
    /// takes validate-links' link placements from here, not from its report section).
    public var products = StageProducts()
    public let resources = JobResources()
    /// The running stage instance's label (set by the runner): its id, `id#2` for a second one.
    public internal(set) var stage = ""
    /// The ids of the rules the running stage declared, and Core's (set by the runner; empty: any).
    public internal(set) var stageRules: Set<String> = []
    /// The run's shared services (set by the runner; a job made by hand gets a context of its own).
    public internal(set) var context = RunContext()
    /// Whether stages may leave work to finish after the worker has moved on (`defer`): set by a
    /// runner that parks documents; a job made by hand finishes everything at once.
    public internal(set) var allowsDeferral = false
    /// Work stages left to finish later, in order (`defer`).
    var deferred: [DeferredWork] = []

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
        findings.compactMap { RuleLevel.applied(ruleLevels, to: $0) }
    }

    /// The severity the pipeline's `rules` give `f`; nil when its rule is off.
    public func effectiveSeverity(of f: Finding) -> Severity? { RuleLevel.applied(ruleLevels, to: f)?.severity }

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
        assert(
            stageRules.isEmpty || stageRules.contains(f.rule),
            "stage '\(stage)' reports '\(f.rule)', which its descriptor's rules do not list")
        if f.stage == nil { f.stage = stage }
        findings.append(f)
    }
}

/// Work a stage began on a document that finishes later, without holding the document's worker:
/// validate-links queues the document's web URLs to the run's checker and leaves the verdicts to
/// be joined when they are answered. `whenReady` calls back once (from any thread) when `finish`
/// can run without waiting; `finish` then completes the job (findings, sections) on a worker.
///
/// `@unchecked Sendable`: `finish` is not called concurrently with anything else that touches the
/// job — the job and its deferred work move together from the worker that parked them to the one
/// that finishes them (ownership passes, nothing is shared).
public struct DeferredWork: @unchecked Sendable {
    public var whenReady: @Sendable (@escaping @Sendable () -> Void) -> Void
    public var finish: (inout Job) -> Void
    /// The stage that left it, and its rules (the job's while `finish` runs).
    var stage = ""
    var stageRules: Set<String> = []

    public init(
        whenReady: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, finish: @escaping (inout Job) -> Void
    ) {
        self.whenReady = whenReady
        self.finish = finish
    }
}

extension Job {
    /// Leaves `work` to finish later when the runner allows it (`allowsDeferral`); otherwise
    /// waits for it to be ready and finishes it now.
    public mutating func `defer`(_ work: DeferredWork) {
        var work = work
        work.stage = stage
        work.stageRules = stageRules
        if allowsDeferral {
            deferred.append(work)
        } else {
            Job.finish(work, &self)
        }
    }

    /// Waits for every deferred work and finishes it, in order (before a stage that reads the
    /// findings so far, or at the end of a document that cannot be parked).
    mutating func joinDeferred() {
        let all = deferred
        deferred.removeAll()
        for w in all { Job.finish(w, &self) }
    }

    /// Finishes deferred work that is ready (or waits for it), as its own stage.
    static func finish(_ work: DeferredWork, _ job: inout Job) {
        let ready = DispatchSemaphore(value: 0)
        work.whenReady { ready.signal() }
        ready.wait()
        finishReady(work, &job)
    }

    /// Finishes deferred work known to be ready, as the stage that left it.
    static func finishReady(_ work: DeferredWork, _ job: inout Job) {
        let (stage, rules) = (job.stage, job.stageRules)
        job.stage = work.stage
        job.stageRules = work.stageRules
        work.finish(&job)
        job.stage = stage
        job.stageRules = rules
    }
}
