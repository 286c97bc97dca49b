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

    /// The shards of one run name one batch (`batch`: its size and a digest of its paths), and a
    /// whole set lists exactly its documents: a shard report emptied or cut (its summary made to
    /// match) or taken from another run is refused. Reports without `batch` (older versions, runs
    /// without --shard) are not held to it. Returns the batch, for the merged report.
    static func checkBatch(_ reports: [RunReport], files: [String], listed: [Int], whole: Bool) throws(PipelineError)
        -> BatchPlan?
    {
        guard let k = reports.firstIndex(where: { $0.batch != nil }), let plan = reports[k].batch else { return nil }
        for (i, r) in reports.enumerated() where r.batch != nil && r.batch != plan {
            throw PipelineError(
                file: files[i],
                message:
                    "comes from another batch (\(r.batch!.documents) documents, digest \(r.batch!.digest)) than '\(files[k])' (\(plan.documents), \(plan.digest))"
            )
        }
        let total = listed.reduce(0, +)
        if whole && reports.allSatisfy({ $0.batch != nil }) && total != plan.documents {
            throw PipelineError(
                file: nil,
                message:
                    "the shards list \(total) document\(total == 1 ? "" : "s") where their batch had \(plan.documents) (\(listed.map(String.init).joined(separator: " + "))): a shard report is not the one its run wrote; run it again"
            )
        }
        return plan
    }

    /// The shards a report holds: `K/N` for a shard's report, `1-4,7/8` for a merge of some of
    /// them (merges compose: a merge's report is a shard input to the next); nil when the report
    /// is not of a sharded run.
    static func coveredShards(_ text: String) -> (indices: [Int], count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let n = Int(parts[1]), n >= 1 else { return nil }
        var out: [Int] = []
        for item in parts[0].split(separator: ",") {
            let bounds = item.split(separator: "-")
            guard (1...2).contains(bounds.count), let a = Int(bounds[0]), let b = Int(bounds[bounds.count - 1]),
                a >= 1, a <= b, b <= n
            else { return nil }
            out += Array(a...b)
        }
        return out.isEmpty ? nil : (out, n)
    }

    /// `1-4,7/8`: the shard indices written as ranges.
    static func shardList(_ indices: [Int], count: Int) -> String {
        var ranges: [String] = []
        var i = 0
        let sorted = indices.sorted()
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            ranges.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
            i = j + 1
        }
        return ranges.joined(separator: ",") + "/\(count)"
    }

    /// A set of shard reports must be whole: the same N, each K from 1 to N once, in a shard's
    /// report or in a merge of some shards (a merge's `shard` lists what it holds). Reports of runs
    /// without `--shard` merge as before. `--allow-partial` lets an incomplete set through (the
    /// merged report then says `incomplete`, and its `shard` lists the shards it holds).
    /// Returns whether the set is whole, and the shards the set holds (nil when not sharded).
    @discardableResult
    static func checkShards(_ reports: [RunReport], files: [String], allowPartial: Bool) throws(PipelineError) -> (
        whole: Bool, held: String?
    ) {
        let shards = reports.map { r in r.shard.flatMap(coveredShards) }
        guard shards.contains(where: { $0 != nil }) else { return (true, nil) }
        var problems: [String] = []
        if let i = shards.firstIndex(where: { $0 == nil }) { problems.append("'\(files[i])' is not a shard report") }
        let counts = Set(shards.compactMap { $0?.count })
        if counts.count > 1 {
            problems.append(
                "the reports split the batch differently (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))")
        }
        var held: String?
        if let n = counts.max() {
            let coverage = Self.coverage(shards, of: n, reports: reports, files: files)
            problems += coverage.problems
            held = coverage.held
        }
        if problems.isEmpty { return (true, nil) }
        if allowPartial { return (false, held) }
        throw PipelineError(
            file: nil, message: "merge: \(problems.joined(separator: "; ")) (--allow-partial merges them anyway)")
    }

    /// Which of the `n` shards the reports hold: those missing, given twice or unfinished (with
    /// the commands that rerun them), and the list of the finished ones.
    static func coverage(_ shards: [(indices: [Int], count: Int)?], of n: Int, reports: [RunReport], files: [String])
        -> (problems: [String], held: String)
    {
        var out: [String] = []
        var byIndex: [Int: [String]] = [:]
        for (i, s) in shards.enumerated() {
            for k in s?.indices ?? [] { byIndex[k, default: []].append(files[i]) }
        }
        let missing = (1...n).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            out.append(
                "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(n)" }.joined(separator: ", "))"
            )
        }
        for (k, fs) in byIndex.sorted(by: { $0.key < $1.key }) where fs.count > 1 {
            out.append("shard \(k)/\(n) given \(fs.count) times (\(fs.joined(separator: ", ")))")
        }
        // A shard whose run was interrupted (killed, pre-empted, out of time) wrote its report
        // with "incomplete": it is not done, whatever file is there. (A merge of some shards is
        // incomplete for the shards it lacks, which its list says.)
        let unfinished = shards.enumerated().compactMap { i, s in
            reports[i].incomplete && s?.indices.count == 1 ? s.map { ($0.indices[0], files[i]) } : nil
        }
        if !unfinished.isEmpty {
            out.append(
                "unfinished shard\(unfinished.count == 1 ? "" : "s") \(unfinished.map { "\($0.0)/\(n) (\($0.1))" }.joined(separator: ", "))"
            )
        }
        let rerun = Set(missing + unfinished.map(\.0)).sorted()
        if !rerun.isEmpty {
            out.append(
                "rerun \(rerun.map { "--shard \($0)/\(n)" }.joined(separator: ", ")) (each with --resume in its own output folder)"
            )
        }
        let finished = Set(byIndex.keys).subtracting(unfinished.map(\.0))
        return (out, shardList(Array(finished), count: n))
    }
}

