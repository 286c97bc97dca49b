import PDFBridge

/// A rectangle in the pixel space of a rendered page: origin top left, y down.
public struct PixelRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
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
public enum LinkGeometry {
    /// - Parameters:
    ///   - rect: in PDF user space.
    ///   - page: the page's boxes and rotation.
    ///   - scale: pixels per point.
    public static func pixelRect(_ rect: PDFRect, on page: PageGeometry, scale: Double) -> PixelRect {
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
}
