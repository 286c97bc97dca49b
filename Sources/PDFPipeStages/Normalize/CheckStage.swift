import PDFBridge
import PDFPipeCore

/// `check`: qpdf's structural check (`qpdf --check`: every object and stream read and decoded),
/// without writing anything; qpdf's warnings become `pdf.damaged` findings.
public struct CheckStage: Stage {
    public static let descriptor = StageDescriptor(
        CheckStage.self, id: "check",
        summary: "check the document's structure with qpdf (as qpdf --check), writing nothing")

    public init(_ options: NoOptions) {}

    public func run(_ job: inout Job) throws {
        let file = try job.qpdf()
        let (ok, messages) = file.check()
        job.reportDamage(messages.map(\.text))
        // Warnings given while opening the file were reported when it was opened; they count too.
        let total = messages.count + (job.resources.existing(QPDFOpenWarnings.self)?.count ?? 0)
        job[.check] = CheckSection(ok: ok && total == 0, warnings: total)
    }
}

/// `check`: whether qpdf's `--check` found the document sound, and its warnings.
public struct CheckSection: ReportSection, Equatable {
    public static let key = "check"
    public var ok: Bool
    public var warnings: Int

    public init(ok: Bool, warnings: Int) {
        self.ok = ok
        self.warnings = warnings
    }
}

extension SectionKey where Value == CheckSection {
    public static var check: Self { CheckSection.sectionKey }
}
