import Foundation
import PDFPipeCore
import PDFPipeStages

/// The `pdfpipe` command line. `run(_:)` returns the exit code; everything it prints goes through
/// the console, so tests can run it in-process.
public struct CLI: Sendable {
    public static let version = PDFPipeVersion.string

    let console: Console
    /// Relative paths (pipeline, inputs, output) are taken from here.
    let directory: String
    /// When set, used as `generatedAt` instead of the clock (tests, reproducible builds).
    let fixedDate: String?

    public init(
        console: Console, directory: String = FileManager.default.currentDirectoryPath, fixedDate: String? = nil
    ) {
        self.console = console
        self.directory = directory
        self.fixedDate = fixedDate ?? ProcessInfo.processInfo.environment["PDFPIPE_FIXED_DATE"]
    }

    static let commands: [(name: String, summary: String)] = [
        ("init", "write a starter pipeline (--for link-audit, thumbnails, text or ci)"),
        ("run", "run a pipeline over PDF files and folders"),
        ("validate", "check a pipeline file without opening any document"),
        ("merge", "join the reports of shards (--shard K/N) into one"),
        ("baseline", "write a report's findings as a baseline (run --baseline FILE)"),
        ("stages", "list the stages with their options and defaults"),
        ("rules", "list the rule ids with their default severities"),
        ("schema", "print the JSON Schema of pipeline files"),
    ]

    static let usage = """
        pdfpipe \(version): declarative pipelines over batches of PDF files

        Usage: pdfpipe <command> [options]

        Commands:
        \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'pdfpipe <command> --help' for a command's options.
        Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad pipeline or arguments, 3 internal failure,
        130/143 interrupted.
        """

    public func run(_ args: [String]) -> ExitCode {
        guard let command = args.first else {
            console.errorLines(Self.usage)
            return .usage
        }
        let rest = Array(args.dropFirst())
        switch command {
        case "--help", "-h", "help":
            if let topic = rest.first, let text = help(topic) {
                console.printLines(text)
            } else {
                console.printLines(Self.usage)
            }
            return .clean
        case "--version", "-V":
            console.print("pdfpipe \(Self.version)")
            return .clean
        default:
            break
        }
        if rest.contains("--help") || rest.contains("-h"), let text = help(command) {
            console.printLines(text)
            return .clean
        }
        do throws(PipelineError) {
            switch command {
            case "init": return try initCommand(rest)
            case "run": return try runCommand(rest)
            case "validate": return try validateCommand(rest)
            case "merge": return try mergeCommand(rest)
            case "baseline": return try baselineCommand(rest)
            case "__worker": return try workerCommand(rest)
            case "stages": return try listStages(rest)
            case "rules": return try listRules(rest)
            case "schema": return try printSchema(rest)
            default:
                let names = Self.commands.map(\.name)
                throw PipelineError(
                    file: nil,
                    message:
                        "unknown command '\(command)'\(Suggest.didYouMean(command, names)) (commands: \(names.joined(separator: ", ")))"
                )
            }
        } catch {
            console.errorLines(error.description)
            return .usage
        }
    }

