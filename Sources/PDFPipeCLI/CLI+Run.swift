import Foundation
import PDFPipeCore
import PDFPipeStages

extension CLI {
    func runCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Self.arguments(args, for: "run")
        guard let pipelineFile = a.positional.first else {
            throw PipelineError(file: nil, message: "run needs a pipeline file: pdfpipe run PIPELINE [INPUT...]")
        }
        // Offline, nothing is sent: the web check's secrets are not needed.
        var pipeline = try loadPipeline(pipelineFile, environment: a.flags.contains("--offline") ? .offline : .required)
        let quiet = a.flags.contains("--quiet")
        let verbose = a.flags.contains("--verbose")

        // Command-line flags override the file.
        var listed: [String] = []
        if let from = a.values["--inputs-from"] {
            listed = try Self.workList(
                from == "-" ? from : Paths.absolute(from, relativeTo: directory),
                nullSeparated: a.flags.contains("--null")
            ) { Array(FileHandle.standardInput.readDataToEndOfFile()) }
        }
        let named = a.positional.count > 1 ? Array(a.positional.dropFirst()) : (listed.isEmpty ? pipeline.inputs : [])
        let inputs = named + listed
        guard !inputs.isEmpty else {
            throw PipelineError(
                file: pipelineFile,
                message: "no inputs: name files or folders after the pipeline, or list them under \"inputs\"")
        }
        let fileFailOn = pipeline.failOn
        let shard = try applyRunFlags(a, to: &pipeline)
        let baseline = try pipeline.baselineFile.map { file throws(PipelineError) in try loadBaseline(file) }
        let generatedAt = fixedDate ?? Date().ISO8601Format()

        let outDir = Paths.absolute(pipeline.output, relativeTo: directory)
        try checkOutputFolder(outDir)
        let set: InputSet
        do throws(PipelineError) {
            set = try batch(
                inputs, shard: shard, allowEmpty: a.flags.contains("--allow-empty"), output: outDir,
                listed: Set(listed))
        } catch {
            // An input the pipeline file named (not the command line): say where it came from.
            guard a.positional.count == 1, listed.isEmpty, let input = error.file, pipeline.inputs.contains(input)
            else { throw error }
            var e = error
            e.message +=
                " (from the \"inputs\" of \(pipelineFile); name the inputs after the pipeline: pdfpipe run \(pipelineFile) FOLDER...)"
            throw e
        }

