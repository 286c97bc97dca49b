import Foundation
import PDFPipeCore
import PDFPipeStages

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
        // Reports in object storage are fetched into a staging folder; a merged report for the
        // store is written there and uploaded.
        let remote = try RemoteMerge(operands: a.positional, out: a.values["--out"])
        defer { remote?.cleanUp() }
        let out = remote?.outDir ?? Paths.absolute(a.values["--out"] ?? "out/merged", relativeTo: directory)
        if remote?.outDir == nil { try checkOutputFolder(out) }
        let files = try reportFiles(remote?.operands ?? a.positional, besides: out)
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
        let seen = try mergeDocuments(of: files, policy: policy, into: store)
        do throws(ResultStore.OpenError) {
            try store.finish()
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .internalFailure
        }
        merged.store = store
        merged.shard = nil
        merged.shardSource = nil
        mergeRunFindings(of: reports, into: &merged, whole: whole)
        if let web = Self.mergedWebHosts(reports.map(\.sections)) { merged.sections["web"] = ["hosts": web] }
        try mergeBaseline(
            a, flag: baselineFlag, policy: policy, reports: reports, into: &merged, whole: whole, batch: seen)
        // The threshold: --fail-on, else the pipeline file's own report.failOn, else error — never
        // a shard's command-line override (shards run with --fail-on never to finish the matrix).
        merged.failOn =
            try Self.value(of: "--fail-on", in: a, command: "merge")?.stringValue.flatMap(FailOn.init) ?? reports.lazy
            .compactMap(\.pipelineFailOn).first ?? .error
        let chosen = try a.values["--format"].map { list throws(PipelineError) in try formats(list) } ?? ["json"]
        let code = write(
            merged, formats: chosen, to: out, quiet: a.flags.contains("--quiet"),
            verbose: a.flags.contains("--verbose"), shownAs: remote?.output.map { $0.url($0.folder) })
        if let remote, !remote.upload(console: console) { return .internalFailure }
        return code
    }

    /// The merged report's baseline: the one given to merge (`--baseline`, `--ratchet`), else the
    /// shards'; with the whole batch known, the documents it lists that no shard had are fixed.
    private func mergeBaseline(
        _ a: Arguments, flag baselineFlag: String?, policy: ResultPolicy?, reports: [RunReport],
        into merged: inout RunReport, whole: Bool, batch seen: Set<String>
    ) throws(PipelineError) {
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
        guard let use = merged.baseline, whole, !merged.incomplete else { return }
        if let baseline = policy?.baseline ?? (try? loadBaseline(use.file)) {
            merged.removedSinceBaseline = RunReport.removed(from: baseline, batch: seen)
        } else if !a.flags.contains("--quiet") {
            console.error(
                "pdfpipe: note: cannot read the baseline '\(use.file)' the shards were compared with: documents it lists that are no longer in the batch are not counted as fixed (give it: --baseline FILE)"
            )
        }
    }

    /// Every report's documents, one at a time, into the merged results file (the baseline given
    /// to merge applied afresh), in the order one run would give. Returns their paths; a path in
    /// two reports is an error.
    private func mergeDocuments(of files: [String], policy: ResultPolicy?, into store: ResultStore)
        throws(PipelineError) -> Set<String>
    {
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

    /// The shards' `sections.web.hosts` as one run's: per host, the counts summed, the peak per
    /// second and the longest interval the largest, the least slots the smallest; nil when no
    /// shard has any.
    static func mergedWebHosts(_ sections: [[String: JSONValue]]) -> JSONValue? {
        var byHost: [String: [String: JSONValue]] = [:]
        for s in sections {
            for h in s["web"]?["hosts"]?.arrayValue ?? [] {
                guard case .object(let o) = h, let name = o["host"]?.stringValue else { continue }
                guard var m = byHost[name] else {
                    byHost[name] = o
                    continue
                }
                for (k, v) in o where k != "host" {
                    let (a, b) = (m[k]?.doubleValue ?? 0, v.doubleValue ?? 0)
                    let combined: Double
                    switch k {
                    case "peakPerSecond", "longestInterval": combined = max(a, b)
                    case "leastSlots": combined = min(a, b)
                    default: combined = a + b
                    }
                    m[k] = v.intValue != nil && m[k]?.intValue != nil ? .int(Int(combined)) : .double(combined)
                }
                byHost[name] = m
            }
        }
        guard !byHost.isEmpty else { return nil }
        return .array(byHost.keys.sorted().map { .object(byHost[$0]!) })
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
}
