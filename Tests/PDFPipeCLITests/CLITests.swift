import Foundation
import PDFPipeCLI
import PDFPipeCore
import PDFPipeStages
import Synchronization
import TestSupport
import XCTest

/// The CLI run in-process, its output captured.
final class CapturedCLI: Sendable {
    let out = Mutex("")
    let err = Mutex("")

    func run(
        _ args: [String], in directory: String = Repo.root, stages: [StageDescriptor] = StageTable.all,
        reporters: [any Reporter] = Reporters.all
    ) -> ExitCode {
        let console = Console(
            out: { s in self.out.withLock { $0 += s } }, err: { s in self.err.withLock { $0 += s } }, interactive: false
        )
        return CLI(
            console: console, directory: directory, fixedDate: "2026-01-01T00:00:00Z", stages: stages,
            reporters: reporters
        ).run(args)
    }

    var stdout: String { out.withLock { $0 } }
    var stderr: String { err.withLock { $0 } }
}

enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The built `pdfpipe` executable (next to the test bundle, or in .build/debug).
    static func executable() throws -> String {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "pdfpipe"
        ).path
        return try XCTUnwrap(
            [exe, root + "/.build/debug/pdfpipe"].first { FileManager.default.isExecutableFile(atPath: $0) })
    }

    /// Runs `executable` (the built pdfpipe unless given) with `args` in the repository, its output
    /// discarded; its exit status.
    static func status(
        _ args: [String], executable: String? = nil, environment: [String: String] = [:]
    ) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try executable ?? Repo.executable())
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: root)
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Runs the built pdfpipe with `args` in `directory` (the repository when nil), with no proxy
    /// set (a test's loopback server must be reached directly) and `environment` added: its exit
    /// status and standard error.
    static func runUnproxied(_ args: [String], in directory: String? = nil, environment: [String: String] = [:])
        throws -> (status: Int32, stderr: String)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Repo.executable())
        p.arguments = args
        p.currentDirectoryURL = URL(fileURLWithPath: directory ?? root)
        var env = ProcessInfo.processInfo.environment
        for k in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] { env[k] = nil }
        p.environment = env.merging(environment) { _, new in new }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, stderr)
    }

    static func temporaryFolder() -> String {
        let d = NSTemporaryDirectory() + "pdfpipe-cli-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// A report as a JSON value without its volatile parts (`timings`, `generatedAt`).
    static func stableReport(_ path: String) throws -> JSONValue {
        var v = try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8))
        guard case .object(var top) = v else { return v }
        top["generatedAt"] = nil
        if case .array(let docs)? = top["documents"] {
            top["documents"] = .array(
                docs.map { d in
                    guard case .object(var o) = d else { return d }
                    o["timings"] = nil
                    return .object(o)
                })
        }
        v = .object(top)
        return v
    }
}

/// "known stages: …" as the loader lists them: built from the table, so a new stage pins nothing.
let knownStages = "known stages: " + StageTable.all.map(\.id).joined(separator: ", ")

