import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// A command of the command line.
struct Command: Sendable {
    var name: String
    /// One line for `pdfpipe --help`.
    var summary: String
    /// What follows the command name before the flags (`PIPELINE [INPUT...]`).
    var operands: String
    var about: String
    var flags: [FlagInfo]
    /// After the options (exit codes).
    var footer: String?
    /// What the command does: the dispatch is this table's (no `switch` beside it).
    var perform: @Sendable (CLI, [String]) throws(PipelineError) -> ExitCode

    init(
        _ name: String, operands: String = "", summary: String, about: String, flags: [FlagInfo] = [],
        footer: String? = nil, perform: @escaping @Sendable (CLI, [String]) throws(PipelineError) -> ExitCode
    ) {
        self.perform = perform
        self.name = name
        self.operands = operands
        self.summary = summary
        self.about = about
        self.flags = flags
        self.footer = footer
    }

    /// `pdfpipe run PIPELINE [INPUT...] [--out DIR] …`, as the README's synopsis writes it.
    var synopsis: String {
        (["pdfpipe", name] + (operands.isEmpty ? [] : [operands]) + flags.map { "[\($0.usage)]" }).joined(
            separator: " ")
    }

    var help: String {
        // The synopsis broken between flags, continued under the operands.
        let lead = "Usage: pdfpipe \(name) "
        var lines: [String] = []
        var line = lead + operands
        for part in flags.map({ "[\($0.usage)]" }) {
            if line.count + 1 + part.count > 100 {
                lines.append(line)
                line = String(repeating: " ", count: lead.count) + part
            } else {
                line += (line.hasSuffix(" ") ? "" : " ") + part
            }
        }
        lines.append(line)
        var text = lines.joined(separator: "\n") + "\n\n" + Self.wrap(about, width: 100)
        if !flags.isEmpty {
            text += "\n\nOptions:\n"
            let rows = flags.map { ($0.usage, $0.help) } + [("-h, --help", "show this help")]
            text += rows.map { usage, help in
                let head = "  " + usage.padding(toLength: max(usage.count, 17), withPad: " ", startingAt: 0) + "  "
                let lines = Self.wrap(help, width: 100 - head.count).split(
                    separator: "\n", omittingEmptySubsequences: false)
                let indent = String(repeating: " ", count: head.count)
                return head + lines.joined(separator: "\n" + indent)
            }.joined(separator: "\n")
        }
        if let footer { text += "\n\n" + Self.wrap(footer, width: 100) }
        return text
    }

    /// Breaks text into lines of at most `width` characters at spaces.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}

extension CLI {
    private static let exitCodes =
        "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad pipeline or arguments, 3 internal failure, 130/143 interrupted (SIGINT/SIGTERM; the report says incomplete; --resume goes on from there)."

