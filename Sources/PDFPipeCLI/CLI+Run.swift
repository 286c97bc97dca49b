import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

extension CLI {
    func runCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try RunFlags.parse(args)
        guard let pipelineFile = a.operands.first else {
            throw PipelineError(file: nil, message: "run needs a pipeline file: pdfpipe run PIPELINE [INPUT...]")
        }
        // Offline, nothing is sent: the web check's secrets are not needed.
        var pipeline = try loadPipeline(pipelineFile, environment: a.offline ? .offline : .required)
        let quiet = a.quiet
        let verbose = a.verbose

        let fileFailOn = pipeline.failOn
        let shard = try applyRunFlags(a, to: &pipeline)
        let baseline = try pipeline.baselineFile.map { file throws(PipelineError) in try loadBaseline(file) }
        let generatedAt = fixedDate ?? SystemClock.now.ISO8601Format()

        // Object storage (s3://): inputs fetched into a staging folder, outputs written there and
        // uploaded (RemoteInputs.swift, RemoteOutputs.swift, RemoteRun.swift).
        let remote = try remoteRun(a, pipeline: pipeline, shard: shard)  // its staging folder goes with it
        let (outDir, set) = try places(a, pipeline: pipeline, file: pipelineFile, shard: shard, remote: remote)

        // A shard the engine retries (Slurm --requeue, Kubernetes backoffLimitPerIndex, AWS Batch
        // retries) goes on where it stopped: --resume is the default under --shard auto, and with
        // outputs in object storage (what makes a retried task exactly-once).
        let resume = a.resume || shard?.source != nil || remote?.outputLocation != nil
        let jobs = pipeline.jobs == 0 ? ProcessInfo.processInfo.activeProcessorCount : pipeline.jobs
        var runner = Runner(pipeline: pipeline, outputDirectory: outDir, inputRoot: set.root, jobs: jobs)
        runner.context.shards = shard?.count ?? 1
        runner.context.documentTimeout = pipeline.timeoutSeconds
        applyResults(to: &runner, pipeline, baseline: baseline, today: generatedAt, out: outDir)
        isolate(&runner, pipeline, file: pipelineFile, resume: resume, documents: set.documents.count, remote: remote)
        let (onProgress, endProgress) = startProgress(a.progress, quiet: quiet, total: set.documents.count)
        // Results go to results.jsonl as documents finish; reports are rendered from it.
        let hash = configurationHash(pipeline, file: pipelineFile)
        try remote?.begin(&runner, set: set, hash: hash, shard: shard?.description, console: console)
        guard
            let store = openStore(
                outDir, set: set, hash: hash, resume: resume, quiet: quiet, asked: a.resume,
                remote: remote)
        else { return .internalFailure }
        // Documents the earlier run did not record may have left up-to-date outputs behind (the
        // ones in flight when it stopped): redone, so that the report is the one an uninterrupted
        // run writes (`thumbnails.rendered`, not `skipped`).
        if resume { runner.pipeline.force = true }
        remote?.startFetching(set, store: store, jobs: jobs)
        let interruption = Interruption.shared
        _ = runner.run(set.documents, progress: onProgress, shouldStop: { interruption.signal != nil }, store: store)
        endProgress()
        finish(runner)

        do throws(ResultStore.OpenError) {
            try store.finish()
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        var facts = RunFacts(
            toolVersion: Self.version, generatedAt: generatedAt, inputs: set, shard: shard?.description,
            shardSource: shard?.source, pipelineFailOn: fileFailOn,
            pipelineFile: Self.workingPath(Paths.absolute(pipelineFile, relativeTo: directory), in: directory))
        facts.interrupted = interruption.signal != nil
        let report = runner.report(facts, store: store)
        if let signal = interruption.signal {
            // Interrupted: the documents that finished, marked incomplete; exit 128 + the signal.
            _ = write(report, formats: pipeline.formats, to: outDir, quiet: quiet, verbose: verbose)
            console.error(
                "pdfpipe: interrupted: \(store.count) of \(set.documents.count) documents finished; the report says \"incomplete\": true; --resume goes on from here"
            )
            return ExitCode(rawValue: 128 + signal) ?? .internalFailure
        }
        let code = write(
            report, formats: pipeline.formats, to: outDir, quiet: quiet, verbose: verbose, shownAs: remote?.reportsURL)
        // One record per run: a shard's documents are part of one (the merge's, not a shard's).
        if let ledger = pipeline.ledger, shard == nil, !writeLedger(report, to: ledger, quiet: quiet) {
            return .internalFailure
        }
        return remote?.upload(report: report, quiet: quiet, console: console) == false ? .internalFailure : code
    }