final class CLITests: XCTestCase {
    /// Writes a pipeline file and runs `pdfpipe validate` and `pdfpipe run` on it.
    func assertBadPipeline(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run([command, "p.json"], in: dir), .usage, command, file: file, line: line)
            XCTAssertEqual(cli.stderr, message + "\n", command, file: file, line: line)
            XCTAssertEqual(cli.stdout, "", file: file, line: line)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: dir + "/out"), "nothing is written", file: file, line: line)
    }

    /// Regression (CI-gate issue, 8): validation stopped at the first problem, so a file with seven
    /// mistakes took seven rounds. Every problem comes in one pass, in the order of the file.
    func testEveryProblemOfAPipelineFileInOnePass() throws {
        let text = """
            {
              "versoin": 1,
              "jobs": -1,
              "stages": [
                {"use": "inspekt"},
                {"use": "thumbnails", "with": {"width": "big"}},
                {"use": "validate-links", "with": {"inventory": "yes"}}
              ],
              "rules": {"pdf.damage": "error"},
              "report": {"failOn": "sometimes"}
            }
            """
        try assertBadPipeline(
            text,
            """
            p.json:2:14: error: versoin: unknown key 'versoin'; did you mean 'version'? (known keys: version, name, inputs, output, jobs, stages, rules, report, isolation, timeoutSeconds, memoryLimitMB, ignore)
            p.json:3:11: error: jobs: expected an integer 0...1024 (0: one per processor), got '-1'
            p.json:5:13: error: stages[0].use: unknown stage 'inspekt'; did you mean 'inspect'? (\(knownStages))
            p.json:6:45: error: stages[1].with.width: expected an integer 0...20000, got the string 'big'
            p.json:7:53: error: stages[2].with.inventory: expected a boolean, got the string 'yes'
            p.json:9:27: error: rules.pdf.damage: unknown rule 'pdf.damage'; did you mean 'pdf.damaged'? (`pdfpipe rules` lists them)
            p.json:10:24: error: report.failOn: expected one of 'error' | 'warning' | 'note' | 'never', got 'sometimes'
            """)
    }

    /// (#32, 3) Regression: nine mistakes took three rounds: once an object had an unknown key, its
    /// other values were not checked (a stage's `with` holding `"widht": 200, "pages": 5, "format":
    /// "gif"` said only `widht`; a stage with a stray key, `report` with a misspelt key and a bad
    /// `failOn`, rules with an unknown id hid their neighbours). Every one, in one pass.
    func testAnUnknownKeyDoesNotHideTheMistakesBesideIt() throws {
        let text = """
            {
              "version": 1,
              "stages": [
                {"use": "thumbnails", "with": {"widht": 200, "pages": 5, "format": "gif"}},
                {"use": "validate-links", "wiht": {}, "id": 3},
                {"use": "extract-text", "with": {"format": "xml", "pagess": 1}},
                {"use": "inspekt", "whith": {}}
              ],
              "rules": {"pdf.damage": "error", "pdf.damaged": "loud"},
              "report": {"failOn": "sometimes", "formatz": ["json"]},
              "jobz": 2
            }
            """
        try assertBadPipeline(
            text,
            """
            p.json:4:45: error: stages[0].with.widht: unknown option 'widht'; did you mean 'width'? (known options: width, height, dpi, upscale, pages, background, compression, box, annotations, engine, overlay, format, quality, template, folder, pageWorkers, contactSheet, contactSheetColumns, incremental, renderSeconds, maxPixels, documentPixels, documentSeconds)
            p.json:4:59: error: stages[0].with.pages: expected a page list like '1-3,7,10-' or 'all', got '5'
            p.json:4:72: error: stages[0].with.format: expected one of 'png' | 'jpeg' | 'webp', got 'gif'
            p.json:5:39: error: stages[1].wiht: unknown key 'wiht'; did you mean 'with'? (a stage has 'use' and 'with')
            p.json:5:49: error: stages[1].id: unknown key 'id' (a stage has 'use' and 'with')
            p.json:6:48: error: stages[2].with.format: expected one of 'txt' | 'json' | 'none', got 'xml'
            p.json:6:65: error: stages[2].with.pagess: unknown option 'pagess'; did you mean 'pages'? (known options: format, pages, words, folder, annotations, noTextLayer, search, searchSeconds, pageWorkers, engine)
            p.json:7:13: error: stages[3].use: unknown stage 'inspekt'; did you mean 'inspect'? (\(knownStages))
            p.json:7:33: error: stages[3].whith: unknown key 'whith'; did you mean 'with'? (a stage has 'use' and 'with')
            p.json:9:27: error: rules.pdf.damage: unknown rule 'pdf.damage'; did you mean 'pdf.damaged'? (`pdfpipe rules` lists them)
            p.json:9:51: error: rules.pdf.damaged: expected one of 'error' | 'warning' | 'note' | 'off', got 'loud'
            p.json:10:24: error: report.failOn: expected one of 'error' | 'warning' | 'note' | 'never', got 'sometimes'
            p.json:10:48: error: report.formatz: unknown key 'formatz'; did you mean 'formats'? (known keys: formats, failOn, baseline, ratchet, ledger, sources)
            p.json:11:11: error: jobz: unknown key 'jobz'; did you mean 'jobs'? (known keys: version, name, inputs, output, jobs, stages, rules, report, isolation, timeoutSeconds, memoryLimitMB, ignore)
            """)
    }

    /// (#32, 10) A page per rule: docs/rules/<id>.md is what `pdfpipe rules ID` prints, made from the
    /// rule table (regenerate with `swift run pdfpipe rules --pages docs/rules`); no page for a rule
    /// that does not exist; SARIF links each rule to its page.
    func testEveryRuleHasItsPage() throws {
        let folder = Repo.root + "/docs/rules"
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(Set(pages), Set(StageTable.rules.all.map { $0.id + ".md" }), "one page per rule, no other")
        for rule in StageTable.rules.all {
            let committed = try String(contentsOfFile: folder + "/" + rule.id + ".md", encoding: .utf8)
            XCTAssertEqual(
                committed, RulePages.page(rule),
                "docs/rules/\(rule.id).md is stale: swift run pdfpipe rules --pages docs/rules")
            XCTAssertTrue(committed.contains(rule.hint.dropFirst().prefix(20)), rule.id)
            XCTAssertTrue(committed.contains(rule.summary.dropFirst().prefix(20)), rule.id)
        }
        // The reference's rules table says the same, row for row: every rule, its default, its details.
        let reference = try String(contentsOfFile: Repo.root + "/docs/reference.md", encoding: .utf8)
        let table = try XCTUnwrap(reference.components(separatedBy: "| id | default | when | how to fix |\n").last)
        var rows: [String: [String]] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "¦", with: "|")
            }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells
        }
        XCTAssertEqual(Set(rows.keys), Set(StageTable.rules.all.map(\.id)), "one row per rule in docs/reference.md")
        for rule in StageTable.rules.all {
            guard let cells = rows[rule.id], cells.count >= 3 else { continue }
            XCTAssertTrue(cells[1].hasPrefix(rule.offByDefault ? "off" : rule.severity.rawValue), rule.id)
            XCTAssertEqual(cells[2], rule.details, "\(rule.id): the table's 'when' and the rule's details differ")
        }
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["rules", "dest.name-not-found"]), .clean)
        XCTAssertEqual(cli.stdout, RulePages.page(Rule.destNameNotFound))
        XCTAssertTrue(cli.stdout.contains("/Dest (sec:intro)"), "the example of the construct")
        let bad = CapturedCLI()
        XCTAssertEqual(bad.run(["rules", "dest.name-not-fund"]), .usage)
        XCTAssertTrue(bad.stderr.contains("did you mean 'dest.name-not-found'?"), bad.stderr)
        let descriptors = SARIFReporter.ruleDescriptors(StageTable.rules.all)
        XCTAssertEqual(
            descriptors.first?["helpUri"]?.stringValue,
            RulePages.baseURL + (StageTable.rules.all.first?.id ?? "") + ".md")
    }

    /// (#32, 6) Messages that say what to do: a folder or a PDF given as the pipeline, the
    /// pipeline's own inputs missing, an output folder that is a file (the user's mistake: exit 2,
    /// before any work), an unreadable baseline, a misspelt starter.
    func testMessagesSayWhatToDo() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Repo.root + "/samples", toPath: dir + "/samples")
        try "".write(toFile: dir + "/afile", atomically: true, encoding: .utf8)
        try #"{"inputs": ["pdf"], "stages": [{"use": "inspect"}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (
                ["run", "samples"],
                "samples: error: is a folder, not a pipeline file: the first argument of run is the pipeline (pdfpipe run PIPELINE [INPUT...]; pdfpipe init writes one)"
            ),
            (
                ["run", "samples/links-internal.pdf"],
                "samples/links-internal.pdf: error: is a PDF, not a pipeline file: the first argument of run is the pipeline (pdfpipe run PIPELINE samples/links-internal.pdf; pdfpipe init writes one)"
            ),
            (
                ["run", "p.json"],
                "pdf: error: no such file or folder (from the \"inputs\" of p.json; name the inputs after the pipeline: pdfpipe run p.json FOLDER...)"
            ),
            (
                ["run", "p.json", "samples", "--out", "afile/report"],
                "pdfpipe: error: the output folder 'afile/report' cannot be made: 'afile' is a file (give another with --out, or change the pipeline's \"output\")"
            ),
            (["baseline", "nonexist.json"], "nonexist.json: error: cannot read the report: no such file"),
            (["baseline", "samples"], "samples: error: cannot read the report: it is a folder"),
            (
                ["init", "--for", "thumbs"],
                "pdfpipe: error: --for: unknown kind 'thumbs'; did you mean 'thumbnails'? (kinds: link-audit, thumbnails, text, ci)"
            ),
        ]
        for (args, message) in cases {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(args, in: dir), .usage, "\(args)")
            XCTAssertEqual(cli.stderr, message + "\n", "\(args)")
        }
    }

    func testBadPipelinesExitWithCode2AndAClearMessage() throws {
        try assertBadPipeline(
            #"{"stages": [{"use": "inspekt"}]}"#,
            "p.json:1:21: error: stages[0].use: unknown stage 'inspekt'; did you mean 'inspect'? (\(knownStages))"
        )
        try assertBadPipeline(
            "{\n  \"stages\": [\n    {\"use\": \"inspect\", \"with\": {\"pageDetail\": true}}\n  ]\n}",
            "p.json:3:47: error: stages[0].with.pageDetail: unknown option 'pageDetail'; did you mean 'pageDetails'? (known options: pageDetails, crossCheck, annotations, forms, attachments, extractAttachments, attachmentFolder, layoutWidth, layoutGap)"
        )
        try assertBadPipeline(
            #"{"stages": [{"use": "inspect", "with": {"crossCheck": "yes"}}]}"#,
            "p.json:1:55: error: stages[0].with.crossCheck: expected a boolean, got the string 'yes'")
        try assertBadPipeline(
            #"{"jobs": 2.5, "stages": [{"use": "inspect"}]}"#,
            "p.json:1:10: error: jobs: expected an integer 0...1024 (0: one per processor), got '2.5'")
        try assertBadPipeline(
            "{\"stages\": [\n  {\"use\": \"inspect\"\n]}",
            "p.json:3:1: error: malformed JSON: expected ',' or '}', found ']'")
        try assertBadPipeline(
            #"{"stages": [{"use": "inspect"}], "rules": {"pdf.damage": "off"}}"#,
            "p.json:1:58: error: rules.pdf.damage: unknown rule 'pdf.damage'; did you mean 'pdf.damaged'? (`pdfpipe rules` lists them)"
        )
    }

    /// A variable the pipeline names but the environment does not set: `validate` (a lint job without
    /// the run's secrets) warns and checks the rest; `run` refuses the pipeline.
    func testAnUnsetVariableIsAWarningForValidateAndAnErrorForRun() throws {
        let dir = Repo.temporaryFolder()
        setenv("PDFPIPE_SECRETS", "PDFPIPE_NOT_SET_ANYWHERE=a.example", 1)
        defer {
            unsetenv("PDFPIPE_SECRETS")
            try? FileManager.default.removeItem(atPath: dir)
        }
        let headers =
            #"{"use": "validate-links", "with": {"external": {"enabled": true, "headers": [{"name": "X-Token", "value": "${PDFPIPE_NOT_SET_ANYWHERE}", "hosts": "a.example"}]}}}"#
        try "{\"stages\": [\n  \(headers),\n  {\"use\": \"inspect\"}\n]}".write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let validate = CapturedCLI()
        XCTAssertEqual(validate.run(["validate", "p.json"], in: dir), .clean)
        XCTAssertEqual(
            validate.stderr,
            "p.json:2:109: warning: stages[0].with.external.headers[0].value: the environment variable 'PDFPIPE_NOT_SET_ANYWHERE' is not set (pdfpipe run needs it)\n"
        )
        XCTAssertEqual(validate.stdout, "p.json: ok (2 stages: validate-links, inspect)\n")
        let run = CapturedCLI()
        XCTAssertEqual(
            run.run(["run", "p.json", Repo.root + "/samples/links-internal.pdf", "--out", dir + "/out"], in: dir),
            .usage)
        XCTAssertEqual(
            run.stderr,
            "p.json:2:109: error: stages[0].with.external.headers[0].value: the environment variable 'PDFPIPE_NOT_SET_ANYWHERE' is not set\n"
        )
        // Other problems are still errors for validate.
        try "{\"stages\": [\n  \(headers),\n  {\"use\": \"inspekt\"}\n]}".write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let bad = CapturedCLI()
        XCTAssertEqual(bad.run(["validate", "p.json"], in: dir), .usage)
        XCTAssertTrue(
            bad.stderr.hasSuffix(
                "error: stages[1].use: unknown stage 'inspekt'; did you mean 'inspect'? (\(knownStages))\n"
            ), bad.stderr)
    }

    func testMissingPipelineFileAndBadArguments() {
        let cases: [([String], String)] = [
            (["validate", "nope.json"], "nope.json: error: cannot read the pipeline file: no such file"),
            (["run"], "pdfpipe: error: run needs a pipeline file: pdfpipe run PIPELINE [INPUT...]"),
            (
                ["run", "pipelines/default.json", "--jobz", "2"],
                "pdfpipe: error: unknown option '--jobz'; did you mean '--jobs'? (options: --out, --jobs, --format, --fail-on, --shard, --force, --isolate, --no-isolate, --timeout, --memory-limit, --offline, --allow-empty, --inputs-from, --null, --baseline, --sources, --ledger, --ratchet, --resume, --progress, --verbose, --quiet)"
            ),
            (
                ["run", "pipelines/default.json", "--jobs", "-3"],
                "pdfpipe: error: --jobs: expected an integer 0...1024 (0: one per processor), got '-3'"
            ),
            (
                ["run", "pipelines/default.json", "--format", "json,pdf"],
                "pdfpipe: error: --format: unknown format 'pdf' (known formats: \(Reporters.formats.joined(separator: ", ")))"
            ),
            (
                ["run", "pipelines/default.json", "--fail-on", "errors"],
                "pdfpipe: error: --fail-on: expected one of 'error' | 'warning' | 'note' | 'never', got 'errors'; did you mean 'error'?"
            ),
            (
                ["run", "pipelines/default.json", "samples/missing.pdf"],
                "samples/missing.pdf: error: no such file or folder"
            ),
            (["run", "pipelines/default.json", "--out"], "pdfpipe: error: option '--out' needs a value"),
            (["stages", "--all"], "pdfpipe: error: unknown option '--all' (this command takes no options)"),
            (
                ["run", "pipelines/default.json", "--timeout", "1e9"],
                "pdfpipe: error: --timeout: expected seconds 0...86400 (0: none), got '1000000000'"
            ),
            (
                ["rnu"],
                "pdfpipe: error: unknown command 'rnu'; did you mean 'run'? (commands: init, run, validate, merge, baseline, anchors, trend, fix, pipelines, stages, rules, schema, github-action)"
            ),
        ]
        for (args, message) in cases {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(args), .usage, "\(args)")
            XCTAssertEqual(cli.stderr, message + "\n", "\(args)")
        }
    }

    func testHelpVersionAndListings() {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["--version"]), .clean)
        XCTAssertEqual(cli.stdout, "pdfpipe \(CLI.version)\n")
        let help = CapturedCLI()
        XCTAssertEqual(help.run(["run", "--help"]), .clean)
        XCTAssertTrue(help.stdout.contains("--fail-on LEVEL"))
        let stages = CapturedCLI()
        XCTAssertEqual(stages.run(["stages"]), .clean)
        XCTAssertTrue(stages.stdout.contains("inspect: document facts"))
        XCTAssertTrue(stages.stdout.contains("  crossCheck (boolean, default false): "))
        let rules = CapturedCLI()
        XCTAssertEqual(rules.run(["rules"]), .clean)
        XCTAssertEqual(rules.stdout.split(separator: "\n").count, StageTable.rules.all.count)
        XCTAssertEqual(CapturedCLI().run([]), .usage)
    }

    func testEveryShippedPipelineIsValid() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/pipelines").filter {
            $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json")
        }
        XCTAssertFalse(files.isEmpty)
        for f in files {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(["validate", "pipelines/" + f]), .clean, cli.stderr)
        }
    }

    func testTheCommittedSchemaMatchesTheCode() throws {
        let cli = CapturedCLI()
        XCTAssertEqual(cli.run(["schema"]), .clean)
        let committed = try String(contentsOfFile: Repo.root + "/pipelines/pipeline.schema.json", encoding: .utf8)
        XCTAssertTrue(
            cli.stdout == committed,
            "pipelines/pipeline.schema.json is out of date: swift run pdfpipe schema > pipelines/pipeline.schema.json")
    }
}

