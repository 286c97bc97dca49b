import Foundation

/// One page of text that word assembly gets wrong when it is not script-aware (#34, 2): Chinese
/// set with extra space between characters (0 to 0.6 em), Latin words kerned apart (0.03 to 0.15
/// em), relation signs set apart without space characters ("x>y", "α>β" as TeX sets them), and
/// Japanese and Chinese in vertical writing (`/Identity-V`). The CJK font is not embedded (its
/// `/ToUnicode` says what each CID is): text extraction needs no glyphs. Written with
/// `TestPDF.write(path, objects: ScriptTextPDF.objects())`.
public enum ScriptTextPDF {
    static let characters = Array("发票日本語のテキスト中文测试")

    /// CIDs (1-based positions in `characters`) as a hex string.
    static func cids(_ s: String) -> String {
        "<" + s.map { c in String(format: "%04X", characters.firstIndex(of: c)! + 1) }.joined() + ">"
    }

    static func stream(_ data: String) -> String {
        "<< /Length \(data.utf8.count) >>\nstream\n\(data)\nendstream"
    }

    public static func objects() -> [String] {
        var lines: [String] = []
        var y = 750
        for gap in [0, 50, 150, 300, 600] {
            let tj = "[" + "发票中文测试".map { cids(String($0)) }.joined(separator: " -\(gap) ") + "] TJ"
            lines.append("BT /C 20 Tf 72 \(y) Td \(tj) ET BT /F 10 Tf 400 \(y) Td (gap \(gap)) Tj ET")
            y -= 40
        }
        for kern in [30, 60, 100, 150] {
            lines.append(
                "BT /F 20 Tf 72 \(y) Td [(r) -\(kern) (epresent) -\(kern) (ed) ( words)] TJ ET BT /F 10 Tf 400 \(y) Td (kern \(kern)) Tj ET"
            )
            y -= 30
        }
        for gap in [167, 278] {
            lines.append(
                "BT /F 20 Tf 72 \(y) Td [(x) -\(gap) (>) -\(gap) (y)] TJ ET BT /G 20 Tf 200 \(y) Td [(a) -\(gap) (>) -\(gap) (b)] TJ ET"
            )
            y -= 30
        }
        lines.append("BT /V 20 Tf 520 700 Td \(cids("日本語のテキスト")) Tj ET BT /V 20 Tf 490 700 Td \(cids("中文测试")) Tj ET")
        return page(lines.joined(separator: "\n"))
    }

    /// A page of vertical writing only: three columns, right to left. poppler-glib's page text
    /// reads nothing of it; pdftotext reads the three columns.
    public static func verticalOnly() -> [String] {
        page(
            ["日本語のテキスト", "中文测试", "发票中文"].enumerated().map { i, s in
                "BT /V 20 Tf \(520 - 30 * i) 700 Td \(cids(s)) Tj ET"
            }.joined(separator: "\n"))
    }

    /// Horizontal Latin lines beside a column of vertical Japanese (pdfminer's `simple3.pdf` is
    /// such a page): the first read (from the top left) finds only the Latin, and no CJK in it.
    /// `inForm`: the vertical text is drawn by a form XObject (its font in the form's resources).
    public static func latinAndVertical(inForm: Bool = false, at: (x: Int, y: Int) = (520, 700)) -> [String] {
        let vertical = "BT /V 20 Tf \(at.x) \(at.y) Td \(cids("日本語のテキスト")) Tj ET"
        let latin = "BT /F 20 Tf 72 700 Td (Hello World) Tj ET BT /F 12 Tf 72 650 Td (horizontal text) Tj ET"
        guard inForm else { return page(latin + "\n" + vertical) }
        var objects = page(latin + "\n/X0 Do")
        objects[2] = objects[2].replacingOccurrences(
            of: "/Font << /C 5 0 R /V 6 0 R /F 9 0 R /G 10 0 R >>",
            with: "/Font << /F 9 0 R >> /XObject << /X0 12 0 R >>")
        let form =
            "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /V 6 0 R >> >> /Length \(vertical.utf8.count) >>\nstream\n\(vertical)\nendstream"
        return objects + [form]
    }

