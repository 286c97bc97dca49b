import PDFBridge
import PDFReader

/// Puts back the word and line breaks that poppler's selection text (`poppler_page_get_text`) leaves
/// out: it runs together words that sit apart on the page ("3Tutorial", "hyperref1" in a table of
/// contents), where `pdftotext` separates them. Each character's box says where it is: a jump to
/// another line becomes a line break, a gap wider than a tenth of the text's height a space — the
/// rule pdftotext's own text engine applies.
package enum TextAssembler {
    /// Puts the breaks back.
    ///
    /// Script-aware: between two CJK characters (Han, kana, CJK punctuation; not Hangul, which
    /// spaces its words) a gap is a space only from a quarter of an em (a character's advance) —
    /// Chinese and Japanese set with extra room between characters ("发 票") are words all the
    /// same, as pdftotext reads them — and a space character between two of them that sit closer
    /// than that (MuPDF adds one at 0.15 em) is left out.
    ///
    /// - Parameter addSpaces: whether gaps become spaces. MuPDF's text has its spaces already,
    ///   decided on its own measure of the pen's advance: more added from its character boxes would
    ///   split kerned words ("r epresent") that `mutool`, pdftotext and PDFium keep whole.
    /// - Returns: the text with the breaks added, and a box per scalar (added breaks get an empty
    ///   box at the end of the character before them).
    package static func respace(_ text: [Unicode.Scalar], _ boxes: [PDFRect], addSpaces: Bool = true) -> (
        [Unicode.Scalar], [PDFRect]
    ) {
        guard text.count == boxes.count, !text.isEmpty else { return (text, boxes) }
        // poppler's words of a line in logical order first (MuPDF's text is in its own order).
        let (text, boxes) = addSpaces ? logicalOrder(text, boxes) : (text, boxes)
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        outText.reserveCapacity(text.count + text.count / 8)
        outBoxes.reserveCapacity(text.count + text.count / 8)
        var last: Int?  // the character before, a space left out aside
        var base: Int?  // the last letter (not a mark) since the last space
        for i in 0..<text.count {
            // A control character is a glyph the engine could not map to text (a Type 3 font
            // without /ToUnicode; MuPDF reads ZapfDingbats' check mark as U+0014): U+FFFD, as
            // MuPDF gives an unmappable glyph, never a control code in a text file. Tabs and line
            // breaks stay.
            let c = isControl(text[i]) ? "\u{FFFD}" : text[i]
            // A narrow space between two CJK characters is no word break.
            if c == " ", let p = last, i + 1 < text.count, isCJK(text[p]), isCJK(text[i + 1]),
                separator(boxes[p], boxes[i + 1], cjk: true) == nil
            {
                continue
            }
            if addSpaces, c == " ", let p = last, isSpaceToLeaveOut(at: i, after: p, base: base, text, boxes) {
                continue
            }
            defer {
                last = i
                if isSpace(c) { base = nil } else if !isMark(c) { base = i }
            }
            // A combining mark (an Arabic vowel sign, an accent) sits on its letter wherever its
            // box is, and engines box it apart from the letter: no break is added beside it.
            if let p = last, !isSpace(c), !isSpace(text[p]), !isMark(c), !isMark(text[p]),
                let br = separator(
                    runBox(p, beside: i, text, boxes), runBox(i, beside: p, text, boxes),
                    cjk: isCJK(text[p]) && isCJK(c), rtl: isRTL(text[p]) || isRTL(c)),
                addSpaces || br != " "
            {
                outText.append(br)
                let a = boxes[p]
                outBoxes.append(PDFRect(a.x2, a.y1, a.x2, a.y2))
            }
            outText.append(c)
            outBoxes.append(boxes[i])
        }
        if addSpaces { (outText, outBoxes) = marksAfterLetters(outText, outBoxes) }
        return dehyphenate(outText, outBoxes)
    }

    /// Whether poppler's space at `i` (after `p`) is no word break: one beside a combining mark
    /// (`isSpaceInWord`), or one between two right-to-left letters whose glyphs touch — poppler's
    /// selection text puts the spaces of a right-to-left line where they stand in the line's
    /// visual order, not its logical one ("ﭘﻮﺧﺘﻪی ﺑﺎﺳﻪ ﻛﻪ" for "ﭘﻮﺧﺘﻪی ﺑﺎﺳﻪﻛﻪ"). (Where two letters
    /// stand apart, however little, the space stays: the boxes' height, an Arabic font's ascent
    /// and descent, overstates the size a word space is measured against.)
    static func isSpaceToLeaveOut(at i: Int, after p: Int, base: Int?, _ text: [Unicode.Scalar], _ boxes: [PDFRect])
        -> Bool
    {
        if isSpaceInWord(at: i, after: p, base: base, text, boxes) { return true }
        return i + 1 < text.count && isRTLLetter(text[p]) && isRTLLetter(text[i + 1])
            && touching(boxes[p], boxes[i + 1])
    }

    /// Whether the space at `i` (after `p`; `base` the last letter since the last space) is one
    /// poppler puts between a letter and its combining mark, or between two letters of one word
    /// where a mark parted them (its words break at marks whose boxes stand apart): no gap between
    /// the letters, no space. Measured from letter to letter.
    static func isSpaceInWord(at i: Int, after p: Int, base: Int?, _ text: [Unicode.Scalar], _ boxes: [PDFRect])
        -> Bool
    {
        guard i + 1 < text.count, isMark(text[p]) || isMark(text[i + 1]),
            let right = (i + 1..<min(text.count, i + 8)).first(where: { !isMark(text[$0]) }), !isSpace(text[right]),
            let left = isMark(text[p]) ? base : p
        else { return false }
        return separator(boxes[left], boxes[right], rtl: isRTL(text[left]) || isRTL(text[right])) == nil
    }

    /// The box of the character at `k` or, where it is a right-to-left letter and `other` (its
    /// neighbour in the text) is neither one nor white space, the box of its right-to-left run
    /// (the letters and marks about it, at most 64 each way): what stands beside a run in logical
    /// order ("غضسج." on a Latin line, the full stop after the word's last letter) stands beside
    /// the run on the page, not beside that letter, which is at the run's far end.
    static func runBox(_ k: Int, beside other: Int, _ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> PDFRect {
        guard isRTLLetter(text[k]), !isRTL(text[other]), !isSpace(text[other]) else { return boxes[k] }
        var box = boxes[k]
        func add(_ j: Int) -> Bool {
            guard isRTLLetter(text[j]) || (isMark(text[j]) && isRTL(text[j])) else { return false }
            let b = boxes[j]
            if b.height > 0, b.x1.isFinite, b.x2.isFinite {
                box = PDFRect(min(box.x1, b.x1), min(box.y1, b.y1), max(box.x2, b.x2), max(box.y2, b.y2))
            }
            return true
        }
        var j = k - 1
        while j >= max(0, k - 64), add(j) { j -= 1 }
        j = k + 1
        while j < min(text.count, k + 65), add(j) { j += 1 }
        return box
    }

    /// Hebrew and Arabic letters (not their digits, which run left to right, nor marks).
    @inline(__always) static func isRTLLetter(_ c: Unicode.Scalar) -> Bool {
        guard isRTL(c) else { return false }
        switch c.properties.generalCategory {
        case .otherLetter, .modifierLetter, .lowercaseLetter, .uppercaseLetter, .titlecaseLetter: return true
        default: return false
        }
    }

    /// Whether `b`, the next character of a right-to-left line, touches or overlaps `a` on its left
    /// (both on one row).
    static func touching(_ a: PDFRect, _ b: PDFRect) -> Bool {
        let size = min(a.height, b.height)
        guard size > 0, min(a.y2, b.y2) - max(a.y1, b.y1) > 0.5 * size, b.x1 < a.x1 else { return false }
        return a.x1 - b.x2 <= 0.01 * size
    }

    /// Joins words hyphenated at a line end ("indepen-\ndently" reads "independently"), as
    /// pdftotext does: a hyphen between a letter ending a line and a lower-case letter starting
    /// the next is dropped with the break.
    static func dehyphenate(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> ([Unicode.Scalar], [PDFRect]) {
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        outText.reserveCapacity(text.count)
        outBoxes.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            // A word split at the line end: a letter before the hyphen and a lower-case letter
            // after the break ("indepen-\ndently"); a page number "-2-" before the next line's
            // "Page two." is no word (groff's footers), nor is "x-\nAxis" a split word for sure.
            if text[i] == "-", i > 0, i + 2 < text.count, text[i - 1].properties.isAlphabetic, text[i + 1] == "\n",
                text[i + 2].properties.isLowercase
            {
                i += 2
                continue
            }
            outText.append(text[i])
            outBoxes.append(boxes[i])
            i += 1
        }
        return (outText, outBoxes)
    }

    /// C0 control characters but tab, line feed, form feed and carriage return; and DEL.
    @inline(__always) static func isControl(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && !(0x09...0x0D).contains(c.value) && c.value != 0x0C) || c.value == 0x7F
    }

    /// Combining marks (general categories Mn, Mc, Me): vowel signs, accents, Indic matras.
    @inline(__always) static func isMark(_ c: Unicode.Scalar) -> Bool {
        guard c.value >= 0x300 else { return false }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// White space, with a fast path for ASCII (the Unicode property lookup is slow).
    @inline(__always) static func isSpace(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 { return c.value == 0x20 || (c.value >= 0x09 && c.value <= 0x0D) }
        return c.properties.isWhitespace
    }

    /// Han ideographs, kana, and CJK punctuation and full-width forms: scripts written without
    /// spaces between words.
    @inline(__always) static func isCJK(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF:
            return true
        default: return false
        }
    }

    /// Hebrew and Arabic letters (and their presentation forms): scripts written right to left.
    @inline(__always) static func isRTL(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
        default: return false
        }
    }

    /// The break between two consecutive characters, if any; `cjk` when both are CJK characters
    /// (a gap must be a quarter of the height to be a space).
    /// `rtl` when either is a right-to-left letter: then text runs leftwards on its line.
    static func separator(_ a: PDFRect, _ b: PDFRect, cjk: Bool = false, rtl: Bool = false) -> Unicode.Scalar? {
        let ha = a.height
        let hb = b.height
        guard ha > 0, hb > 0 else { return nil }
        let size = min(ha, hb)
        let vOverlap = min(a.y2, b.y2) - max(a.y1, b.y1)
        let hOverlap = min(a.x2, b.x2) - max(a.x1, b.x1)
        if vOverlap > 0.5 * size {
            if rtl && b.x2 <= a.x1 + 0.5 * min(a.width, b.width) {
                // Right-to-left text on one line: the next character is left of this one.
                return a.x1 - b.x2 > 0.1 * size ? " " : nil
            }
            // Left-to-right text on one line.
            // CJK characters are as wide as they are high (an em): their width is the measure,
            // whatever height each engine gives their boxes.
            let gap = b.x1 - a.x2
            if gap > (cjk ? 0.25 * min(a.width, b.width) : 0.1 * size) { return " " }
            if b.x1 < a.x1 - size { return "\n" }  // back to the left: another column or line
            return nil
        }
        let wa = a.width
        let wb = b.width
        if wa > 0, wb > 0, hOverlap > 0.5 * min(wa, wb) {
            // Text running up or down the page (turned pages): the same rule along y.
            let gap = max(b.y1 - a.y2, a.y1 - b.y2)
            return gap > (cjk ? 0.25 * min(ha, hb) : 0.1 * min(wa, wb)) ? " " : nil
        }
        return "\n"
    }
}

