internal import CPoppler
import PDFReader

/// An ARGB32 cairo image surface, destroyed in `deinit`.
package final class CairoImage {
    let surface: OpaquePointer
    package let width: Int
    package let height: Int

    /// cairo's largest image side (pixman's limit).
    package static let maxSide = 32767

    /// The corresponding C function is `cairo_image_surface_create`.
    package init(width: Int, height: Int) throws(BridgeError) {
        guard width >= 0, height >= 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw .cairo(message: "cannot make a \(width)x\(height) image: larger than \(Self.maxSide) pixels a side")
        }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        surface = s
        self.width = width
        self.height = height
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(
                message: "cannot make a \(width)x\(height) image: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    deinit { cairo_surface_destroy(surface) }

    /// An image for a page (or part of one) of `page` points at `scale` pixels per point, each side
    /// rounded up, at least one pixel. Both engines render into one of these, so they give the same
    /// sizes. The size comes from the page's boxes: hostile (NaN, infinite, 400 digits) until
    /// checked, and refused past cairo's limit.
    package convenience init(page: (width: Double, height: Double), scale: Double) throws(BridgeError) {
        let (w, h) = (page.width * scale, page.height * scale)
        guard let pw = PDFNumber.int(w, rounding: .up), let ph = PDFNumber.int(h, rounding: .up), pw <= Self.maxSide,
            ph <= Self.maxSide
        else {
            throw .cairo(message: "cannot render the page at \(PDFNumber.text(w)) x \(PDFNumber.text(h)) pixels")
        }
        try self.init(width: max(1, pw), height: max(1, ph))
    }

    /// Lets `body` write the pixels (ARGB32, premultiplied, native endian; `stride` bytes a row).
    func withMutablePixels<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) -> R) -> R {
        cairo_surface_flush(surface)
        let r = body(cairo_image_surface_get_data(surface), Int(cairo_image_surface_get_stride(surface)))
        cairo_surface_mark_dirty(surface)
        return r
    }

    /// The pixel at (x, y) from the top left, as (red, green, blue), 0...255.
    package func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let p = data + y * stride + x * 4
        // ARGB32 is native-endian: B, G, R, A on little-endian machines.
        let v = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
        return (UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
    }

}

extension CairoImage {
    /// Reads a PNG file. The corresponding C function is `cairo_image_surface_create_from_png`.
    package convenience init(png path: String) throws(BridgeError) {
        guard let s = cairo_image_surface_create_from_png(path), cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            throw .cairo(message: "\(path): not a readable PNG")
        }
        defer { cairo_surface_destroy(s) }
        let w = Int(cairo_image_surface_get_width(s))
        let h = Int(cairo_image_surface_get_height(s))
        try self.init(width: w, height: h)
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_surface(cr, s, 0, 0)
        cairo_paint(cr)
        cairo_surface_flush(surface)
    }

    /// Strokes a rectangle (pixels, top left origin) in a colour (0...1 components).
    package func strokeRect(
        x: Double, y: Double, width: Double, height: Double, red: Double, green: Double, blue: Double, lineWidth: Double
    ) {
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_set_line_width(cr, lineWidth)
        cairo_rectangle(cr, x, y, width, height)
        cairo_stroke(cr)
        cairo_surface_flush(surface)
    }
}

extension CairoImage {
    /// Paints the whole image in one colour.
    package func fill(red: Double, green: Double, blue: Double) {
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_paint(cr)
        cairo_surface_flush(surface)
    }

    /// Paints another image at (x, y).
    package func draw(_ image: CairoImage, x: Int, y: Int) {
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_surface(cr, image.surface, Double(x), Double(y))
        cairo_paint(cr)
        cairo_surface_flush(surface)
    }
}
