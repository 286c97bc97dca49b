import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// `pdfpipe init`: a starter pipeline for one of the common jobs, with the schema beside it (so
/// that editors check and complete it) and a `$comment` that says what to change.
extension CLI {
    struct Starter {
        var name: String
        var summary: String
        var comment: [String]
        var stages: [JSONValue]
        var report: JSONValue
    }

    static let starters: [Starter] = [
        Starter(
            name: "link-audit", summary: "check every link, bookmark and named destination (web links offline)",
            comment: [
                "Checks internal links, bookmarks, named destinations, links to other PDFs (their #page= and #nameddest= too),",
                "local file: and relative links, and the syntax of web and mail links. Web links are not requested:",
                "set validate-links' external.offline to false to check them over HTTP (pdfpipe run --offline still skips them).",
                "Options of every stage: pdfpipe stages. Rules and levels: pdfpipe rules.",
            ],
            stages: [
                ["use": "resolve-destinations"],
                ["use": "validate-links", "with": ["external": ["enabled": true, "offline": true]]],
            ],
            report: ["formats": ["json", "html"], "failOn": "error"]),
        Starter(
            name: "thumbnails", summary: "a PNG of every first page",
            comment: [
                "Renders the first page of every document at 200 px wide, into out/thumbnails/images/STEM/1.png;",
                "pages: \"all\" renders every page; template: \"{stem}.png\" writes one flat file per document (one page only).",
                "Fails (exit 1) when a document cannot be rendered. To outline broken links on the pages, put",
                "{\"use\": \"validate-links\"} first and add overlay: \"links\" (pipelines/broken-link-report.json does).",
            ],
            // folder: the output folder is named for the job already (not out/thumbnails/thumbnails).
            stages: [["use": "thumbnails", "with": ["width": 200, "pages": "1", "folder": "images"]]],
            report: ["formats": ["json", "html"], "failOn": "error"]),
        Starter(
            name: "text", summary: "the text of every page, as plain text",
            comment: [
                "Writes the text of each document into out/text/documents/STEM.txt; format \"json\" adds pages and, with words: true, word boxes."
            ],
            stages: [["use": "extract-text", "with": ["format": "txt", "folder": "documents"]]],
            report: ["formats": ["json"], "failOn": "never"]),
        Starter(
            name: "ci", summary: "the link audit as a CI gate: JUnit, SARIF, GitHub annotations, a step summary",
            comment: [
                "The CI gate: exit 1 on errors. Accept today's findings with pdfpipe baseline out/ci/report.json --out .pdfpipe/baseline.json",
                "and report.baseline: \".pdfpipe/baseline.json\"; take out single findings with ignore entries (each with a reason).",
                "Local file links and fragments are checked; web links are not requested (external.offline: false requests them).",
                "See the README's 'Using it in CI'.",
            ],
            stages: [
                ["use": "resolve-destinations"],
                ["use": "validate-links", "with": ["external": ["enabled": true, "offline": true]]],
            ],
            report: ["formats": ["json", "junit", "sarif", "github", "markdown"], "failOn": "error"]),
    ]

    func initCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try InitFlags.parse(args)
        guard a.operands.isEmpty else {
            throw PipelineError(file: nil, message: "init takes no inputs: pdfpipe init [--for KIND] [--out FILE]")
        }
        let names = Self.starters.map(\.name)
        let kind = a.`for` ?? "link-audit"
        guard let starter = Self.starters.first(where: { $0.name == kind }) else {
            throw PipelineError(
                file: nil,
                message:
                    "--for: unknown kind '\(kind)'\(Suggest.didYouMean(kind, names)) (kinds: \(names.joined(separator: ", ")))"
            )
        }
        let file = a.out ?? "pdfpipe.json"
        let path = Paths.absolute(file, relativeTo: directory)
        guard a.force || !FileSystem.exists(path) else {
            throw PipelineError(file: file, message: "exists already; --force replaces it")
        }
        let schemaName = "pipeline.schema.json"
        let schemaPath = Paths.parent(path) + "/" + schemaName
        let pipeline: JSONValue = [
            "$schema": .string("./" + schemaName),
            "$comment": .array(starter.comment.map { .string($0) }),
            "version": .int(Pipeline.currentVersion),
            "name": .string(starter.name),
            "inputs": ["pdf"],
            "output": .string("out/" + starter.name),
            "stages": .array(starter.stages),
            "report": starter.report,
        ]
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(JSONWriter.pretty(pipeline), to: path)
            try AtomicFile.write(
                JSONWriter.pretty(PipelineSchema.make(catalog: stages, formats: formats)),
                to: schemaPath)
        } catch {
            console.error("pdfpipe: error: \(error.description)")
            return .internalFailure
        }
        let shownSchema = Paths.relative(schemaPath, to: directory)
        console.print("pdfpipe: wrote \(file) (\(starter.summary)) and \(shownSchema)")
        console.print(
            "next: pdfpipe run \(file) PDF-FOLDER   (or list the folders under \"inputs\" and run pdfpipe run \(file))")
        return .clean
    }
}
