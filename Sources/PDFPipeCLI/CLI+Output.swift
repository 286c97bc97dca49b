import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

extension CLI {
    /// Writes a report in every format, prints the findings and the summary; returns the exit code.
    /// `shownAs`: where the reports will be (`s3://…/`, for a folder that is uploaded), for messages.
    func write(
        _ report: RunReport, formats: [String], to outDir: String, quiet: Bool, verbose: Bool = false,
        shownAs: String? = nil
    ) -> ExitCode {
        var report = report
        report.rules = rules
        report.collapseFindings()
        report.locations = .init(
            working: Paths.standardize(directory),
            report: Paths.standardize(Paths.absolute(outDir, relativeTo: directory)))
        var written: [String] = []
        for format in formats {
            guard let reporter = reporters.first(where: { $0.format == format }) else { continue }
            let path = outDir + "/" + reporter.fileName
            do throws(AtomicFile.WriteError) {
                let file = try AtomicFile.Writer(path: path)
                reporter.write(report, to: file)
                try file.commit()
                written.append(shownAs.map { $0 + reporter.fileName } ?? Paths.relative(path, to: directory))
            } catch {
                console.error("pdfpipe: error: \(error.description)")
                return .internalFailure
            }
        }

        let summary = report.summary
        if !quiet { printFindings(report, formats: formats, verbose: verbose) }
        // --quiet still says why a run failed: the summary line, on stderr (stdout stays empty).
        if !quiet || report.failing > 0 || report.ratchetFails {
            let failed = summary.failedDocuments > 0 ? ", \(summary.failedDocuments) failed" : ""
            let suppressed = summary.suppressed > 0 ? ", \(summary.suppressed) suppressed" : ""
            let baseline =
                report.baseline == nil
                ? "" : " (baseline: \(summary.new) new, \(summary.unchanged) unchanged, \(summary.fixed) fixed)"
            let line =
                "pdfpipe: \(report.incomplete ? "INCOMPLETE: " : "")\(Self.count(summary.documents, "document"))\(failed), \(Self.count(summary.pages, "page")): "
                + "\(Self.count(summary.errors, "error")), \(Self.count(summary.warnings, "warning")), \(Self.count(summary.notes, "note"))\(suppressed)\(baseline); wrote \(written.joined(separator: ", "))"
            if quiet { console.error(line) } else { console.print(line) }
        }
        if !quiet, let links = summary.links { console.print("pdfpipe: " + links.line) }
        if !quiet, let thumbnails = summary.thumbnails { console.print("pdfpipe: " + thumbnails.line) }
        if report.ratchetFails {
            console.error(
                "pdfpipe: " + report.ratchetText(report: Paths.relative(outDir + "/report.json", to: directory)))
            return .findings
        }
        if let removed = report.removedText, !quiet { console.error("pdfpipe: baseline: " + removed) }
        return report.failing > 0 ? .findings : .clean
    }

    /// `1 page`, `0 pages`, `3 pages`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) " + ConsoleFindings.plural(n, noun) }

    /// A path as reports show it to people: relative to the working folder when inside it.
    static func workingPath(_ absolute: String, in directory: String) -> String {
        Paths.relative(absolute, to: Paths.standardize(directory))
    }

    /// An output folder that cannot be made because a file stands where it or a parent should be
    /// is the user's to fix (exit 2), said before any work, not pdfpipe's failure at the end.
    ///
    /// Nothing is written or read through a symbolic link there: an output folder that is one, or
    /// that holds one, or whose parents inside the working folder are one, is refused, naming them
    /// (a pull request can commit `out/pdfpipe/text -> ../../elsewhere`, and extract-text would
    /// write its files there).
    /// A new output folder inside a hidden folder (`.pdfpipe/pre-commit`, where the pre-commit hook
    /// writes) is a tool's state, never to be committed: it gets a `.gitignore` of `*`, as pytest's
    /// and ruff's caches do. Other output folders are left as they are.
    func ignoreInHiddenFolder(_ out: String) {
        let relative = Paths.relative(Paths.standardize(out), to: Paths.standardize(directory))
        let parts = relative.split(separator: "/")
        guard parts.first != "..", parts.contains(where: { $0.hasPrefix(".") && $0 != "." && $0 != ".." }),
            !FileSystem.exists(out)
        else { return }
        do throws(AtomicFile.WriteError) {
            try AtomicFile.makeDirectory(out)
            try AtomicFile.write(
                "# pdfpipe's outputs in a hidden folder: not to be committed (pdfpipe wrote this file)\n*\n",
                to: out + "/.gitignore")
        } catch {
            console.error("pdfpipe: warning: \(error.description)")
        }
    }

