internal import CPoppler
import PDFReader

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}

extension PopplerFilePage {
    /// One rectangle per character of `text` (in the order of its Unicode scalars), in points with
    /// the origin at the top left of the page as displayed (crop box, `/Rotate` applied): the pixel
    /// space of a rendering at scale 1. The corresponding C function is `poppler_page_get_text_layout`.
    package var textLayout: [PDFRect] {
        document.log.capture {
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var n: guint = 0
            guard poppler_page_get_text_layout(page, &rects, &n) != 0, let rects else { return [] }
            defer { g_free(rects) }
            return (0..<Int(n)).map { i in PDFRect(rects[i].x1, rects[i].y1, rects[i].x2, rects[i].y2) }
        }
    }

    /// The page's text with a box per scalar (as `textLayout`), complete where poppler's own
    /// selection text is not.
    ///
    /// poppler-glib reads a page's text as a selection from its top left to its bottom right, and
    /// in the first and last line of the selection takes the characters between those points in
    /// reading order: for a right-to-left line (Arabic, Hebrew) or a column of vertical writing
    /// that is nothing, so those lines vanish (the title and date of an Arabic article: 12 of 56
    /// characters read; a page mostly in Hebrew: nothing). The same selection from the top right
    /// to the bottom left reads them and loses left-to-right lines instead, and one down the
    /// middle of the page reads last lines that both miss. Where the page has right-to-left or CJK
    /// text, or no text at all, or its fonts write vertically (`vertical`, from the page's fonts:
    /// a column that comes first or last in poppler's order vanishes from the forward read, and
    /// the lines beside it with it, so the first read cannot tell), all three are read and merged
    /// line by line (`mergeLines`), the forward one first. poppler marks right-to-left
    /// runs with embedding controls (U+202A–U+202E) that have no box: they are left out, so that
    /// text and boxes pair up.
    package func textAndLayoutBothWays(vertical: Bool = false) -> (text: [Unicode.Scalar], boxes: [PDFRect]) {
        let (width, height) = size
        let all = PopplerRectangle(x1: 0, y1: 0, x2: width, y2: height)
        let (text, marks) = selection(all)
        let forward = (text, boxes(all))
        guard vertical || marks || text.allSatisfy(\.properties.isWhitespace) || text.contains(where: Self.isCJK) else {
            return forward
        }
        // From the top right to the bottom left; and down the middle (which, on a page mostly
        // right to left, reads the last lines that both corners miss).
        var merged = forward
        for other in [
            PopplerRectangle(x1: width, y1: 0, x2: 0, y2: height),
            PopplerRectangle(x1: width / 2, y1: 0, x2: width / 2, y2: height),
        ] {
            merged = Self.mergeLines(merged, (selection(other).text, boxes(other)))
        }
        return merged
    }

