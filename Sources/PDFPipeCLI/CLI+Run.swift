import Foundation
import PDFPipeCore

extension CLI {
    func runCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try Arguments(args, valued: ["--out", "--jobs", "--format", "--fail-on"], flags: ["--quiet"])
        guard let pipelineFile = a.positional.first else {
            throw PipelineError(file: nil, message: "run needs a pipeline file: pdfpipe run PIPELINE [INPUT...]")
        }
        var pipeline = try loadPipeline(pipelineFile)
        let quiet = a.flags.contains("--quiet")

        // Command-line flags override the file.
        let inputs = a.positional.count > 1 ? Array(a.positional.dropFirst()) : pipeline.inputs
        guard !inputs.isEmpty else {
            throw PipelineError(file: pipelineFile, message: "no inputs: name files or folders after the pipeline, or list them under \"inputs\"")
        }
        if let out = a.values["--out"] {
            guard !out.isEmpty else { throw PipelineError(file: nil, message: "--out needs a folder") }
            pipeline.output = out
        }
        if let j = a.values["--jobs"] {
            guard let n = Int(j), n >= 0, n <= 1024 else {
                throw PipelineError(file: nil, message: "--jobs: expected an integer 0...1024 (0: one per processor), got '\(j)'")
            }
            pipeline.jobs = n
        }
        if let f = a.values["--format"] {
            var formats: [String] = []
            for name in f.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
                guard Reporters.formats.contains(name) else {
                    throw PipelineError(file: nil, message: "--format: unknown format '\(name)'\(Suggest.didYouMean(name, Reporters.formats)) (known formats: \(Reporters.formats.joined(separator: ", ")))")
                }
                if !formats.contains(name) { formats.append(name) }
            }
            guard !formats.isEmpty else { throw PipelineError(file: nil, message: "--format needs at least one format") }
            pipeline.formats = formats
        }
        if let f = a.values["--fail-on"] {
            guard let level = FailOn(rawValue: f) else {
                throw PipelineError(file: nil, message: "--fail-on: expected one of error, warning, note, never, got '\(f)'")
            }
            pipeline.failOn = level
        }

        let set = try InputSet.expand(inputs, relativeTo: directory)
        for pattern in set.emptyPatterns { console.error("pdfpipe: warning: '\(pattern)' matches no file") }
        if set.documents.isEmpty { console.error("pdfpipe: warning: no PDF files found in the inputs") }

        let outDir = Paths.absolute(pipeline.output, relativeTo: directory)
        let jobs = pipeline.jobs == 0 ? ProcessInfo.processInfo.activeProcessorCount : pipeline.jobs
        let runner = Runner(pipeline: pipeline, outputDirectory: outDir, inputRoot: set.root, jobs: jobs)
        let progress = console.interactive && !quiet ? ProgressLine(console: console) : nil
        var onProgress: (@Sendable (RunProgress) -> Void)?
        if let progress { onProgress = { progress.update($0) } }
        let results = runner.run(set.documents, progress: onProgress)
        progress?.finish()

        let report = RunReport(
            toolVersion: Self.version, pipeline: pipeline.name, documents: results,
            generatedAt: fixedDate ?? Date().ISO8601Format())
        var written: [String] = []
        for format in pipeline.formats {
            guard let reporter = Reporters.reporter(for: format) else { continue }
            let path = outDir + "/" + reporter.fileName
            do throws(AtomicFile.WriteError) {
                try AtomicFile.write(reporter.renderBytes(report), to: path)
                written.append(Paths.relative(path, to: directory))
            } catch {
                console.error("pdfpipe: error: \(error.description)")
                return .internalFailure
            }
        }

        let summary = report.summary
        if !quiet { printFindings(report) }
        if !quiet {
            let failed = summary.failedDocuments > 0 ? ", \(summary.failedDocuments) failed" : ""
            console.print(
                "pdfpipe: \(summary.documents) document\(summary.documents == 1 ? "" : "s")\(failed), \(summary.pages) pages: "
                    + "\(summary.errors) errors, \(summary.warnings) warnings, \(summary.notes) notes; wrote \(written.joined(separator: ", "))")
        }
        return summary.count(atOrAbove: pipeline.failOn) > 0 ? .findings : .clean
    }

    /// Errors and warnings in compiler style, at most 100 lines.
    private func printFindings(_ report: RunReport) {
        var shown = 0
        var hidden = 0
        for d in report.documents {
            for f in d.findings where f.severity >= .warning {
                guard shown < 100 else {
                    hidden += 1
                    continue
                }
                var place = d.path
                if let p = f.page { place += ":\(p)" + (f.pageLabel.map { " (\($0))" } ?? "") }
                console.print("\(place): \(f.severity.rawValue): \(f.message) [\(f.rule)]")
                shown += 1
            }
        }
        if hidden > 0 { console.print("... and \(hidden) more; see the report") }
    }
}
