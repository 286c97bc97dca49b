import Foundation
import PDFPipeCore
import PDFPipeStages
import Synchronization
import SystemIO

/// The `pdfpipe` command line. `run(_:)` returns the exit code; everything it prints goes through
/// the console, so tests can run it in-process.
package struct CLI: Sendable {
    package static let version = PDFPipeVersion.string
    /// Set by the pdfpipe program's `main` before it runs a command: this process can start copies
    /// of itself as workers (`__worker`). A test runner calling the CLI leaves it false.
    package static var isMainProgram: Bool {
        get { mainProgram.load(ordering: .relaxed) }
        set { mainProgram.store(newValue, ordering: .relaxed) }
    }
    private static let mainProgram = Atomic(false)

    let console: Console
    /// Relative paths (pipeline, inputs, output) are taken from here.
    let directory: String
    /// When set, used as `generatedAt` instead of the clock (tests, reproducible builds).
    let fixedDate: String?
    /// The stages pipelines may use (`StageTable.all`; a program embedding pdfpipe may add its own).
    let stages: [StageDescriptor]
    /// The report formats (`Reporters.all`, or more).
    let reporters: [any Reporter]
    /// Core's rules and the stages': what `pdfpipe rules` lists and every report knows.
    let rules: RuleCatalog
    /// Whether the inputs come from a pull request (under GitHub Actions: `GITHUB_ACTIONS=true`, or
    /// the action's entrypoint): a symbolic link to a PDF out of the folder searched is then named,
    /// not followed (docs/security.md).
    package var inputsFromAPullRequest = Environment["GITHUB_ACTIONS"] == "true"

    /// This CLI with `inputsFromAPullRequest` set (the action's run).
    func fromAPullRequest() -> CLI {
        var c = self
        c.inputsFromAPullRequest = true
        return c
    }

    package init(
        console: Console, directory: String = FileSystem.currentDirectory, fixedDate: String? = nil,
        stages: [StageDescriptor] = StageTable.all, reporters: [any Reporter] = Reporters.all
    ) {
        self.console = console
        self.directory = directory
        self.fixedDate = fixedDate ?? Environment["PDFPIPE_FIXED_DATE"]
        self.stages = stages
        self.reporters = reporters
        self.rules = RuleCatalog(stages: stages)
    }

    /// The names of the report formats.
    var formats: [String] { reporters.map(\.format) }

    static let usage = """
        pdfpipe \(version): declarative pipelines over batches of PDF files

        Usage: pdfpipe <command> [options]

        Commands:
        \(commandTable.map { "  " + $0.name.padding(toLength: 15, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'pdfpipe <command> --help' for a command's options.
        Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad pipeline or arguments, 3 internal failure,
        130/143 interrupted.
        """

    package func run(_ args: [String]) -> ExitCode {
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
            guard let found = (Self.commandTable + Self.hiddenCommands).first(where: { $0.name == command }) else {
                let names = Self.commandTable.map(\.name)
                // Other tools' words for a command of this one.
                let usual = ["explain": "rules RULE", "check": "run", "audit": "run", "lint": "validate"]
                let hint =
                    usual[command.lowercased()].map { "; did you mean 'pdfpipe \($0)'?" }
                    ?? Suggest.didYouMean(command, names)
                throw PipelineError(
                    file: nil,
                    message: "unknown command '\(command)'\(hint) (commands: \(names.joined(separator: ", ")))")
            }
            return try found.perform(self, rest)
        } catch {
            console.errorLines(error.description)
            return .usage
        }
    }

    func help(_ command: String) -> String? { Self.command(command)?.help }

    // MARK: - Commands

    func loadPipeline(_ file: String, environment: Pipeline.EnvironmentCheck = .required) throws(PipelineError)
        -> Pipeline
    {
        if let builtin = builtinPipeline(file) {
            return try Pipeline.parse(
                builtin.text, file: file, catalog: stages, formats: formats, environment: environment)
        }
        do throws(PipelineError) {
            return try Pipeline.load(
                file: file, relativeTo: directory, catalog: stages, formats: formats,
                environment: environment)
        } catch {
            guard !FileSystem.exists(Paths.absolute(file, relativeTo: directory)) else { throw error }
            var e = error
            if let builtin = BuiltinPipelines.standingFor(missingFile: file) {
                // A recipe written for pdfpipe's own repository, pasted into another.
                e.message +=
                    "; '\(builtin.name)' is built in: pdfpipe run \(builtin.name) … runs it, and pdfpipe pipelines show \(builtin.name) > \(file) writes it there to edit"
            } else if !file.contains("/"), !file.hasSuffix(".json") {
                // A bare name that is neither a file nor a built-in: say which names there are.
                e.message +=
                    " (a file, or the name of a built-in pipeline: \(BuiltinPipelines.names)\(Suggest.didYouMean(file, BuiltinPipelines.all.map(\.name))))"
            }
            throw e
        }
    }

    /// The built-in pipeline `file` names, if it names one and no file (BuiltinPipelines).
    func builtinPipeline(_ file: String) -> BuiltinPipelines.Entry? {
        BuiltinPipelines.named(file, in: directory) { FileSystem.exists($0) }
    }

    /// How a worker process or a resumed run names the pipeline: the built-in's name, else the
    /// file's absolute path.
    func pipelineReference(_ file: String) -> String {
        builtinPipeline(file) != nil ? file : Paths.absolute(file, relativeTo: directory)
    }

    /// The pipeline's text (a file's, or the built-in's), for the configuration hash.
    func pipelineText(_ file: String) -> String {
        builtinPipeline(file)?.text
            ?? (try? String(contentsOfFile: Paths.absolute(file, relativeTo: directory), encoding: .utf8)) ?? ""
    }

    func validateCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try NoFlags.parse(args)
        guard a.operands.count == 1 else {
            throw PipelineError(file: nil, message: "validate takes one pipeline file")
        }
        // A lint job may not have the run's secrets: a variable that is not set is a warning here.
        let p = try loadPipeline(a.operands[0], environment: .unchecked)
        for problem in p.environmentProblems { console.error(problem.warning + " (pdfpipe run needs it)") }
        let today = String((fixedDate ?? SystemClock.now.ISO8601Format()).prefix(10))
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

    func pipelinesCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try NoFlags.parse(args)
        switch a.operands.count {
        case 0:
            let width = BuiltinPipelines.all.map(\.name.count).max() ?? 0
            for p in BuiltinPipelines.all {
                console.print(p.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + p.summary)
            }
            console.print("")
            console.print(
                "Run one with pdfpipe run NAME [INPUT...]; start your own with pdfpipe pipelines show NAME > pdfpipe.json"
            )
            return .clean
        case 2 where a.operands[0] == "show":
            let name = a.operands[1]
            guard let p = BuiltinPipelines.all.first(where: { $0.name == name }) else {
                throw PipelineError(
                    file: nil,
                    message:
                        "pipelines show: no built-in pipeline '\(name)'\(Suggest.didYouMean(name, BuiltinPipelines.all.map(\.name))) (built in: \(BuiltinPipelines.names))"
                )
            }
            console.printLines(p.text)
            return .clean
        default:
            throw PipelineError(
                file: nil, message: "usage: pdfpipe pipelines [show NAME] (built in: \(BuiltinPipelines.names))")
        }
    }

    func listStages(_ args: [String]) throws(PipelineError) -> ExitCode {
        _ = try NoFlags.parse(args)
        for d in stages {
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
        let a = try RulesFlags.parse(args)
        if let dir = a.pages {
            // docs/rules/<id>.md, one page per rule (scripts and the release keep them current).
            for r in rules.all {
                let path = Paths.absolute(dir, relativeTo: directory) + "/" + r.id + ".md"
                do throws(AtomicFile.WriteError) {
                    try AtomicFile.makeDirectory(Paths.parent(path))
                    try AtomicFile.write(RulePages.page(r), to: path)
                } catch {
                    console.error("pdfpipe: error: \(error.description)")
                    return .internalFailure
                }
            }
            console.print("pdfpipe: wrote \(rules.all.count) rule pages to \(dir)")
            return .clean
        }
        if let id = a.operands.first {
            guard let rule = rules.rule(id) else {
                throw PipelineError(
                    file: nil,
                    message:
                        "unknown rule '\(id)'\(Suggest.didYouMean(id, rules.all.map(\.id))) (pdfpipe rules lists them)"
                )
            }
            console.write(RulePages.page(rule))
            return .clean
        }
        for r in rules.all {
            let level = r.offByDefault ? "off" : r.severity.rawValue
            console.print(
                "\(r.id.padding(toLength: 32, withPad: " ", startingAt: 0)) \(level.padding(toLength: 8, withPad: " ", startingAt: 0)) \(r.summary)"
            )
        }
        return .clean
    }

    func printSchema(_ args: [String]) throws(PipelineError) -> ExitCode {
        _ = try NoFlags.parse(args)
        console.write(JSONWriter.pretty(PipelineSchema.make(catalog: stages, formats: formats)))
        return .clean
    }
}
