import PDFBridge
import PDFPipeCore
import PDFReader

/// How much `inspect` says of the annotations: nothing, counts by subtype, or each one.
package enum AnnotationDetail: String, Sendable, CaseIterable, OptionChoice {
    case off, counts, list
}

/// `inspect`'s options (`with`).
public struct InspectOptions: OptionGroup {
    @Option("list every page (size, boxes, rotation, label) under info.pages") public var pageDetails = true
    @Option("open the document with poppler too and report where it disagrees with qpdf (pdf.page-mismatch)")
    public var crossCheck = false
    @Option("annotations by subtype: counts, or every one with page and rect") package var annotations =
        AnnotationDetail.off
    @Option("list the form fields (name, type, flags, value, pages)") public var forms = false
    @Option("list embedded files and media annotations") public var attachments = false
    @Option("write embedded files to the output folder") public var extractAttachments = false
    @Option("folder in the output folder for extracted files") public var attachmentFolder = "attachments"
    @Option(in: 0...100_000, "width (px) of a continuous vertical layout whose page offsets to list; 0: none")
    public var layoutWidth = 0.0
    @Option(in: 0...10_000, "gap (px) between pages in that layout") public var layoutGap = 0.0

    public init() {}
}