    /// The lines of `forward` with what `backward` (the same page read the other way) has that they
    /// lack: a line of `backward` that shares characters with one of `forward` replaces it when it
    /// has more; one that shares none goes before the forward line that the next shared line of
    /// `backward` is in (both read the blocks in the same order). Characters are the same when
    /// their boxes are. Either text whose boxes do not pair with it is taken as it is.
    package static func mergeLines(
        _ forward: (text: [Unicode.Scalar], boxes: [PDFRect]), _ backward: (text: [Unicode.Scalar], boxes: [PDFRect])
    ) -> (text: [Unicode.Scalar], boxes: [PDFRect]) {
        guard forward.text.count == forward.boxes.count else {
            return backward.text.count == backward.boxes.count ? backward : forward
        }
        guard backward.text.count == backward.boxes.count else { return forward }
        struct Key: Hashable {
            var x: Int64, y: Int64, w: Int64, h: Int64
            init(_ r: PDFRect) {
                func q(_ v: Double) -> Int64 { v.isFinite ? Int64((v * 100).rounded().clamped(-1e15, 1e15)) : 0 }
                (x, y, w, h) = (q(r.x1), q(r.y1), q(r.x2), q(r.y2))
            }
        }
        func lines(_ t: [Unicode.Scalar]) -> [Range<Int>] {
            var out: [Range<Int>] = []
            var start = 0
            for i in t.indices where t[i] == "\n" {
                out.append(start..<i)
                start = i + 1
            }
            if start < t.count { out.append(start..<t.count) }
            return out
        }
        let fLines = lines(forward.text)
        var lineOf: [Key: Int] = [:]
        for (j, r) in fLines.enumerated() {
            for i in r where !forward.text[i].properties.isWhitespace { lineOf[Key(forward.boxes[i])] = j }
        }
        func visible(_ t: ArraySlice<Unicode.Scalar>) -> Int {
            t.reduce(0) { $0 + ($1.properties.isWhitespace ? 0 : 1) }
        }
        var replacement: [Int: Range<Int>] = [:]  // forward line → backward line
        var pending: [Range<Int>] = []  // backward lines forward lacks, waiting for a shared line
        var inserted: [Int: [Range<Int>]] = [:]  // before forward line
        for r in lines(backward.text) {
            let shared = r.lazy.filter { !backward.text[$0].properties.isWhitespace }.compactMap {
                lineOf[Key(backward.boxes[$0])]
            }.first
            guard let j = shared else {
                if visible(backward.text[r]) > 0 { pending.append(r) }
                continue
            }
            inserted[j, default: []] += pending
            pending = []
            if visible(backward.text[r]) > visible(forward.text[fLines[j]]) { replacement[j] = r }
        }
        guard !replacement.isEmpty || !inserted.isEmpty || !pending.isEmpty else { return forward }
        var text: [Unicode.Scalar] = []
        var boxes: [PDFRect] = []
        func add(_ source: (text: [Unicode.Scalar], boxes: [PDFRect]), _ r: Range<Int>) {
            if let last = boxes.last {
                text.append("\n")
                boxes.append(PDFRect(last.x2, last.y1, last.x2, last.y2))
            }
            text += source.text[r]
            boxes += source.boxes[r]
        }
        for (j, r) in fLines.enumerated() {
            for b in inserted[j] ?? [] { add(backward, b) }
            if let b = replacement[j] { add(backward, b) } else { add(forward, r) }
        }
        for b in pending { add(backward, b) }
        if forward.text.last == "\n", let last = boxes.last {
            text.append("\n")
            boxes.append(PDFRect(last.x2, last.y1, last.x2, last.y2))
        }
        return (text, boxes)
    }

    /// The text of a glyph selection, without poppler's bidi embedding controls; whether it had any.
    private func selection(_ area: PopplerRectangle) -> (text: [Unicode.Scalar], marks: Bool) {
        var area = area
        let s = document.log.capture {
            PopplerFile.string(poppler_page_get_selected_text(page, POPPLER_SELECTION_GLYPH, &area)) ?? ""
        }
        var marks = false
        let text = s.unicodeScalars.filter { u in
            let bidi = (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
            if bidi { marks = true }
            return !bidi
        }
        return (Array(text), marks)
    }

    /// The boxes of a glyph selection's characters. The corresponding C function is
    /// `poppler_page_get_text_layout_for_area`.
    private func boxes(_ area: PopplerRectangle) -> [PDFRect] {
        var area = area
        return document.log.capture {
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var n: guint = 0
            guard poppler_page_get_text_layout_for_area(page, &area, &rects, &n) != 0, let rects else { return [] }
            defer { g_free(rects) }
            return (0..<Int(n)).map { i in PDFRect(rects[i].x1, rects[i].y1, rects[i].x2, rects[i].y2) }
        }
    }

    /// Han, kana and CJK punctuation (vertical writing is CJK).
    static func isCJK(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// The number of images the page draws. The corresponding C function is
    /// `poppler_page_get_image_mapping`.
    package var imageCount: Int {
        document.log.capture {
            guard let list = poppler_page_get_image_mapping(page) else { return 0 }
            defer { poppler_page_free_image_mapping(list) }
            return Int(g_list_length(list))
        }
    }
}
