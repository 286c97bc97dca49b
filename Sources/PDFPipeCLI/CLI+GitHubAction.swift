import Foundation
import PDFPipeCore
import PDFPipeStages
import PDFPipeWeb
import SystemIO

/// `pdfpipe github-action`: the GitHub Action's entrypoint (action.yml; the image's
/// /usr/share/pdfpipe/github-action.sh runs it). It reads the step's inputs as GitHub passes them to
/// a container action (`INPUT_<NAME>`, upper-cased, hyphens kept), runs pdfpipe in-process, prints
/// the annotations, appends the report to the step summary and writes the step's outputs.
///
/// Everything a pull request controls is data here: each listed input is one argument, after `--`
/// (a file named `--fail-on never` is a file); `args` is split by shell quoting without a shell; and
/// only files this run wrote are shown, summarised or counted — a committed `out/` with forged
/// workflow commands, a `report.md` symlink or `errors=0` outputs is never read.
extension CLI {
    struct ActionInputs {
        var env: [String: String]
        func value(_ name: String) -> String {
            (env["INPUT_" + name.uppercased()] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func raw(_ name: String) -> String { env["INPUT_" + name.uppercased()] ?? "" }
        /// `false` (any case) turns a switch off; anything else, empty included, leaves it on.
        func isOn(_ name: String) -> Bool { value(name).lowercased() != "false" }
        /// The step summary: `job-summary`, else as `annotations` (which, before job-summary was an
        /// input of its own, said both).
        var jobSummary: Bool { value("job-summary").isEmpty ? isOn("annotations") : isOn("job-summary") }
        /// One entry a line (a trailing CR dropped, blanks at the ends trimmed, empty lines skipped):
        /// a path with spaces is one path.
        func lines(_ name: String) -> [String] {
            raw(name).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    /// The pdfpipe command line of a step: run (or merge), the action's options, `args`, then `--`
    /// and the listed inputs, each one argument.
    private func actionCommand(_ inputs: ActionInputs, args: [String], out: String, cli: CLI) -> [String] {
        // The formats: what the action reads back, the pipeline's own, and the `format` input's.
        var formats = Self.actionFormats
        let merge = inputs.lines("merge")
        let pipeline = inputs.value("pipeline").isEmpty ? "link-audit" : inputs.value("pipeline")
        if merge.isEmpty, let p = try? cli.loadPipeline(pipeline, environment: .unchecked) {
            formats += p.formats
        }
        formats += inputs.value("format").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" }).map(
            String.init)
        var unique: [String] = []
        for f in formats where !unique.contains(f) { unique.append(f) }

        var command: [String]
        if merge.isEmpty {
            command = ["run", pipeline]
        } else {
            command = ["merge"]
        }
        command += ["--out", out, "--format", unique.joined(separator: ",")]
        if !inputs.value("fail-on").isEmpty { command += ["--fail-on", inputs.value("fail-on")] }
        if !inputs.value("baseline").isEmpty { command += ["--baseline", inputs.value("baseline")] }
        if merge.isEmpty, !inputs.isOn("fail-if-empty") { command += ["--allow-empty"] }
        // The zero-config gate is offline unless the workflow asks for the web (`web-links: true`)
        // or names its pipeline.
        if merge.isEmpty, inputs.value("pipeline").isEmpty, inputs.value("web-links").lowercased() != "true",
            !args.contains("--offline")
        {
            command += ["--offline"]
        }
        command += args
        let operands = merge.isEmpty ? inputs.lines("inputs") : merge
        if !operands.isEmpty { command += ["--"] + operands }

        return command
    }

    /// The step's outputs of a run that wrote its report: the counts from report.json, the
    /// reports' paths (those this run wrote).
    private func writeOutputs(
        _ outputs: GitHubFile, code: ExitCode, report: JSONValue, folder: String, written: (String) -> String?
    ) {
        let relative = { (path: String) in Paths.relative(path, to: folder) }
        outputs.set("exit-code", String(code.rawValue))
        let summary = report["summary"]
        outputs.set("errors", summary?["errors"]?.intValue.map(String.init) ?? "")
        outputs.set("warnings", summary?["warnings"]?.intValue.map(String.init) ?? "")
        outputs.set("new", report["baseline"]?["new"]?.intValue.map(String.init) ?? "")
        if let links = summary?["links"] {
            outputs.set("links", links["total"]?.intValue.map(String.init) ?? "")
            outputs.set("broken", links["broken"]?.intValue.map(String.init) ?? "")
        }
        for (name, format) in [("report-json", "json"), ("report-sarif", "sarif"), ("report-html", "html")] {
            outputs.set(name, written(format).map(relative) ?? "")
        }
    }

    /// A step that wrote no report: an annotation saying why, the exit code and the reason as
    /// outputs (no counts, no report paths), and the reason in the step summary.
    private func actionStopped(_ code: ExitCode, _ message: String, outputs: GitHubFile, summary: GitHubFile?)
        -> ExitCode
    {
        console.write("::error title=pdfpipe::" + Escape.githubData(message) + "\n")
        outputs.set("exit-code", String(code.rawValue))
        outputs.set("error", message)
        summary?.append(
            "# pdfpipe: stopped (exit \(code.rawValue))\n\n" + Escape.markdown(message) + "\n\nNo report was written.\n"
        )
        return code
    }

    /// The files the action reads back, by format.
    private static let actionFormats = ["json", "sarif", "html", "markdown", "github"]

    /// Played by hand (`pdfpipe github-action` to see what it is), the entrypoint would audit the
    /// current folder and write out/ there: outside GitHub Actions it says what to run instead.
    private func refuseOutsideGitHubActions() -> ExitCode {
        console.errorLines(
            "pdfpipe github-action is the GitHub Action's entrypoint and runs only inside GitHub Actions (GITHUB_ACTIONS=true); here, run the same audit with: pdfpipe run link-audit DIR --offline (pdfpipe github-action --help says what it does)"
        )
        return .usage
    }

    package func githubAction(environment env: [String: String]) -> ExitCode {
        guard env["GITHUB_ACTIONS"] == "true" else { return refuseOutsideGitHubActions() }
        let inputs = ActionInputs(env: env)
        let outputs = GitHubFile(path: env["GITHUB_OUTPUT"])
        let summaryFile = GitHubFile(path: env["GITHUB_STEP_SUMMARY"])
        func stop(_ code: ExitCode, _ message: String) -> ExitCode {
            actionStopped(code, message, outputs: outputs, summary: inputs.jobSummary ? summaryFile : nil)
        }

        let workspace = env["GITHUB_WORKSPACE"].map { Paths.absolute($0, relativeTo: directory) } ?? directory
        let sub = inputs.value("working-directory")
        let folder = Paths.absolute(sub.isEmpty ? "." : sub, relativeTo: workspace)
        guard FileStatus.of(folder)?.kind == .directory else {
            return stop(.usage, "working-directory: no folder '\(sub)' in the workspace")
        }
        let args: [String]
        do throws(ShellWords.Unterminated) {
            args = try ShellWords.split(inputs.raw("args"))
        } catch {
            return stop(.usage, "args: \(error.description) (args are split as a shell splits words; nothing is run)")
        }
        let out = inputs.value("out").isEmpty ? "out/pdfpipe" : inputs.value("out")
        let cli = CLI(
            console: console, directory: folder, fixedDate: fixedDate, stages: stages, reporters: reporters)

        let command = actionCommand(inputs, args: args, out: out, cli: cli)

        // The token goes to the web check by a variable of this process (GitHub's hosts only).
        let token = inputs.value("token")
        if !token.isEmpty { ProcessControl.setEnvironment(ExternalOptions.githubTokenVariable, token) }

        // What the reports' files are before the run: a file is this run's when it changed.
        let outFolder = Paths.absolute(out, relativeTo: folder)
        let files = reporters.map { (format: $0.format, path: outFolder + "/" + $0.fileName) }
        let before = Dictionary(files.map { ($0.path, FileStatus.of($0.path)) }, uniquingKeysWith: { a, _ in a })

        console.print("pdfpipe: pdfpipe " + command.map(ShellWords.quote).joined(separator: " "))
        // The run's own messages go to the log as they are; its error lines are kept for the
        // annotation when no report comes of it.
        let errors = Locked<[String]>([])
        let tee = Console(
            out: { [console] in console.write($0) },
            err: { [console] text in
                errors.withLock { $0.append(text) }
                console.status(text)
            }, interactive: false, colored: false, columns: console.columns)
        let code = CLI(console: tee, directory: folder, fixedDate: fixedDate, stages: stages, reporters: reporters)
            .fromAPullRequest().run(command)

        func written(_ format: String) -> String? {
            guard let f = files.first(where: { $0.format == format }), let now = FileStatus.of(f.path),
                now.kind == .regular, before[f.path] != .some(now)
            else { return nil }
            return f.path
        }
        func text(_ format: String) -> String? {
            written(format).flatMap { FileStatus.readRegular($0, maxBytes: 64 << 20) }.map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        guard let reportJSON = text("json"), let report = try? JSONParser.parse(reportJSON) else {
            let said = errors.withLock { $0 }.joined().split(separator: "\n").map(String.init).filter {
                !$0.hasPrefix("pdfpipe: note:")
            }
            let message =
                said.isEmpty
                ? "pdfpipe stopped with exit code \(code.rawValue) and wrote no report" : said.joined(separator: "\n")
            return stop(code == .clean || code == .findings ? .internalFailure : code, message)
        }

        if inputs.isOn("annotations"), let github = text("github") { console.write(github) }
        if inputs.jobSummary, let markdown = text("markdown") { summaryFile.append(markdown) }

        writeOutputs(outputs, code: code, report: report, folder: folder, written: written)
        return code
    }
}

/// A file GitHub gives a step (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`), appended to; nothing when
/// the variable is not set (the entrypoint run by hand).
struct GitHubFile {
    var path: String?

    func append(_ text: String) {
        guard let path, let fd = try? FileDescriptor.open(path, O_WRONLY | O_CREAT | O_APPEND) else { return }
        defer { try? fd.close() }
        try? fd.writeAll(Array(Secrets.scrub(text).utf8))
    }

    /// `name<<DELIMITER` … `DELIMITER`: a value with a line break (a file name in a message)
    /// cannot start another output.
    func set(_ name: String, _ value: String) {
        var delimiter = "pdfpipe_" + UUID().uuidString
        while value.contains(delimiter) { delimiter = "pdfpipe_" + UUID().uuidString }
        append("\(name)<<\(delimiter)\n\(value)\n\(delimiter)\n")
    }
}
