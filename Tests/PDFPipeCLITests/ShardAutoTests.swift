import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#31, 1) `--shard auto`: the shard from the job-array engine's own variables, as each engine
/// sets them, said in the report (`shard`, `shardSource`); no variable, a bad one, or an array
/// whose ids are not "K of N" is an error (exit 2), never a run over the whole batch.
final class ShardAutoTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The engines' variables this test sets or clears (the test's own environment may have some).
    static let engineVariables = [
        "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "CI_NODE_INDEX",
        "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
        "BUILDKITE_PARALLEL_JOB_COUNT", "PDFPIPE_SHARDS",
    ]

    /// pdfpipe with `args`, in an environment where the engines' variables are only `variables`
    /// (env -u clears those the test's own environment may have); its status and what it printed.
    func pdfpipe(_ args: [String], variables: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let unset = Self.engineVariables.filter { variables[$0] == nil }.flatMap { ["-u", $0] }
        return try ExternalTool.run("/usr/bin/env", unset + [try Repo.executable()] + args, environment: variables)
    }

    /// A run of the link audit over the samples as shard `shard`, into out<n>: status, output, report.
    func run(_ shard: String, _ variables: [String: String], _ n: Int) throws -> (Int32, String, JSONValue) {
        let out = dir + "/out\(n)"
        let r = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline", "--quiet",
                "--fail-on", "never", "--shard", shard, "--out", out,
            ], variables: variables)
        let report = (try? JSONParser.parse(String(contentsOfFile: out + "/report.json", encoding: .utf8))) ?? .null
        return (r.status, r.output, report)
    }

    func testEachEngineIsReadAndTheRestIsRefused() throws {
        let accepted: [(String, [String: String], String, String)] = [
            (
                "auto",
                [
                    "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "6",
                    "SLURM_ARRAY_TASK_COUNT": "3",
                ],
                "2/3", "SLURM_ARRAY_TASK_ID"
            ),
            (
                "auto/4",
                [
                    "SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "12",
                    "SLURM_ARRAY_TASK_STEP": "4", "SLURM_ARRAY_TASK_COUNT": "4",
                ],
                "3/4", "SLURM_ARRAY_TASK_ID"
            ),
            ("auto/8", ["JOB_COMPLETION_INDEX": "0"], "1/8", "JOB_COMPLETION_INDEX"),
            ("auto", ["JOB_COMPLETION_INDEX": "3", "PDFPIPE_SHARDS": "4"], "4/4", "JOB_COMPLETION_INDEX"),
            ("auto/4", ["AWS_BATCH_JOB_ARRAY_INDEX": "1"], "2/4", "AWS_BATCH_JOB_ARRAY_INDEX"),
            ("auto", ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], "2/3", "CI_NODE_INDEX"),
            ("auto", ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"], "1/2", "CIRCLE_NODE_INDEX"),
            (
                "auto", ["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "2"], "2/2",
                "BUILDKITE_PARALLEL_JOB"
            ),
            // Slurm wins over a CI system's variables (a CI job submitting to Slurm has both).
            (
                "auto",
                [
                    "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "CI_NODE_INDEX": "2",
                    "CI_NODE_TOTAL": "2",
                ], "1/2", "SLURM_ARRAY_TASK_ID"
            ),
        ]
        for (n, (shard, variables, expected, source)) in accepted.enumerated() {
            let (status, text, report) = try run(shard, variables, n)
            XCTAssertEqual(status, 0, "\(variables): \(text)")
            XCTAssertEqual(report["shard"]?.stringValue, expected, "\(variables)")
            XCTAssertEqual(report["shardSource"]?.stringValue, source, "\(variables)")
        }
        // The shards of one engine cover the batch once: the same split as --shard K/N.
        let k2 = try run("2/3", [:], 100).2
        XCTAssertEqual(
            k2["documents"]?.arrayValue?.compactMap { $0["path"]?.stringValue },
            try run("auto", ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], 101).2["documents"]?.arrayValue?.compactMap {
                $0["path"]?.stringValue
            })

        let refused: [(String, [String: String], String)] = [
            ("auto", [:], "no job-array variable is set"),
            ("auto", ["JOB_COMPLETION_INDEX": "2"], "gives the index but not the count"),
            ("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "x"], "not a number"),
            ("auto", ["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"], "outside 1...3"),
            (
                "auto",
                [
                    "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "12",
                    "SLURM_ARRAY_TASK_STEP": "4", "SLURM_ARRAY_TASK_COUNT": "4",
                ],
                "has a step or gaps"
            ),
            (
                "auto",
                [
                    "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8",
                    "SLURM_ARRAY_TASK_COUNT": "3",
                ],
                "has a step or gaps"
            ),
            ("auto/0", ["CI_NODE_INDEX": "1"], "auto/N with N >= 1"),
        ]
        for (n, (shard, variables, message)) in refused.enumerated() {
            let (status, text, report) = try run(shard, variables, 200 + n)
            XCTAssertEqual(status, 2, "\(variables): \(text)")
            XCTAssertTrue(text.contains(message), "\(variables): \(text)")
            XCTAssertEqual(report, .null, "nothing was run")
        }
    }

    /// (#31, 2) Work lists: `--inputs-from FILE` (lines, CRLF too) or `-` (standard input, with
    /// `--null` as find -print0 writes it); paths as the list names them, relative to the current
    /// folder; a listed path that does not exist is its document's finding, the others run.
    func testWorkListsFromAFileAndFromStandardInput() throws {
        let work = dir + "/work"
        try FileManager.default.createDirectory(atPath: work + "/pdf/sub dir", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: work + "/pdf/a.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("broken-links.pdf"), toPath: work + "/pdf/sub dir/b.pdf")
        try "pdf/a.pdf\r\n\npdf/sub dir/b.pdf\r\npdf/gone.pdf\n".write(
            toFile: work + "/list.txt", atomically: true, encoding: .utf8)
        let exe = try Repo.executable()
        let pipeline = Repo.root + "/pipelines/link-audit.json"
        /// `pdfpipe run PIPELINE ARGS` in the work folder, after `before |` when given; ends with exit=N.
        func inWork(_ args: String, before: String = "") throws -> String {
            let pipe = before.isEmpty ? "" : before + " | "
            return try ExternalTool.run(
                "/bin/bash", ["-c", "cd '\(work)' && \(pipe)'\(exe)' run '\(pipeline)' \(args); echo exit=$?"]
            ).output
        }
        let first = try inWork("--inputs-from list.txt --offline --quiet --out out1")
        XCTAssertTrue(first.hasSuffix("exit=1\n"), first)
        let report = try JSONParser.parse(String(contentsOfFile: work + "/out1/report.json", encoding: .utf8))
        let docs = report["documents"]?.arrayValue ?? []
        XCTAssertEqual(docs.compactMap { $0["path"]?.stringValue }, ["a.pdf", "gone.pdf", "sub dir/b.pdf"])
        let gone = try XCTUnwrap(docs.first { $0["path"] == "gone.pdf" })
        XCTAssertEqual(gone["status"], "failed")
        XCTAssertEqual(gone["findings"]?[0]?["message"], "the input does not exist")
        XCTAssertTrue(docs.first { $0["path"] == "sub dir/b.pdf" }?["findings"]?.arrayValue?.isEmpty == false)

        let piped = try inWork(
            "--inputs-from - --null --offline --quiet --fail-on never --out out2",
            before: "find pdf -name '*.pdf' -print0")
        XCTAssertTrue(piped.hasSuffix("exit=0\n"), piped)
        let viaPipe = try JSONParser.parse(String(contentsOfFile: work + "/out2/report.json", encoding: .utf8))
        XCTAssertEqual(viaPipe["summary"]?["documents"], 2)
        // A work list that cannot be read is the run's error, with its name.
        let missing = try inWork("--inputs-from nolist.txt --offline")
        XCTAssertTrue(missing.contains("cannot read the work list") && missing.hasSuffix("exit=2\n"), missing)
    }

    /// (#31, 3) A shard the engine retries goes on where it stopped: --resume is the default under
    /// --shard auto (the same output folder, the documents already done are not processed again).
    func testAnEngineRetryResumesItsShard() throws {
        func once() throws -> String {
            let r = try pdfpipe(
                [
                    "run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline", "--fail-on",
                    "never", "--shard", "auto", "--out", dir + "/retry",
                ], variables: ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"])
            XCTAssertEqual(r.status, 0, r.output)
            return r.output
        }
        let first = try once()
        XCTAssertFalse(first.contains("pdfpipe: resume:"), "a fresh task starts quietly: \(first)")
        let again = try once()
        let line = again.split(separator: "\n").first { $0.hasPrefix("pdfpipe: resume: ") } ?? ""
        let parts = line.split(separator: " ")
        XCTAssertTrue(parts.count > 4 && parts[2] == parts[4] && parts[2] != "0", "every document done: \(line)")
    }

    /// (#31, 4) Engines that run no shell (AWS Batch's command, a container's args without $(VAR))
    /// name neither a shard's folder nor a glob of them: `{shard}` in --out is the shard's K, and a
    /// folder given to merge stands for its folders' reports (its own output aside).
    func testAShardNamesItsFolderAndAFolderOfShardsMerges() throws {
        for k in 1...3 {
            let r = try pdfpipe(
                [
                    "run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline", "--quiet",
                    "--fail-on", "never", "--shard", "auto/3", "--out", dir + "/shards/part-{shard}",
                ], variables: ["AWS_BATCH_JOB_ARRAY_INDEX": String(k - 1)])
            XCTAssertEqual(r.status, 0, r.output)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/shards").sorted(),
            ["part-1", "part-2", "part-3"])
        let merged = try pdfpipe(["merge", dir + "/shards", "--out", dir + "/shards/all", "--quiet"])
        let again = try pdfpipe(["merge", dir + "/shards", "--out", dir + "/shards/all", "--quiet"])
        XCTAssertEqual(
            merged.status, again.status, "a merge again reads the shards, not its own report: \(again.output)")
        let whole = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline", "--quiet",
                "--out", dir + "/whole",
            ])
        XCTAssertEqual(merged.status, whole.status, merged.output)
        XCTAssertEqual(
            try Repo.stableReport(dir + "/shards/all/report.json")["summary"],
            try Repo.stableReport(dir + "/whole/report.json")["summary"])
        // One shard's folder gone: the merge names it.
        try FileManager.default.removeItem(atPath: dir + "/shards/part-2")
        let partial = try pdfpipe(["merge", dir + "/shards", "--out", dir + "/shards/all"])
        XCTAssertEqual(partial.status, 2, partial.output)
        XCTAssertTrue(partial.output.contains("--shard 2/3"), partial.output)

        let notShard = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline",
                "--out", dir + "/x-{shard}",
            ])
        XCTAssertEqual(notShard.status, 2, notShard.output)
        XCTAssertTrue(notShard.output.contains("has {shard} in it but the run is not a shard"), notShard.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x-{shard}"))
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        let empty = try pdfpipe(["merge", dir + "/empty"])
        XCTAssertEqual(empty.status, 2, empty.output)
        XCTAssertTrue(empty.output.contains("is a folder with no report.json"), empty.output)
    }
}
