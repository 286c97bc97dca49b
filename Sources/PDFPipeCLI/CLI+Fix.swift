import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// `pdfpipe fix REPORT.json`: the fixes a report's findings carry, applied as `fix-links` applies
/// them — a repaired copy per document (an incremental update of the original), and the lists of
/// what changed — without checking anything again. For a report made in CI and reviewed, or with
/// findings turned off in the run and fixed later.
extension CLI {
    func fixCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try FixFlags.parse(args)
        guard a.operands.count == 1 else {
            throw PipelineError(file: nil, message: "fix takes one report: pdfpipe fix REPORT.json [--out DIR]")
        }
        let file = a.operands[0]
        let report = try readReport(file, documents: false)
        let out = Paths.absolute(
            a.out ?? Paths.parent(Paths.absolute(file, relativeTo: directory)), relativeTo: directory)
        let folder = try FixLinksStage.outputFolder(a.folder ?? "fixed")
        var results: [DocumentResult] = []
        var (changed, left, copies, failed) = (0, 0, 0, 0)
        try eachDocument(of: file) { d in
            guard d.findings.contains(where: { $0.details["fix"] != nil || $0.details["fixes"] != nil }) else { return }
            guard let section = repair(d, folder: folder, out: out) else {
                failed += 1
                return
            }
            changed += section.changed.count
            left += section.unfixed.count
            if section.file != nil { copies += 1 }
            results.append(DocumentResult(path: d.path, sections: [FixesSection.key: section.json]))
        }
        var lists = RunReport(
            toolVersion: PDFPipeVersion.string, pipeline: report.pipeline, documents: results, generatedAt: "")
        lists.rules = rules
        for reporter in [ReplacementsReporter(), ReplacementsCSVReporter()] as [any Reporter] {
            do throws(AtomicFile.WriteError) {
                let w = try AtomicFile.Writer(path: out + "/" + reporter.fileName)
                reporter.write(lists, to: w)
                try w.commit()
            } catch {
                console.error("pdfpipe: error: \(error.description)")
                return .internalFailure
            }
        }
        console.print(
            "pdfpipe: \(Self.count(changed, "link")) rewritten in \(copies) repaired cop\(copies == 1 ? "y" : "ies") (\(Paths.relative(out, to: directory))/\(folder)), \(left) left as they are; wrote replacements.json, replacements.csv"
        )
        // A copy that could not be written is pdfpipe's own failure (said above, naming the file).
        return failed > 0 ? .internalFailure : .clean
    }

    /// One document's fixes applied: its copy in `out/folder`, or why none was made; nil when the
    /// copy could not be written (said, naming the document).
    func repair(_ d: DocumentResult, folder: String, out: String) -> FixesSection? {
        let relative = folder + "/" + FixLinksStage.outputStem(d.path) + ".pdf"
        let normalized = d.artifacts.contains { $0.kind == "normalized" }
        do {
            return try FixLinksStage.repair(
                Paths.absolute(d.displayPath, relativeTo: directory), findings: d.findings,
                output: out + "/" + relative, relative: relative,
                declined: normalized ? "the findings name objects of the normalized copy, not of the original" : nil)
                ?? FixesSection(file: nil, changed: [], unfixed: [])
        } catch {
            console.error("pdfpipe: error: \(d.displayPath): \(error)")
            return nil
        }
    }
}

/// The flags of `pdfpipe fix`, in the order its help lists them.
struct FixFlags: FlagSet {
    var operands: [String] = []
    @Flag("--out", "DIR", "where the copies and the lists go (default: the report's folder)") var out: String?
    @Flag("--folder", "NAME", "folder in DIR for the repaired copies (default fixed)") var folder: String?
}