    /// Every command, in the order `pdfpipe --help` lists them.
    static let commandTable: [Command] = [
        Command(
            "init", summary: "write a starter pipeline (--for link-audit, thumbnails, text or ci)",
            about:
                "Writes a starter pipeline (default FILE: pdfpipe.json) for one job, and the JSON Schema of pipelines beside it (pipeline.schema.json, which the pipeline names in \"$schema\" so that editors check and complete it). KIND: \(starters.map(\.name).joined(separator: ", ")) (default link-audit). An existing FILE is kept unless --force. Prints the command to run next.",
            flags: InitFlags.all, perform: { cli, args throws(PipelineError) in try cli.initCommand(args) }),
        Command(
            "run", operands: "PIPELINE [INPUT...]", summary: "run a pipeline over PDF files and folders",
            about:
                "Runs the stages of PIPELINE (a JSON file) over the inputs: files, folders (searched recursively for *.pdf) and globs (quote them: 'docs/**/*.pdf'). Inputs given here replace the pipeline's \"inputs\". Writes the reports to the output folder.",
            flags: RunFlags.all, footer: exitCodes,
            perform: { cli, args throws(PipelineError) in try cli.runCommand(args) }),
        Command(
            "validate", operands: "PIPELINE", summary: "check a pipeline file without opening any document",
            about:
                "Checks a pipeline file (JSON syntax, stages, options, rules, report settings) without opening any document. Exit code 0 when valid, 2 otherwise.",
            perform: { cli, args throws(PipelineError) in try cli.validateCommand(args) }),
        Command(
            "merge", operands: "REPORT.json|DIR...", summary: "join the reports of shards (--shard K/N) into one",
            about:
                "Joins the report.json files of shards (pdfpipe run --shard K/N) into the report one run over the whole batch writes: the same documents, order and summary. A folder stands for its report.json, else for the report.json of each of its folders (out/shards for out/shards/*/report.json), the merge's own --out aside. Writes the formats asked for (default json) to DIR (default out/merged). Exit codes as for run, judged on the merged findings at --fail-on, else the pipeline file's report.failOn (never a shard's --fail-on), so the merge step can be the CI gate. A set with a missing or repeated shard is refused (exit 2) unless --allow-partial (the merged report is then marked incomplete). --baseline compares the merged findings with FILE afresh (otherwise the shards' comparison stands).",
            flags: MergeFlags.all, footer: exitCodes,
            perform: { cli, args throws(PipelineError) in try cli.mergeCommand(args) }),
        Command(
            "baseline", operands: "REPORT.json",
            summary: "write a report's findings as a baseline (run --baseline FILE)",
            about:
                "Writes the findings of a report as a baseline (default FILE: pdfpipe-baseline.json): their fingerprints, rule, page and message, sorted, to keep under version control. Runs given --baseline FILE then fail only on findings not in it. Run it again to accept the current findings (after fixes, with --ratchet).",
            flags: BaselineFlags.all, perform: { cli, args throws(PipelineError) in try cli.baselineCommand(args) }),
        Command(
            "anchors", operands: "INPUT...|REPORT.json",
            summary: "list each document's named destinations (run --baseline FILE finds the ones a change removes)",
            about:
                "Writes each document's named destinations (default FILE: pdfpipe-anchors.json) with their pages, the top of the view each opens and the title of the bookmark that goes to it, and its page count: read from PDFs, folders and globs, or from a report.json whose resolve-destinations listed them (the anchor-guard pipeline). A run given --baseline FILE reports each anchor the documents no longer define (dest.removed, with the closest new one when one is clear), each whose bookmark now has another title (dest.changed) and each page count that changed (dest.page-count-changed). Exit code 1 when a document could not be read (the others are written).",
            flags: AnchorsFlags.all, perform: { cli, args throws(PipelineError) in try cli.anchorsCommand(args) }),
        Command(
            "trend", operands: "LEDGER",
            summary: "how links rot over the runs a ledger recorded (run --ledger DIR)",
            about:
                "Reads the records runs given --ledger DIR (or report.ledger) kept, one per run, in a folder or under an s3:// prefix, and writes trend.json, trend.md and trend.html (one self-contained page, its plots inline SVG) to DIR (default out/trend): broken links per run by severity and rule family, new, fixed and still broken per run, each link broken now with the run it has been broken since and in how many runs, the time broken links took to be fixed (median, 90th percentile), the hosts that rot most and the documents that got worse. A link is its document and target; it is fixed in the first later run that checked its document without an error about it.",
            flags: TrendFlags.all, perform: { cli, args throws(PipelineError) in try cli.trendCommand(args) }),
        Command(
            "fix", operands: "REPORT.json", summary: "write repaired copies from the fixes a report's findings carry",
            about:
                "Applies the fixes the findings of a report carry (validate-links' proposals: permanent redirects, misspelt schemes, names that differ in case or encoding, files that differ in case, archived captures, https addresses) as the fix-links stage does, without checking anything again: for each document with fixes, a repaired copy in DIR/fixed/ (the original's bytes, then an incremental update of only the links that change; documents are read where the report names them, relative to the current folder), and replacements.json and replacements.csv listing each change. A link whose object no longer says what the report read is left, saying so.",
            flags: FixFlags.all, perform: { cli, args throws(PipelineError) in try cli.fixCommand(args) }),
        Command(
            "pipelines", operands: "[show NAME]", summary: "list the built-in pipelines (show NAME prints one)",
            about:
                "Lists the pipelines that come with pdfpipe, which `pdfpipe run NAME` runs without a pipeline file (\(BuiltinPipelines.names)); `show NAME` prints one as a pipeline file to start your own from: pdfpipe pipelines show link-audit > pdfpipe.json.",
            perform: { cli, args throws(PipelineError) in try cli.pipelinesCommand(args) }),
        Command(
            "stages", summary: "list the stages with their options and defaults",
            about: "Lists every stage with its options, their types and defaults.",
            perform: { cli, args throws(PipelineError) in try cli.listStages(args) }),
        Command(
            "rules", operands: "[RULE]", summary: "list the rule ids with their default severities",
            about:
                "Lists every rule id with its default severity and meaning; with RULE, its page: what it means, the default severity, how to fix it, an example, how to change its level (the same as docs/rules/RULE.md).",
            flags: RulesFlags.all, perform: { cli, args throws(PipelineError) in try cli.listRules(args) }),
        Command(
            "schema", summary: "print the JSON Schema of pipeline files",
            about: "Prints the JSON Schema of pipeline files (the one in pipelines/).",
            perform: { cli, args throws(PipelineError) in try cli.printSchema(args) }),
        Command(
            "github-action", summary: "the GitHub Action's entrypoint (in GitHub Actions only; elsewhere use run)",
            about:
                "The entrypoint of pdfpipe's GitHub Action (action.yml): it reads the step's inputs from GitHub's INPUT_* variables, runs pdfpipe run (or merge), and writes the annotations, the step summary and the step's outputs. It runs only inside GitHub Actions (GITHUB_ACTIONS=true); elsewhere, pdfpipe run does the same: pdfpipe run link-audit DIR --offline.",
            perform: { cli, _ in cli.githubAction(environment: Environment.all) }),
    ]

