/// The run-wide side of a run: the services the stages keep (`StageDescriptor.service`), found
/// by the stage, asked for what the run as a whole says and, with process isolation, for the
/// answers to the workers' questions. The CLI carries the questions; it never names a stage.
extension Runner {
    /// The run-wide service of each stage instance that keeps one, made on first ask, in the
    /// pipeline's order.
    public func stageServices() -> [(stage: ConfiguredStage, service: any RunService)] {
        pipeline.stages.compactMap { configured in configured.service(in: context).map { (configured, $0) } }
    }

    /// In the parent of isolated workers: the answer of stage `index`'s service to a question its
    /// copy in a worker asked (null for a stage without a service, or an index out of range).
    public func answer(_ question: JSONValue, stage index: Int) -> JSONValue {
        guard pipeline.stages.indices.contains(index) else { return .null }
        return pipeline.stages[index].service(in: context)?.answer(question) ?? .null
    }

    /// In an isolated worker, before the first document: each stage's service asks the parent's
    /// through `ask` (with the stage's index in the pipeline).
    public func forwardQuestions(to ask: @escaping @Sendable (_ stage: Int, JSONValue) -> JSONValue) {
        for (index, configured) in pipeline.stages.enumerated() {
            configured.service(in: context)?.forward { ask(index, $0) }
        }
    }

    /// After the last document: what the services the stages started say about the run as a
    /// whole, at the levels the pipeline's `rules` give (the function a document's findings go
    /// through, `RuleLevel.applied`), each named after its stage instance. A stage whose service
    /// was never started says nothing.
    public func runFindings() -> [Finding] {
        let levels = pipeline.ruleLevels
        var out: [Finding] = []
        for configured in pipeline.stages {
            for service in context.services(ofStage: configured.label) {
                for var f in service.runFindings().compactMap({ RuleLevel.applied(levels, to: $0) }) {
                    f.stage = configured.label
                    out.append(f)
                }
            }
        }
        return out
    }

    /// After the last document: the services' run-level sections, by report.json's key (the first
    /// stage instance to write a key keeps it).
    public func runSections() -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for configured in pipeline.stages {
            for service in context.services(ofStage: configured.label) {
                out.merge(service.runSections()) { first, _ in first }
            }
        }
        return out
    }
}

extension ConfiguredStage {
    /// This stage instance's run-wide service in `context`, made on first ask; nil when the stage
    /// keeps none.
    public func service(in context: RunContext) -> (any RunService)? {
        type(of: stage).descriptor.service?(stage, label, context)
    }
}