    func checkOutputFolder(_ out: String) throws(PipelineError) {
        let working = Paths.standardize(directory)
        var links = Paths.symbolicLinks(onTheWayTo: out, inside: working)
        links += FileStatus.symbolicLinks(under: Paths.standardize(out)).filter { !links.contains($0) }
        if !links.isEmpty {
            let shown = Paths.relative(out, to: working)
            let names = links.prefix(5).map { "'\(Paths.relative($0, to: working))'" }.joined(separator: ", ")
            throw PipelineError(
                file: nil,
                message:
                    "the output folder '\(shown)' is or holds a symbolic link (\(names)\(links.count > 5 ? ", …" : "")): pdfpipe writes and reads nothing through one; remove it, or give a real folder with --out"
            )
        }
        let nearest = FileSystem.nearestExisting(Paths.standardize(out))
        let part = nearest.path
        guard nearest.kind != .directory else { return }
        let shown = Paths.relative(out, to: Paths.standardize(directory))
        let blocker = Paths.relative(part, to: Paths.standardize(directory))
        throw PipelineError(
            file: nil,
            message:
                "the output folder '\(shown)' cannot be made: '\(blocker)' is a file (give another with --out, or change the pipeline's \"output\")"
        )
    }

    func formats(_ list: String) throws(PipelineError) -> [String] {
        var formats: [String] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard self.formats.contains(name) else {
                throw PipelineError(
                    file: nil,
                    message:
                        "--format: unknown format '\(name)'\(Suggest.didYouMean(name, self.formats)) (known formats: \(self.formats.joined(separator: ", ")))"
                )
            }
            if !formats.contains(name) { formats.append(name) }
        }
        guard !formats.isEmpty else { throw PipelineError(file: nil, message: "--format needs at least one format") }
        return formats
    }

    /// Errors, then warnings (and notes when they matter: `--fail-on note`, or `--verbose`), in
    /// compiler style, one line per distinct problem of a document (rule and message) with the
    /// other pages it occurs on, at most 100 lines; then a count per rule. Findings already in the
    /// baseline are not listed.
    func printFindings(_ report: RunReport, formats: [String], verbose: Bool) {
        for f in report.findings where f.severity >= .warning {
            console.print(
                "\(f.details["file"]?.stringValue ?? f.stage ?? "pipeline"): \(f.severity.rawValue): \(f.message) [\(f.rule)]"
            )
        }
        let lowest: Severity = verbose || report.failOn == .note ? .note : .warning
        let file = formats.contains("html") ? "report.html" : "report.json"
        let lines = ConsoleFindings().lines(report, lowest: lowest, moreIn: file)
        for line in lines {
            switch line {
            case .finding(let before, let severity, let after): console.print(before, severity: severity, after)
            case .plain(let text): console.print(text)
            }
        }
        let collapsed = report.collapsedRules
        if !collapsed.isEmpty {
            let n = report.results.reduce(0) { n, d in
                n + d.findings.count { collapsed.contains($0.rule) && $0.baseline != .unchanged }
            }
            if n > 0 {
                console.print(
                    "… and \(n) unreachable web link\(n == 1 ? "" : "s") not listed: the network looks down (see above; each is in report.json)"
                )
            }
        }
        var perRule: [String: (severity: Severity, count: Int)] = [:]
        for d in report.results {
            for f in d.findings where f.severity >= lowest && f.baseline != .unchanged {
                perRule[f.rule, default: (f.severity, 0)].count += 1
            }
        }
        let hidden = lines.contains { if case .plain = $0 { return true } else { return false } } ? 1 : 0
        if perRule.count > 1 || hidden > 0 {
            let counts = perRule.sorted {
                ($0.value.severity, $0.value.count, $1.key) > ($1.value.severity, $1.value.count, $0.key)
            }
            // Grouped by severity, so that each rule's is said once: `by rule: errors: a 5, b 1; warnings: c 2`.
            let groups = [Severity.error, .warning, .note].compactMap { s -> String? in
                let these = counts.filter { $0.value.severity == s }
                guard !these.isEmpty else { return nil }
                return "\(s.rawValue)s: " + these.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
            }
            console.print("by rule: " + groups.joined(separator: "; "))
        }
    }
}
