import Foundation
import PDFPipeCore
import PDFPipeStages

/// Baselines: `pdfpipe baseline`, and reading one for a run or a merge.
extension CLI {
    /// Reads a baseline: a file `pdfpipe baseline` wrote, or a report.json.
    func loadBaseline(_ file: String) throws(PipelineError) -> Baseline {
        // A report.json of any size is read a document at a time; a baseline file is small.
        if let m = try? mapped(file), m.withBytes(Self.looksLikeReport) {
            _ = try readReport(file, documents: false)  // its header is a report's
            var baseline = Baseline(documents: [:])
            try eachDocument(of: file) { baseline.add($0) }
            return baseline
        }
        let value = try readJSON(
            file, unreadable: "cannot read the baseline (pdfpipe baseline REPORT.json --out \(file) writes one)")
        do throws(ReportDecodingError) {
            return try Baseline(json: value)
        } catch {
            throw PipelineError(file: file, message: "not a baseline or report: \(error)")
        }
    }

    /// `pdfpipe baseline REPORT.json [--out FILE]`: the findings of a report as a baseline file.
    func baselineCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try BaselineFlags.parse(args)
        guard a.operands.count == 1 else {
            throw PipelineError(
                file: nil, message: "baseline takes one report: pdfpipe baseline REPORT.json [--out FILE]")
        }
        let report = try readReport(a.operands[0], documents: false)
        let out = a.out ?? "pdfpipe-baseline.json"
        var documents: [DocumentResult] = []
        var count = 0
        try eachDocument(of: a.operands[0]) { d in
            count += 1
            // Only what the baseline keeps: the findings, and the anchors when the report lists them.
            var kept = DocumentResult(path: d.path, pageCount: d.pageCount, findings: d.findings)
            if DocumentAnchors(d) != nil {
                kept.sections[DocumentAnchors.sectionKey] = d.sections[DocumentAnchors.sectionKey]
            }
            documents.append(kept)
        }
        let value = Baseline.file(pipeline: report.pipeline, documents: documents)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array(JSONWriter.pretty(value).utf8), to: Paths.absolute(out, relativeTo: directory))
        } catch {
            throw PipelineError(file: out, message: error.description)
        }
        let n = value["findings"]?.arrayValue?.count ?? 0
        let anchored = value["anchors"]?.arrayValue?.count ?? 0
        console.print(
            "pdfpipe: wrote \(out): \(n) finding\(n == 1 ? "" : "s") of \(count) document\(count == 1 ? "" : "s")"
                + (anchored > 0 ? ", and the named destinations of \(anchored)" : ""))
        return .clean
    }
}
