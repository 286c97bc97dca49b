import PDFBridge
import PDFPipeCore
import PDFReader

/// The words a reader sees under a link — "see Section 4.2", "https://example.org" — so that a
/// finding row says which link on the page is broken (#21). Read from poppler's text layer: the
/// characters whose centre lies inside the link rectangle, in reading order, whitespace collapsed.
///
/// Only for findings about a link annotation (page and rectangle known) that the caller wants (the
/// stage: warning or above), and only when a document
/// has such findings: poppler is opened for them alone (its messages are not reported here; this
/// is a label, not a check — a document poppler cannot open simply gets no text).
package enum LinkText {
    /// Findings per document given a text (the HTML report shows 200 rows per document).
    static let maxFindings = 500
    /// Characters kept; longer text ends with "…".
    static let maxLength = 120

    /// Adds `linkText` to the findings that concern a link rectangle on a page; with `markEmpty`,
    /// an empty `linkText` where the page was read and no text lies under the link (absent: not read).
    /// `limit`: the findings given a text at most (the labels: `maxFindings`).
    package static func annotate(
        _ findings: inout [Finding], path: String, geometries: [PageGeometry],
        where wanted: (Finding) -> Bool = { _ in true }, markEmpty: Bool = false, limit: Int = maxFindings
    ) {
        var pages: [Int: [Int]] = [:]  // page → indices of findings
        var n = 0
        for (i, f) in findings.enumerated() where n < limit {
            guard let p = f.page, p >= 1, p <= geometries.count, let r = f.rect, r.count == 4,
                f.annotationIndex != nil, f.details["linkText"] == nil, wanted(f)
            else { continue }
            // No text can lie under a link of no area or off the page (source3.pdf's off-page
            // links cost a poppler open of 1,300 pages for nothing).
            let rect = PDFRect(min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3]))
            guard rect.width > 0, rect.height > 0, let on = rect.intersection(geometries[p - 1].visibleBox),
                on.width > 0, on.height > 0
            else { continue }
            pages[p, default: []].append(i)
            n += 1
        }
        guard !pages.isEmpty, let poppler = try? PopplerFile(path: path) else { return }
        for p in pages.keys.sorted() {
            guard let page = poppler.page(p - 1) else { continue }
            let read = page.textAndLayoutBothWays()
            let (text, boxes) = TextAssembler.respace(read.text, read.boxes)
            guard text.count == boxes.count else { continue }
            if text.isEmpty {
                if markEmpty { for i in pages[p]! { findings[i].details["linkText"] = "" } }
                continue
            }
            for i in pages[p]! {
                let r = findings[i].rect!
                let area = LinkGeometry.pixelRect(PDFRect(r[0], r[1], r[2], r[3]), on: geometries[p - 1], scale: 1)
                if let s = under(area, text: text, boxes: boxes) {
                    findings[i].details["linkText"] = .string(s)
                } else if markEmpty {
                    // The page's text was read and none lies under the link.
                    findings[i].details["linkText"] = ""
                }
            }
        }
    }

    /// The text whose characters' centres lie in `area` (pixel space at scale 1), or nil.
    static func under(_ area: PixelRect, text: [Unicode.Scalar], boxes: [PDFRect]) -> String? {
        // A little slack: link rectangles are often drawn tight around the glyphs' boxes.
        let x1 = area.x - 1
        let x2 = area.x + area.width + 1
        let y1 = area.y - 1
        let y2 = area.y + area.height + 1
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for (c, b) in zip(text, boxes) {
            let cx = (b.x1 + b.x2) / 2
            let cy = (b.y1 + b.y2) / 2
            let inside = cx >= x1 && cx <= x2 && cy >= y1 && cy <= y2 && b.width > 0
            // The cheap test first: most of a page's characters lie outside a given link.
            if !inside || c.properties.isWhitespace {
                // A break between two pieces inside (a line end, or text outside in between).
                if !out.isEmpty { pendingSpace = true }
                continue
            }
            if c.properties.generalCategory == .control || c.properties.generalCategory == .format { continue }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(c)
            if out.count > maxLength { break }
        }
        guard !out.isEmpty else { return nil }
        var s = String(out)
        if s.unicodeScalars.count > maxLength {
            s = String(String.UnicodeScalarView(s.unicodeScalars.prefix(maxLength - 1))) + "…"
        }
        return s
    }
}
