/// A rectangle in PDF user space, normalized so that `x1 <= x2` and `y1 <= y2`.
package struct PDFRect: Sendable, Equatable, CustomStringConvertible {
    package var x1: Double
    package var y1: Double
    package var x2: Double
    package var y2: Double

    package init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        x1 = min(a, c)
        x2 = max(a, c)
        y1 = min(b, d)
        y2 = max(b, d)
    }

    package var width: Double { x2 - x1 }
    package var height: Double { y2 - y1 }
    package var array: [Double] { [x1, y1, x2, y2] }

    /// The overlap of two rectangles, or nil when they do not overlap.
    package func intersection(_ o: PDFRect) -> PDFRect? {
        let r = PDFRect(max(x1, o.x1), max(y1, o.y1), min(x2, o.x2), min(y2, o.y2))
        return max(x1, o.x1) <= min(x2, o.x2) && max(y1, o.y1) <= min(y2, o.y2) ? r : nil
    }

    package var description: String { "[\(array.map(PDFNumber.text).joined(separator: " "))]" }
}
