import Dispatch
import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// `pdfpipe anchors`: the named destinations other pages and documents may link to, per document.
extension CLI {
    /// `pdfpipe anchors INPUT…|REPORT.json [--out FILE]`: each document's named destinations (with
    /// their pages, the top of their views and their bookmarks' titles) and page count, as a file
    /// that `run --baseline` compares a rebuild with (`dest.removed`).
    func anchorsCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try AnchorsFlags.parse(args)
        guard !a.operands.isEmpty else {
            throw PipelineError(
                file: nil, message: "anchors needs PDFs, folders or a report: pdfpipe anchors INPUT... [--out FILE]")
        }
        let out = a.out ?? "pdfpipe-anchors.json"
        var entries: [Baseline.AnchorsEntry] = []
        var failed = 0
        if a.operands.count == 1, a.operands[0].hasSuffix(".json") {
            let file = a.operands[0]
            _ = try readReport(file, documents: false)
            try eachDocument(of: file) { d in
                if let anchors = DocumentAnchors(d) { entries.append(.init(path: d.path, anchors)) }
            }
            guard !entries.isEmpty || (try? mapped(file).withBytes(Self.looksLikeReport)) != true else {
                throw PipelineError(
                    file: file,
                    message:
                        "the report lists no document's named destinations (run the anchor-guard pipeline, or resolve-destinations with {\"list\": true})"
                )
            }
        } else {
            (entries, failed) = try readAnchors(a.operands)
        }
        let value = Baseline.anchorsFile(entries)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array(JSONWriter.pretty(value).utf8), to: Paths.absolute(out, relativeTo: directory))
        } catch {
            throw PipelineError(file: out, message: error.description)
        }
        let names = entries.reduce(0) { $0 + $1.anchors.count }
        console.print(
            "pdfpipe: wrote \(out): \(names) named destination\(names == 1 ? "" : "s") of \(entries.count) document\(entries.count == 1 ? "" : "s")"
                + (failed > 0 ? "; \(failed) could not be read (above)" : ""))
        return failed > 0 ? .findings : .clean
    }

    /// Reads the anchors of the PDFs `inputs` names (files, folders, globs), concurrently, one
    /// document per worker; a document that cannot be read is named on the console.
    private func readAnchors(_ inputs: [String]) throws(PipelineError) -> ([Baseline.AnchorsEntry], Int) {
        let text =
            #"{"version": 1, "name": "anchors", "stages": [{"use": "resolve-destinations", "with": {"list": true}}]}"#
        let pipeline = try Pipeline.parse(text, file: "anchors", catalog: stages, formats: formats)
        let set = try InputSet.expand(inputs, relativeTo: directory)
        let runner = Runner(
            pipeline: pipeline, outputDirectory: NSTemporaryDirectory(), inputRoot: set.root,
            jobs: ProcessInfo.processInfo.activeProcessorCount)
        let results = Locked([DocumentResult?](repeating: nil, count: set.documents.count))
        let documents = set.documents
        DispatchQueue.concurrentPerform(iterations: documents.count) { i in
            let r = runner.process(documents[i])
            results.withLock { $0[i] = r }
        }
        var entries: [Baseline.AnchorsEntry] = []
        var failed = 0
        for (document, r) in zip(documents, results.withLock { $0 }) {
            guard let r, r.status == .ok, let anchors = DocumentAnchors(r) else {
                failed += 1
                let why = r?.findings.first { $0.severity == .error }?.message ?? "no named destination could be read"
                console.error("pdfpipe: \(document.workingPath ?? document.relativePath): \(why)")
                continue
            }
            entries.append(.init(path: document.relativePath, anchors))
        }
        return (entries, failed)
    }
}