    /// Commands `pdfpipe --help` does not list: the worker process `run --isolate` starts.
    static let hiddenCommands: [Command] = [
        Command(
            "__worker", summary: "", about: "", flags: WorkerFlags.all,
            perform: { cli, args throws(PipelineError) in try cli.workerCommand(args) })
    ]

    static func command(_ name: String) -> Command? { commandTable.first { $0.name == name } }

    /// Checks the text given to a flag that overrides a pipeline key (`--jobs`: `jobs`) by that
    /// key's declaration, so that the file and the flag accept the same values.
    static func checkFlagValue(_ raw: String, flag: String, key: String) throws(PipelineError) {
        guard let spec = Self.spec(key) else { return }
        let v: JSONValue
        switch spec.kind {
        case .integer: v = Int(raw).map(JSONValue.int) ?? .string(raw)
        case .number: v = Double(raw).map(JSONValue.double) ?? .string(raw)
        default: v = .string(raw)
        }
        _ = try spec.validated(v, path: flag) { path, message in
            PipelineError(file: nil, message: "\(path): \(message)")
        }
    }

    /// The declaration of a pipeline key (`report.failOn`).
    static func spec(_ path: String) -> OptionSpec? {
        var specs = Pipeline.keys(catalog: StageTable.all, formats: Reporters.formats)
        var found: OptionSpec?
        for part in path.split(separator: ".") {
            guard let s = specs.first(where: { $0.key == part }) else { return nil }
            found = s
            if case .object(let sub) = s.kind { specs = sub } else { specs = [] }
        }
        return found
    }
}

/// The flags of `pdfpipe init`, in the order its help lists them.
struct InitFlags: FlagSet {
    var operands: [String] = []
    @Flag("--for", CLI.starters.map(\.name).joined(separator: "|"), "the job the pipeline is for") var `for`: String?
    @Flag("--out", "FILE", "where to write it (default pdfpipe.json)") var out: String?
    @Flag("--force", "replace an existing FILE") var force = false
}

/// The flags of `pdfpipe run`, in the order its help lists them.
struct RunFlags: FlagSet {
    var operands: [String] = []
    @Flag(
        "--out", "DIR",
        "output folder (default: the pipeline's \"output\", else out/NAME); {shard} in it becomes the shard's K",
        key: "output") var out: String?
    @Flag(
        "--jobs", "N",
        "documents processed at once (default: the pipeline's \"jobs\", else one per processor)",
        key: "jobs") var jobs: Int?
    @Flag(
        "--format", "LIST",
        "report formats, comma-separated (\(Reporters.formats.joined(separator: ", "))); default: the pipeline's report.formats, else json"
    ) var format: String?
    @Flag(
        "--fail-on", "LEVEL",
        "\(FailOn.names): exit 1 when a finding is at or above LEVEL (default: the pipeline's report.failOn, else error)",
        key: "report.failOn") var failOn: FailOn?
    @Flag(
        "--shard", "K/N|auto",
        "run only the K-th of N deterministic parts of the batch (by a stable hash of each input's path); join the parts' reports with pdfpipe merge. auto: K (and N) from the job-array engine's variables (Slurm, Kubernetes Indexed Jobs, AWS Batch, GitLab, CircleCI, Buildkite), N from auto/N or PDFPIPE_SHARDS where the engine has none; the report says which variable (shardSource)"
    ) var shard: String?
    @Flag("--force", "redo work incremental stages would skip (thumbnails up to date)") var force = false
    @Flag(
        "--isolate",
        "run each document in a worker process: a crash, hang or memory blow-up costs that document only (pdf.crashed, pdf.timeout, …); the default when a stage renders pages or reads their text"
    ) var isolate = false
    @Flag(
        "--no-isolate",
        "run every document in this process, even when a stage renders pages (faster to debug; a crash in poppler or cairo then ends the run)"
    ) var noIsolate = false
    @Flag(
        "--timeout", "SECONDS", "stop a document that takes longer (turns --isolate on)",
        key: "timeoutSeconds") var timeout: Double?
    @Flag(
        "--memory-limit", "MB", "address-space limit of each worker process (turns --isolate on)",
        key: "memoryLimitMB") var memoryLimit: Int?
    @Flag(
        "--offline",
        "no network: the external link check skips http(s) links (files, mailto: and fragments of local PDFs are still checked)"
    ) var offline = false
    @Flag("--allow-empty", "accept a batch with no PDF (otherwise an error, exit 2)") var allowEmpty = false
    @Flag(
        "--inputs-from", "FILE",
        "also take the inputs from FILE (- for standard input), one path a line, relative to the current folder; a listed path that does not exist is that document's pdf.unreadable, not an error"
    ) var inputsFrom: String?
    @Flag("--null", "with --inputs-from: paths separated by NUL bytes (find -print0), not lines") var null = false
    @Flag(
        "--baseline", "FILE",
        "findings already in FILE (pdfpipe baseline, or an earlier report.json) are \"unchanged\" and do not fail the run; the others are \"new\" (default: the pipeline's report.baseline)",
        key: "report.baseline") var baseline: String?
    @Flag(
        "--sources", "DIRS",
        "the folders of the PDFs' sources: each finding about a link gets the source line that made it (SyncTeX beside the PDF, else search; default: the pipeline's report.sources)"
    ) var sources: String?
    @Flag(
        "--ledger", "DIR",
        "keep a record of this run's broken links in DIR (a folder, or s3://bucket/prefix/), for pdfpipe trend (default: the pipeline's report.ledger)",
        key: "report.ledger") var ledger: String?
    @Flag(
        "--ratchet",
        "also exit 1 when findings of the baseline are fixed, until the baseline is updated (default: the pipeline's report.ratchet)"
    ) var ratchet = false
    @Flag(
        "--resume",
        "go on with an interrupted run in the same output folder: documents its results.jsonl records (same pipeline, same file) are not redone"
    ) var resume = false
    @Flag(
        "--progress", "auto|always|never",
        "progress on stderr: auto (default) redraws a line on a terminal and writes a line every 15 s to a log (CI, Slurm), none with --quiet; always also with --quiet; never none"
    ) var progress = ProgressMode.auto
    @Flag("--verbose", "also list the notes") var verbose = false
    @Flag("--quiet", "print nothing but errors (and the summary line when the run fails)") var quiet = false
}

/// The flags of `pdfpipe merge`, in the order its help lists them.
struct MergeFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "DIR", "output folder (default out/merged)") var out: String?
    @Flag("--format", "LIST", "report formats, comma-separated (default json)") var format: String?
    @Flag(
        "--fail-on", "LEVEL", "\(FailOn.names) (default: the pipeline's report.failOn)",
        key: "report.failOn") var failOn: FailOn?
    @Flag("--allow-partial", "merge a set with a missing shard (the report says incomplete)") var allowPartial = false
    @Flag("--baseline", "FILE", "compare the merged findings with FILE", key: "report.baseline") var baseline: String?
    @Flag("--ratchet", "also exit 1 when findings of the baseline are fixed") var ratchet = false
    @Flag(
        "--ledger", "DIR",
        "keep one record of the merged run in DIR (a folder, or s3://bucket/prefix/), for pdfpipe trend")
    var ledger: String?
    @Flag("--verbose", "also list the notes") var verbose = false
    @Flag("--quiet", "print nothing but errors (and the summary line when the merge fails)") var quiet = false
}