    /// Where the run writes (checked) and the batch it reads: a staging folder and the store's
    /// listing for a run in object storage.
    private func places(_ a: RunFlags, pipeline: Pipeline, file: String, shard: Shard?, remote: RemoteRun?)
        throws(PipelineError) -> (outDir: String, set: InputSet)
    {
        let outDir = remote?.outDir ?? Paths.absolute(pipeline.output, relativeTo: directory)
        if remote?.outputLocation == nil {
            try checkOutputFolder(outDir)
            ignoreInHiddenFolder(outDir)
        }
        if let remoteSet = remote?.set { return (outDir, remoteSet) }
        return (outDir, try inputSet(a, pipeline: pipeline, file: file, shard: shard, output: outDir))
    }

    /// `--progress`: auto (a line redrawn on a terminal, a line every 15 s in a log; none with
    /// `--quiet`), always (also with `--quiet`), never. Returns what the runner calls as documents
    /// finish, and what ends the progress.
    private func startProgress(_ mode: ProgressMode, quiet: Bool, total: Int) -> (
        (@Sendable (RunProgress) -> Void)?, () -> Void
    ) {
        guard mode == .always || (mode == .auto && !quiet) else { return (nil, {}) }
        if console.interactive {
            let line = ProgressLine(console: console)
            return ({ line.update($0) }, { line.finish() })
        }
        let log = LogProgress(console: console, total: total)
        log.start()
        return ({ log.update($0) }, { log.finish() })
    }

    /// The run's results file, resumed from when `resume` (unless `quiet`, said when `asked` for
    /// with --resume, or when there is something to go on with: a fresh task of --shard auto starts
    /// quietly); nil, said, when it cannot be opened.
    /// `remote`: a run in object storage, whose inputs' stamps come from the store's listing (they
    /// are not local files yet) and whose results are in the store.
    private func openStore(
        _ outDir: String, set: InputSet, hash: String, resume: Bool, quiet: Bool, asked: Bool, remote: RemoteRun?
    ) -> ResultStore? {
        let stamps = remote?.stamps(set)
        let shownAs = remote?.resultsURL
        let store: ResultStore
        do throws(ResultStore.OpenError) {
            store = try ResultStore(
                directory: outDir, count: set.documents.count, pipelineHash: hash,
                resuming: resume
                    ? stamps
                        ?? set.documents.map { ResultStore.InputStamp.of(file: $0.path, relativePath: $0.relativePath) }
                    : nil)
        } catch {
            console.error("pdfpipe: error: \(error)")
            return nil
        }
        if resume && !quiet && (asked || store.count > 0) {
            let n = store.count
            console.error(
                "pdfpipe: resume: \(n) of \(set.documents.count) document\(set.documents.count == 1 ? "" : "s") already done (\(shownAs ?? Paths.relative(store.path, to: directory)))"
            )
        }
        return store
    }

