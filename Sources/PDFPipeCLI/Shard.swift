import Foundation
import PDFPipeCore

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
