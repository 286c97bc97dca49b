internal import CPoppler
import Foundation
import PDFReader
import SystemIO

/// An open PDF read through poppler-glib. Owns its `PopplerDocument` and unrefs it in `deinit`.
/// Not Sendable: one document is never used by two threads (cairo crashes); each worker opens its
/// own. Poppler's log messages during any call land in `log`.
package final class PopplerFile {
    let doc: OpaquePointer
    package let path: String
    /// Poppler's messages about this document.
    package let log = LogSink()

    /// Opens `path`, with `password` for encrypted documents.
    /// The corresponding C function is `poppler_document_new_from_file`.
    package init(path: String, password: String? = nil) throws(BridgeError) {
        let absolute = path.hasPrefix("/") ? path : FileSystem.currentDirectory + "/" + path
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            throw .poppler(message: Self.take(error) ?? "cannot make a URI of \(path)")
        }
        defer { g_free(uri) }
        let sink = log
        let opened: OpaquePointer? = sink.capture { poppler_document_new_from_file(uri, password, &error) }
        doc = try Self.opened(opened, error, what: path)
        self.path = path
    }

    /// Opens a document held in memory (a copy pdfpipe made); `name` stands for it in messages.
    /// The corresponding C function is `poppler_document_new_from_bytes` (which keeps its own copy).
    package init(bytes: [UInt8], name: String) throws(BridgeError) {
        var error: UnsafeMutablePointer<GError>?
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        let sink = log
        let opened: OpaquePointer? = sink.capture { poppler_document_new_from_bytes(data, nil, &error) }
        doc = try Self.opened(opened, error, what: name)
        path = name
    }

    /// The document poppler opened, or the error it gave.
    private static func opened(_ document: OpaquePointer?, _ error: UnsafeMutablePointer<GError>?, what: String)
        throws(BridgeError) -> OpaquePointer
    {
        guard let document else {
            let code = error?.pointee.code ?? 0
            let isPassword =
                error != nil && error!.pointee.domain == poppler_error_quark()
                && code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            let message = Self.take(error) ?? "cannot open \(what)"
            if isPassword { throw .passwordRequired(library: "poppler", message: message) }
            throw .poppler(message: message)
        }
        return document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(doc)) }

    /// The GError's message, freeing the error.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }

    /// Takes a `gchar*` that the caller must free.
    static func string(_ p: UnsafeMutablePointer<gchar>?) -> String? {
        guard let p else { return nil }
        defer { g_free(p) }
        return String(cString: p)
    }

    package var pageCount: Int { Int(poppler_document_get_n_pages(doc)) }
    package var pdfVersion: String? { Self.string(poppler_document_get_pdf_version_string(doc)) }
    package var producer: String? { Self.string(poppler_document_get_producer(doc)) }
    package var isLinearized: Bool { poppler_document_is_linearized(doc) != 0 }

    /// A page by 0-based index. The corresponding C function is `poppler_document_get_page`.
    package func page(_ index: Int) -> PopplerFilePage? {
        let p: OpaquePointer? = log.capture { poppler_document_get_page(doc, Int32(index)) }
        return p.map { PopplerFilePage(page: $0, document: self) }
    }

    /// Looks up a named destination; nil when poppler does not find it.
    /// The corresponding C function is `poppler_document_find_dest`.
    package func findDestination(_ name: String) -> PopplerDestination? {
        guard let d = log.capture({ poppler_document_find_dest(doc, name) }) else { return nil }
        defer { poppler_dest_free(d) }
        return PopplerDestination(d.pointee)
    }
}

/// A destination as poppler resolves it.
package struct PopplerDestination: Sendable, Equatable {
    /// 1-based page number, or 0 when poppler has none.
    package var page: Int
    package var kind: String
    package var left: Double
    package var top: Double

    init(_ d: PopplerDest) {
        page = Int(d.page_num)
        kind =
            switch d.type {
            case POPPLER_DEST_XYZ: "XYZ"
            case POPPLER_DEST_FIT: "Fit"
            case POPPLER_DEST_FITH: "FitH"
            case POPPLER_DEST_FITV: "FitV"
            case POPPLER_DEST_FITR: "FitR"
            case POPPLER_DEST_FITB: "FitB"
            case POPPLER_DEST_FITBH: "FitBH"
            case POPPLER_DEST_FITBV: "FitBV"
            case POPPLER_DEST_NAMED: "Named"
            default: "Unknown"
            }
        left = d.left
        top = d.top
    }
}

/// One page of a `PopplerFile` (keeps the document alive). Unrefs its `PopplerPage` in `deinit`.
package final class PopplerFilePage {
    let page: OpaquePointer
    package let document: PopplerFile

    init(page: OpaquePointer, document: PopplerFile) {
        self.page = page
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(page)) }

    /// The page size in points as displayed: the crop box, width and height swapped for 90/270.
    package var size: (width: Double, height: Double) {
        var w = 0.0
        var h = 0.0
        poppler_page_get_size(page, &w, &h)
        return (w, h)
    }

    /// The crop box (clipped to the media box), unrotated.
    package var cropBox: PDFRect {
        var r = PopplerRectangle()
        poppler_page_get_crop_box(page, &r)
        return PDFRect(r.x1, r.y1, r.x2, r.y2)
    }

    /// The page label readers see (poppler gives the 1-based number when there are no labels).
    package var label: String? { PopplerFile.string(poppler_page_get_label(page)) }

    /// The page's text. The corresponding C function is `poppler_page_get_text`.
    package var text: String { document.log.capture { PopplerFile.string(poppler_page_get_text(page)) ?? "" } }

    /// Renders the page as a viewer shows it (rotation applied) on white, `scale` pixels per point.
    /// The corresponding C function is `poppler_page_render`; without annotations (notes, stamps,
    /// form fields, link borders: the page's content only) it is
    /// `poppler_page_render_for_printing_with_options` with `POPPLER_PRINT_DOCUMENT`, which is how
    /// `pdftoppm -hide-annotations` renders too.
    ///
    /// `region` (x, y, width, height, in points of the rendered page: top left, y down) renders only
    /// that part of it, for page boxes inside the crop box (poppler-glib renders no farther than it).
    package func render(
        scale: Double, transparent: Bool = false, annotations: Bool = true,
        region: (x: Double, y: Double, width: Double, height: Double)? = nil
    ) throws(BridgeError) -> CairoImage {
        let image = try CairoImage(page: region.map { ($0.width, $0.height) } ?? size, scale: scale)
        let cr = cairo_create(image.surface)
        defer { cairo_destroy(cr) }
        if !transparent {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
        }
        cairo_scale(cr, scale, scale)
        if let region { cairo_translate(cr, -region.x, -region.y) }
        if annotations {
            document.log.capture { poppler_page_render(page, cr) }
        } else {
            document.log.capture { poppler_page_render_for_printing_with_options(page, cr, POPPLER_PRINT_DOCUMENT) }
        }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(message: String(cString: cairo_status_to_string(status)))
        }
        cairo_surface_flush(image.surface)
        return image
    }
}