    /// The inputs: named after the pipeline, listed by `--inputs-from`, else the pipeline's own
    /// `inputs` (command-line flags override the file), expanded into the batch.
    private func inputSet(_ a: RunFlags, pipeline: Pipeline, file pipelineFile: String, shard: Shard?, output: String)
        throws(PipelineError) -> InputSet
    {
        var listed: [String] = []
        if let from = a.inputsFrom {
            listed = try Self.workList(
                from == "-" ? from : Paths.absolute(from, relativeTo: directory),
                nullSeparated: a.null
            ) { Array(FileHandle.standardInput.readDataToEndOfFile()) }
        }
        let named = a.operands.count > 1 ? Array(a.operands.dropFirst()) : (listed.isEmpty ? pipeline.inputs : [])
        let inputs = named + listed
        guard !inputs.isEmpty else {
            throw PipelineError(
                file: pipelineFile,
                message: "no inputs: name files or folders after the pipeline, or list them under \"inputs\"")
        }
        do throws(PipelineError) {
            return try batch(
                inputs, shard: shard, allowEmpty: a.allowEmpty, output: output,
                listed: Set(listed))
        } catch {
            // An input the pipeline file named (not the command line): say where it came from.
            guard a.operands.count == 1, listed.isEmpty, let input = error.file, pipeline.inputs.contains(input)
            else { throw error }
            var e = error
            e.message +=
                " (from the \"inputs\" of \(pipelineFile); name the inputs after the pipeline: pdfpipe run \(pipelineFile) FOLDER...)"
            throw e
        }
    }

    /// Ends the run's services (validate-links saves its URL cache and stops its threads); says
    /// what failed.
    private func finish(_ runner: Runner) {
        for (whose, error) in runner.finish() {
            console.error("pdfpipe: warning: \(whose): \(error)")
        }
    }

    /// The flags of `run` that override the pipeline file; returns the shard asked for.
    /// What is applied to each document's result as it finishes: the `ignore` list and the
    /// baseline at the pipeline's levels, and the source mapping (`report.sources`).
    private func applyResults(
        to runner: inout Runner, _ pipeline: Pipeline, baseline: Baseline?, today: String, out: String
    ) {
        var policy = ResultPolicy(suppressions: pipeline.suppressions, baseline: baseline, today: today)
        policy.levels = pipeline.ruleLevels
        if let ledger = pipeline.ledger {
            // The first run of a ledger finds no record: every broken link is broken since now.
            policy.brokenBefore = Trend.streaks(ledgerBeforeThisRun(ledger))
            policy.runTime = today
        }
        runner.policy = policy
        if !pipeline.sourceRoots.isEmpty {
            let mapper = SourceMapper(roots: pipeline.sourceRoots, workingDirectory: directory, excluded: [out])
            mapper.prepare()
            runner.sourceMapping = mapper
        }
    }

    /// The ledger folder and the sources folders, before any work: each a real folder, no
    /// symbolic link on the way.
    private func checkPlaces(_ pipeline: Pipeline) throws(PipelineError) {
        if let l = pipeline.ledger { try checkLedger(l) }
        for root in pipeline.sourceRoots {
            let path = Paths.standardize(Paths.absolute(root, relativeTo: directory))
            guard FileSystem.isFolder(path) else {
                throw PipelineError(
                    file: root, message: "not a folder (--sources, report.sources: the folders of the PDFs' sources)")
            }
            // Symbolic links inside the roots are not followed; a root reached through one is refused.
            if !Paths.symbolicLinks(onTheWayTo: path, inside: Paths.standardize(directory)).isEmpty {
                throw PipelineError(
                    file: root,
                    message: "the sources folder is a symbolic link, or reached through one: give the real folder")
            }
        }
    }