    /// Invisible spaces drawn inside words, back at the previous word space (Acrobat's
    /// accessibility repair writes them so; PyMuPDF's tests/resources/test_3725.pdf): "Amounts r",
    /// an invisible space (`3 Tr`) at the space after "Amounts", then "epresent the". MuPDF's text
    /// device, run on the page directly, reads "r epresent"; `mutool draw -F txt` (through a
    /// display list) reads "represent".
    public static func invisibleSpaces() -> [String] {
        // Helvetica 14: "Amounts " is 59.14 wide, "Amounts r" 63.80.
        let content = [
            "BT /F 14 Tf 72 700 Td (Amounts r) Tj ET",
            "BT 3 Tr /F 14 Tf 127.24 700 Td ( ) Tj ET",
            "BT /F 14 Tf 135.80 700 Td (epresent the recorded investment) Tj ET",
            "BT /F 14 Tf 72 680 Td (in loans after) Tj ET",
        ].joined(separator: "\n")
        return page(content)
    }

    /// Words kerned apart and together inside TJ arrays, as TeX, InDesign and Word set them
    /// (#45, 5: "r epresent", "loa ns a fter"): tightening kerns (positive), loosening ones up to
    /// 0.1 em (negative), a word split over three strings, and a word whose pieces sit on the same
    /// baseline in different fonts. Every word here is one word to mutool.
    public static func kerned() -> [String] {
        var lines: [String] = []
        var y = 740
        for kern in [-100, -60, -30, 20, 50, 80] {
            lines.append(
                "BT /F 14 Tf 72 \(y) Td [(r) \(kern) (epresent) \(kern) (ed) ( in ) (loa) \(kern) (ns) ( a) \(kern) (fter) ( the) \(kern) ( end)] TJ ET"
            )
            y -= 24
        }
        lines.append("BT /F 14 Tf 72 \(y) Td [(A) 80 (V) 80 (A) 80 (T) ( W) 60 (a) 60 (t) 60 (e) 60 (r)] TJ ET")
        y -= 24
        lines.append("BT /F 14 Tf 72 \(y) Td (pro) Tj /G 14 Tf (\\256) Tj /F 14 Tf (t) Tj ET")
        return page(lines.joined(separator: "\n"))
    }

    /// A page whose content draws one word on the page and one off it (right of its box): no
    /// viewer shows the second, nor do pdftotext and mutool read it.
    public static func offPage() -> [String] {
        page("BT /F 12 Tf 72 700 Td (Inside) Tj ET BT /F 12 Tf 700 700 Td (Outside) Tj ET")
    }

    /// A /ToUnicode CMap giving CID i+1 the i-th character.
    static func toUnicodeCMap(_ characters: [Character]) -> String {
        let map = characters.enumerated().map { i, c in
            String(format: "<%04X> <%04X>", i + 1, c.unicodeScalars.first!.value)
        }.joined(separator: "\n")
        return """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def /CMapType 2 def
            1 begincodespacerange <0000> <FFFF> endcodespacerange
            \(characters.count) beginbfchar
            \(map)
            endbfchar endcmap CMapName currentdict /CMap defineresource pop end end
            """
    }

    /// The page's objects around a content stream (fonts C and V for CJK, F and G for Latin).
    static func page(_ content: String) -> [String] {
        let toUnicode = toUnicodeCMap(characters)
        return [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /C 5 0 R /V 6 0 R /F 9 0 R /G 10 0 R >> >> >>",
            stream(content),
            "<< /Type /Font /Subtype /Type0 /BaseFont /Ryumin-Light /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
            "<< /Type /Font /Subtype /Type0 /BaseFont /Ryumin-Light /Encoding /Identity-V /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
            "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Ryumin-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 11 0 R /DW 1000 >>",
            stream(toUnicode),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
            "<< /Type /FontDescriptor /FontName /Ryumin-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
        ]
    }
}