final class SampleGeneratorTests: XCTestCase {
    /// samples/ is what the generator writes, byte for byte (encryption included: fixed IDs and IVs).
    func testCommittedSamplesAreWhatTheGeneratorWrites() throws {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            dir.appendingPathComponent("pdfpipe-samples").path, Repo.root + "/.build/debug/pdfpipe-samples",
        ]
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return XCTFail("pdfpipe-samples is not built (looked at \(candidates))")
        }
        let out = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = [out]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let generated = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let committed = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/samples").filter {
            $0.hasSuffix(".pdf")
        }.sorted()
        XCTAssertEqual(generated, committed)
        for name in generated {
            XCTAssertEqual(
                FileManager.default.contents(atPath: out + "/" + name),
                FileManager.default.contents(atPath: Repo.root + "/samples/" + name),
                "\(name) differs: regenerate with swift run pdfpipe-samples samples")
        }
    }
}

extension CLITests {
    /// #61 (1): a recipe from pdfpipe's own repository pasted into another names
    /// pipelines/link-audit.json, which is not there: the message names the built-in and how to
    /// write the file; `pdfpipe pipelines` lists the built-ins.
    func testAMissingPipelineFileThatIsABuiltinSaysSo() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["link-audit", "web-links-nightly", "broken-link-report"] {
            let cli = CapturedCLI()
            XCTAssertEqual(cli.run(["run", "pipelines/\(name).json", "docs"], in: dir), .usage)
            XCTAssertTrue(
                cli.stderr.contains(
                    "'\(name)' is built in: pdfpipe run \(name) … runs it, and pdfpipe pipelines show \(name) > pipelines/\(name).json writes it there to edit"
                ), cli.stderr)
        }
        let other = CapturedCLI()
        XCTAssertEqual(other.run(["run", "pipelines/mine.json", "docs"], in: dir), .usage)
        XCTAssertFalse(other.stderr.contains("built in"), other.stderr)
        let list = CapturedCLI()
        XCTAssertEqual(list.run(["pipelines"], in: dir), .clean)
        XCTAssertEqual(
            list.stdout.split(separator: "\n").prefix(3).map { String($0.prefix(while: { $0 != " " })) },
            ["link-audit", "web-links-nightly", "broken-link-report"])
        let wrong = CapturedCLI()
        XCTAssertEqual(wrong.run(["pipelines", "show", "link-audti"], in: dir), .usage)
        XCTAssertTrue(wrong.stderr.contains("did you mean 'link-audit'"), wrong.stderr)
    }
}