extension TextAssembler {
    /// The page's text with its annotations' text put where a reader meets it: each line an
    /// annotation draws goes into the content line beside it (left to right), or, when none is
    /// beside it, as a line of its own before the first content line below it (preferring one
    /// under it). Both texts come assembled (`respace`). Returns the text, its boxes, and per
    /// scalar whether it came from an annotation.
    package static func merge(
        content: ([Unicode.Scalar], [PDFRect]), annotations: ([Unicode.Scalar], [PDFRect])
    ) -> (text: [Unicode.Scalar], boxes: [PDFRect], fromAnnotation: [Bool]) {
        let (text, boxes) = content
        let units = lines(annotations.0, annotations.1).flatMap { split($0, in: annotations.0, annotations.1) }
        guard !units.isEmpty else { return (text, boxes, []) }
        let placed = place(units, in: content)
        return assemble(content, placed, extra: units.reduce(0) { $0 + $1.text.count + 2 })
    }

    /// Where a unit of annotation text goes: before index `at` of the content's text, in its line
    /// or on a line of its own; `key` orders units that go to one place.
    struct Placed {
        var at: Int
        var ownLine: Bool
        var key: (Double, Double)
        var unit: Line
    }

    /// Where each unit goes (units the content draws already are left out), in the content's order.
    static func place(_ units: [Line], in content: ([Unicode.Scalar], [PDFRect])) -> [Placed] {
        let (text, boxes) = content
        let contentLines = lines(text, boxes)
        var placed: [Placed] = []
        // Past this many, a page is hostile: the rest go at the end, in the engine's order.
        let budget = 5_000
        for (n, u) in units.enumerated() {
            guard n < budget, let ub = u.box else {
                placed.append(Placed(at: text.count, ownLine: true, key: (.infinity, Double(n)), unit: u))
                continue
            }
            // Of the lines beside it (two columns give two), the nearest across the page.
            let beside = contentLines.compactMap { l -> (line: Line, distance: Double)? in
                guard let b = l.box, besides(b, ub) else { return nil }
                return (l, max(0, b.x1 - ub.x2, ub.x1 - b.x2))
            }
            // Text the content draws already, at the same place (a form's button whose caption
            // the page prints too, text drawn twice to look bold): read once, as pdftotext does.
            if beside.contains(where: { drawnAlready(u, in: $0.line, text, boxes) }) { continue }
            if let line = beside.min(by: { $0.distance < $1.distance })?.line {
                // Into the line, before the first word whose first character's middle is right
                // of the unit's (never inside a word).
                let middle = (ub.x1 + ub.x2) / 2
                var at =
                    (line.start..<line.end).first { i in
                        !isSpace(text[i]) && (boxes[i].x1 + boxes[i].x2) / 2 > middle
                    } ?? line.end
                while at > line.start, at < line.end, !isSpace(text[at - 1]) { at -= 1 }
                placed.append(Placed(at: at, ownLine: false, key: (ub.x1, ub.y1), unit: u))
                continue
            }
            let below = contentLines.filter { ($0.box?.y1 ?? -.infinity) > ub.y1 }
            let under = below.first { l in l.box.map { min($0.x2, ub.x2) > max($0.x1, ub.x1) } ?? false }
            let at = (under ?? below.first)?.start ?? text.count
            placed.append(Placed(at: at, ownLine: true, key: (ub.y1, ub.x1), unit: u))
        }
        return placed.sorted { a, b in
            if a.at != b.at { return a.at < b.at }
            if a.ownLine != b.ownLine { return !a.ownLine }
            return a.key.0 != b.key.0 ? a.key.0 < b.key.0 : a.key.1 < b.key.1
        }
    }

