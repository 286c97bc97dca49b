internal import CMuPDF
import PDFReader

/// The libraries that render pages and read their text: poppler (always built in) and MuPDF
/// (built in with the `MuPDF` package trait: `swift build --traits MuPDF`). Stages see a document
/// and its pages through `EngineDocument` and `EnginePage` and do not know which engine runs.
package enum PageEngine: String, Sendable, CaseIterable {
    case poppler, mupdf

    /// Whether this build has the engine.
    package var isAvailable: Bool { self == .poppler || pp_mu_available() != 0 }

    /// How to get an engine this build lacks.
    package static let mupdfHowTo =
        "build pdfpipe with it: swift build --traits MuPDF (needs libmupdf-dev: scripts/setup.sh --mupdf)"

    /// Opens `path` with the engine (each thread opens its own).
    package func open(_ path: String) throws(BridgeError) -> any EngineDocument {
        switch self {
        case .poppler: return try PopplerFile(path: path)
        case .mupdf: return try MuPDFFile(path: path)
        }
    }
}

/// A document opened by one engine, used by one thread.
package protocol EngineDocument: AnyObject {
    var pageCount: Int { get }
    /// Page `index` (0-based), or nil when the engine cannot load it.
    func enginePage(_ index: Int) -> (any EnginePage)?
    /// What the library said since the last call (warnings, syntax errors).
    func drainMessages() -> [String]
}

/// One page of an `EngineDocument`.
package protocol EnginePage {
    /// Points as displayed: the crop box, width and height swapped for 90/270.
    var size: (width: Double, height: Double) { get }
    /// The page as a viewer shows it, `scale` pixels per point; `region` (points from the top left
    /// of the displayed page) renders only that part.
    func render(
        scale: Double, transparent: Bool, annotations: Bool,
        region: (x: Double, y: Double, width: Double, height: Double)?
    ) throws(BridgeError) -> CairoImage
    /// The same, stoppable from another thread through `cancel` when the engine can be
    /// (`cancellable`: MuPDF's cookie; poppler-glib and cairo have no such hook).
    func render(
        scale: Double, transparent: Bool, annotations: Bool,
        region: (x: Double, y: Double, width: Double, height: Double)?, cancel: RenderCancel?
    ) throws(BridgeError) -> CairoImage
    var cancellable: Bool { get }
    /// The text, and a box per scalar in points from the top left of the displayed page (the
    /// pixel space of a rendering at scale 1); throws when the engine cannot read the page's text
    /// (which is not the same as a page without text).
    func textAndLayout() throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect])
    /// The same, told that the page's fonts write vertically (`vertical`): an engine that reads
    /// such columns only when asked (poppler) then reads the page in every direction.
    func textAndLayout(vertical: Bool) throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect])
    /// The text the page's annotations and form fields draw, as `textAndLayout` gives the content's;
    /// nil when the engine reads it per document instead (poppler: `AnnotationLayer`).
    func annotationTextAndLayout() throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect])?
    /// The number of images the page draws.
    var imageCount: Int { get }
    /// Whether annotations or form fields of the page may draw text, when the engine can tell from
    /// the page it loaded (MuPDF); nil when it cannot (poppler: the caller looks at the objects).
    var mayDrawAnnotationText: Bool? { get }
    /// The page's text read another of the engine's own ways (bidi controls left out, lines kept):
    /// a second opinion on `textAndLayout`, which may lose lines of mixed direction (poppler); nil
    /// when the engine has no other way.
    func charactersReadAnotherWay() -> [Unicode.Scalar]?
}

/// Stops one render from another thread (`EnginePage.render(…cancel:)`): MuPDF's `fz_cookie`.
package final class RenderCancel: @unchecked Sendable {
    let handle: OpaquePointer?
    package init() { handle = pp_mu_cancel_new() }
    deinit { pp_mu_cancel_free(handle) }
    /// Asks the render to stop; it then fails ("the render was stopped").
    package func cancel() { pp_mu_cancel_now(handle) }
}

extension EnginePage {
    package func render(
        scale: Double, transparent: Bool, annotations: Bool,
        region: (x: Double, y: Double, width: Double, height: Double)?, cancel: RenderCancel?
    ) throws(BridgeError) -> CairoImage {
        try render(scale: scale, transparent: transparent, annotations: annotations, region: region)
    }
    package var cancellable: Bool { false }
    package var mayDrawAnnotationText: Bool? { nil }
    package func charactersReadAnotherWay() -> [Unicode.Scalar]? { nil }
    package func textAndLayout(vertical: Bool) throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect]) {
        try textAndLayout()
    }
}

extension PopplerFile: EngineDocument {
    package func enginePage(_ index: Int) -> (any EnginePage)? { page(index) }
    package func drainMessages() -> [String] { log.drain().messages }
}

extension PopplerFilePage: EnginePage {
    package func textAndLayout() -> (text: [Unicode.Scalar], boxes: [PDFRect]) { textAndLayoutBothWays() }
    package func textAndLayout(vertical: Bool) -> (text: [Unicode.Scalar], boxes: [PDFRect]) {
        textAndLayoutBothWays(vertical: vertical)
    }

    /// poppler-glib reads no annotation text of a page: `AnnotationLayer` reads a document's.
    package func annotationTextAndLayout() -> (text: [Unicode.Scalar], boxes: [PDFRect])? { nil }
}