        // A shard the engine retries (Slurm --requeue, Kubernetes backoffLimitPerIndex, AWS Batch
        // retries) goes on where it stopped: --resume is the default under --shard auto.
        let resume = a.flags.contains("--resume") || shard?.source != nil
        let jobs = pipeline.jobs == 0 ? ProcessInfo.processInfo.activeProcessorCount : pipeline.jobs
        var runner = Runner(pipeline: pipeline, outputDirectory: outDir, inputRoot: set.root, jobs: jobs)
        let policy = ResultPolicy(suppressions: pipeline.suppressions, baseline: baseline, today: generatedAt)
        runner.policy = policy
        var isolated: IsolatedRunner?
        if pipeline.isolation == .process {
            let pool = isolatedPool(
                pipeline, file: pipelineFile, outputDirectory: outDir, root: set.root, resume: resume)
            runner.isolate = { pool.run($0, pageWorkers: $1) }
            isolated = pool
        }
        let progress = console.interactive && !quiet ? ProgressLine(console: console) : nil
        var onProgress: (@Sendable (RunProgress) -> Void)?
        if let progress { onProgress = { progress.update($0) } }
        // Results go to results.jsonl as documents finish; reports are rendered from it.
        let hash = configurationHash(pipeline, file: pipelineFile)
        let store: ResultStore
        do throws(ResultStore.OpenError) {
            store = try ResultStore(
                directory: outDir, count: set.documents.count, pipelineHash: hash,
                resuming: resume
                    ? set.documents.map { ResultStore.InputStamp.of(file: $0.path, relativePath: $0.relativePath) }
                    : nil)
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        // Said when asked for, or when there is something to go on with (a fresh task of
        // --shard auto starts quietly).
        if resume && !quiet && (a.flags.contains("--resume") || store.count > 0) {
            let n = store.count
            console.error(
                "pdfpipe: resume: \(n) of \(set.documents.count) document\(set.documents.count == 1 ? "" : "s") already done (\(Paths.relative(store.path, to: directory)))"
            )
        }
        // Documents the earlier run did not record may have left up-to-date outputs behind (the
        // ones in flight when it stopped): redone, so that the report is the one an uninterrupted
        // run writes (`thumbnails.rendered`, not `skipped`).
        if resume { runner.pipeline.force = true }
        let interruption = Interruption.shared
        _ = runner.run(set.documents, progress: onProgress, shouldStop: { interruption.signal != nil }, store: store)
        isolated?.shutdown()
        progress?.finish()
        finishStages(pipeline)

        do throws(ResultStore.OpenError) {
            try store.finish()
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        var report = RunReport(
            toolVersion: Self.version, pipeline: pipeline.name, documents: [], generatedAt: generatedAt)
        report.store = store
        report.failOn = pipeline.failOn
        report.pipelineFailOn = fileFailOn
        report.shard = shard?.description
        report.shardSource = shard?.source
        report.baseline = pipeline.baselineFile.map { BaselineUse(file: $0, ratchet: pipeline.ratchet) }
        // Documents the baseline lists that the batch no longer has: their findings are fixed. A
        // shard cannot tell (the merge does).
        if let baseline, shard == nil {
            report.removedSinceBaseline = RunReport.removed(
                from: baseline, batch: Set(set.documents.map(\.relativePath)))
        }
        report.suppressions = policy.uses
        report.findings = runFindings(pipeline)
        report.findings += SuppressionUse.findings(
            report.suppressions, today: policy.today, wholeBatch: shard == nil && interruption.signal == nil,
            pipelineFile: Self.workingPath(Paths.absolute(pipelineFile, relativeTo: directory), in: directory))
        if let signal = interruption.signal {
            // Interrupted: the documents that finished, marked incomplete; exit 128 + the signal.
            report.incomplete = true
            _ = write(report, formats: pipeline.formats, to: outDir, quiet: quiet, verbose: verbose)
            console.error(
                "pdfpipe: interrupted: \(store.count) of \(set.documents.count) documents finished; the report says \"incomplete\": true; --resume goes on from here"
            )
            return ExitCode(rawValue: 128 + signal) ?? .internalFailure
        }
        return write(report, formats: pipeline.formats, to: outDir, quiet: quiet, verbose: verbose)
    }

    /// The stages' findings about the run as a whole, at the levels the pipeline's `rules` give.
    private func runFindings(_ pipeline: Pipeline) -> [Finding] {
        var out: [Finding] = []
        for configured in pipeline.stages {
            for var f in configured.stage.runFindings() {
                switch pipeline.rules[f.rule] {
                case .off?: continue
                case .severity(let s)?: f.severity = s
                case nil: break
                }
                f.stage = configured.label
                out.append(f)
            }
        }
        return out
    }

    /// Lets the stages end what they keep for the run (validate-links saves its URL cache).
    private func finishStages(_ pipeline: Pipeline) {
        for configured in pipeline.stages {
            do {
                try configured.stage.runFinished()
            } catch {
                console.error("pdfpipe: warning: stage '\(configured.id)': \(error)")
            }
        }
    }

    /// The flags of `run` that override the pipeline file; returns the shard asked for.
    private func applyRunFlags(_ a: Arguments, to pipeline: inout Pipeline) throws(PipelineError) -> Shard? {
        // Values of flags that override a key are checked by the key's declaration (Pipeline.keys).
        func flag(_ name: String) throws(PipelineError) -> JSONValue? {
            try Self.value(of: name, in: a, command: "run")
        }
        if let out = try flag("--out")?.stringValue { pipeline.output = out }
        if let jobs = try flag("--jobs")?.intValue { pipeline.jobs = jobs }
        if let f = a.values["--format"] { pipeline.formats = try Self.formats(f) }
        if let f = try flag("--fail-on")?.stringValue.flatMap(FailOn.init) { pipeline.failOn = f }
        pipeline.force = a.flags.contains("--force")
        pipeline.offline = a.flags.contains("--offline")
        if a.flags.contains("--isolate") { pipeline.isolation = .process }
        if let t = try flag("--timeout")?.doubleValue { pipeline.timeoutSeconds = t }
        if let m = try flag("--memory-limit")?.intValue { pipeline.memoryLimitMB = m }
        // A time or memory limit can only be enforced on a process of its own, so either one turns isolation on.
        if pipeline.timeoutSeconds > 0 || pipeline.memoryLimitMB > 0 { pipeline.isolation = .process }
        if let b = try flag("--baseline")?.stringValue { pipeline.baselineFile = b }
        if a.flags.contains("--ratchet") { pipeline.ratchet = true }
        guard !pipeline.ratchet || pipeline.baselineFile != nil else {
            throw PipelineError(
                file: nil, message: "--ratchet (report.ratchet) needs a baseline: --baseline FILE or report.baseline")
        }
        let shard = try a.values["--shard"].map { text throws(PipelineError) in
            try Shard.resolve(text, environment: ProcessInfo.processInfo.environment)
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
        var set = try InputSet.expand(inputs, relativeTo: directory, missingAllowed: listed)
        let out = Paths.resolved(output)
        let before = set.documents.count
        set.documents.removeAll { Paths.isInside($0.path, root: out) }
        let excluded = before - set.documents.count
        if excluded > 0 {
            console.error(
                "pdfpipe: note: \(excluded) PDF file\(excluded == 1 ? "" : "s") in the output folder '\(Paths.relative(out, to: Paths.resolved(directory)))' \(excluded == 1 ? "is" : "are") not an input"
            )
        }
        // Nothing to check is not a pass: an error that leaves the output folder (and the last
        // report) alone, unless asked for. A shard may be empty; the batch may not.
        if set.documents.isEmpty && !allowEmpty {
            let searched = inputs.map { "'\($0)'" }.joined(separator: ", ")
            throw PipelineError(
                file: nil,
                message:
                    "no PDF file in the inputs (searched \(searched) for *.pdf); nothing was checked (--allow-empty accepts an empty batch)"
            )
        }
        if let shard { set.documents = set.documents.filter { shard.contains($0.relativePath) } }
        for pattern in set.emptyPatterns { console.error("pdfpipe: warning: '\(pattern)' matches no file") }
        if set.documents.isEmpty {
            console.error("pdfpipe: warning: no PDF files to check\(shard == nil ? "" : " in this shard")")
        }
        return set
    }

    /// The worker processes of process isolation.
    private func isolatedPool(
        _ pipeline: Pipeline, file pipelineFile: String, outputDirectory outDir: String, root: String, resume: Bool
    ) -> IsolatedRunner {
        let pool = IsolatedRunner(
            executable: IsolatedRunner.currentExecutable(),
            pipelineFile: Paths.absolute(pipelineFile, relativeTo: directory),
            outputDirectory: outDir, inputRoot: root, timeout: pipeline.timeoutSeconds,
            memoryLimitMB: pipeline.memoryLimitMB,
            force: pipeline.force || resume, offline: pipeline.offline)
        // Workers' stages ask this process's (validate-links: its URL checker), so each URL
        // is requested once per run and the cache is written once.
        let stages = pipeline.stages.map(\.stage)
        pool.answer = { index, question in
            stages.indices.contains(index) ? stages[index].answer(question) : .null
        }
        return pool
    }

    /// What a resumed run must share with the run it goes on with: the pipeline file, the flags
    /// that change results, and the baseline.
    private func configurationHash(_ pipeline: Pipeline, file pipelineFile: String) -> String {
        ResultStore.configurationHash(
            [
                Self.version, pipelineFile,
                (try? String(contentsOfFile: Paths.absolute(pipelineFile, relativeTo: directory), encoding: .utf8))
                    ?? "",
                "force=\(pipeline.force)", "offline=\(pipeline.offline)", "isolation=\(pipeline.isolation.rawValue)",
                "timeout=\(pipeline.timeoutSeconds)", "memory=\(pipeline.memoryLimitMB)",
                "baseline="
                    + (pipeline.baselineFile.flatMap {
                        try? String(contentsOfFile: Paths.absolute($0, relativeTo: directory), encoding: .utf8)
                    } ?? ""),
            ])
    }

    /// Writes a report in every format, prints the findings and the summary; returns the exit code.
    func write(_ report: RunReport, formats: [String], to outDir: String, quiet: Bool, verbose: Bool = false)
        -> ExitCode
    {
        var report = report
        report.locations = .init(
            working: Paths.standardize(directory),
            report: Paths.standardize(Paths.absolute(outDir, relativeTo: directory)))
        var written: [String] = []
        for format in formats {
            guard let reporter = Reporters.reporter(for: format) else { continue }
            let path = outDir + "/" + reporter.fileName
            do throws(AtomicFile.WriteError) {
                let file = try AtomicFile.Writer(path: path)
                reporter.write(report, to: file)
                try file.commit()
                written.append(Paths.relative(path, to: directory))
            } catch {
                console.error("pdfpipe: error: \(error.description)")
                return .internalFailure
            }
        }

        let summary = report.summary
        if !quiet { printFindings(report, formats: formats, verbose: verbose) }
        // --quiet still says why a run failed: the summary line, on stderr (stdout stays empty).
        if !quiet || report.failing > 0 || report.ratchetFails {
            let failed = summary.failedDocuments > 0 ? ", \(summary.failedDocuments) failed" : ""
            let suppressed = summary.suppressed > 0 ? ", \(summary.suppressed) suppressed" : ""
            let baseline =
                report.baseline == nil
                ? "" : " (baseline: \(summary.new) new, \(summary.unchanged) unchanged, \(summary.fixed) fixed)"
            let line =
                "pdfpipe: \(report.incomplete ? "INCOMPLETE: " : "")\(Self.count(summary.documents, "document"))\(failed), \(Self.count(summary.pages, "page")): "
                + "\(Self.count(summary.errors, "error")), \(Self.count(summary.warnings, "warning")), \(Self.count(summary.notes, "note"))\(suppressed)\(baseline); wrote \(written.joined(separator: ", "))"
            if quiet { console.error(line) } else { console.print(line) }
        }
        if report.ratchetFails {
            console.error(
                "pdfpipe: " + report.ratchetText(report: Paths.relative(outDir + "/report.json", to: directory)))
            return .findings
        }
        if let removed = report.removedText, !quiet { console.error("pdfpipe: baseline: " + removed) }
        return report.failing > 0 ? .findings : .clean
    }

    /// `1 page`, `0 pages`, `3 pages`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) " + ConsoleFindings.plural(n, noun) }

    /// A path as reports show it to people: relative to the working folder when inside it.
    static func workingPath(_ absolute: String, in directory: String) -> String {
        Paths.relative(absolute, to: Paths.standardize(directory))
    }

    /// Reads a baseline: a file `pdfpipe baseline` wrote, or a report.json.
    func loadBaseline(_ file: String) throws(PipelineError) -> Baseline {
        // A report.json of any size is read a document at a time; a baseline file is small.
        if let m = try? mapped(file), m.withBytes(Self.looksLikeReport) {
            _ = try readReport(file, documents: false)  // its header is a report's
            var baseline = Baseline(documents: [:])
            try eachDocument(of: file) { baseline.add($0) }
            return baseline
        }
        let value = try readJSON(
            file, unreadable: "cannot read the baseline (pdfpipe baseline REPORT.json --out \(file) writes one)")
        do throws(ReportDecodingError) {
            return try Baseline(json: value)
        } catch {
            throw PipelineError(file: file, message: "not a baseline or report: \(error)")
        }
    }

    /// A JSON file named on the command line, its problems as errors naming it.
    func readJSON(_ file: String, unreadable: String) throws(PipelineError) -> JSONValue {
        let path = Paths.absolute(file, relativeTo: directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError(file: file, message: "\(unreadable): \(Self.whyUnreadable(path))")
        }
        do throws(JSONSyntaxError) {
            return try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw PipelineError(file: file, location: error.location, message: "malformed JSON: \(error.message)")
        }
    }

    /// `pdfpipe baseline REPORT.json [--out FILE]`: the findings of a report as a baseline file.
    func baselineCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Self.arguments(args, for: "baseline")
        guard a.positional.count == 1 else {
            throw PipelineError(
                file: nil, message: "baseline takes one report: pdfpipe baseline REPORT.json [--out FILE]")
        }
        let report = try readReport(a.positional[0], documents: false)
        let out = a.values["--out"] ?? "pdfpipe-baseline.json"
        var documents: [DocumentResult] = []
        var count = 0
        try eachDocument(of: a.positional[0]) { d in
            count += 1
            // Only what the baseline keeps: the findings.
            documents.append(DocumentResult(path: d.path, findings: d.findings))
        }
        let value = Baseline.file(pipeline: report.pipeline, documents: documents)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array(JSONWriter.pretty(value).utf8), to: Paths.absolute(out, relativeTo: directory))
        } catch {
            throw PipelineError(file: out, message: error.description)
        }
        let n = value["findings"]?.arrayValue?.count ?? 0
        console.print(
            "pdfpipe: wrote \(out): \(n) finding\(n == 1 ? "" : "s") of \(count) document\(count == 1 ? "" : "s")")
        return .clean
    }

    func readReport(_ file: String) throws(PipelineError) -> RunReport { try readReport(file, documents: true) }

    /// A report.json; without `documents`, only its header (what is around the documents array,
    /// which is scanned over, not parsed: reports of any size).
    func readReport(_ file: String, documents: Bool) throws(PipelineError) -> RunReport {
        let value: JSONValue
        if documents {
            value = try readJSON(file, unreadable: "cannot read the report")
        } else {
            let file0 = try mapped(file)
            let header = file0.withBytes { raw in
                let array = JSONScanner.forEachElement(of: "documents", in: raw) {
                    file0.release(upTo: $0.upperBound)
                    return true
                }
                return array.map { Array(raw[..<$0.lowerBound]) + Array("[]".utf8) + Array(raw[$0.upperBound...]) }
            }
            guard let header else { return try readReport(file, documents: true) }
            var parser = JSONParser(bytes: header, tracksLocations: false)
            do throws(JSONSyntaxError) {
                value = try parser.parseDocument()
            } catch {
                throw PipelineError(file: file, message: "malformed JSON: \(error.message)")
            }
        }
        do throws(ReportDecodingError) {
            return try RunReport(json: value)
        } catch {
            throw PipelineError(file: file, message: "\(error)")
        }
    }

    /// Whether a JSON file is a report (its top-level object has a `documents` member), from its
    /// first kilobytes: a baseline file has `format` and `findings` instead.
    static func looksLikeReport(_ raw: UnsafeRawBufferPointer) -> Bool {
        String(decoding: raw.prefix(1 << 16), as: UTF8.self).contains("\"documents\":")
    }

    /// An output folder that cannot be made because a file stands where it or a parent should be
    /// is the user's to fix (exit 2), said before any work, not pdfpipe's failure at the end.
    func checkOutputFolder(_ out: String) throws(PipelineError) {
        var part = Paths.standardize(out)
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: part, isDirectory: &isFolder), part != "/", !part.isEmpty {
            part = Paths.parent(part)
        }
        guard !isFolder.boolValue else { return }
        let shown = Paths.relative(out, to: Paths.standardize(directory))
        let blocker = Paths.relative(part, to: Paths.standardize(directory))
        throw PipelineError(
            file: nil,
            message:
                "the output folder '\(shown)' cannot be made: '\(blocker)' is a file (give another with --out, or change the pipeline's \"output\")"
        )
    }

    /// Why a file cannot be read: missing, a folder, or not readable.
    static func whyUnreadable(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
        if isFolder.boolValue { return "it is a folder" }
        return FileManager.default.isReadableFile(atPath: path) ? "it could not be read" : "permission denied"
    }

    /// The file mapped into memory, its pages handed back as they are read (see `MappedFile`).
    func mapped(_ file: String) throws(PipelineError) -> MappedFile {
        let path = Paths.absolute(file, relativeTo: directory)
        guard let m = MappedFile(path: path) else {
            throw PipelineError(file: file, message: "cannot read the report: \(Self.whyUnreadable(path))")
        }
        return m
    }

    /// Each document of a report.json, parsed one at a time, in the report's order.
    func eachDocument(of file: String, _ body: (DocumentResult) throws(PipelineError) -> Void) throws(PipelineError) {
        let mapped = try mapped(file)
        var failure: PipelineError?
        var i = 0
        let array = mapped.withBytes { raw in
            JSONScanner.forEachElement(of: "documents", in: raw) { range in
                defer { i += 1 }
                var parser = JSONParser(bytes: Array(raw[range]), tracksLocations: false)
                mapped.release(upTo: range.upperBound)
                let d: DocumentResult
                do {
                    d = try DocumentResult(json: try parser.parseDocument())
                } catch {
                    failure = PipelineError(file: file, message: "documents[\(i)]: \(error)")
                    return false
                }
                do throws(PipelineError) { try body(d) } catch {
                    failure = error
                    return false
                }
                return true
            }
        }
        if let failure { throw failure }
        if array == nil { throw PipelineError(file: file, message: "not a pdfpipe report (no documents array)") }
    }

    static func formats(_ list: String) throws(PipelineError) -> [String] {
        var formats: [String] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard Reporters.formats.contains(name) else {
                throw PipelineError(
                    file: nil,
                    message:
                        "--format: unknown format '\(name)'\(Suggest.didYouMean(name, Reporters.formats)) (known formats: \(Reporters.formats.joined(separator: ", ")))"
                )
            }
            if !formats.contains(name) { formats.append(name) }
        }
        guard !formats.isEmpty else { throw PipelineError(file: nil, message: "--format needs at least one format") }
        return formats
    }

    /// `pdfpipe merge`: joins shard reports into the report one run over the whole batch writes.
    /// The reports `merge` joins: files as named; a folder gives its `report.json`, else the
    /// `report.json` of each of its folders, by name (`/results` for `/results/shard-1` …) — what an
    /// engine that runs no shell (AWS Batch, a Kubernetes container's args) can name without a
    /// glob. The merge's own output folder is never one of them (a retried merge would read its
    /// earlier report as a shard).
    private func reportFiles(_ operands: [String], besides out: String) throws(PipelineError) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for operand in operands {
            var isFolder: ObjCBool = false
            let path = Paths.absolute(operand, relativeTo: directory)
            guard fm.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                files.append(operand)
                continue
            }
            if fm.fileExists(atPath: path + "/report.json") {
                files.append(operand + "/report.json")
                continue
            }
            let found = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted().filter { name in
                !Paths.isInside(Paths.resolved(path + "/" + name), root: Paths.resolved(out))
                    && fm.fileExists(atPath: path + "/" + name + "/report.json")
            }
            guard !found.isEmpty else {
                throw PipelineError(
                    file: operand,
                    message: "is a folder with no report.json, nor any in its folders (FOLDER/*/report.json)")
            }
            files += found.map { operand + "/" + $0 + "/report.json" }
        }
        return files
    }

    func mergeCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Self.arguments(args, for: "merge")
        let baselineFlag = try Self.value(of: "--baseline", in: a, command: "merge")?.stringValue
        guard !a.positional.isEmpty else {
            throw PipelineError(file: nil, message: "merge needs report files: pdfpipe merge REPORT.json|DIR...")
        }
        // Two passes, one report at a time: first every report's header (its documents left
        // out), then the documents, each parsed on its own and appended to the merged results
        // file. Memory holds one document and the paths, not the reports.
        let out = Paths.absolute(a.values["--out"] ?? "out/merged", relativeTo: directory)
        try checkOutputFolder(out)
        let files = try reportFiles(a.positional, besides: out)
        var reports: [RunReport] = []
        for file in files { reports.append(try readReport(file, documents: false)) }
        let whole = try Self.checkShards(
            reports, files: files, allowPartial: a.flags.contains("--allow-partial"))
        var merged = reports[0]
        if !whole { merged.incomplete = true }
        for (file, r) in zip(files.dropFirst(), reports.dropFirst()) {
            guard r.pipeline == merged.pipeline else {
                throw PipelineError(
                    file: file,
                    message: "comes from pipeline '\(r.pipeline)', the first report from '\(merged.pipeline)'")
            }
            merged.incomplete = merged.incomplete || r.incomplete
        }
        merged.generatedAt = fixedDate ?? Date().ISO8601Format()
        // A baseline given to merge is applied afresh; otherwise the shards' comparison stands.
        let policy = try baselineFlag.map { file throws(PipelineError) in
            ResultPolicy(suppressions: [], baseline: try loadBaseline(file), today: merged.generatedAt)
        }
        let store: ResultStore
        do throws(ResultStore.OpenError) {
            store = try ResultStore(directory: out, count: 0, pipelineHash: "merge")
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        var seen = Set<String>()
        var order: [(path: String, position: Int)] = []
        for file in files {
            try eachDocument(of: file) { (d: DocumentResult) throws(PipelineError) in
                guard seen.insert(d.path).inserted else {
                    throw PipelineError(file: file, message: "'\(d.path)' is in more than one report")
                }
                var d = d
                if let policy {
                    d.fixedSinceBaseline = []
                    policy.apply(&d)
                }
                order.append((d.path, order.count))
                store.append(d, at: order.count - 1, input: nil)
            }
        }
        // The order one run would give: input paths sorted by their bytes.
        order.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        store.setOrder(order.map(\.position))
        order = []
        do throws(ResultStore.OpenError) {
            try store.finish()
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        merged.store = store
        merged.shard = nil
        merged.shardSource = nil
        // Suppressions: each shard counted its own matches; the whole batch decides what matched nothing.
        var uses = reports[0].suppressions
        for r in reports.dropFirst() where r.suppressions.count == uses.count {
            for i in uses.indices { uses[i].matched += r.suppressions[i].matched }
        }
        merged.suppressions = uses
        let runFindingsFile = reports.lazy.flatMap(\.findings).compactMap { $0.details["file"]?.stringValue }.first
        // The stages' run findings of every shard (once each), then the ignore list's, recomputed.
        var stageFindings: [Finding] = []
        for r in reports {
            for f in r.findings where !f.rule.hasPrefix("config.") {
                if !stageFindings.contains(where: { $0.rule == f.rule && $0.message == f.message }) {
                    stageFindings.append(f)
                }
            }
        }
        merged.findings =
            stageFindings
            + SuppressionUse.findings(
                uses, today: String(merged.generatedAt.prefix(10)), wholeBatch: whole && !merged.incomplete,
                pipelineFile: runFindingsFile)
        if let file = baselineFlag {
            merged.baseline = BaselineUse(file: file, ratchet: a.flags.contains("--ratchet"))
        } else if a.flags.contains("--ratchet") {
            guard var b = reports.lazy.compactMap(\.baseline).first else {
                throw PipelineError(
                    file: nil, message: "--ratchet needs a baseline: --baseline FILE, or shards run with one")
            }
            b.ratchet = true
            merged.baseline = b
        } else {
            merged.baseline = reports.lazy.compactMap(\.baseline).first
        }
        merged.removedSinceBaseline = []
        if let use = merged.baseline, whole, !merged.incomplete {
            // The whole batch is known here: documents of the baseline that no shard had are gone.
            if let baseline = policy?.baseline ?? (try? loadBaseline(use.file)) {
                merged.removedSinceBaseline = RunReport.removed(from: baseline, batch: seen)
            } else if !a.flags.contains("--quiet") {
                console.error(
                    "pdfpipe: note: cannot read the baseline '\(use.file)' the shards were compared with: documents it lists that are no longer in the batch are not counted as fixed (give it: --baseline FILE)"
                )
            }
        }
        // The threshold: --fail-on, else the pipeline file's own report.failOn, else error — never
        // a shard's command-line override (shards run with --fail-on never to finish the matrix).
        merged.failOn =
            try Self.value(of: "--fail-on", in: a, command: "merge")?.stringValue.flatMap(FailOn.init) ?? reports.lazy
            .compactMap(\.pipelineFailOn).first ?? .error
        let formats = try a.values["--format"].map(Self.formats) ?? ["json"]
        return write(
            merged, formats: formats, to: out, quiet: a.flags.contains("--quiet"),
            verbose: a.flags.contains("--verbose"))
    }

    /// A set of shard reports must be whole: the same N, each K from 1 to N once. Reports of runs
    /// without `--shard` merge as before. `--allow-partial` lets an incomplete set through (the
    /// merged report then says `incomplete`).
    /// Returns whether the set is whole.
    @discardableResult
    static func checkShards(_ reports: [RunReport], files: [String], allowPartial: Bool) throws(PipelineError) -> Bool {
        let shards = reports.map { r in r.shard.flatMap { try? Shard($0) } }
        guard shards.contains(where: { $0 != nil }) else { return true }
        var problems: [String] = []
        if let i = shards.firstIndex(where: { $0 == nil }) { problems.append("'\(files[i])' is not a shard report") }
        let counts = Set(shards.compactMap { $0?.count })
        if counts.count > 1 {
            problems.append(
                "the reports split the batch differently (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))")
        }
        if let n = counts.max() {
            var byIndex: [Int: [String]] = [:]
            for (i, s) in shards.enumerated() { if let s { byIndex[s.index, default: []].append(files[i]) } }
            let missing = (1...n).filter { byIndex[$0] == nil }
            if !missing.isEmpty {
                problems.append(
                    "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(n)" }.joined(separator: ", "))"
                )
            }
            for (k, fs) in byIndex.sorted(by: { $0.key < $1.key }) where fs.count > 1 {
                problems.append("shard \(k)/\(n) given \(fs.count) times (\(fs.joined(separator: ", ")))")
            }
            // A shard whose run was interrupted (killed, pre-empted, out of time) wrote its report
            // with "incomplete": it is not done, whatever file is there.
            let unfinished = shards.enumerated().compactMap { i, s in
                reports[i].incomplete ? s.map { ($0.index, files[i]) } : nil
            }
            if !unfinished.isEmpty {
                problems.append(
                    "unfinished shard\(unfinished.count == 1 ? "" : "s") \(unfinished.map { "\($0.0)/\(n) (\($0.1))" }.joined(separator: ", "))"
                )
            }
            let rerun = Set(missing + unfinished.map(\.0)).sorted()
            if !rerun.isEmpty {
                problems.append(
                    "rerun \(rerun.map { "--shard \($0)/\(n)" }.joined(separator: ", ")) (each with --resume in its own output folder)"
                )
            }
        }
        if problems.isEmpty { return true }
        if allowPartial { return false }
        throw PipelineError(
            file: nil, message: "merge: \(problems.joined(separator: "; ")) (--allow-partial merges them anyway)")
    }

    /// Errors, then warnings (and notes when they matter: `--fail-on note`, or `--verbose`), in
    /// compiler style, one line per distinct problem of a document (rule and message) with the
    /// other pages it occurs on, at most 100 lines; then a count per rule. Findings already in the
    /// baseline are not listed.
    private func printFindings(_ report: RunReport, formats: [String], verbose: Bool) {
        for f in report.findings where f.severity >= .warning {
            console.print(
                "\(f.details["file"]?.stringValue ?? f.stage ?? "pipeline"): \(f.severity.rawValue): \(f.message) [\(f.rule)]"
            )
        }
        let lowest: Severity = verbose || report.failOn == .note ? .note : .warning
        let file = formats.contains("html") ? "report.html" : "report.json"
        let lines = ConsoleFindings().lines(report, lowest: lowest, moreIn: file)
        for line in lines {
            switch line {
            case .finding(let before, let severity, let after): console.print(before, severity: severity, after)
            case .plain(let text): console.print(text)
            }
        }
        let collapsed = report.collapsedRules
        if !collapsed.isEmpty {
            let n = report.results.reduce(0) { n, d in
                n + d.findings.count { collapsed.contains($0.rule) && $0.baseline != .unchanged }
            }
            if n > 0 {
                console.print(
                    "… and \(n) unreachable web link\(n == 1 ? "" : "s") not listed: the network looks down (see above; each is in report.json)"
                )
            }
        }
        var perRule: [String: (severity: Severity, count: Int)] = [:]
        for d in report.results {
            for f in d.findings where f.severity >= lowest && f.baseline != .unchanged {
                perRule[f.rule, default: (f.severity, 0)].count += 1
            }
        }
        let hidden = lines.contains { if case .plain = $0 { return true } else { return false } } ? 1 : 0
        if perRule.count > 1 || hidden > 0 {
            let counts = perRule.sorted {
                ($0.value.severity, $0.value.count, $1.key) > ($1.value.severity, $1.value.count, $0.key)
            }
            // Grouped by severity, so that each rule's is said once: `by rule: errors: a 5, b 1; warnings: c 2`.
            let groups = [Severity.error, .warning, .note].compactMap { s -> String? in
                let these = counts.filter { $0.value.severity == s }
                guard !these.isEmpty else { return nil }
                return "\(s.rawValue)s: " + these.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
            }
            console.print("by rule: " + groups.joined(separator: "; "))
        }
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
            guard let data = FileManager.default.contents(atPath: from) else {
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

/// One of N deterministic parts of a batch (`--shard K/N`), chosen by a stable hash (FNV-1a) of each
/// input's path relative to the input root: the same split on every machine and every run.
struct Shard: CustomStringConvertible {
    var index: Int
    var count: Int
    /// Where `--shard auto` found the index (the engine's variable), nil for an explicit K/N.
    var source: String?

    init(index: Int, count: Int, source: String?) {
        self.index = index
        self.count = count
        self.source = source
    }

    /// The output folder with `{shard}` replaced by the shard's number K (of `K/N`, from 1, as
    /// `merge` names shards to rerun). Engines that start the image's `pdfpipe` without a shell
    /// (AWS Batch's `command`) cannot put their index into `--out` themselves: `--out
    /// /results/shard-{shard}` gives each task its own folder. Without a shard it is an error, not
    /// a folder literally named `shard-{shard}` that every run would share.
    static func placing(_ shard: Shard?, in output: String) throws(PipelineError) -> String {
        guard output.contains("{shard}") else { return output }
        guard let shard else {
            throw PipelineError(
                file: nil,
                message:
                    "the output folder '\(output)' has {shard} in it but the run is not a shard: give --shard auto or --shard K/N"
            )
        }
        return output.replacingOccurrences(of: "{shard}", with: String(shard.index))
    }

    /// `K/N` as given, or `auto` / `auto/N`: the index (and count) from the job-array engine's own
    /// variables, in this order: Slurm (`SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN`, count
    /// `SLURM_ARRAY_TASK_COUNT`), Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`), AWS Batch
    /// (`AWS_BATCH_JOB_ARRAY_INDEX`), GitLab (`CI_NODE_INDEX`, 1-based, `CI_NODE_TOTAL`), CircleCI
    /// (`CIRCLE_NODE_INDEX`, `CIRCLE_NODE_TOTAL`), Buildkite (`BUILDKITE_PARALLEL_JOB`,
    /// `BUILDKITE_PARALLEL_JOB_COUNT`). Where the engine gives no count (Kubernetes, AWS Batch), it
    /// comes from `auto/N` or `PDFPIPE_SHARDS`. No variable: an error, never a whole-batch run.
    static func resolve(_ text: String, environment env: [String: String]) throws(PipelineError) -> Shard {
        guard text == "auto" || text.hasPrefix("auto/") else { return try Shard(text) }
        func fail(_ message: String) -> PipelineError {
            PipelineError(file: nil, message: "--shard \(text): " + message)
        }
        var given: Int?
        if text.hasPrefix("auto/") {
            guard let n = Int(text.dropFirst(5)), n >= 1 else { throw fail("expected auto or auto/N with N >= 1") }
            given = n
        } else if let p = env["PDFPIPE_SHARDS"] {
            guard let n = Int(p), n >= 1 else { throw fail("PDFPIPE_SHARDS is '\(p)', not a count >= 1") }
            given = n
        }
        func number(_ name: String) throws(PipelineError) -> Int? {
            guard let v = env[name] else { return nil }
            guard let n = Int(v.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                throw fail("\(name) is '\(v)', not a number")
            }
            return n
        }
        func make(_ index: Int, _ count: Int?, _ source: String) throws(PipelineError) -> Shard {
            guard let count = given ?? count else {
                throw fail(
                    "\(source) gives the index but not the count: give it as --shard auto/N or in PDFPIPE_SHARDS")
            }
            guard index >= 1, index <= count else {
                throw fail("\(source) gives shard \(index) of \(count), outside 1...\(count)")
            }
            return Shard(index: index, count: count, source: source)
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            let min = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let max = try number("SLURM_ARRAY_TASK_MAX")
            let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            let count = try number("SLURM_ARRAY_TASK_COUNT")
            // An array with a step or gaps (--array=0-15:4, --array=1,3,8) has no "K of N" in its
            // ids that pdfpipe could be sure of: refused unless the count is given; then a step
            // counts ids from the minimum by it (0, 4, 8, 12 are 1..4), and otherwise ids count
            // from the minimum.
            let gaps = max != nil && count != nil && (max! - min) / Swift.max(step, 1) + 1 != count!
            if given == nil, step != 1 || gaps {
                throw fail(
                    "the Slurm array has a step or gaps (ids \(min)-\(max.map(String.init) ?? "?")\(step != 1 ? ":\(step)" : ""), \(count.map(String.init) ?? "?") tasks); submit --array=0-\((count ?? 1) - 1) or give --shard auto/N"
                )
            }
            let offset = id - min
            if step > 1 {
                guard offset % step == 0 else {
                    throw fail("task \(id) is not on the array's step \(step) from \(min)")
                }
                return try make(offset / step + 1, count, "SLURM_ARRAY_TASK_ID")
            }
            return try make(offset + 1, count, "SLURM_ARRAY_TASK_ID")
        }
        if let i = try number("JOB_COMPLETION_INDEX") { return try make(i + 1, nil, "JOB_COMPLETION_INDEX") }
        if let i = try number("AWS_BATCH_JOB_ARRAY_INDEX") { return try make(i + 1, nil, "AWS_BATCH_JOB_ARRAY_INDEX") }
        if let i = try number("CI_NODE_INDEX") { return try make(i, try number("CI_NODE_TOTAL"), "CI_NODE_INDEX") }
        if let i = try number("CIRCLE_NODE_INDEX") {
            return try make(i + 1, try number("CIRCLE_NODE_TOTAL"), "CIRCLE_NODE_INDEX")
        }
        if let i = try number("BUILDKITE_PARALLEL_JOB") {
            return try make(i + 1, try number("BUILDKITE_PARALLEL_JOB_COUNT"), "BUILDKITE_PARALLEL_JOB")
        }
        throw fail(
            "no job-array variable is set (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, CI_NODE_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB); give --shard K/N"
        )
    }

    init(_ text: String) throws(PipelineError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
            throw PipelineError(file: nil, message: "--shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '\(text)'")
        }
        index = k
        count = n
    }

    var description: String { "\(index)/\(count)" }

    func contains(_ path: String) -> Bool {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return Int(h % UInt64(count)) == index - 1
    }
}
