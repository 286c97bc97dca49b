import Foundation

/// Right-to-left words drawn the ways that made pdfpipe split or reverse them (#63, 7), in a
/// Hebrew CID font whose points (niqqud) are combining marks without advance:
/// - `rightToLeftPage`: a page mostly in Hebrew. "בראשית" drawn in two pieces side by side (XeTeX
///   draws a word in several runs: poppler makes them words without a space between, and its
///   boxes for them ran the wrong way, so a space was put between the pieces); and "שָׁלוֹם" with
///   each point drawn after its letter from the left (Chromium, Typst: poppler puts the points
///   before their letters).
/// - `leftToRightPage`: a Latin line with a Hebrew word drawn glyph by glyph from the left
///   (LuaTeX: poppler lists the glyphs from the left, the word backwards).
///
/// Written with `TestPDF.write(path, objects: RightToLeftWordsPDF.rightToLeftPage())`.
public enum RightToLeftWordsPDF {
    /// The font's characters; CID i+1 is the i-th. Points (U+05B0–U+05C7) have no advance.
    static let characters: [Character] = Array("בראשיתלוםעדנ") + ["\u{05B8}", "\u{05C1}", "\u{05B9}"]
    static let size = 12.0
    static let advance = 0.6 * size

    static func cid(_ c: Character) -> String {
        String(format: "%04X", characters.firstIndex(of: c)! + 1)
    }

    static func isMark(_ c: Character) -> Bool { (0x05B0...0x05C7).contains(c.unicodeScalars.first!.value) }

    /// One text object drawing `glyphs` (in the page's order, left to right) from `x`; returns
    /// the object and the x after it.
    static func run(_ glyphs: [Character], at x: Double, _ y: Int, font: String = "H") -> (String, Double) {
        let width = Double(glyphs.filter { !isMark($0) }.count) * advance
        return (String(format: "BT /%@ 12 Tf %.2f %d Td <%@> Tj ET", font, x, y, glyphs.map(cid).joined()), x + width)
    }

    /// A Hebrew line drawn from the right end `right`: each word its pieces' glyphs left to right
    /// (the last piece leftmost), words 5 pt apart.
    static func line(_ words: [[[Character]]], _ y: Int, right: Double = 540) -> String {
        var x = right
        var objects: [String] = []
        for pieces in words {
            for piece in pieces {
                x -= Double(piece.filter { !isMark($0) }.count) * advance
                objects.append(run(piece, at: x, y).0)
            }
            x -= 5
        }
        return objects.joined(separator: " ")
    }

    public static func rightToLeftPage() -> [String] {
        let content = [
            // בראשית ברא: the first word in two runs, "בר" right of "אשית".
            line([[Array("רב"), Array("תישא")], [Array("ארב")]], 700),
            // שָׁלוֹם עולם: the points after their letters, from the left: ם ו ֹ ל ש ׁ ָ.
            line([[["ם", "ו", "\u{05B9}", "ל", "ש", "\u{05C1}", "\u{05B8}"]], [Array("םלוע")]], 680),
            line([[Array("דוע")], [Array("םש")]], 660),
        ]
        return objects(content.joined(separator: "\n"))
    }

    public static func leftToRightPage() -> [String] {
        var objects = ["BT /F 12 Tf 72 700 Td (Glyph by glyph: ) Tj ET"]
        // "Glyph by glyph: " is 86.7 pt wide in Helvetica 12; the word from x 160, glyph by glyph
        // in logical order from its right end (each glyph left of the one before: poppler makes
        // each a word and lists them from the left).
        let start = 160.0
        let word = Array("שלום")
        for (i, g) in word.enumerated() {
            objects.append(
                run([g], at: start + Double(word.count - 1 - i) * advance, 700, font: i % 2 == 0 ? "H" : "I").0)
        }
        objects.append(
            String(format: "BT /F 12 Tf %.2f 700 Td ( ends the line.) Tj ET", start + Double(word.count) * advance))
        objects.append("BT /F 12 Tf 72 680 Td (A second line in Latin letters only.) Tj ET")
        return Self.objects(objects.joined(separator: "\n"))
    }

    static func objects(_ content: String) -> [String] {
        let widths = characters.enumerated().filter { isMark($0.element) }.map { "\($0.offset + 1) [0]" }
        return [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /H 5 0 R /I 10 0 R /F 8 0 R >> >> >>",
            ScriptTextPDF.stream(content),
            "<< /Type /Font /Subtype /Type0 /BaseFont /DavidCLM /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
            "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /DavidCLM /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 9 0 R /DW 600 /W [\(widths.joined(separator: " "))] >>",
            ScriptTextPDF.stream(ScriptTextPDF.toUnicodeCMap(characters)),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /FontDescriptor /FontName /DavidCLM /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
            // The same font as another resource (LuaTeX draws an Arabic word's glyphs from several).
            "<< /Type /Font /Subtype /Type0 /BaseFont /DavidCLM /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        ]
    }
}