    /// The content's text with the placed units in it, spaces or line breaks around them.
    static func assemble(_ content: ([Unicode.Scalar], [PDFRect]), _ placed: [Placed], extra: Int) -> (
        text: [Unicode.Scalar], boxes: [PDFRect], fromAnnotation: [Bool]
    ) {
        let (text, boxes) = content
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        var mask: [Bool] = []
        outText.reserveCapacity(text.count + extra)
        outBoxes.reserveCapacity(text.count + extra)
        mask.reserveCapacity(text.count + extra)
        func add(_ c: Unicode.Scalar, _ b: PDFRect, _ annotation: Bool) {
            outText.append(c)
            outBoxes.append(b)
            mask.append(annotation)
        }
        func breakAfterLast(_ c: Unicode.Scalar) {
            let b = outBoxes.last.map { PDFRect($0.x2, $0.y1, $0.x2, $0.y2) } ?? PDFRect(0, 0, 0, 0)
            add(c, b, false)
        }
        var next = 0
        for p in placed {
            while next < p.at {
                add(text[next], boxes[next], false)
                next += 1
            }
            if p.ownLine {
                if let last = outText.last, last != "\n" { breakAfterLast("\n") }
                for (c, b) in zip(p.unit.text, p.unit.boxes) { add(c, b, true) }
                if next < text.count { breakAfterLast("\n") }
            } else {
                if let last = outText.last, !isSpace(last) { breakAfterLast(" ") }
                for (c, b) in zip(p.unit.text, p.unit.boxes) { add(c, b, true) }
                if next < text.count, !isSpace(text[next]) { breakAfterLast(" ") }
            }
        }
        while next < text.count {
            add(text[next], boxes[next], false)
            next += 1
        }
        return (outText, outBoxes, mask)
    }