    func help(_ command: String) -> String? {
        switch command {
        case "run":
            return """
                Usage: pdfpipe run PIPELINE [INPUT...] [options]

                Runs the stages of PIPELINE (a JSON file) over the inputs: files, folders (searched
                recursively for *.pdf) and globs (quote them: 'docs/**/*.pdf'). Inputs given here replace
                the pipeline's "inputs". Writes the reports to the output folder.

                Options:
                  --out DIR          output folder (default: the pipeline's "output", else out/NAME)
                  --jobs N           documents processed at once (default: the pipeline's "jobs", else
                                     one per processor)
                  --format LIST      report formats, comma-separated (\(Reporters.formats.joined(separator: ", ")))
                  --fail-on LEVEL    error | warning | note | never: exit 1 when a finding is at or above
                                     LEVEL (default: the pipeline's report.failOn, else error)
                  --shard K/N        run only the K-th of N deterministic parts of the batch (by a stable hash
                                     of each input's path); join the parts' reports with pdfpipe merge
                  --force            redo work incremental stages would skip (thumbnails up to date)
                  --isolate          run each document in a worker process: a crash, hang or memory
                                     blow-up costs that document only (pdf.crashed, pdf.timeout, …)
                  --timeout SECONDS  stop a document that takes longer (turns --isolate on)
                  --memory-limit MB  address-space limit of each worker process (turns --isolate on)
                  --offline          no network: the external link check skips http(s) links (files,
                                     mailto: and fragments of local PDFs are still checked)
                  --allow-empty      accept a batch with no PDF (otherwise an error, exit 2)
                  --baseline FILE    findings already in FILE (pdfpipe baseline, or an earlier report.json)
                                     are "unchanged" and do not fail the run; the others are "new"
                                     (default: the pipeline's report.baseline)
                  --ratchet          also exit 1 when findings of the baseline are fixed, until the
                                     baseline is updated (default: the pipeline's report.ratchet)
                  --resume           go on with an interrupted run in the same output folder: documents
                                     its results.jsonl records (same pipeline, same file) are not redone
                  --verbose          also list the notes
                  --quiet            print nothing but errors (and the summary line when the run fails)
                  -h, --help         show this help

                Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad pipeline or arguments,
                3 internal failure, 130/143 interrupted (SIGINT/SIGTERM; the report says incomplete;
                --resume goes on from there).
                """
        case "validate":
            return """
                Usage: pdfpipe validate PIPELINE

                Checks a pipeline file (JSON syntax, stages, options, rules, report settings) without
                opening any document. Exit code 0 when valid, 2 otherwise.
                """
        case "merge":
            return """
                Usage: pdfpipe merge REPORT.json... [--out DIR] [--format LIST] [--fail-on LEVEL] [--allow-partial]
                                                    [--baseline FILE] [--ratchet] [--verbose] [--quiet]

                Joins the report.json files of shards (pdfpipe run --shard K/N) into the report one run over
                the whole batch writes: the same documents, order and summary. Writes the formats asked for
                (default json) to DIR (default out/merged). Exit codes as for run, judged on the merged
                findings at --fail-on, else the pipeline file's report.failOn (never a shard's --fail-on),
                so the merge step can be the CI gate. A set with a missing or repeated shard is refused
                (exit 2) unless --allow-partial (the merged report is then marked incomplete). --baseline
                compares the merged findings with FILE afresh (otherwise the shards' comparison stands).
                """
        case "baseline":
            return """
                Usage: pdfpipe baseline REPORT.json [--out FILE]

                Writes the findings of a report as a baseline (default FILE: pdfpipe-baseline.json): their
                fingerprints, rule, page and message, sorted, to keep under version control. Runs given
                --baseline FILE then fail only on findings not in it. Run it again to accept the current
                findings (after fixes, with --ratchet).
                """
        case "init":
            return """
                Usage: pdfpipe init [--for KIND] [--out FILE] [--force]

                Writes a starter pipeline (default FILE: pdfpipe.json) for one job, and the JSON Schema of
                pipelines beside it (pipeline.schema.json, which the pipeline names in "$schema" so that
                editors check and complete it). KIND: \(Self.starters.map(\.name).joined(separator: ", ")) (default
                link-audit). An existing FILE is kept unless --force. Prints the command to run next.
                """
        case "stages":
            return "Usage: pdfpipe stages\n\nLists every stage with its options, their types and defaults."
        case "rules":
            return "Usage: pdfpipe rules\n\nLists every rule id with its default severity and meaning."
        case "schema":
            return "Usage: pdfpipe schema\n\nPrints the JSON Schema of pipeline files (the one in pipelines/)."
        default:
            return nil
        }
    }

    // MARK: - Commands

    func loadPipeline(_ file: String, environment: Pipeline.EnvironmentCheck = .required) throws(PipelineError)
        -> Pipeline
    {
        try Pipeline.load(
            file: file, relativeTo: directory, catalog: StageTable.all, formats: Reporters.formats,
            environment: environment)
    }

    func validateCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Arguments(args, valued: [], flags: [])
        guard a.positional.count == 1 else {
            throw PipelineError(file: nil, message: "validate takes one pipeline file")
        }
        // A lint job may not have the run's secrets: a variable that is not set is a warning here.
        let p = try loadPipeline(a.positional[0], environment: .unchecked)
        for problem in p.environmentProblems { console.error(problem.warning + " (pdfpipe run needs it)") }
        let today = String((fixedDate ?? Date().ISO8601Format()).prefix(10))
        for s in p.suppressions where s.isExpired(today: today) {
            console.error(
                "\(p.file): warning: \(s.label) expired on \(s.expires ?? ""); its findings count again [config.suppression-expired]"
            )
        }
        console.print(
            "\(p.file): ok (\(p.stageIDs.count) stage\(p.stageIDs.count == 1 ? "" : "s"): \(p.stageIDs.joined(separator: ", ")))"
        )
        return .clean
    }

    func listStages(_ args: [String]) throws(PipelineError) -> ExitCode {
        _ = try Arguments(args, valued: [], flags: [])
        for d in StageTable.all {
            console.print("\(d.id): \(d.summary)")
            printOptions(d.options, indent: "  ")
        }
        return .clean
    }

    private func printOptions(_ options: [OptionSpec], indent: String) {
        for o in options where o.listed {
            if case .object(let sub) = o.kind {
                console.print("\(indent)\(o.key) (object): \(o.summary)")
                printOptions(sub, indent: indent + "  ")
            } else if case .list(let sub) = o.kind {
                console.print(
                    "\(indent)\(o.key) (list of objects, or strings for '\(sub.first?.key ?? "")'): \(o.summary)")
                printOptions(sub, indent: indent + "  ")
            } else {
                console.print(
                    "\(indent)\(o.key) (\(o.kind.description), default \(JSONWriter.compact(o.defaultValue))): \(o.summary)"
                )
            }
        }
    }

    func listRules(_ args: [String]) throws(PipelineError) -> ExitCode {
        _ = try Arguments(args, valued: [], flags: [])
        for r in Rules.all {
            let level = r.offByDefault ? "off" : r.severity.rawValue
            console.print(
                "\(r.id.padding(toLength: 32, withPad: " ", startingAt: 0)) \(level.padding(toLength: 8, withPad: " ", startingAt: 0)) \(r.summary)"
            )
        }
        return .clean
    }

    func printSchema(_ args: [String]) throws(PipelineError) -> ExitCode {
        _ = try Arguments(args, valued: [], flags: [])
        console.write(JSONWriter.pretty(PipelineSchema.make(catalog: StageTable.all, formats: Reporters.formats)))
        return .clean
    }
}
