import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// Holds a job's object source in its resources, and reports the objects pdfpipe's reader handed
/// to qpdf (see `Job.objects`).
final class ObjectSourceBox: PendingFindings {
    let source: any ObjectSource
    /// qpdf, opened when the reader declined an object.
    var fallbackFile: QPDFFile?
    /// Why the reader refused the whole file, when that is damage; reported at the first flush
    /// unless qpdf's warnings have said it.
    var refusal: String?
    private var reported = 0
    private var reportedRepairs = 0
    private var reportedLimits = 0

    init(_ source: any ObjectSource) { self.source = source }

    /// At the end of the document: the reader's refusal, unless qpdf's warnings (which come as
    /// the objects are read, in any stage) have said it. One problem, one finding.
    func finish(into job: inout Job) {
        flush(into: &job)
        if let refusal, !job.findings.contains(where: { $0.rule == Rule.pdfDamaged.id }) {
            job.report(
                Finding(
                    rule: .pdfDamaged,
                    message:
                        "pdfpipe's reader cannot take the file as written (\(refusal)); it was read through qpdf's recovery"
                ))
        }
        refusal = nil
    }

    func flush(into job: inout Job) {
        if let qpdf = source as? QPDFSource { job.reportWarnings(of: qpdf.file) }
        if let reader = source as? PDFReader, reader.limitDeclines.count > reportedLimits {
            let new = reader.limitDeclines[reportedLimits...]
            reportedLimits = reader.limitDeclines.count
            let named = Abridged(Array(new), limit: 3).joined(
                separator: "; ", more: { "; and \($0) more" }, text: \.reason)
            job.report(
                Finding(
                    rule: .pdfLimitExceeded, object: new.first?.object.description,
                    message:
                        "\(new.count == 1 ? "an object was" : "\(new.count) objects were") not read: a stream inflates past the bounds for a file of this size (\(named)); what they hold was not checked"
                ))
        }
        if let reader = source as? PDFReader { reportRepairs(of: reader, into: &job) }
        guard let reader = source as? PDFReader, reader.declines.count > reported else { return }
        let new = reader.declines[reported...]
        reported = reader.declines.count
        let before = job.findings.count
        if let fallbackFile { job.reportWarnings(of: fallbackFile) }
        var seen = Set<ObjectRef>()
        let damaged = new.filter { $0.isDamage && seen.insert($0.object).inserted }
        // One problem, one finding: the objects are counted, the first ones named. qpdf's own
        // warnings about them (above) come first when it gave any.
        guard let first = damaged.first, job.findings.count == before else { return }
        let named = Abridged(damaged, limit: 3).joined(separator: "; ", more: { "; and \($0) more" }, text: \.reason)
        let what = damaged.count == 1 ? "an object" : "\(damaged.count) objects"
        job.report(
            Finding(
                rule: .pdfDamaged, object: first.object.description,
                message:
                    "pdfpipe's reader could not read \(what) as written (\(named)); read through qpdf's recovery"
            ))
    }

    /// What the reader repaired as viewers do: one finding for the document, whichever stage read
    /// the objects, updated in place as more are read.
    private func reportRepairs(of reader: PDFReader, into job: inout Job) {
        guard reader.repairs.count > reportedRepairs else { return }
        reportedRepairs = reader.repairs.count
        let all = reader.repairs
        let named = Abridged(all, limit: 3).joined(separator: "; ", more: { "; and \($0) more" }, text: \.reason)
        let first = all[0].object
        var f = Finding(
            rule: .pdfDamaged, object: first.number > 0 ? first.description : nil,
            message:
                "pdfpipe's reader repaired \(all.count == 1 ? "one thing" : "\(all.count) things") as viewers do (\(named)); the rest was read as written"
        )
        f.details["repairedObjects"] = .int(all.count)
        if let i = job.findings.firstIndex(where: {
            $0.rule == Rule.pdfDamaged.id && $0.details["repairedObjects"] != nil
        }) {
            job.findings[i] = f
        } else {
            job.report(f)
        }
    }
}

/// How many warnings qpdf gave while opening the working file (the check stage counts them).
final class QPDFOpenWarnings {
    let count: Int
    init(_ count: Int) { self.count = count }
}
