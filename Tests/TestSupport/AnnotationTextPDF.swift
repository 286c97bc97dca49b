/// A form whose text is partly drawn by annotations (#34, 1): page 1 has content text ("Name:",
/// headings) and, as annotations with appearance streams, a filled-in text field, a check box, a
/// FreeText note, a stamp whose form has a /Matrix, a signature's appearance, and a hidden note
/// that no viewer shows; page 2 has a field with a value but no appearance (viewers make one).
/// Written with `TestPDF.write(path, objects: AnnotationTextPDF.objects())`.
public enum AnnotationTextPDF {
    /// The words the hidden note draws (no viewer shows them).
    public static let hiddenWord = "SECRETWORD"

    static func stream(_ data: String, _ dictionary: String = "") -> String {
        "<< /Length \(data.utf8.count) \(dictionary) >>\nstream\n\(data)\nendstream"
    }

    /// An appearance stream drawing `text` in Helvetica (object 8 is the font).
    static func appearance(_ text: String, bbox: String, size: Int = 12, extra: String = "") -> String {
        stream(
            "/Tx BMC BT /Helv \(size) Tf 0 g 2 5 Td (\(text)) Tj ET EMC",
            "/Type /XObject /Subtype /Form /BBox \(bbox) /Resources << /Font << /Helv 8 0 R >> >> \(extra)")
    }

    /// The objects (object N is element N-1); `needAppearances` sets the form's flag.
    public static func objects(needAppearances: Bool = false) -> [String] {
        let content =
            "BT /F1 18 Tf 72 740 Td (Application form) Tj ET BT /F1 12 Tf 72 700 Td (Name:) Tj ET "
            + "BT /F1 12 Tf 72 600 Td (Comments follow below.) Tj ET BT /F1 12 Tf 72 300 Td (End of form.) Tj ET"
        let o: [Int: String] = [
            1:
                "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 12 0 R 14 0 R 22 0 R] /DR << /Font << /Helv 8 0 R >> >> /DA (/Helv 12 Tf 0 g) \(needAppearances ? "/NeedAppearances true" : "") >> >>",
            2: "<< /Type /Pages /Kids [3 0 R 16 0 R] /Count 2 >>",
            3:
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 8 0 R >> >> /Annots [5 0 R 7 0 R 9 0 R 11 0 R 12 0 R 14 0 R] >>",
            4: stream(content),
            // A filled-in text field.
            5:
                "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada Lovelace) /DA (/Helv 12 Tf 0 g) /Rect [130 695 330 715] /P 3 0 R /F 4 /AP << /N 6 0 R >> >>",
            6: appearance("Ada Lovelace", bbox: "[0 0 200 20]"),
            7:
                "<< /Type /Annot /Subtype /FreeText /Contents (Please reply by Friday) /DA (/Helv 12 Tf 0 g) /Rect [72 540 300 570] /F 4 /AP << /N 10 0 R >> >>",
            8: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            // A stamp whose form is drawn at twice its size by its /Matrix, then fitted to the
            // rectangle (PDF 32000-1 §12.5.5): the text comes out at 14 pt inside [350 400 450 420].
            9: "<< /Type /Annot /Subtype /Stamp /Rect [350 400 450 420] /F 4 /AP << /N 15 0 R >> >>",
            10: appearance("Please reply by Friday", bbox: "[0 0 228 30]"),
            11:
                "<< /Type /Annot /Subtype /FreeText /Contents (hidden) /Rect [72 200 300 230] /F 2 /AP << /N 17 0 R >> >>",
            12:
                "<< /Type /Annot /Subtype /Widget /FT /Sig /T (signature) /Rect [72 330 300 370] /P 3 0 R /F 4 /AP << /N 13 0 R >> >>",
            13: appearance("Digitally signed by Ada", bbox: "[0 0 228 40]", size: 10),
            14:
                "<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /Yes /AS /Yes /Rect [350 695 368 713] /P 3 0 R /F 4 /AP << /N << /Yes 18 0 R /Off 19 0 R >> >> >>",
            15: appearance("APPROVED", bbox: "[0 0 100 20]", size: 14, extra: "/Matrix [2 0 0 2 0 0]"),
            16:
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 21 0 R /Resources << /Font << /F1 8 0 R >> >> /Annots [22 0 R] >>",
            17: appearance(hiddenWord, bbox: "[0 0 228 30]"),
            18: stream(
                "q BT /ZaDb 14 Tf 2 3 Td (4) Tj ET Q",
                "/Type /XObject /Subtype /Form /BBox [0 0 18 18] /Resources << /Font << /ZaDb 20 0 R >> >>"),
            19: stream(" ", "/Type /XObject /Subtype /Form /BBox [0 0 18 18]"),
            20: "<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>",
            21: stream("BT /F1 12 Tf 72 700 Td (Page two has one field.) Tj ET"),
            // A field with a value and no appearance: viewers make one from /DA and /V.
            22:
                "<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /V (Springfield) /DA (/Helv 12 Tf 0 g) /Rect [72 600 300 620] /P 16 0 R /F 4 >>",
        ]
        return (1...o.count).map { o[$0]! }
    }
}
