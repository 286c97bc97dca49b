/// A documented rule: a stable id, its default severity, and what it means.
public struct Rule: Sendable {
    public var id: String
    public var severity: Severity
    public var summary: String
    public var hint: String
}

/// Every rule a stage may report. Ids are a contract: add, never rename.
public enum Rules {
    public static let all: [Rule] = [
        Rule(
            id: "pdf.unreadable", severity: .error,
            summary: "the file cannot be opened as a PDF (not a PDF, empty, or damaged beyond repair)",
            hint: "check that the file is a complete PDF; re-export or re-download it"),
        Rule(
            id: "pdf.password-required", severity: .error,
            summary: "the document is encrypted with a user password, so it cannot be opened without it",
            hint: "publish the document without a user password"),
        Rule(
            id: "pdf.encrypted", severity: .warning,
            summary: "the document is encrypted (an owner password restricts what readers may do)",
            hint: "publish documentation without encryption so that every tool can read it"),
        Rule(
            id: "pdf.damaged", severity: .warning,
            summary: "qpdf had to repair or skip damaged structure while reading (broken xref table, bad objects)",
            hint: "re-save the document with a conforming writer (qpdf, for one, rewrites it repaired)"),
        Rule(
            id: "pdf.parse-message", severity: .note,
            summary: "poppler reported a problem while reading the document",
            hint: "the message comes from poppler; it often points at damaged or unusual structure"),
        Rule(
            id: "pdf.page-mismatch", severity: .warning,
            summary: "qpdf and poppler disagree about the document's pages (count, size or label)",
            hint: "the page tree is probably damaged; run the normalize stage to rewrite it"),
        Rule(
            id: "page.invalid-rotate", severity: .warning,
            summary: "a page's /Rotate is not a multiple of 90, so viewers ignore it",
            hint: "set /Rotate to 0, 90, 180 or 270"),
        Rule(
            id: "page.no-media-box", severity: .warning,
            summary: "a page has no /MediaBox (not even an inherited one); readers assume US Letter",
            hint: "give the page tree a /MediaBox"),
        Rule(
            id: "stage.failed", severity: .error,
            summary: "a stage could not finish on this document; later stages were skipped",
            hint: "the message says why; if it looks like a bug in pdfpipe, report it with the file"),
    ]

    private static let byID: [String: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    public static func rule(_ id: String) -> Rule? { byID[id] }

    /// The default severity of a rule; unknown ids (a bug) count as errors.
    public static func defaultSeverity(of id: String) -> Severity { byID[id]?.severity ?? .error }
}