    /// Whether every character of `unit` is drawn by `line` too: the same character, whose box
    /// holds the middle of the unit's.
    static func drawnAlready(_ unit: Line, in line: Line, _ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> Bool {
        var any = false
        for (c, b) in zip(unit.text, unit.boxes) where !isSpace(c) {
            let (x, y) = ((b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2)
            let found = (line.start..<line.end).contains { i in
                text[i] == c && boxes[i].x1 <= x && x <= boxes[i].x2 && boxes[i].y1 <= y && y <= boxes[i].y2
            }
            guard found else { return false }
            any = true
        }
        return any
    }

    /// A line of assembled text: its range in the text, its characters (trimmed) and the box
    /// around them (nil when none has a box).
    struct Line {
        var start: Int
        var end: Int
        var text: ArraySlice<Unicode.Scalar>
        var boxes: ArraySlice<PDFRect>
        var box: PDFRect?
    }

    /// A line of annotation text cut where a wide gap parts it (two fields side by side are read
    /// as one line by the engine): each part goes beside the content next to it.
    static func split(_ line: Line, in text: [Unicode.Scalar], _ boxes: [PDFRect]) -> [Line] {
        guard let height = line.box?.height, height > 0 else { return [line] }
        var out: [Line] = []
        var start = line.text.startIndex
        var previous: Int?  // the last non-space character
        for i in line.text.indices where !isSpace(text[i]) {
            if let p = previous, p + 1 < i, boxes[i].x1 - boxes[p].x2 > 1.5 * height {
                out += lines(Array(text[start...p]), Array(boxes[start...p])).map { shifted($0, by: start) }
                start = i
            }
            previous = i
        }
        let end = line.text.endIndex
        out += lines(Array(text[start..<end]), Array(boxes[start..<end])).map { shifted($0, by: start) }
        return out
    }

    /// A line found in a part of the text, with its indices in the whole.
    private static func shifted(_ l: Line, by offset: Int) -> Line {
        Line(
            start: l.start + offset, end: l.end + offset, text: l.text, boxes: l.boxes, box: l.box)
    }

    /// The lines of `text` (split at line breaks, blank ones left out).
    static func lines(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> [Line] {
        guard text.count == boxes.count else { return [] }
        var out: [Line] = []
        var start = 0
        func flush(_ end: Int) {
            var s = start
            var e = end
            while s < e, isSpace(text[s]) { s += 1 }
            while e > s, isSpace(text[e - 1]) { e -= 1 }
            guard s < e else { return }
            var box: PDFRect?
            for i in s..<e where !isSpace(text[i]) {
                let b = boxes[i]
                guard b.x1.isFinite, b.y1.isFinite, b.x2.isFinite, b.y2.isFinite, b.height > 0 else { continue }
                box = box.map { PDFRect(min($0.x1, b.x1), min($0.y1, b.y1), max($0.x2, b.x2), max($0.y2, b.y2)) } ?? b
            }
            out.append(Line(start: start, end: end, text: text[s..<e], boxes: boxes[s..<e], box: box))
        }
        for i in 0..<text.count where text[i] == "\n" {
            flush(i)
            start = i + 1
        }
        flush(text.count)
        return out
    }

    /// Whether a line's box and a unit's are on one line of the page: they overlap by more than
    /// half of the lower one's height.
    static func besides(_ line: PDFRect, _ unit: PDFRect) -> Bool {
        let overlap = min(line.y2, unit.y2) - max(line.y1, unit.y1)
        return overlap > 0.5 * min(line.height, unit.height)
    }
}
