import Foundation

/// The hostile files of the survival issue (44), written by the tests: each makes one page engine
/// or budget work as hard as a small file can. Kilobytes each.
public enum SurvivalPDFs {
    static func stream(_ body: String, _ extra: String = "") -> String {
        "<< /Length \(body.utf8.count) \(extra) >>\nstream\n\(body)\nendstream"
    }

    /// A Type3 glyph that shows a glyph of its own font: poppler and cairo recurse until the stack
    /// is gone (SIGSEGV inside libcairo).
    public static var type3Recursion: [UInt8] {
        HostilePDFs.classic([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            stream("BT /F1 50 Tf 20 50 Td (a) Tj ET"),
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /F1 5 0 R >> >> >>",
            stream("1000 0 d0 BT /F1 1000 Tf 0 0 Td (a) Tj ET"),
        ])
    }

    /// `count` pages of text (Helvetica, a few lines each); with `crashOn`, that page (1-based) shows
    /// the recursive Type3 glyph of `type3Recursion` instead: a crash in the middle of a document.
    public static func pages(_ count: Int, crashOn: Int? = nil) -> [UInt8] {
        // 1 catalog, 2 pages, 3 Helvetica, 4 the Type3 font, 5 its glyph; then a page and its content each.
        let kids = (0..<count).map { "\(6 + 2 * $0) 0 R" }.joined(separator: " ")
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [\(kids)] /Count \(count) >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 5 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /F2 4 0 R >> >> >>",
            stream("1000 0 d0 BT /F2 1000 Tf 0 0 Td (a) Tj ET"),
        ]
        for page in 1...count {
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents \(7 + 2 * (page - 1)) 0 R >>"
            )
            let lines = (0..<6).map { "(Page \(page), line \($0): the quick brown fox) Tj 0 -20 Td" }.joined(
                separator: " ")
            objects.append(
                stream(page == crashOn ? "BT /F2 50 Tf 20 50 Td (a) Tj ET" : "BT /F1 12 Tf 20 360 Td \(lines) ET"))
        }
        return HostilePDFs.classic(objects)
    }

    /// Two pages of 14400 pt a side (200 inches): 30000 x 30000 pixels each at 150 dpi.
    public static var hugePages: [UInt8] {
        HostilePDFs.classic([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 5 0 R >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 5 0 R >>",
            stream("0 0 1 rg 100 100 1000 1000 re f"),
        ])
    }

    /// One page of `draws` × 1000 filled rectangles (a form of 1000 drawn `draws` times): 2
    /// operators each, millions of them in 30 KB.
    public static func operatorBomb(draws: Int = 2500) -> [UInt8] {
        var form = ""
        for i in 0..<1000 { form += "\(i % 300) \(i % 400) 300 300 re f\n" }
        return HostilePDFs.classic([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
            stream(String(repeating: "/X Do\n", count: draws)),
            stream(form, "/Type /XObject /Subtype /Form /BBox [0 0 612 792]"),
        ])
    }

    /// `pages` pages sharing one content stream whose text makes `(a+)+$` backtrack for ever.
    public static func searchBomb(pages: Int = 10) -> [UInt8] {
        let kids = (0..<pages).map { "\(3 + $0) 0 R" }.joined(separator: " ")
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [\(kids)] /Count \(pages) >>"]
        for _ in 0..<pages {
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 \(3 + pages) 0 R >> >> /Contents \(4 + pages) 0 R >>"
            )
        }
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        objects.append(stream("BT /F1 10 Tf 20 700 Td (\(String(repeating: "a", count: 40))!) Tj ET"))
        return HostilePDFs.classic(objects)
    }

    /// A cross-reference stream whose predictor rows are 10^12 bytes: qpdf sized a buffer from it
    /// (1.6 GB for a 400-byte file).
    public static var xrefColumns: [UInt8] {
        HostilePDFs.xrefStream("/W [1 2 1] /DecodeParms << /Predictor 12 /Columns 1000000000000 >>")
    }

    /// Ten links to `base` + "/tarpit/N" (a server that accepts and never answers).
    public static func tarpitLinks(_ base: String) -> [UInt8] {
        let annots = (0..<10).map {
            "<< /Type /Annot /Subtype /Link /Rect [10 \(10 + 20 * $0) 100 \(25 + 20 * $0)] /A << /S /URI /URI (\(base)/tarpit/\($0)) >> >>"
        }
        return HostilePDFs.classic(HostilePDFs.onePage(annots: annots))
    }
}
