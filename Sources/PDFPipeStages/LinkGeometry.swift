import PDFBridge
import PDFReader

/// A rectangle in the pixel space of a rendered page: origin top left, y down.
package struct PixelRect: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Places PDF user-space rectangles (link `/Rect`s) on a page as a viewer shows it.
///
/// `/Rect` is in unrotated user space. Rendering shows the crop box (clipped to the media box),
/// turned clockwise by `/Rotate`. So: subtract the box origin, turn, flip y (pixels go down), scale.
/// The thumbnail overlay uses this same function.
package enum LinkGeometry {
    /// - Parameters:
    ///   - rect: in PDF user space.
    ///   - page: the page's boxes and rotation.
    ///   - scale: pixels per point.
    package static func pixelRect(_ rect: PDFRect, on page: PageGeometry, scale: Double) -> PixelRect {
        let box = page.visibleBox
        let w = box.width
        let h = box.height
        // Corners relative to the box origin.
        let u1 = rect.x1 - box.x1
        let u2 = rect.x2 - box.x1
        let v1 = rect.y1 - box.y1
        let v2 = rect.y2 - box.y1
        // (u, v) in points, y up  ->  (x, y) in points on the turned page, y down.
        func map(_ u: Double, _ v: Double) -> (Double, Double) {
            switch page.rotate {
            case 90: return (v, u)
            case 180: return (w - u, v)
            case 270: return (h - v, w - u)
            default: return (u, h - v)
            }
        }
        let (ax, ay) = map(u1, v1)
        let (bx, by) = map(u2, v2)
        return PixelRect(
            x: min(ax, bx) * scale, y: min(ay, by) * scale, width: abs(bx - ax) * scale, height: abs(by - ay) * scale)
    }

    /// The inverse: a rectangle in the pixel space of a rendering (top left, y down) back to PDF
    /// user space. poppler's text layout comes in that space at scale 1.
    package static func userRect(_ r: PixelRect, on page: PageGeometry, scale: Double) -> PDFRect {
        let box = page.visibleBox
        let w = box.width
        let h = box.height
        // (x, y) in points on the turned page, y down  ->  (u, v) from the box origin, y up.
        func unmap(_ x: Double, _ y: Double) -> (Double, Double) {
            switch page.rotate {
            case 90: return (y, x)
            case 180: return (w - x, y)
            case 270: return (w - y, h - x)
            default: return (x, h - y)
            }
        }
        let (u1, v1) = unmap(r.x / scale, r.y / scale)
        let (u2, v2) = unmap((r.x + r.width) / scale, (r.y + r.height) / scale)
        return PDFRect(u1 + box.x1, v1 + box.y1, u2 + box.x1, v2 + box.y1)
    }
}