extension CLITests {
    /// #61 (10): a folder of symbolic links to PDFs elsewhere (Bazel, Nix, stow) is checked on a
    /// developer's machine; where the inputs come from a pull request the links are named, and the
    /// empty batch's error says how many were not followed.
    func testSymbolicLinksToPDFsInAnInputFolder() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/store/x", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/ws/docs", withIntermediateDirectories: true)
        try TestPDF.withBrokenNames(dir + "/store/x/real-a.pdf", ["gone"])
        try TestPDF.withBrokenNames(dir + "/store/x/real-b.pdf", [])
        try fm.createSymbolicLink(atPath: dir + "/ws/docs/a.pdf", withDestinationPath: dir + "/store/x/real-a.pdf")
        try fm.createSymbolicLink(atPath: dir + "/ws/docs/b.pdf", withDestinationPath: "../../store/x/real-b.pdf")
        try fm.createSymbolicLink(atPath: dir + "/ws/docs/more", withDestinationPath: dir + "/store")
        func run(fromAPullRequest: Bool) -> (ExitCode, String) {
            let err = Mutex("")
            var cli = CLI(
                console: Console(out: { _ in }, err: { s in err.withLock { $0 += s } }, interactive: false),
                directory: dir + "/ws", fixedDate: "2026-01-01T00:00:00Z")
            cli.inputsFromAPullRequest = fromAPullRequest
            let code = cli.run(["run", "link-audit", "docs", "--offline", "--out", "out", "--quiet"])
            return (code, err.withLock { $0 })
        }
        let (code, said) = run(fromAPullRequest: false)
        XCTAssertEqual(code, .findings, said)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/ws/out/report.json", encoding: .utf8))
        XCTAssertEqual(
            report["documents"]?.arrayValue?.compactMap { $0["workingPath"]?.stringValue },
            ["docs/a.pdf", "docs/b.pdf"],
            "each link as it is named; the folder link out of it is not walked")
        XCTAssertTrue(said.contains("'docs/more' is a symbolic link out of the folder searched"), said)
        let (refused, why) = run(fromAPullRequest: true)
        XCTAssertEqual(refused, .usage)
        XCTAssertTrue(
            why.contains(
                "'docs/a.pdf' is a symbolic link out of the folder searched (to '\(Paths.resolved(dir))/store/x/real-a.pdf'): not followed under GitHub Actions"
            ),
            why)
        XCTAssertTrue(
            why.contains(
                "no PDF file in the inputs (searched 'docs' for *.pdf); 3 symbolic links out of the folder searched were not followed (named above)"
            ), why)
    }
}