    private func applyRunFlags(_ a: RunFlags, to pipeline: inout Pipeline) throws(PipelineError) -> Shard? {
        // Values of flags that override a key were checked by the key's declaration when parsed.
        if let out = a.out { pipeline.output = out }
        if let jobs = a.jobs { pipeline.jobs = jobs }
        if let f = a.format { pipeline.formats = try formats(f) }
        if let f = a.failOn { pipeline.failOn = f }
        pipeline.force = a.force
        pipeline.offline = a.offline
        if a.isolate { pipeline.isolation = .process }
        if a.noIsolate { pipeline.isolation = .none }
        if let t = a.timeout { pipeline.timeoutSeconds = t }
        if let m = a.memoryLimit { pipeline.memoryLimitMB = m }
        // A time or memory limit can only be enforced on a process of its own, so either one turns isolation on.
        if pipeline.timeoutSeconds > 0 || pipeline.memoryLimitMB > 0 { pipeline.isolation = .process }
        guard !(a.isolate && a.noIsolate) else {
            throw PipelineError(file: nil, message: "--isolate and --no-isolate contradict each other")
        }

        if let b = a.baseline { pipeline.baselineFile = b }
        if let l = a.ledger { pipeline.ledger = l }
        if let s = a.sources { pipeline.sourceRoots = s.split(separator: ",").map(String.init).filter { !$0.isEmpty } }
        try checkPlaces(pipeline)
        if a.ratchet { pipeline.ratchet = true }
        guard !pipeline.ratchet || pipeline.baselineFile != nil else {
            throw PipelineError(
                file: nil, message: "--ratchet (report.ratchet) needs a baseline: --baseline FILE or report.baseline")
        }
        let shard = try a.shard.map { text throws(PipelineError) in
            try Shard.resolve(text, environment: Environment.all)
        }
        pipeline.output = try Shard.placing(shard, in: pipeline.output)
        return shard
    }

    /// The documents of the inputs (of the shard), or an error when there is none at all.
    /// The output folder is never an input: with `--out` inside an input folder, each run would
    /// audit the previous run's review copies and outputs too (2, then 4, then 6 documents).
    private func batch(
        _ inputs: [String], shard: Shard?, allowEmpty: Bool, output: String, listed: Set<String> = []
    ) throws(PipelineError) -> InputSet {
        var set = try InputSet.expand(
            inputs, relativeTo: directory, missingAllowed: listed, followFileLinks: !inputsFromAPullRequest)
        let out = Paths.resolved(output)
        let before = set.documents.count
        set.documents.removeAll { Paths.isInside($0.path, root: out) }
        let excluded = before - set.documents.count
        if excluded > 0 {
            console.error(
                "pdfpipe: note: \(excluded) PDF file\(excluded == 1 ? "" : "s") in the output folder '\(Paths.relative(out, to: Paths.resolved(directory)))' \(excluded == 1 ? "is" : "are") not an input"
            )
        }
        let working = Paths.standardize(directory)
        for (link, target) in set.outsideLinks.prefix(20) {
            console.error(
                "pdfpipe: warning: '\(Paths.relative(link, to: working))' is a symbolic link out of the folder searched (to '\(target)'): not followed\(inputsFromAPullRequest ? " under GitHub Actions (the inputs come from a pull request)" : ""); name it as an input to check it"
            )
        }
        if set.outsideLinks.count > 20 {
            console.error("pdfpipe: warning: … and \(set.outsideLinks.count - 20) more symbolic links not followed")
        }
        // Nothing to check is not a pass: an error that leaves the output folder (and the last
        // report) alone, unless asked for. A shard may be empty; the batch may not.
        if set.documents.isEmpty && !allowEmpty {
            let searched = inputs.map { "'\($0)'" }.joined(separator: ", ")
            let links = set.outsideLinks.count
            let skipped =
                links == 0
                ? ""
                : "; \(links) symbolic link\(links == 1 ? "" : "s") out of the folder searched \(links == 1 ? "was" : "were") not followed (named above)"
            throw PipelineError(
                file: nil,
                message:
                    "no PDF file in the inputs (searched \(searched) for *.pdf)\(skipped); nothing was checked (--allow-empty accepts an empty batch)"
            )
        }
        if let shard { set.keepShard(shard.contains) }
        for pattern in set.emptyPatterns { console.error("pdfpipe: warning: '\(pattern)' matches no file") }
        if set.documents.isEmpty {
            console.error("pdfpipe: warning: no PDF files to check\(shard == nil ? "" : " in this shard")")
        }
        return set
    }

