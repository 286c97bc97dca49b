import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

extension CLI {
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