extension CLITests {
    /// #61 (6): a value of the wrong type names its type and how to write it; a level, a command or
    /// an input path close to a real one is suggested.
    func testMessagesNameTypesAndSuggestValues() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/samples", withIntermediateDirectories: true)
        try
            #"{"stages":[{"use":"thumbnails","with":{"width":"200","upscale":"true"}}],"rules":{"uri.malformed":"warn"}}"#
            .write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let validate = CapturedCLI()
        XCTAssertEqual(validate.run(["validate", "p.json"], in: dir), .usage)
        for expected in [
            "stages[0].with.width: expected an integer 0...20000, got the string '200' (write 200 without quotes)",
            "stages[0].with.upscale: expected a boolean, got the string 'true' (write true without quotes)",
            "rules.uri.malformed: expected one of 'error' | 'warning' | 'note' | 'off', got 'warn'; did you mean 'warning'?",
        ] {
            XCTAssertTrue(validate.stderr.contains(expected), validate.stderr)
        }
        let level = CapturedCLI()
        XCTAssertEqual(level.run(["run", "link-audit", "samples", "--fail-on", "warn"], in: dir), .usage)
        XCTAssertTrue(level.stderr.contains("got 'warn'; did you mean 'warning'?"), level.stderr)
        let command = CapturedCLI()
        XCTAssertEqual(command.run(["explain", "uri.malformed"], in: dir), .usage)
        XCTAssertTrue(command.stderr.contains("did you mean 'pdfpipe rules RULE'?"), command.stderr)
        let path = CapturedCLI()
        XCTAssertEqual(path.run(["run", "link-audit", "Samples", "--offline"], in: dir), .usage)
        XCTAssertEqual(
            path.stderr, "Samples: error: no such file or folder; did you mean 'samples'? (names differ in case)\n")
    }
}

extension CLITests {
    /// #61 (9): a thumbnail re-run says that it rendered nothing because nothing changed, in
    /// report.json's summary and on the console.
    func testAThumbnailReRunSaysWhatItKept() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = #"{"stages": [{"use": "thumbnails", "with": {"width": 60, "pages": "all"}}]}"#
        try pipeline.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let args = ["run", "p.json", Samples.path("links-internal.pdf"), Samples.path("outlines.pdf"), "--out", "o"]
        let first = CapturedCLI()
        XCTAssertEqual(first.run(args, in: dir), .clean)
        XCTAssertTrue(first.stdout.contains("pdfpipe: thumbnails: 7 pages rendered\n"), first.stdout)
        let again = CapturedCLI()
        XCTAssertEqual(again.run(args, in: dir), .clean)
        XCTAssertTrue(
            again.stdout.contains(
                "pdfpipe: thumbnails: 0 pages rendered, 7 unchanged since the last run (--force renders them again)\n"),
            again.stdout)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/o/report.json", encoding: .utf8))
        XCTAssertEqual(report["summary"]?["thumbnails"], ["rendered": 0, "unchanged": 7])
    }
}
