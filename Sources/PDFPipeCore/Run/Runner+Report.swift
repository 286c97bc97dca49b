/// What a run's report says besides its documents, known where the run was started (the CLI
/// places the run and parses the flags; Core assembles the report).
package struct RunFacts: Sendable {
    package var toolVersion: String
    /// ISO 8601 (volatile).
    package var generatedAt: String
    /// `K/N` when the run covers one shard of a batch, and the engine's variable it came from.
    package var shard: String?
    package var shardSource: String?
    /// The batch's documents (of every shard, when `shard` is set: `InputSet.batch` holds the
    /// whole batch's plan).
    package var inputs: InputSet
    /// The pipeline file's own `report.failOn`, before the command line's `--fail-on`.
    package var pipelineFailOn: FailOn?
    /// The pipeline file as `ignore` findings name it (relative to the working folder).
    package var pipelineFile: String?
    /// Whether the run was interrupted (the report is then `incomplete`).
    package var interrupted = false

    package init(
        toolVersion: String, generatedAt: String, inputs: InputSet, shard: String? = nil, shardSource: String? = nil,
        pipelineFailOn: FailOn? = nil, pipelineFile: String? = nil
    ) {
        self.toolVersion = toolVersion
        self.generatedAt = generatedAt
        self.inputs = inputs
        self.shard = shard
        self.shardSource = shardSource
        self.pipelineFailOn = pipelineFailOn
        self.pipelineFile = pipelineFile
    }
}

extension Runner {
    /// The run's report, once its documents are done (before or after `finish()`: a service keeps
    /// what it says past its end): the documents (from `store`), the run's findings at the pipeline's
    /// levels through the function a document's go through (`runFindings()`), the services'
    /// sections, the baseline and what it fixed, the suppressions used and their findings. A
    /// library user of `Runner` gets the report the CLI writes.
    package func report(_ facts: RunFacts, store: ResultStore) -> RunReport {
        var report = RunReport(
            toolVersion: facts.toolVersion, pipeline: pipeline.name, documents: [], generatedAt: facts.generatedAt)
        report.store = store
        report.failOn = pipeline.failOn
        report.pipelineFailOn = facts.pipelineFailOn
        report.incomplete = facts.interrupted
        report.shard = facts.shard
        report.shardSource = facts.shardSource
        report.batch = facts.shard == nil ? nil : facts.inputs.batch
        report.baseline = pipeline.baselineFile.map { BaselineUse(file: $0, ratchet: pipeline.ratchet) }
        // Documents the baseline lists that the batch no longer has: their findings are fixed. A
        // shard cannot tell (the merge does).
        if let baseline = policy?.baseline, facts.shard == nil {
            report.removedSinceBaseline = RunReport.removed(
                from: baseline, batch: Set(facts.inputs.documents.map(\.relativePath)))
        }
        report.findings = runFindings()
        report.sections = runSections()
        if let policy {
            report.suppressions = policy.uses
            report.findings += SuppressionUse.findings(
                report.suppressions, today: policy.today, wholeBatch: facts.shard == nil && !facts.interrupted,
                pipelineFile: facts.pipelineFile)
            report.findings += policy.anchorFindings
            if facts.shard == nil {
                report.findings += policy.removedDocumentAnchors(
                    batch: Set(facts.inputs.documents.map(\.relativePath)))
            }
        }
        return report
    }
}