    /// The worker processes of process isolation, when the pipeline runs isolated: `process`, or
    /// `auto` with a stage that runs a page engine and a program that can be a worker (a test
    /// runner calling the CLI in its own process cannot, unless PDFPIPE_WORKER_EXECUTABLE names
    /// pdfpipe). `auto` stays `auto` in the resume hash: how it resolves does not change results.
    /// Its workers are started at once, one a job (at most one a document), and are a service of
    /// the run: `Runner.finish()` ends them.
    private func isolate(
        _ runner: inout Runner, _ pipeline: Pipeline, file: String, resume: Bool, documents: Int, remote: RemoteRun?
    ) {
        let isolation =
            pipeline.isolation == .auto
            ? (IsolatedRunner.workersAvailable ? pipeline.resolvedIsolation : .none) : pipeline.isolation
        guard isolation == .process else { return }
        let pool = isolatedPool(
            pipeline, file: file, outputDirectory: runner.outputDirectory, root: runner.inputRoot, resume: resume,
            runner: runner, localCopies: remote?.inputs != nil)
        runner.isolate = { pool.run($0, pageWorkers: $1) }
        _ = runner.context.service(IsolatedRunner.key) { pool }
        pool.prestart(min(runner.jobs, documents))
    }

    /// The worker processes of process isolation.
    private func isolatedPool(
        _ pipeline: Pipeline, file pipelineFile: String, outputDirectory outDir: String, root: String, resume: Bool,
        runner: Runner, localCopies: Bool
    ) -> IsolatedRunner {
        let pool = IsolatedRunner(
            executable: IsolatedRunner.currentExecutable(),
            pipelineFile: pipelineReference(pipelineFile),
            outputDirectory: outDir, inputRoot: root, timeout: pipeline.timeoutSeconds,
            memoryLimitMB: pipeline.memoryLimitMB,
            force: pipeline.force || resume, offline: pipeline.offline, localCopies: localCopies)
        // Workers' stages ask this process's (validate-links: its URL checker), so each URL
        // is requested once per run and the cache is written once.
        pool.answer = { index, question in runner.answer(question, stage: index) }
        return pool
    }

    /// What a resumed run must share with the run it goes on with: the pipeline file, the flags
    /// that change results, and the baseline.
    private func configurationHash(_ pipeline: Pipeline, file pipelineFile: String) -> String {
        ResultStore.configurationHash(
            [
                Self.version, pipelineFile, pipelineText(pipelineFile),
                "force=\(pipeline.force)", "offline=\(pipeline.offline)", "isolation=\(pipeline.isolation.rawValue)",
                "timeout=\(pipeline.timeoutSeconds)", "memory=\(pipeline.memoryLimitMB)",
                "baseline="
                    + (pipeline.baselineFile.flatMap {
                        try? String(contentsOfFile: Paths.absolute($0, relativeTo: directory), encoding: .utf8)
                    } ?? ""),
            ])
    }
}

extension CLI {
    /// The paths of a work list (`--inputs-from FILE`, `-` for standard input): one a line (a
    /// trailing CR dropped, blank lines skipped), or separated by NUL bytes with `--null` (as
    /// `find -print0` writes them, for names with line breaks). Paths are taken as the list names
    /// them, relative to the current folder; a path that does not exist is the document's finding.
    static func workList(_ from: String, nullSeparated: Bool, readStandardInput: () -> [UInt8]) throws(PipelineError)
        -> [String]
    {
        let bytes: [UInt8]
        if from == "-" {
            bytes = readStandardInput()
        } else {
            guard let data = FileSystem.contents(from) else {
                throw PipelineError(file: from, message: "--inputs-from: cannot read the work list")
            }
            bytes = Array(data)
        }
        let separator: UInt8 = nullSeparated ? 0 : 0x0A
        return bytes.split(separator: separator, omittingEmptySubsequences: true).compactMap { part in
            var p = Array(part)
            if !nullSeparated, p.last == 0x0D { p.removeLast() }
            let text = String(decoding: p, as: UTF8.self)
            return text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
        }
    }
}
