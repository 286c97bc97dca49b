import PDFBridge

/// Puts back the word and line breaks that poppler's selection text (`poppler_page_get_text`) leaves
/// out: it runs together words that sit apart on the page ("3Tutorial", "hyperref1" in a table of
/// contents), where `pdftotext` separates them. Each character's box says where it is: a jump to
/// another line becomes a line break, a gap wider than a tenth of the text's height a space — the
/// rule pdftotext's own text engine applies.
public enum TextAssembler {
    /// - Returns: the text with the breaks added, and a box per scalar (added breaks get an empty
    ///   box at the end of the character before them).
    public static func respace(_ text: [Unicode.Scalar], _ boxes: [PDFRect]) -> ([Unicode.Scalar], [PDFRect]) {
        guard text.count == boxes.count, text.count > 1 else { return (text, boxes) }
        var outText: [Unicode.Scalar] = []
        var outBoxes: [PDFRect] = []
        outText.reserveCapacity(text.count + text.count / 8)
        outBoxes.reserveCapacity(text.count + text.count / 8)
        for i in 0..<text.count {
            let c = text[i]
            if i > 0, !isSpace(c), !isSpace(text[i - 1]), let br = separator(boxes[i - 1], boxes[i]) {
                outText.append(br)
                let a = boxes[i - 1]
                outBoxes.append(PDFRect(a.x2, a.y1, a.x2, a.y2))
            }
            outText.append(c)
            outBoxes.append(boxes[i])
        }
        return dehyphenate(outText, outBoxes)
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

    /// White space, with a fast path for ASCII (the Unicode property lookup is slow).
    @inline(__always) static func isSpace(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 { return c.value == 0x20 || (c.value >= 0x09 && c.value <= 0x0D) }
        return c.properties.isWhitespace
    }

    /// The break between two consecutive characters, if any.
    static func separator(_ a: PDFRect, _ b: PDFRect) -> Unicode.Scalar? {
        let ha = a.height
        let hb = b.height
        guard ha > 0, hb > 0 else { return nil }
        let size = min(ha, hb)
        let vOverlap = min(a.y2, b.y2) - max(a.y1, b.y1)
        let hOverlap = min(a.x2, b.x2) - max(a.x1, b.x1)
        if vOverlap > 0.5 * size {
            // Left-to-right text on one line.
            let gap = b.x1 - a.x2
            if gap > 0.1 * size { return " " }
            if b.x1 < a.x1 - size { return "\n" }  // back to the left: another column or line
            return nil
        }
        let wa = a.width
        let wb = b.width
        if wa > 0, wb > 0, hOverlap > 0.5 * min(wa, wb) {
            // Text running up or down the page (turned pages): the same rule along y.
            let gap = max(b.y1 - a.y2, a.y1 - b.y2)
            return gap > 0.1 * min(wa, wb) ? " " : nil
        }
        return "\n"
    }
}