/// A document read by MuPDF (its own context: one thread), closed in `deinit`.
package final class MuPDFFile: EngineDocument {
    let handle: OpaquePointer
    package let pageCount: Int

    /// The MuPDF version linked in, or nil when this build has no MuPDF.
    package static var version: String? {
        pp_mu_available() != 0 ? String(cString: pp_mu_version()) : nil
    }

    package init(path: String) throws(BridgeError) {
        var needsPassword: Int32 = 0
        var err = [CChar](repeating: 0, count: 512)
        guard let h = pp_mu_open(path, &needsPassword, &err, err.count) else {
            let message = Self.message(err)
            if needsPassword != 0 { throw .passwordRequired(library: "MuPDF", message: message) }
            throw .mupdf(message: message)
        }
        handle = h
        pageCount = Int(pp_mu_page_count(h))
    }

    deinit { pp_mu_close(handle) }

    package func enginePage(_ index: Int) -> (any EnginePage)? {
        guard index >= 0, index < pageCount else { return nil }
        var w = 0.0
        var h = 0.0
        var err = [CChar](repeating: 0, count: 256)
        guard let page = pp_mu_load_page(handle, Int32(index), &w, &h, &err, err.count) else { return nil }
        return MuPDFPage(document: self, page: page, size: (w, h))
    }

    package func drainMessages() -> [String] {
        guard let p = pp_mu_drain_warnings(handle) else { return [] }
        defer { pp_mu_free(p) }
        return String(cString: p).split(separator: "\n").map(String.init)
    }

    static func message(_ err: [CChar]) -> String {
        String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One loaded page of a `MuPDFFile` (keeps the document alive), dropped in `deinit`.
package final class MuPDFPage: EnginePage {
    let document: MuPDFFile
    let page: OpaquePointer
    package let size: (width: Double, height: Double)

    init(document: MuPDFFile, page: OpaquePointer, size: (width: Double, height: Double)) {
        self.document = document
        self.page = page
        self.size = size
    }

    deinit { pp_mu_drop_page(document.handle, page) }

    package var cancellable: Bool { true }

    package func render(
        scale: Double, transparent: Bool = false, annotations: Bool = true,
        region: (x: Double, y: Double, width: Double, height: Double)? = nil
    ) throws(BridgeError) -> CairoImage {
        try render(scale: scale, transparent: transparent, annotations: annotations, region: region, cancel: nil)
    }

    package func render(
        scale: Double, transparent: Bool, annotations: Bool,
        region: (x: Double, y: Double, width: Double, height: Double)?, cancel: RenderCancel?
    ) throws(BridgeError) -> CairoImage {
        // Sized as poppler sizes it (one helper), so that both engines give the same image sizes.
        let image = try CairoImage(page: region.map { ($0.width, $0.height) } ?? size, scale: scale)
        var err = [CChar](repeating: 0, count: 512)
        let ok = image.withMutablePixels { data, stride in
            pp_mu_render(
                document.handle, page, scale, region?.x ?? 0, region?.y ?? 0, transparent ? 1 : 0, annotations ? 1 : 0,
                data, Int32(image.width), Int32(image.height), Int32(stride), cancel?.handle, &err, err.count)
        }
        guard ok != 0 else { throw .mupdf(message: MuPDFFile.message(err)) }
        return image
    }

    package func textAndLayout() throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect]) {
        let (text, boxes, _, error) = read(images: false)
        if let error { throw .mupdf(message: error) }
        return (text, boxes)
    }

    /// What `fz_run_page_annots` and `fz_run_page_widgets` draw (what the content does not).
    package func annotationTextAndLayout() throws(BridgeError) -> (text: [Unicode.Scalar], boxes: [PDFRect])? {
        let (text, boxes, _, error) = read(images: false, layer: 1)
        if let error { throw .mupdf(message: error) }
        return (text, boxes)
    }

    package var imageCount: Int { read(images: true).images }

    /// From the annotations MuPDF loaded with the page (no second reading of the file's objects).
    package var mayDrawAnnotationText: Bool? { pp_mu_page_has_annotations(document.handle, page) != 0 }

    func read(images: Bool, layer: Int32 = 0) -> (
        text: [Unicode.Scalar], boxes: [PDFRect], images: Int, error: String?
    ) {
        var chars: UnsafeMutablePointer<UInt32>?
        var boxes: UnsafeMutablePointer<Double>?
        var count = 0
        var n: Int32 = 0
        var err = [CChar](repeating: 0, count: 256)
        let ok =
            images
            ? pp_mu_text(document.handle, page, layer, &chars, &boxes, &count, &n, &err, err.count)
            : pp_mu_text(document.handle, page, layer, &chars, &boxes, &count, nil, &err, err.count)
        guard ok != 0 else {
            let message = MuPDFFile.message(err)
            return ([], [], 0, message.isEmpty ? "MuPDF cannot read the page's text" : message)
        }
        defer {
            pp_mu_free(chars)
            pp_mu_free(boxes)
        }
        var text: [Unicode.Scalar] = []
        var rects: [PDFRect] = []
        text.reserveCapacity(count)
        rects.reserveCapacity(count)
        for i in 0..<count {
            // A code MuPDF could not map (invalid as a scalar) reads as U+FFFD, as poppler gives it.
            text.append(Unicode.Scalar(chars![i]) ?? "\u{FFFD}")
            let b = boxes! + 4 * i
            rects.append(PDFRect(b[0], b[1], b[2], b[3]))
        }
        return (text, rects, Int(n), nil)
    }
}
