import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// The GitHub Action's entrypoint (`pdfpipe github-action`, #42) played the way GitHub runs a
/// container action: every input of action.yml as `INPUT_<NAME>` with its default, the step's
/// `with:` over them, `GITHUB_WORKSPACE`, `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files — on
/// fixture repositories: PDFs only (first run, green and red), and a hostile pull request.
final class GitHubActionTests: XCTestCase {
    var root = ""
    var workspace: String { root + "/workspace" }

    override func setUp() {
        root = Repo.temporaryFolder()
        try? FileManager.default.createDirectory(atPath: root + "/workspace", withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    /// The defaults of action.yml's inputs, as GitHub sets them (a `${{ }}` default is given here).
    static func defaults() throws -> [String: String] {
        let text = try String(contentsOfFile: Repo.root + "/action.yml", encoding: .utf8)
        var out: [String: String] = [:]
        var inInputs = false
        var current: String?
        for line in text.split(separator: "\n") {
            if line == "inputs:" {
                inInputs = true
                continue
            }
            if !line.hasPrefix(" ") { inInputs = false }
            guard inInputs else { continue }
            if line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") {
                current = String(line.dropFirst(2).dropLast())
            } else if let c = current, line.hasPrefix("    default: ") {
                var v = String(line.dropFirst("    default: ".count))
                if v.hasPrefix("\"") { v = String(v.dropFirst().dropLast()) }
                out[c] = v.contains("${{") ? "" : v
            }
        }
        return out
    }

    struct Step {
        var code: ExitCode
        var log: String
        var outputs: [String: String]
        var summary: String
    }

    /// Runs the entrypoint with `with` over action.yml's defaults.
    func action(_ with: [String: String] = [:]) throws -> Step {
        var env: [String: String] = [
            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace, "GITHUB_OUTPUT": root + "/output",
            "GITHUB_STEP_SUMMARY": root + "/summary",
        ]
        for (k, v) in try Self.defaults().merging(with, uniquingKeysWith: { $1 }) { env["INPUT_" + k.uppercased()] = v }
        try Data().write(to: URL(fileURLWithPath: root + "/output"))
        try Data().write(to: URL(fileURLWithPath: root + "/summary"))
        let log = Locked("")
        let console = Console(
            out: { s in log.withLock { $0 += s } }, err: { s in log.withLock { $0 += s } }, interactive: false)
        let code = CLI(console: console, directory: root, fixedDate: "2026-01-01T00:00:00Z")
            .githubAction(environment: env)
        return Step(
            code: code, log: log.withLock { $0 }, outputs: try Self.outputs(root + "/output"),
            summary: try String(contentsOfFile: root + "/summary", encoding: .utf8))
    }

    /// `name<<DELIM` … `DELIM` records, as GitHub reads them.
    static func outputs(_ path: String) throws -> [String: String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        var out: [String: String] = [:]
        var i = 0
        while i < lines.count {
            let parts = lines[i].components(separatedBy: "<<")
            i += 1
            guard parts.count == 2 else { continue }
            var value: [String] = []
            while i < lines.count, lines[i] != parts[1] {
                value.append(lines[i])
                i += 1
            }
            i += 1
            out[parts[0]] = value.joined(separator: "\n")
        }
        return out
    }

    /// A one-page PDF with links to `names` (named destinations that do not exist), or none.
    func pdf(_ path: String, broken names: [String] = []) throws {
        try TestPDF.withBrokenNames(workspace + "/" + path, names)
    }

    /// (1) A repository with only PDFs, `uses:` with no inputs: the built-in link audit over every
    /// PDF of the workspace, the gate on errors, annotations, summary and outputs.
    func testFirstRunOnARepositoryWithOnlyPDFs() throws {
        try pdf("manual/guide.pdf", broken: ["chapter-9"])
        try pdf("manual/deep/intro.pdf")
        let red = try action()
        XCTAssertEqual(red.code, .findings, red.log)
        XCTAssertTrue(red.log.contains("pdfpipe: pdfpipe run link-audit --out out/pdfpipe"), red.log)
        XCTAssertTrue(
            red.log.contains("::error file=manual/guide.pdf,title=dest.name-not-found::"), red.log)
        XCTAssertTrue(red.summary.hasPrefix("# pdfpipe: link-audit"), red.summary)
        XCTAssertEqual(red.outputs["exit-code"], "1")
        XCTAssertEqual(red.outputs["errors"], "1")
        XCTAssertEqual(red.outputs["report-json"], "out/pdfpipe/report.json")
        XCTAssertEqual(red.outputs["report-sarif"], "out/pdfpipe/report.sarif")
        XCTAssertEqual(red.outputs["error"], nil)
        // (5) The totals, last in the log and the summary, and as outputs.
        XCTAssertTrue(
            red.summary.hasSuffix(
                "**Links: 1 in all, 0 ok, 1 broken, 0 blocked, 0 unverified, 0 skipped, 0 redirected**\n"),
            red.summary)
        XCTAssertEqual(red.outputs["links"], "1")
        XCTAssertEqual(red.outputs["broken"], "1")
        let report = try Repo.stableReport(workspace + "/out/pdfpipe/report.json")
        XCTAssertEqual(
            report["documents"]?.arrayValue?.compactMap { $0["workingPath"]?.stringValue },
            ["manual/deep/intro.pdf", "manual/guide.pdf"])

        // Fixed: green, and the second run's report is the one shown.
        try pdf("manual/guide.pdf")
        let green = try action()
        XCTAssertEqual(green.code, .clean, green.log)
        XCTAssertEqual(green.outputs["errors"], "0")
        XCTAssertFalse(green.log.contains("::error"), green.log)

        // The same audit from the command line, by name.
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", "link-audit", "manual", "--out", "o", "--quiet"], in: workspace), .clean)
        XCTAssertEqual(
            cli.run(["run", "link-audt", "manual"], in: workspace), .usage)
        XCTAssertTrue(cli.stderr.contains("did you mean 'link-audit'"), cli.stderr)
    }

    /// (1) A pipeline file the user named that is not there: a clear annotation, no report outputs.
    func testAMissingPipelineFileIsAnAnnotation() throws {
        try pdf("a.pdf")
        let step = try action(["pipeline": "pipelines/link-audit.json"])
        XCTAssertEqual(step.code, .usage)
        XCTAssertTrue(
            step.log.contains(
                "::error title=pdfpipe::pipelines/link-audit.json: error: cannot read the pipeline file: no such file"),
            step.log)
        XCTAssertEqual(step.outputs["exit-code"], "2")
        XCTAssertTrue(step.outputs["error"]?.contains("pipelines/link-audit.json") == true, "\(step.outputs)")
        XCTAssertEqual(step.outputs["report-json"], nil)
        XCTAssertTrue(step.summary.contains("No report was written"), step.summary)
    }

    /// (8) Argument injection: listed inputs are data. A committed PDF named like options, with
    /// spaces, a leading dash, glob characters; `args` with quotes.
    func testInputsThatLookLikeOptionsAreFiles() throws {
        try pdf("docs --fail-on never docs/a.pdf", broken: ["x"])
        try pdf("--fail-on=never.pdf", broken: ["y"])
        try pdf("-q.pdf", broken: ["z"])
        try pdf("[draft].pdf", broken: ["w"])
        try pdf("d.pdf")
        let listed = ["docs --fail-on never docs/a.pdf", "--fail-on=never.pdf", "-q.pdf", "[draft].pdf"]
        let step = try action(["inputs": listed.joined(separator: "\n") + "\n", "args": "--jobs '2'"])
        XCTAssertEqual(step.code, .findings, step.log)
        XCTAssertEqual(step.outputs["errors"], "4", step.log)
        let report = try Repo.stableReport(workspace + "/out/pdfpipe/report.json")
        XCTAssertEqual(
            Set(report["documents"]?.arrayValue?.compactMap { $0["workingPath"]?.stringValue } ?? []), Set(listed))
        XCTAssertTrue(
            step.log.contains(
                "pdfpipe run link-audit --out out/pdfpipe --format json,sarif,html,markdown,github --offline --jobs 2 -- 'docs --fail-on never docs/a.pdf' --fail-on=never.pdf -q.pdf '[draft].pdf'"
            ), step.log)
        // An unclosed quote in args is the step's error, not a guess.
        let bad = try action(["args": "--jobs '2"])
        XCTAssertEqual(bad.code, .usage)
        XCTAssertTrue(bad.log.contains("::error title=pdfpipe::args: a ' is not closed"), bad.log)
    }

    /// (9, 10) A pull request's own `out/`: forged workflow commands, a forged report.json and a
    /// report.md symlink to a file outside the workspace are never shown; the run refuses an output
    /// folder that holds a symlink, and a run that stops reports nothing it did not write.
    func testACommittedOutputFolderIsNeverRead() throws {
        try pdf("docs/a.pdf", broken: ["x"])
        let outside = root + "/secret.txt"
        try "TOP SECRET".write(toFile: outside, atomically: true, encoding: .utf8)
        let out = workspace + "/out/pdfpipe"
        try FileManager.default.createDirectory(atPath: out + "/text", withIntermediateDirectories: true)
        try "::add-mask::x\n::stop-commands::pwned\n".write(
            toFile: out + "/github.txt", atomically: true, encoding: .utf8)
        try #"{"summary": {"errors": 0}}"#.write(toFile: out + "/report.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out + "/report.md", withDestinationPath: outside)
        let refused = try action()
        XCTAssertEqual(refused.code, .usage, refused.log)
        XCTAssertTrue(refused.log.contains("'out/pdfpipe/report.md'"), refused.log)
        XCTAssertFalse(refused.log.contains("::stop-commands::"), refused.log)
        XCTAssertFalse(refused.summary.contains("TOP SECRET"), refused.summary)
        XCTAssertEqual(refused.outputs["errors"], nil)
        XCTAssertEqual(refused.outputs["exit-code"], "2")

        // Without the link, a run that stops (a broken pipeline file) shows none of the forged files.
        try FileManager.default.removeItem(atPath: out + "/report.md")
        try "# forged: all clear\n".write(toFile: out + "/report.md", atomically: true, encoding: .utf8)
        try "{ not json".write(toFile: workspace + "/broken.json", atomically: true, encoding: .utf8)
        let stopped = try action(["pipeline": "broken.json"])
        XCTAssertEqual(stopped.code, .usage)
        XCTAssertTrue(stopped.log.contains("::error title=pdfpipe::broken.json"), stopped.log)
        XCTAssertFalse(stopped.log.contains("::add-mask::"), stopped.log)
        XCTAssertFalse(stopped.summary.contains("forged"), stopped.summary)
        XCTAssertEqual(stopped.outputs["errors"], nil)
        XCTAssertEqual(stopped.outputs["report-json"], nil)

        // A run that goes through replaces them, and shows only its own.
        let run = try action()
        XCTAssertEqual(run.code, .findings)
        XCTAssertFalse(run.log.contains("::add-mask::"), run.log)
        XCTAssertEqual(run.outputs["errors"], "1")

        // (10) A folder symlink inside the output folder: extract-text would write through it.
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: out + "/text")
        try FileManager.default.createSymbolicLink(atPath: out + "/text", withDestinationPath: elsewhere)
        try #"{"version": 1, "stages": [{"use": "extract-text"}]}"#.write(
            toFile: workspace + "/text.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["run", "text.json", "docs", "--out", "out/pdfpipe"], in: workspace), .usage)
        XCTAssertTrue(cli.stderr.contains("symbolic link ('out/pdfpipe/text')"), cli.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
        // The output folder itself a link (a committed `out -> /elsewhere`).
        try FileManager.default.removeItem(atPath: workspace + "/out")
        try FileManager.default.createSymbolicLink(atPath: workspace + "/out", withDestinationPath: elsewhere)
        XCTAssertEqual(cli.run(["run", "text.json", "docs", "--out", "out/pdfpipe"], in: workspace), .usage)
        XCTAssertTrue(cli.stderr.contains("symbolic link ('out')"), cli.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
    }

    /// (4) `format` adds to the pipeline's formats; `job-summary` apart from `annotations`; the token
    /// goes to the web check for GitHub's hosts only.
    func testFormatsAddAndSwitchesAreSeparate() throws {
        try pdf("docs/a.pdf", broken: ["x"])
        try #"{"version": 1, "stages": [{"use": "validate-links"}], "report": {"formats": ["json", "junit"]}}"#.write(
            toFile: workspace + "/ci.json", atomically: true, encoding: .utf8)
        let step = try action([
            "pipeline": "ci.json", "format": "codequality", "annotations": "false", "job-summary": "true",
            "inputs": "docs",
        ])
        XCTAssertEqual(step.code, .findings)
        for file in ["junit.xml", "gl-code-quality-report.json", "report.sarif", "report.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: workspace + "/out/pdfpipe/" + file), file)
        }
        XCTAssertFalse(step.log.contains("::error file="), "no annotations: \(step.log)")
        XCTAssertTrue(step.summary.hasPrefix("# pdfpipe"), "the summary still written")
        let quiet = try action(["job-summary": "false", "inputs": "docs", "args": "--offline"])
        XCTAssertTrue(quiet.log.contains("::error file=docs/a.pdf"), quiet.log)
        XCTAssertEqual(quiet.summary, "")
        // An empty batch fails unless fail-if-empty is false.
        try FileManager.default.createDirectory(atPath: workspace + "/none", withIntermediateDirectories: true)
        XCTAssertEqual(try action(["inputs": "none"]).code, .usage)
        XCTAssertEqual(try action(["inputs": "none", "fail-if-empty": "false"]).code, .clean)
    }
}

extension GitHubActionTests {
    /// Each built-in pipeline is the file of its name in pipelines/ with the current folder as its
    /// input, and `pdfpipe pipelines show NAME` prints it.
    func testTheBuiltinPipelinesAreTheRepositorysPipelines() throws {
        XCTAssertEqual(
            BuiltinPipelines.all.map(\.name), ["link-audit", "web-links-nightly", "broken-link-report", "anchor-guard"])
        for entry in BuiltinPipelines.all {
            let builtin = try JSONParser.parse(entry.text)
            var file = try JSONParser.parse(
                String(contentsOfFile: Repo.root + "/pipelines/\(entry.name).json", encoding: .utf8))
            guard case .object(var members) = file else { return XCTFail("an object") }
            members["$schema"] = nil
            members["inputs"] = ["."]
            file = .object(members)
            XCTAssertEqual(builtin, file, entry.name)
            let shown = CapturedCLI()
            XCTAssertEqual(shown.run(["pipelines", "show", entry.name]), .clean)
            XCTAssertEqual(try JSONParser.parse(shown.stdout), builtin, entry.name)
        }
    }
}

extension GitHubActionTests {
    /// A committed symbolic link out of the workspace (`docs/all -> /`) is not followed: the
    /// batch stays the repository's, and the link is named.
    func testALinkOutOfTheWorkspaceIsNotFollowed() throws {
        try pdf("docs/a.pdf", broken: ["x"])
        let outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try pdf("../outside/secret.pdf", broken: ["y"])
        try FileManager.default.createSymbolicLink(atPath: workspace + "/docs/all", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: workspace + "/docs/one.pdf", withDestinationPath: outside + "/secret.pdf")
        try FileManager.default.createDirectory(atPath: workspace + "/inside", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: workspace + "/docs/in", withDestinationPath: workspace + "/inside")
        try pdf("inside/b.pdf")
        let step = try action(["args": "--offline"])
        XCTAssertEqual(step.outputs["errors"], "1", step.log)
        let report = try Repo.stableReport(workspace + "/out/pdfpipe/report.json")
        XCTAssertEqual(
            report["documents"]?.arrayValue?.compactMap { $0["workingPath"]?.stringValue },
            ["docs/a.pdf", "docs/in/b.pdf"], "a link inside the workspace is followed (its folder once)")
        XCTAssertTrue(
            step.log.contains(
                "'docs/all' is a symbolic link out of the folder searched (to '\(Paths.resolved(outside))'): not followed"
            ),
            step.log)
        XCTAssertTrue(step.log.contains("'docs/one.pdf' is a symbolic link out of the folder searched"), step.log)
    }
}

extension GitHubActionTests {
    /// `args` as a shell splits words, with nothing expanded or run.
    func testArgsAreSplitByShellQuoting() throws {
        XCTAssertEqual(
            try ShellWords.split(#"--offline  --shard "1/4" --out 'out/my docs' a\ b "x\"y\z" '$HOME' `id` ;"#),
            ["--offline", "--shard", "1/4", "--out", "out/my docs", "a b", #"x"y\z"#, "$HOME", "`id`", ";"])
        XCTAssertEqual(try ShellWords.split("--jobs 2\n--offline\r\n"), ["--jobs", "2", "--offline"])
        XCTAssertEqual(try ShellWords.split(#"''"#), [""])
        for bad in [#"'open"#, #""open"#, "trailing\\"] {
            XCTAssertThrowsError(try ShellWords.split(bad), bad)
        }
    }
}

extension GitHubActionTests {
    /// #61 (2): `pdfpipe github-action --help` prints help, and the entrypoint played outside GitHub
    /// Actions refuses (it audited 2,770 PDFs under the current folder, web on, and wrote out/ there).
    func testTheEntrypointRunsOnlyInsideGitHubActions() throws {
        try pdf("docs/a.pdf", broken: ["x"])
        let help = CapturedCLI()
        XCTAssertEqual(help.run(["github-action", "--help"], in: workspace), .clean)
        XCTAssertTrue(help.stdout.hasPrefix("Usage: pdfpipe github-action"), help.stdout)
        let listed = CapturedCLI()
        XCTAssertEqual(listed.run(["--help"], in: workspace), .clean)
        XCTAssertTrue(listed.stdout.contains("  github-action  the GitHub Action's entrypoint"), listed.stdout)
        let log = Locked("")
        let console = Console(
            out: { s in log.withLock { $0 += s } }, err: { s in log.withLock { $0 += s } }, interactive: false)
        let code = CLI(console: console, directory: workspace).githubAction(environment: ["INPUT_ARGS": "--offline"])
        XCTAssertEqual(code, .usage)
        XCTAssertTrue(log.withLock { $0 }.contains("runs only inside GitHub Actions"), log.withLock { $0 })
        XCTAssertTrue(log.withLock { $0 }.contains("pdfpipe run link-audit DIR --offline"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace + "/out"), "nothing written")
    }

    /// #61 (3): the zero-config gate is offline; `web-links: true`, or a pipeline of one's own, checks
    /// the web as the pipeline says.
    func testTheZeroConfigGateIsOffline() throws {
        try pdf("docs/a.pdf")
        let gate = try action()
        XCTAssertEqual(gate.code, .clean, gate.log)
        XCTAssertTrue(gate.log.contains(" --offline"), gate.log)
        let web = try action(["web-links": "true"])
        XCTAssertEqual(web.code, .clean, web.log)
        XCTAssertFalse(web.log.contains("--offline"), web.log)
        let named = try action(["pipeline": "link-audit"])
        XCTAssertFalse(named.log.contains("--offline"), named.log)
    }
}