/// One report being merged: where its documents lie, and the next ones, read ahead.
struct MergeCursor {
    let file: String
    let mapped: MappedFile
    let elements: [Range<Int>]
    /// Whether documents are copied as counted (no baseline to apply afresh).
    let counting: Bool
    /// How much report text a batch reads ahead (at least one document): the budget shared by
    /// all the reports, so that memory does not grow with their number.
    let aheadBytes: Int
    static let aheadBudget = 8 << 20
    var next = 0
    var headPath: String? { ahead.first?.path }

    /// A document read ahead: made compact, its path, and what the summary counts of it — one
    /// pass over the report's text serves all three.
    /// A batch of one document (bigger than the share of the read-ahead budget) is read when it
    /// is copied: only its path is read ahead (`lazy`), so that a merge of 100 reports of big
    /// documents does not hold 100 of them.
    struct Entry: Sendable {
        var compact: [UInt8] = []
        var path: String?
        var counted: DocumentResult?
        var lazy: Range<Int>?
        /// Why the document cannot be merged (a key given twice: which value counts would depend
        /// on the reader).
        var problem: String?
    }
    /// The next documents, in order (the head first): read in batches of at most `aheadBytes` of
    /// report text, the batch's documents on all cores at once.
    private var ahead: ArraySlice<Entry> = []

    init(file: String, mapped: MappedFile, elements: [Range<Int>], counting: Bool, aheadBytes: Int) {
        self.aheadBytes = aheadBytes
        self.file = file
        self.mapped = mapped
        self.elements = elements
        self.counting = counting
    }

    /// Reads the next batch when none is left; throws when the head has no path.
    mutating func readHead() throws(PipelineError) {
        if ahead.isEmpty, next < elements.count {
            var end = next
            var bytes = 0
            // Whole documents up to the budget (one at least, which is then read when copied).
            while end < elements.count, end - next < 256, end == next || bytes + elements[end].count <= aheadBytes {
                bytes += elements[end].count
                end += 1
            }
            if end - next == 1 {
                let range = elements[next]
                let path = mapped.withBytes { JSONScanner.stringMember("path", in: $0, from: range.lowerBound) }
                ahead = [Entry(path: path, lazy: range)]
            } else {
                ahead = ArraySlice(Self.read(elements[next..<end], of: mapped, counting: counting))
                // Read: its pages can go (they are read again from the file if touched).
                mapped.drop(elements[next].lowerBound..<elements[end - 1].upperBound)
            }
        }
        if let problem = ahead.first?.problem {
            throw PipelineError(file: file, message: "documents[\(next)]: \(problem)")
        }
        if !ahead.isEmpty, ahead.first?.path == nil {
            throw PipelineError(file: file, message: "documents[\(next)]: no path")
        }
    }

