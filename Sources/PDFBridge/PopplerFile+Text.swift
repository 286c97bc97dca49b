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
        let (text, marks, words) = selection(all)
        let forward = (text, Self.unmirrored(boxes(all), words, text: text))
        guard vertical || marks || text.allSatisfy(\.properties.isWhitespace) || text.contains(where: Self.isCJK) else {
            return forward
        }
        // From the top right to the bottom left; and down the middle (which, on a page mostly
        // right to left, reads the last lines that both corners miss).
        var merged: (text: [Unicode.Scalar], boxes: [PDFRect]) = forward
        for other in [
            PopplerRectangle(x1: width, y1: 0, x2: 0, y2: height),
            PopplerRectangle(x1: width / 2, y1: 0, x2: width / 2, y2: height),
        ] {
            let read = selection(other)
            merged = Self.mergeLines(merged, (read.text, Self.unmirrored(boxes(other), read.words, text: read.text)))
        }
        // A line none of the three reads takes (a right-to-left last line of a block: the end
        // point maps before it) is in poppler's selection by whole lines, which has no boxes:
        // each line it covers is read on its own, both ways, and the lines merged in page order.
        // Done on every page with right-to-left text (a lost line's letters may all be in other
        // lines, so no count tells), and where the whole lines have more.
        let whole = wholeLines()
        if marks || Self.lacks(merged.text, of: whole) || Self.lineCount(whole) > Self.lineCount(merged.text) {
            var text: [Unicode.Scalar] = []
            var boxes: [PDFRect] = []
            for band in lineBands().prefix(Self.maxBands) {
                var best: (text: [Unicode.Scalar], boxes: [PDFRect]) = ([], [])
                for area in [
                    PopplerRectangle(x1: band.x2, y1: band.middle, x2: band.x1, y2: band.middle),
                    PopplerRectangle(x1: band.x1, y1: band.middle, x2: band.x2, y2: band.middle),
                ] {
                    let s = selection(area)
                    let read = (text: s.text, boxes: Self.unmirrored(self.boxes(area), s.words, text: s.text))
                    if read.text.count == read.boxes.count, read.text.count > best.text.count { best = read }
                }
                guard !best.boxes.isEmpty else { continue }
                if let last = boxes.last {
                    text.append("\n")
                    boxes.append(PDFRect(last.x2, last.y1, last.x2, last.y2))
                }
                text += best.text
                boxes += best.boxes
            }
            merged = Self.mergeLines(merged, (text, boxes))
        }
        return merged
    }

    /// Lines read one by one at most (`textAndLayoutBothWays`); past it the rest are not.
    static let maxBands = 2_000

    /// The lines of `text` with something other than white space.
    static func lineCount(_ text: [Unicode.Scalar]) -> Int {
        var n = 0
        var blank = true
        for c in text {
            if c == "\n" {
                if !blank { n += 1 }
                blank = true
            } else if !c.properties.isWhitespace {
                blank = false
            }
        }
        return blank ? n : n + 1
    }

    /// Whether `text` lacks characters `other` has (white space aside, counted over the page).
    static func lacks(_ text: [Unicode.Scalar], of other: [Unicode.Scalar]) -> Bool {
        var count: [Unicode.Scalar: Int] = [:]
        for c in other where !c.properties.isWhitespace { count[c, default: 0] += 1 }
        for c in text where count[c] != nil { count[c]! -= 1 }
        return count.values.contains { $0 > 0 }
    }

    /// The page's text as poppler selects it by whole lines (the first and last taken whole,
    /// whatever their direction), bidi controls left out. The corresponding C function is
    /// `poppler_page_get_selected_text` with `POPPLER_SELECTION_LINE`.
    func wholeLines() -> [Unicode.Scalar] {
        let (width, height) = size
        var all = PopplerRectangle(x1: 0, y1: 0, x2: width, y2: height)
        let s = document.log.capture {
            PopplerFile.string(poppler_page_get_selected_text(page, POPPLER_SELECTION_LINE, &all)) ?? ""
        }
        return s.unicodeScalars.filter { u in
            !((0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value))
        }
    }

    /// The boxes of the lines poppler selects by whole lines, top to bottom: the rectangles of the
    /// selected region, one per line (merged where two touch on one row). The corresponding C
    /// function is `poppler_page_get_selected_region`.
    func lineBands() -> [(x1: Double, x2: Double, middle: Double)] {
        let (width, height) = size
        var all = PopplerRectangle(x1: 0, y1: 0, x2: width, y2: height)
        return document.log.capture {
            guard let region = poppler_page_get_selected_region(page, 1, POPPLER_SELECTION_LINE, &all) else {
                return []
            }
            defer { cairo_region_destroy(region) }
            let n = Int(cairo_region_num_rectangles(region))
            var bands: [(x1: Double, x2: Double, middle: Double)] = []
            for i in 0..<min(n, Self.maxBands) {
                var r = cairo_rectangle_int_t()
                cairo_region_get_rectangle(region, Int32(i), &r)
                guard r.width > 0, r.height > 0 else { continue }
                bands.append((Double(r.x), Double(r.x + r.width), Double(r.y) + Double(r.height) / 2))
            }
            return bands.sorted { $0.middle < $1.middle }
        }
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
        let trailing = placeTrailing(pending, of: backward, among: fLines.map { extent(forward, $0) }, into: &inserted)
        for (j, r) in fLines.enumerated() {
            for b in inserted[j] ?? [] { add(backward, b) }
            if let b = replacement[j] { add(backward, b) } else { add(forward, r) }
        }
        for b in trailing { add(backward, b) }
        if forward.text.last == "\n", let last = boxes.last {
            text.append("\n")
            boxes.append(PDFRect(last.x2, last.y1, last.x2, last.y2))
        }
        return (text, boxes)
    }

    /// poppler's selection of the whole page by whole lines (`wholeLines`): its first and last
    /// lines are taken whole, where the glyph selections `textAndLayout` reads (the only ones
    /// poppler gives boxes for) take them from a corner in reading order.
    package func charactersReadAnotherWay() -> [Unicode.Scalar]? { wholeLines() }

    /// Places lines of `backward` after its last line shared with the forward read: each before
    /// the first forward line (`forwardLines`, their extents) below it that it overlaps across the
    /// page (the two reads may share no line at all); returns those that go at the end.
    private static func placeTrailing(
        _ lines: [Range<Int>], of backward: (text: [Unicode.Scalar], boxes: [PDFRect]), among forwardLines: [PDFRect?],
        into inserted: inout [Int: [Range<Int>]]
    ) -> [Range<Int>] {
        var trailing: [Range<Int>] = []
        for b in lines {
            guard let e = extent(backward, b),
                let j = forwardLines.firstIndex(where: { f in
                    f.map { $0.y1 + $0.y2 > e.y1 + e.y2 && min($0.x2, e.x2) > max($0.x1, e.x1) } ?? false
                })
            else {
                trailing.append(b)
                continue
            }
            inserted[j, default: []].append(b)
        }
        return trailing
    }

    /// The box around a line's characters (white space and empty boxes aside).
    private static func extent(_ t: (text: [Unicode.Scalar], boxes: [PDFRect]), _ r: Range<Int>) -> PDFRect? {
        r.lazy.filter { !t.text[$0].properties.isWhitespace && t.boxes[$0].height > 0 }.map { t.boxes[$0] }
            .reduce(nil) { u, b in
                u.map { PDFRect(min($0.x1, b.x1), min($0.y1, b.y1), max($0.x2, b.x2), max($0.y2, b.y2)) } ?? b
            }
    }

    /// The text of a glyph selection, without poppler's bidi embedding controls; whether it had any;
    /// and the right-to-left words it marked (`unmirrored`).
    private func selection(_ area: PopplerRectangle) -> (text: [Unicode.Scalar], marks: Bool, words: [RightToLeftRun]) {
        var area = area
        let s = document.log.capture {
            PopplerFile.string(poppler_page_get_selected_text(page, POPPLER_SELECTION_GLYPH, &area)) ?? ""
        }
        return Self.strippingControls(s.unicodeScalars)
    }

    /// `text` without bidi controls (U+202A–U+202E, U+2066–U+2069); whether it had any; and the
    /// right-to-left runs poppler marked: each range (in the text without the controls) between a
    /// right-to-left embedding or override and its pop, with the left-to-right runs nested in it
    /// (digits, Latin words, weak punctuation). A run with deeper nesting is left out.
    static func strippingControls(_ text: some Sequence<Unicode.Scalar>) -> (
        text: [Unicode.Scalar], marks: Bool, words: [RightToLeftRun]
    ) {
        var out: [Unicode.Scalar] = []
        var runs = RunTracker()
        var marks = false
        for u in text {
            if (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value) {
                marks = true
                runs.control(u.value, at: out.count)
            } else {
                out.append(u)
            }
        }
        return (out, marks, runs.runs)
    }

    /// The embeddings open while poppler's text is read (`strippingControls`).
    struct RunTracker {
        var runs: [RightToLeftRun] = []
        private var depth = 0
        private var run: (start: Int, depth: Int, nested: [Range<Int>], nestedStart: Int?, valid: Bool)?

        /// A bidi control, `at` the position in the text without them.
        mutating func control(_ c: UInt32, at position: Int) {
            switch c {
            case 0x202A, 0x202B, 0x202D, 0x202E:  // LRE, RLE, LRO, RLO
                depth += 1
                let rtl = c == 0x202B || c == 0x202E
                if run == nil {
                    if rtl { run = (position, depth, [], nil, true) }
                } else if depth == run!.depth + 1 && !rtl {
                    run!.nestedStart = position
                } else {
                    run!.valid = false
                }
            case 0x202C:  // PDF
                if let r = run {
                    if depth == r.depth {
                        if r.valid, r.start < position {
                            runs.append(RightToLeftRun(range: r.start..<position, nested: r.nested))
                        }
                        run = nil
                    } else if depth == r.depth + 1, let s = r.nestedStart {
                        run!.nested.append(s..<position)
                        run!.nestedStart = nil
                    }
                }
                depth = max(0, depth - 1)
            default:
                run?.valid = false  // isolates: not poppler's
            }
        }
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { c.properties.numericType == .decimal }

    /// A right-to-left run of poppler's selection text (`strippingControls`).
    struct RightToLeftRun {
        var range: Range<Int>
        /// Left-to-right runs inside it.
        var nested: [Range<Int>]
    }

    /// `boxes` paired with the text of a selection whose right-to-left runs (`strippingControls`)
    /// poppler gives in logical order but boxes in the order of the page, left to right: the first
    /// letter of an Arabic word got its last glyph's box, so the gap between two words was measured
    /// from their wrong ends and words poppler kept whole were split ("ﺑﻪ ﺳﺘﻪ ی" for "ﺑﻪﺳﺘﻪی").
    /// poppler's text of such a run is its glyphs backwards, each left-to-right run nested in it
    /// forwards: so are its boxes put. Left as they are when the boxes do not pair with the text
    /// (`text`), for a run whose boxes already run right to left, and for one with digits.
    static func unmirrored(_ boxes: [PDFRect], _ runs: [RightToLeftRun], text: [Unicode.Scalar]) -> [PDFRect] {
        guard boxes.count == text.count, !runs.isEmpty else { return boxes }
        var boxes = boxes
        for run in runs where run.range.count > 1 && boxes[run.range.first!].x1 < boxes[run.range.last!].x1 {
            // Digits (Arabic-Indic ones too) run left to right: poppler does not reverse them.
            guard run.range.allSatisfy({ k in run.nested.contains { $0.contains(k) } || !isDigit(text[k]) }) else {
                continue
            }
            boxes[run.range].reverse()
            // A nested run's glyphs stand in the mirror of its place, forwards: the whole run
            // reversed put them backwards at its place.
            for n in run.nested { boxes[n].reverse() }
        }
        return boxes
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
