import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// `pdfpipe merge`: the reports of a sharded run as one.
extension CLI {
    /// `pdfpipe merge`: joins shard reports into the report one run over the whole batch writes.
    /// The reports `merge` joins: files as named; a folder gives its `report.json`, else the
    /// `report.json` of each of its folders, by name (`/results` for `/results/shard-1` …) — what an
    /// engine that runs no shell (AWS Batch, a Kubernetes container's args) can name without a
    /// glob. The merge's own output folder is never one of them (a retried merge would read its
    /// earlier report as a shard).
    func reportFiles(_ operands: [String], besides out: String) throws(PipelineError) -> [String] {
        var files: [String] = []
        for operand in operands {
            let path = Paths.absolute(operand, relativeTo: directory)
            guard FileSystem.isFolder(path) else {
                files.append(operand)
                continue
            }
            if FileSystem.exists(path + "/report.json") {
                files.append(operand + "/report.json")
                continue
            }
            let found = (FileSystem.list(path) ?? []).filter { name in
                !Paths.isInside(Paths.resolved(path + "/" + name), root: Paths.resolved(out))
                    && FileSystem.exists(path + "/" + name + "/report.json")
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
        let a = try MergeFlags.parse(args)
        let baselineFlag = a.baseline
        guard !a.operands.isEmpty else {
            throw PipelineError(file: nil, message: "merge needs report files: pdfpipe merge REPORT.json|DIR...")
        }
        // Each report is scanned once (its header read, where its documents lie kept), then the
        // documents are merged as sorted streams into the merged results file: memory holds one
        // document per report, not the reports. Reports in object storage are fetched into a
        // staging folder; a merged report for the store is written there and uploaded.
        let remote = try RemoteMerge(operands: a.operands, out: a.out)
        defer { remote?.cleanUp() }
        let out = remote?.outDir ?? Paths.absolute(a.out ?? "out/merged", relativeTo: directory)
        if remote?.outDir == nil { try checkOutputFolder(out) }
        let files = try reportFiles(remote?.operands ?? a.operands, besides: out)
        let (reports, cursors) = try scanReports(files, counting: baselineFlag == nil)
        let (whole, held) = try Self.checkShards(
            reports, files: files, allowPartial: a.allowPartial)
        var merged = reports[0]
        // A whole set's report is the one run's (which names no batch); a partial merge keeps it,
        // for the merge of merges to check.
        let batch = try Self.checkBatch(reports, files: files, listed: cursors.map(\.elements.count), whole: whole)
        merged.batch = whole ? nil : batch
        merged.incomplete = !whole
        for (file, r) in zip(files.dropFirst(), reports.dropFirst()) {
            guard r.pipeline == merged.pipeline else {
                throw PipelineError(
                    file: file,
                    message: "comes from pipeline '\(r.pipeline)', the first report from '\(merged.pipeline)'")
            }
        }
        // Incomplete when a shard is missing or unfinished; merges of some shards each lack the
        // others, which their lists say: a whole set of them is complete.
        for (r, s) in zip(reports, reports.map { $0.shard.flatMap(Self.coveredShards) }) where r.incomplete {
            if s == nil || s?.indices.count == 1 || !whole { merged.incomplete = true }
        }
        merged.generatedAt = fixedDate ?? SystemClock.now.ISO8601Format()
        // A baseline given to merge is applied afresh; otherwise the shards' comparison stands.
        let policy = try baselineFlag.map { file throws(PipelineError) in
            ResultPolicy(suppressions: [], baseline: try loadBaseline(file), today: merged.generatedAt)
        }
        guard
            let (store, seen) = try mergedResults(
                cursors, policy: policy, out: out,
                keepPaths: baselineFlag != nil || reports.contains { $0.baseline != nil })
        else { return .internalFailure }
        merged.store = store
        // A partial merge says which shards it holds: merging it with merges of the others is whole.
        merged.shard = held
        merged.shardSource = nil
        mergeRunFindings(of: reports, into: &merged, whole: whole)
        merged.findings += policy?.anchorFindings ?? []
        // Documents of the baseline no longer in the batch: a merge of the whole batch can tell.
        if whole && !merged.incomplete { merged.findings += policy?.removedDocumentAnchors(batch: seen) ?? [] }
        // The run-level sections (validate-links' `web`), each merged by its type.
        for type in stages.flatMap(\.runSections) { type.merge(reports.map(\.sections), into: &merged.sections) }
        try mergeBaseline(
            a, flag: baselineFlag, policy: policy, reports: reports, into: &merged, whole: whole, batch: seen)
        // The threshold: --fail-on, else the pipeline file's own report.failOn, else error — never
        // a shard's command-line override (shards run with --fail-on never to finish the matrix).
        merged.failOn =
            a.failOn ?? reports.lazy
            .compactMap(\.pipelineFailOn).first ?? .error
        let chosen = try a.format.map { list throws(PipelineError) in try formats(list) } ?? ["json"]
        let code = write(
            merged, formats: chosen, to: out, quiet: a.quiet,
            verbose: a.verbose, shownAs: remote?.output.map { $0.url($0.folder) })
        if let remote, !remote.upload(console: console) { return .internalFailure }
        // The shards' documents are one run: the merge keeps its record.
        if let ledger = a.ledger {
            try checkLedger(ledger)
            if !writeLedger(merged, to: ledger, quiet: a.quiet) { return .internalFailure }
        }
        return code
    }

    /// The shards' documents merged into a results file in `out` (nil: it could not be written,
    /// said). A refused merge leaves nothing behind: not its part of a results file, nor the folder
    /// it made for it.
    private func mergedResults(
        _ cursors: [MergeCursor], policy: ResultPolicy?, out: String, keepPaths: Bool
    ) throws(PipelineError) -> (ResultStore, Set<String>)? {
        let outWasThere = FileSystem.exists(out)
        let store: ResultStore
        let seen: Set<String>
        do throws(ResultStore.OpenError) {
            store = try ResultStore(directory: out, count: 0, pipelineHash: "merge")
        } catch {
            console.error("pdfpipe: error: \(error)")
            return nil
        }
        do throws(PipelineError) {
            seen = try mergeDocuments(of: cursors, policy: policy, into: store, keepPaths: keepPaths)
        } catch {
            FileSystem.unlink(store.path)
            if !outWasThere { FileSystem.removeTree(out) }
            throw error
        }
        do throws(ResultStore.OpenError) {
            try store.finish()
        } catch {
            console.error("pdfpipe: error: \(error)")
            return nil
        }
        return (store, seen)
    }

    /// Each report's header, and a cursor over where its documents lie: the reports scanned on
    /// all cores at once (the first error, in the order given, is the one said).
    private func scanReports(_ files: [String], counting: Bool) throws(PipelineError) -> ([RunReport], [MergeCursor]) {
        let scanned = Locked([Result<ScannedReport, PipelineError>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { k in
            let result: Result<ScannedReport, PipelineError>
            do throws(PipelineError) {
                var elements: [Range<Int>]? = []
                let (report, mapped) = try readReport(files[k], documents: false, elements: &elements)
                guard let mapped, let elements else {
                    throw PipelineError(file: files[k], message: "not a pdfpipe report (no documents array)")
                }
                // A shard report is a shard runner's word: its list must be the one its own
                // summary counts (an emptied or cut list is not a finished shard).
                if let declared = report.declaredDocuments, declared != elements.count {
                    throw PipelineError(
                        file: files[k],
                        message:
                            "lists \(elements.count) document\(elements.count == 1 ? "" : "s") where its summary counts \(declared): not the report its run wrote (run the shard again)"
                    )
                }
                result = .success(ScannedReport(report: report, mapped: mapped, elements: elements))
            } catch {
                result = .failure(error)
            }
            scanned.withLock { $0[k] = result }
        }
        var reports: [RunReport] = []
        var cursors: [MergeCursor] = []
        for (file, result) in zip(files, scanned.withLock { $0 }) {
            let r = try result!.get()
            reports.append(r.report)
            cursors.append(
                MergeCursor(
                    file: file, mapped: r.mapped, elements: r.elements, counting: counting,
                    aheadBytes: MergeCursor.aheadBudget / files.count))
        }
        return (reports, cursors)
    }

    /// A report scanned by one thread and handed to the merge: the mapped file is not touched by
    /// that thread again.
    private struct ScannedReport: @unchecked Sendable {
        var report: RunReport
        var mapped: MappedFile
        var elements: [Range<Int>]
    }

    /// The merged report's baseline: the one given to merge (`--baseline`, `--ratchet`), else the
    /// shards'; with the whole batch known, the documents it lists that no shard had are fixed.
    private func mergeBaseline(
        _ a: MergeFlags, flag baselineFlag: String?, policy: ResultPolicy?, reports: [RunReport],
        into merged: inout RunReport, whole: Bool, batch seen: Set<String>
    ) throws(PipelineError) {
        if let file = baselineFlag {
            merged.baseline = BaselineUse(file: file, ratchet: a.ratchet)
        } else if a.ratchet {
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
        guard let use = merged.baseline, whole, !merged.incomplete else { return }
        if let baseline = policy?.baseline ?? (try? loadBaseline(use.file)) {
            merged.removedSinceBaseline = RunReport.removed(from: baseline, batch: seen)
        } else if !a.quiet {
            console.error(
                "pdfpipe: note: cannot read the baseline '\(use.file)' the shards were compared with: documents it lists that are no longer in the batch are not counted as fixed (give it: --baseline FILE)"
            )
        }
    }

    /// Every report's documents, one at a time, into the merged results file, in the order one
    /// run gives (paths sorted by their bytes): each report lists its documents so sorted, and the
    /// reports are merged as sorted streams (a k-way merge), so memory holds one document per
    /// report, never the batch. A document is copied as it is written (made compact), decoded only
    /// for what the summary counts; with a baseline given to merge it is decoded whole and the
    /// baseline applied afresh. Returns the paths of the batch; a path in two reports is an error.
    /// `keepPaths`: return the batch's paths (a baseline needs them to tell what was fixed);
    /// otherwise the set stays empty and memory does not grow with the batch.
    private func mergeDocuments(
        of cursors: [MergeCursor], policy: ResultPolicy?, into store: ResultStore, keepPaths: Bool
    ) throws(PipelineError) -> Set<String> {
        var cursors = cursors
        var seen = Set<String>()
        var index = 0
        var last: String?
        var unsorted = false
        for i in cursors.indices { try cursors[i].readHead() }
        while true {
            // The report whose next document comes first.
            var pick: Int?
            for (i, c) in cursors.enumerated() {
                guard let p = c.headPath else { continue }
                if let k = pick, !p.utf8.lexicographicallyPrecedes(cursors[k].headPath!.utf8) { continue }
                pick = i
            }
            guard let k = pick else { break }
            let path = cursors[k].headPath!
            // In sorted reports a repeated path comes next to itself; in an unsorted one the set finds it.
            if path == last || ((keepPaths || unsorted) && !seen.insert(path).inserted) {
                throw PipelineError(file: cursors[k].file, message: "'\(path)' is in more than one report")
            }
            if let last, !last.utf8.lexicographicallyPrecedes(path.utf8), !unsorted {
                unsorted = true
                // From here on the set must know every path so far.
                for i in 0..<index { if let p = store.reporterDocument(i)?.path { seen.insert(p) } }
                if !seen.insert(path).inserted {
                    throw PipelineError(file: cursors[k].file, message: "'\(path)' is in more than one report")
                }
            }
            last = path
            try cursors[k].copy(to: store, at: index, policy: policy)
            index += 1
            try cursors[k].advance()
        }
        // A report not in path order (written by hand, or by an older pdfpipe): the merged
        // report is put in order all the same.
        if unsorted {
            var order = (0..<index).map { i in (path: store.reporterDocument(i)?.path ?? "", position: i) }
            order.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            store.setOrder(order.map(\.position))
        }
        return seen
    }

    /// The run findings of the merged report: the stages' of every shard (once each), then the
    /// ignore list's, recomputed over the whole batch (each shard counted its own matches; the
    /// whole batch decides what matched nothing).
    private func mergeRunFindings(of reports: [RunReport], into merged: inout RunReport, whole: Bool) {
        var uses = reports[0].suppressions
        for r in reports.dropFirst() where r.suppressions.count == uses.count {
            for i in uses.indices { uses[i].matched += r.suppressions[i].matched }
        }
        merged.suppressions = uses
        let runFindingsFile = reports.lazy.flatMap(\.findings).compactMap { $0.details["file"]?.stringValue }.first
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
    }
}
