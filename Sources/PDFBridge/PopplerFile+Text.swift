internal import CPoppler

extension PopplerFilePage {
    /// One rectangle per character of `text` (in the order of its Unicode scalars), in points with
    /// the origin at the top left of the page as displayed (crop box, `/Rotate` applied): the pixel
    /// space of a rendering at scale 1. The corresponding C function is `poppler_page_get_text_layout`.
    public var textLayout: [PDFRect] {
        document.log.capture {
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var n: guint = 0
            guard poppler_page_get_text_layout(page, &rects, &n) != 0, let rects else { return [] }
            defer { g_free(rects) }
            return (0..<Int(n)).map { i in PDFRect(rects[i].x1, rects[i].y1, rects[i].x2, rects[i].y2) }
        }
    }

    /// The number of images the page draws. The corresponding C function is
    /// `poppler_page_get_image_mapping`.
    public var imageCount: Int {
        document.log.capture {
            guard let list = poppler_page_get_image_mapping(page) else { return 0 }
            defer { poppler_page_free_image_mapping(list) }
            return Int(g_list_length(list))
        }
    }
}
