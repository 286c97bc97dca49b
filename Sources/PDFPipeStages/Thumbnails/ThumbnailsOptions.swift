import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import Synchronization
import SystemIO

/// The image formats thumbnails are written in.
public enum ImageFormat: String, Sendable, CaseIterable, OptionChoice {
    case png, jpeg, webp
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// A thumbnail's background.
public enum ThumbnailBackground: String, Sendable, CaseIterable, OptionChoice {
    case white, transparent
}

/// What `thumbnails` draws over the page.
public enum ThumbnailOverlay: String, Sendable, CaseIterable, OptionChoice {
    case none, links
}

extension PageBox: OptionChoice {}

/// `thumbnails`' options (`with`).
public struct ThumbnailsOptions: OptionGroup {
    @Option(in: 0...20_000, "fit into this width in pixels (0: no limit)") public var width = 200
    @Option(in: 0...20_000, "fit into this height in pixels (0: no limit)") public var height = 0
    @Option(in: 0...2400, "render at this resolution instead of fitting (0: fit)") public var dpi = 0.0
    @Option("fit every page into the box, enlarging small ones (false: never larger than 1 px per point)")
    public var upscale = true
    @Option("pages to render ('1', '1-3', '2,5,last', 'all', 'last-2'…)") public var pages = PageRanges.one
    @Option("page background (transparent writes RGBA)") public var background = ThumbnailBackground.white
    @Option(in: 0...9, "PNG compression level: 1 is fast, 9 small") public var compression = 1
    @Option(
        "page box to render; poppler renders no farther than the crop box, so a larger box (media, often) is cut to it"
    )
    package var box = PageBox.crop
    @Option(
        "draw annotations (notes, stamps, form fields, link borders); false renders the page content only, as pdftoppm -hide-annotations"
    )
    public var annotations = true
    @Option(EngineOption.summary, listed: EngineOption.listed) package var engine = PageEngine.poppler
    @Option("draw link rectangles (needs validate-links earlier in the pipeline)") public var overlay =
        ThumbnailOverlay.none
    @Option("image format") public var format = ImageFormat.png
    @Option(in: 1...100, "JPEG and WebP quality") public var quality = 85
    @Option(
        "file names: {stem} (document path without .pdf), {name}, {page}, {page:03}, {ext}; {page} may be left out when pages names one page ('{stem}.png' with pages '1')"
    )
    public var template = "{stem}/{page}.{ext}"
    @Option("folder in the output folder") public var folder = "thumbnails"
    @Option(in: 0...64, "threads for the pages of one document; 0: automatic") public var pageWorkers = 0
    @Option("also write one image per document with its thumbnails in a grid") public var contactSheet = false
    @Option(in: 1...50, "columns of the contact sheet") public var contactSheetColumns = 6
    @Option("skip documents whose thumbnails are up to date (same content, same options); --force renders again")
    public var incremental = true
    @Option(
        in: 0...100_000,
        "seconds one page may take to render (0: no limit); past it the page and the rest of the document are not rendered (pdf.limit-exceeded)"
    )
    public var renderSeconds = 10.0
    @Option(
        in: 0...1_000_000_000,
        "pixels one page may have (0: cairo's limit only); a larger page is rendered at the resolution that fits, with a pdf.limit-exceeded warning"
    )
    public var maxPixels = 50_000_000
    @Option(
        in: 0...1_000_000_000_000,
        "pixels the thumbnails of one document may have in all (0: no limit); the pages past it, in page order, are not rendered (pdf.limit-exceeded)"
    )
    public var documentPixels = 1_000_000_000
    @Option(
        in: 0...1_000_000,
        "seconds the thumbnails of one document may take in all (0: no limit); pages not started by then are not rendered (pdf.limit-exceeded)"
    )
    public var documentSeconds = 120.0

    public init() {}
}
