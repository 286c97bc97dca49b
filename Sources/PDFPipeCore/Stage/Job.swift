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
    public var sections: [String: JSONValue] = [:]
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
        case nil: return f.severity
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
        assert(
            stageRules.isEmpty || stageRules.contains(f.rule),
            "stage '\(stage)' reports '\(f.rule)', which its descriptor's rules do not list")
        if f.stage == nil { f.stage = stage }
        findings.append(f)
    }
}
