import PDFPipeCore
import PDFPipeWeb

/// `validate-links`' options (`with`).
public struct ValidateLinksOptions: OptionGroup {
    @Option("list every link under links, and the bookmarks under outline") public var inventory = true
    @Option("check the bookmarks (outline) too") public var outlines = true
    @Option("check the catalog's /OpenAction too") public var openAction = true
    @Option(
        "give findings about a link (warning or above) the text under its rectangle (linkText; read with poppler, only for documents with such findings)"
    )
    public var linkText = true
    @Option(
        "read every page's text (poppler) for web links whose visible text is another web address (uri.text-mismatch) and web addresses in the text with no link (uri.unlinked); off by default: reading the text costs more than the link audit"
    )
    public var textChecks = false
    @Option("check that GoToR files exist and hold the named destination or page") public var gotor = true
    @Option("follow GoToR links to files outside the input root (otherwise reported as gotor.outside-root)")
    public var allowOutsideRoot = false
    /// Half an inch by default: LaTeX anchors often sit a few points above or left of the page,
    /// which viewers clamp; on 932 real manuals 43 of 52 such positions were within it.
    @Option(
        in: 0...Double.infinity,
        "points a destination's top may lie below the bottom of the target page before dest.position-off-page (positions above the top or beyond a side are clamped by viewers)"
    )
    public var positionTolerance = 36.0
    /// The largest of 935 real manuals has 57,956; a hostile file can hold millions, each a record
    /// and perhaps a finding.
    @Option(
        in: 0...100_000_000,
        "link annotations checked per document; past it, pdf.limit-exceeded and the rest are skipped (0: no limit)")
    public var maxLinks = 1_000_000
    @Option(
        "URI schemes your readers' systems handle beyond the common ones (zotero, obsidian, …): not reported as uri.unknown-scheme nor taken for a misspelt http, https or mailto"
    )
    public var customSchemes: [String] = []
    @Option(
        "check URI links: http(s) over the network (HEAD, then GET), file: and relative URIs on disk, mailto: syntax, #page=/#nameddest= fragments"
    )
    public var external = ExternalSection()
    @Option(
        "the link-accessibility rules (access.*, PDF/UA and WCAG): 'auto' checks documents that are tagged or claim PDF/UA (each against the part it claims; errors when it claims one, warnings otherwise) and says which it skipped; 'pdf-ua-1' or 'pdf-ua-2' holds every document to that part; 'off'"
    )
    public var accessibility = AccessibilityMode.auto

    public init() {}
}

/// `validate-links`' `accessibility` option: which documents the link-accessibility rules check.
public enum AccessibilityMode: String, Sendable, CaseIterable, OptionChoice {
    /// No check.
    case off
    /// Documents that are tagged (`/MarkInfo /Marked true` with a `/StructTreeRoot`) or claim
    /// PDF/UA in their XMP (`pdfuaid:part`): each against the part it claims, PDF/UA-1 when it
    /// claims none. An untagged document that claims nothing is said to be skipped.
    case auto
    /// Every document held to PDF/UA-1 (or -2): what fails is an error.
    case pdfUA1 = "pdf-ua-1"
    case pdfUA2 = "pdf-ua-2"
}