    /// `ranges`' documents read, each on its own (their order kept).
    private static func read(_ ranges: ArraySlice<Range<Int>>, of mapped: MappedFile, counting: Bool) -> [Entry] {
        let ranges = Array(ranges)
        let out = Locked([Entry?](repeating: nil, count: ranges.count))
        mapped.withBytes { raw in
            let text = ReadOnlyBytes(raw: raw)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { k in
                let e = entry(UnsafeRawBufferPointer(rebasing: text.raw[ranges[k]]), counting: counting)
                out.withLock { $0[k] = e }
            }
        }
        return out.withLock { $0.map { $0! } }
    }

    /// The mapped report's bytes, read by the batch's threads: no thread writes them, and
    /// `concurrentPerform` returns before `withBytes` ends.
    private struct ReadOnlyBytes: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
    }

    private static func entry(_ text: UnsafeRawBufferPointer, counting: Bool) -> Entry {
        let (compact, members) = JSONScanner.compactObject(text)
        return compact.withUnsafeBytes { raw in
            guard let members else { return Entry(compact: compact) }
            var keys = Set<String>()
            for m in members where !keys.insert(m.key).inserted {
                return Entry(compact: compact, problem: "the key '\(m.key)' is given twice")
            }
            var path: String?
            if let m = members.first(where: { $0.key == "path" }) {
                var parser = JSONParser(
                    bytes: Array(UnsafeRawBufferPointer(rebasing: raw[m.value])), tracksLocations: false)
                path = (try? parser.parseDocument())?.stringValue
            }
            return Entry(
                compact: compact, path: path,
                counted: counting ? ResultStore.countedDocument(raw, members: members) : nil)
        }
    }

    /// Where the pages before have been dropped again (this pass's).
    var dropped = 0

    mutating func advance() throws(PipelineError) {
        let end = elements[next].upperBound
        if end - dropped >= 64 << 10 {
            mapped.drop(dropped..<end)
            dropped = end
        }
        next += 1
        ahead = ahead.dropFirst()
        try readHead()
    }

    /// The head document into the merged store at `index`: copied as counted, or — with a
    /// baseline to apply afresh — decoded whole.
    func copy(to store: ResultStore, at index: Int, policy: ResultPolicy?) throws(PipelineError) {
        guard var head = ahead.first else { return }
        if let range = head.lazy {
            head = mapped.withBytes { raw in
                Self.entry(UnsafeRawBufferPointer(rebasing: raw[range]), counting: counting)
            }
            if let problem = head.problem {
                throw PipelineError(file: file, message: "documents[\(next)]: \(problem)")
            }
            // Read ahead by its first "path" only: the one copied must be that document.
            if head.path != ahead.first?.path {
                throw PipelineError(file: file, message: "documents[\(next)]: its path changed while it was read")
            }
        }
        if let policy {
            var parser = JSONParser(bytes: head.compact, tracksLocations: false)
            do {
                var d = try DocumentResult(json: try parser.parseDocument())
                d.fixedSinceBaseline = []
                policy.apply(&d)
                store.append(d, at: index, input: nil)
                return
            } catch {
                throw PipelineError(file: file, message: "documents[\(next)]: \(error)")
            }
        }
        guard let counted = head.counted else {
            var parser = JSONParser(bytes: head.compact, tracksLocations: false)
            do {
                _ = try DocumentResult(json: try parser.parseDocument())
            } catch {
                throw PipelineError(file: file, message: "documents[\(next)]: \(error)")
            }
            throw PipelineError(file: file, message: "documents[\(next)]: cannot be read")
        }
        store.append(documentJSON: head.compact, counted: counted, at: index)
    }
}
