import PDFReader

extension TextAssembler {
    /// The words of each line of a page that holds right-to-left text put in logical (reading)
    /// order, from where they sit on the page.
    ///
    /// poppler's selection text keeps the characters of a word in logical order but, on a page
    /// whose text is mostly right to left, gives the words of a left-to-right line from right to
    /// left ("and texnegar using XeTeX Engine:" for "Engine: XeTeX using texnegar and"), and on a
    /// left-to-right page the words of an Arabic run from left to right (visual order); the
    /// character after a reversed word then sits left of the one before, which `respace` reads as
    /// a new line. `pdftotext` orders them by the Unicode bidirectional algorithm; this does the
    /// same at the level of words:
    /// - a word is cut where its next (left-to-right) character does not follow the one before:
    ///   the engine runs words read the wrong way together ("日本語.Русский,");
    /// - each word is right to left (it has Hebrew or Arabic letters), left to right (other
    ///   letters) or neutral (digits, punctuation: they take the direction of the words on both
    ///   sides when those agree, else the line's);
    /// - a line's direction is that of its letters or, where it has both, the page's (that of
    ///   most of its letters: a document's paragraphs share one direction far more often than a
    ///   line's letters say);
    /// - the words are read in the line's direction, each run of words in the other direction in
    ///   its own.
    ///
    /// A line whose words are not side by side (not one row on the page), or that has more than
    /// `maxWords`, is left as it is.
    static func logicalOrder(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> ([Unicode.Scalar], [PDFRect]) {
        guard text.count == boxes.count, text.contains(where: isRTL) else { return (text, boxes) }
        let (text, boxes) = reversingVisualRuns(text, boxes)
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        outText.reserveCapacity(text.count)
        outBoxes.reserveCapacity(text.count)
        // A line with words of both directions is read in the page's: a document's paragraphs
        // share one direction far more often than its lines' letters say.
        let rtl = text.reduce(0) { $0 + (isRTL($1) ? 1 : 0) }
        let letters = text.reduce(0) { $0 + ($1.properties.isAlphabetic && !isMark($1) ? 1 : 0) }
        let page: Direction = 2 * rtl > letters ? .rtl : .ltr
        var start = 0
        for i in 0...text.count where i == text.count || text[i] == "\n" {
            let (t, b) = orderedLine(text[start..<i], boxes[start..<i], page: page)
            outText += t
            outBoxes += b
            if i < text.count {
                outText.append(text[i])
                outBoxes.append(boxes[i])
            }
            start = i + 1
        }
        return (outText, outBoxes)
    }

    /// Right-to-left letters poppler gives in the order of the page, left to right, put in logical
    /// order: LuaTeX draws each Arabic glyph as a word of its own, which poppler, on a line it reads
    /// left to right, lists from the left ("زومر" for "رموز"; with the vowel signs, each placed at
    /// the left edge of its letter, "يِ ذّ َ لا" for "الَّذِي"). A run of right-to-left letters each
    /// right beside the one before (the next one's box begins where the last one's ends), with
    /// the marks among them, is reversed character by character (so each mark lands after its
    /// letter), and the spaces poppler put beside those marks are left out. Letters of one
    /// word in logical order run leftwards and are left alone, as are words apart.
    static func reversingVisualRuns(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> ([Unicode.Scalar], [PDFRect]) {
        var runs: [Range<Int>] = []
        var i = 0
        while i < text.count {
            guard isRTLLetter(text[i]), boxes[i].height > 0 else {
                i += 1
                continue
            }
            var last = i  // the run's last letter
            var end = i + 1
            var j = i + 1
            while j < text.count {
                let c = text[j]
                if isMark(c) && isRTL(c) {
                    j += 1
                    end = j
                } else if c == " ", isMark(text[j - 1]) || (j + 1 < text.count && isMark(text[j + 1])) {
                    j += 1
                } else if isRTLLetter(c), beside(boxes[last], boxes[j]) {
                    last = j
                    j += 1
                    end = j
                } else {
                    break
                }
            }
            if last > i { runs.append(i..<end) }
            i = end
        }
        guard !runs.isEmpty else { return (text, boxes) }
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        outText.reserveCapacity(text.count)
        outBoxes.reserveCapacity(text.count)
        var at = 0
        for run in runs {
            outText += text[at..<run.lowerBound]
            outBoxes += boxes[at..<run.lowerBound]
            for k in run.reversed() where text[k] != " " {
                outText.append(text[k])
                outBoxes.append(boxes[k])
            }
            at = run.upperBound
        }
        outText += text[at...]
        outBoxes += boxes[at...]
        return (outText, outBoxes)
    }

    /// Right-to-left combining marks (vowel signs, shadda) put after the letter they belong to where
    /// the page gives them before it.
    ///
    /// In logical order a mark follows its letter, so a word never begins with one; but poppler,
    /// reversing a right-to-left word it holds in the order of the page, puts each mark before its
    /// letter when the producer drew the mark after the letter from the left (Chromium and Typst:
    /// "ِبْسِم" for "بِسْمِ"), and after it when the producer drew it first (LuaTeX). Which a page
    /// did is told by its right-to-left words: where more begin with a mark than end with one,
    /// every run of marks in them moves after the letter that follows it. A page of the other kind,
    /// or one that does not tell, is left as it is.
    static func marksAfterLetters(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> ([Unicode.Scalar], [PDFRect]) {
        guard text.count == boxes.count, text.contains(where: { isMark($0) && isRTL($0) }) else { return (text, boxes) }
        // Right-to-left words: runs without white space that hold a right-to-left letter.
        var words: [Range<Int>] = []
        var start = 0
        for i in 0...text.count where i == text.count || isSpace(text[i]) {
            if start < i, text[start..<i].contains(where: { isRTL($0) && !isMark($0) }) { words.append(start..<i) }
            start = i + 1
        }
        let begin = words.reduce(0) { $0 + (isMark(text[$1.lowerBound]) ? 1 : 0) }
        let end = words.reduce(0) { $0 + (isMark(text[$1.upperBound - 1]) ? 1 : 0) }
        guard begin > end else { return (text, boxes) }
        var text = text
        var boxes = boxes
        for w in words {
            var i = w.lowerBound
            while i < w.upperBound {
                guard isMark(text[i]) else {
                    i += 1
                    continue
                }
                var j = i
                while j < w.upperBound, isMark(text[j]) { j += 1 }
                guard j < w.upperBound else { break }  // marks ending the word stay
                // text[i..<j] are marks, text[j] their letter: the letter first.
                let letter = (text[j], boxes[j])
                for k in stride(from: j, to: i, by: -1) {
                    text[k] = text[k - 1]
                    boxes[k] = boxes[k - 1]
                }
                text[i] = letter.0
                boxes[i] = letter.1
                i = j + 1
            }
        }
        return (text, boxes)
    }

    /// Whether `b` begins where `a` ends, on its right (one row; a tenth of the height apart at most).
    private static func beside(_ a: PDFRect, _ b: PDFRect) -> Bool {
        let size = min(a.height, b.height)
        guard size > 0, min(a.y2, b.y2) - max(a.y1, b.y1) > 0.5 * size else { return false }
        return b.x1 >= a.x1 + 0.5 * min(a.width, b.width) && abs(b.x1 - a.x2) <= 0.1 * size
    }

    /// Past this many words a line is left in the engine's order (hostile pages).
    static let maxWords = 2_000

    private enum Direction { case ltr, rtl, neutral }

    private struct Word {
        var range: Range<Int>
        var direction: Direction
        var left: Double
        var box: PDFRect
    }

    /// One line in logical order (see `logicalOrder`); words are joined by one space.
    private static func orderedLine(
        _ text: ArraySlice<Unicode.Scalar>, _ boxes: ArraySlice<PDFRect>, page: Direction
    ) -> (
        ArraySlice<Unicode.Scalar>, ArraySlice<PDFRect>
    ) {
        guard let (words, rtl, ltr) = words(text, boxes), words.count > 1, let first = words.first?.box else {
            return (text, boxes)
        }
        // One row of the page: every word beside the first.
        for w in words {
            let overlap = min(first.y2, w.box.y2) - max(first.y1, w.box.y1)
            guard overlap > 0.5 * min(first.height, w.box.height) else { return (text, boxes) }
        }
        let base: Direction = rtl > 0 && ltr > 0 ? page : rtl > 0 ? .rtl : .ltr
        var visual = words.sorted { $0.left < $1.left }
        // Neutrals take the direction of both neighbours when they agree, else the line's.
        for k in visual.indices where visual[k].direction == .neutral {
            let before = visual[..<k].last { $0.direction != .neutral }?.direction
            let after = visual[(k + 1)...].first { $0.direction != .neutral }?.direction
            visual[k].direction = before == after ? (before ?? base) : base
        }
        // Runs of one direction, in visual order; read in the line's direction, each run in its own.
        var runs: [[Word]] = []
        for w in visual {
            if let last = runs.last?.last, last.direction == w.direction {
                runs[runs.count - 1].append(w)
            } else {
                runs.append([w])
            }
        }
        if base == .rtl { runs.reverse() }
        let ordered = runs.flatMap { $0.first?.direction == .rtl ? $0.reversed() : $0 }
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        for w in ordered {
            if let last = outBoxes.last {
                outText.append(" ")
                outBoxes.append(PDFRect(last.x2, last.y1, last.x2, last.y2))
            }
            outText += text[w.range]
            outBoxes += boxes[w.range]
        }
        return (outText[...], outBoxes[...])
    }

    /// A line's words (`logicalOrder`), and how many right-to-left and other letters it has; nil
    /// past `maxWords` or when a word has no box.
    private static func words(_ text: ArraySlice<Unicode.Scalar>, _ boxes: ArraySlice<PDFRect>) -> (
        words: [Word], rtl: Int, ltr: Int
    )? {
        var words: [Word] = []
        var rtl = 0
        var ltr = 0
        var i = text.startIndex
        while i < text.endIndex {
            guard !isSpace(text[i]) else {
                i += 1
                continue
            }
            var j = i
            var r = 0
            var l = 0
            var box: PDFRect?
            var previous: Int?  // the last letter of the word (not a mark)
            while j < text.endIndex, !isSpace(text[j]) {
                let c = text[j]
                // Words the engine ran together ("日本語.Русский," for two words read from right
                // to left): a character not next to the one before in its direction starts a word.
                // (Left-to-right characters only: the boxes of Arabic letters with their vowel
                // signs do not follow one another.)
                if let p = previous, !isMark(c), !isRTL(c), !isRTL(text[p]),
                    separator(boxes[p], boxes[j], cjk: isCJK(text[p]) && isCJK(c)) != nil
                {
                    break
                }
                if !isMark(c) { previous = j }
                if isRTL(c) { r += 1 } else if c.properties.isAlphabetic && !isMark(c) { l += 1 }
                let b = boxes[j]
                if !isMark(c), b.height > 0, b.x1.isFinite, b.x2.isFinite, b.y1.isFinite, b.y2.isFinite {
                    box =
                        box.map { PDFRect(min($0.x1, b.x1), min($0.y1, b.y1), max($0.x2, b.x2), max($0.y2, b.y2)) } ?? b
                }
                j += 1
            }
            guard let box, words.count < maxWords else { return nil }
            words.append(Word(range: i..<j, direction: r > 0 ? .rtl : l > 0 ? .ltr : .neutral, left: box.x1, box: box))
            rtl += r
            ltr += l
            i = j
        }
        return (words, rtl, ltr)
    }

    /// The characters of `other` (the page read another way) that `text` lacks, counted over the
    /// page (white space aside, in any order: the two readings order words differently).
    static func unread(_ other: [Unicode.Scalar], comparedTo text: [Unicode.Scalar]) -> Int {
        var missing: [Unicode.Scalar: Int] = [:]
        for c in other where !isSpace(c) { missing[c, default: 0] += 1 }
        for c in text where missing[c] != nil { missing[c]! -= 1 }
        return missing.values.reduce(0) { $0 + max(0, $1) }
    }
}
