import PDFBridge
import PDFPipeCore

/// `check`: qpdf's structural check (`qpdf --check`: every object and stream read and decoded),
/// without writing anything; qpdf's warnings become `pdf.damaged` findings.
public struct CheckStage: Stage {
    public static let descriptor = StageDescriptor(
        id: "check", summary: "check the document's structure with qpdf (as qpdf --check), writing nothing", options: [],
        make: { _ in CheckStage() })

    public func run(_ job: inout Job) throws {
        let file = try job.qpdf()
        let (ok, messages) = file.check()
        var reported = 0
        for m in messages where m.kind != .password {
            var object: String?
            if let r = m.text.range(of: "(object "), let end = m.text[r.upperBound...].firstIndex(where: { $0 == "," || $0 == ")" }) {
                object = String(m.text[r.upperBound..<end]) + " R"
            }
            if reported < 50 {
                var text = job.stripPath(m.text)
                if text.hasPrefix("("), let close = text.range(of: "): ") {
                    text = String(text[close.upperBound...]) + " " + String(text[..<text.index(after: close.lowerBound)])
                }
                job.report(Finding(rule: "pdf.damaged", object: object, message: "qpdf: \(text)"))
            }
            reported += 1
        }
        if reported > 50 { job.report(Finding(rule: "pdf.damaged", message: "\(reported - 50) more qpdf warnings not shown")) }
        // Warnings given while opening the file were reported when it was opened; they count too.
        let total = messages.count + (job.resources.existing(QPDFOpenWarnings.self)?.count ?? 0)
        job.sections["check"] = ["ok": .bool(ok && total == 0), "warnings": .int(total)]
    }
}