/// The flags of `pdfpipe baseline`, in the order its help lists them.
struct BaselineFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "FILE", "where to write it (default pdfpipe-baseline.json)") var out: String?
}

/// The flags of `pdfpipe trend`.
struct TrendFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "DIR", "where to write trend.json, trend.md and trend.html (default out/trend)") var out: String?
    @Flag("--since", "DATE", "leave out the runs before DATE (YYYY-MM-DD)") var since: String?
    @Flag("--pipeline", "NAME", "only the runs of this pipeline") var pipeline: String?
    @Flag("--host", "HOST", "only links to this host") var host: String?
}

/// The flags of `pdfpipe anchors`.
struct AnchorsFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "FILE", "where to write them (default pdfpipe-anchors.json)") var out: String?
}

/// The flags of `pdfpipe rules`, in the order its help lists them.
struct RulesFlags: FlagSet {
    var operands: [String] = []
    @Flag("--pages", "DIR", "write every rule's page to DIR (docs/rules)") var pages: String?
}
/// `pdfpipe __worker`'s flags (not for people: `run --isolate` starts it, `IsolatedRunner` writes
/// its command line from the same declarations).
struct WorkerFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "DIR", "the run's output folder") var out: String?
    @Flag("--root", "DIR", "the batch's input root") var root: String?
    @Flag("--memory-limit", "MB", "this worker's address-space limit") var memoryLimit: Int?
    @Flag("--timeout", "SECONDS", "a document's time limit") var timeout: Double?
    @Flag("--force", "redo work incremental stages would skip") var force = false
    @Flag("--offline", "no network") var offline = false
    @Flag("--local-copies", "ask the parent for the files links name (s3 inputs)") var localCopies = false
}