extension ScriptTextPDF {
    static let hebrew = Array(Set("שלוםעולםמבחןטקסט")).sorted()

    static func hebrewCIDs(_ s: String) -> String {
        "<" + s.map { c in String(format: "%04X", hebrew.firstIndex(of: c)! + 1) }.joined() + ">"
    }

    /// A page mostly in Hebrew, drawn as producers draw right-to-left text (each word's glyphs
    /// from left to right, the first word at the right): two Hebrew lines with "Between." between
    /// them. poppler-glib's page text reads nothing of it; pdftotext reads all three lines.
    /// Lines that mix directions (#63, 1): a line mostly in Hebrew with two Latin words at its
    /// left end, a Latin line with two Hebrew words in it, and a Latin line of five words, on a
    /// page mostly in Hebrew. poppler's selection gave the Latin line's words from right to left
    /// (and a new line at each), and none of its corner reads has the last line.
    public static func mixedDirections() -> [String] {
        var objects = rightToLeft()
        // Hebrew words end at x 409.8; "XeTeX run" is 57.4 wide, "The words" 56.0.
        let hebrewLine = line(["שלום", "עולם", "מבחן", "טקסט"], 700) + " BT /F 12 Tf 348 700 Td (XeTeX run) Tj ET"
        let latinLine =
            "BT /F 12 Tf 300 680 Td (The words) Tj ET " + line(["עולם", "שלום"], 680, from: 425)
            + " BT /F 12 Tf 430 680 Td (are Hebrew.) Tj ET"
        let engine = "BT /F 12 Tf 340 660 Td (Engine: XeTeX using texnegar and) Tj ET"
        // Mostly Hebrew (the page's direction), the last line one poppler's corner reads lose.
        let more = [
            line(["מבחן", "טקסט", "שלום", "עולם", "מבחן"], 640), line(["עולם", "מבחן", "טקסט", "שלום", "טקסט"], 620),
            line(["טקסט", "שלום", "עולם"], 600),
        ]
        objects[3] = stream(([hebrewLine, latinLine, engine] + more).joined(separator: "\n"))
        return objects
    }

    /// Hebrew words drawn as producers draw right-to-left text: each word's glyphs from left to
    /// right in visual order, the first word at `from` (its right end).
    static func line(_ words: [String], _ y: Int, from right: Double = 540) -> String {
        var x = right
        return words.map { w in
            x -= Double(w.count) * 12 * 0.6
            defer { x -= 5 }
            return String(format: "BT /H 12 Tf %.2f %d Td %@ Tj ET", x, y, hebrewCIDs(String(w.reversed())))
        }.joined(separator: " ")
    }

    public static func rightToLeft() -> [String] {
        func line(_ words: [String], _ y: Int) -> String {
            var x = 540.0
            return words.map { w in
                x -= Double(w.count) * 12 * 0.6
                defer { x -= 5 }
                return String(format: "BT /H 12 Tf %.2f %d Td %@ Tj ET", x, y, hebrewCIDs(String(w.reversed())))
            }.joined(separator: " ")
        }
        let content = [
            line(["שלום", "עולם"], 700), "BT /F 12 Tf 72 680 Td (Between.) Tj ET", line(["מבחן", "טקסט"], 660),
        ]
        .joined(separator: "\n")
        let toUnicode = toUnicodeCMap(hebrew)
        return [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /H 5 0 R /F 8 0 R >> >> >>",
            stream(content),
            "<< /Type /Font /Subtype /Type0 /BaseFont /DavidCLM /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
            "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /DavidCLM /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 9 0 R /DW 600 >>",
            stream(toUnicode),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /FontDescriptor /FontName /DavidCLM /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
        ]
    }
}
