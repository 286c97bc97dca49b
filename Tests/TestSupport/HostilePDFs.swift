import Foundation

/// Hostile PDFs from the trust issue, written by the tests (never downloaded): numbers that trap
/// naive arithmetic, cross-reference tables that lie, nesting past the reader's limit. Each is
/// tiny; `write(to:)` puts them all in a folder and returns their names.
public enum HostilePDFs {
    /// A classic file: `objects[i]` is object i+1, the catalog is 1 0 R. `shift` moves every
    /// offset of the cross-reference table, `wrongOffset` moves one object's by 3 bytes.
    public static func classic(_ objects: [String], shift: Int = 0, wrongOffset: Int? = nil) -> [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(i + 1) 0 obj\n\(o)\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for (i, o) in offsets.enumerated() {
            out += Array(String(format: "%010d 00000 n \n", o + shift + (wrongOffset == i + 1 ? 3 : 0)).utf8)
        }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// A one-page document whose page has `annots` and whose catalog has `catalog` in it.
    public static func onePage(catalog: String = "", page: String = "/MediaBox [0 0 612 792]", annots: [String] = [])
        -> [String]
    {
        let refs = annots.indices.map { "\(4 + $0) 0 R" }.joined(separator: " ")
        return [
            "<< /Type /Catalog /Pages 2 0 R \(catalog) >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R \(page) /Annots [\(refs)] >>",
        ] + annots
    }

    /// A file whose only cross-reference section is a stream with `extra` in its dictionary
    /// (`/W`, `/Index`, `/DecodeParms` …) and `length` as its /Length.
    static func xrefStream(_ extra: String, data: [UInt8] = [1, 0, 15, 0], length: String? = nil) -> [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        for (i, o) in ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"].enumerated() {
            out += Array("\(i + 1) 0 obj\n\(o)\nendobj\n".utf8)
        }
        let x = out.count
        out += Array(
            "3 0 obj\n<< /Type /XRef /Size 4 /Root 1 0 R /Length \(length ?? String(data.count)) \(extra) >>\nstream\n"
                .utf8)
        out += data + Array("\nendstream\nendobj\nstartxref\n\(x)\n%%EOF\n".utf8)
        return out
    }

    /// A link annotation (object 4) in an object stream (object 5) with `/Length length`.
    public static func objectStream(length: String = "ok", first: Int = 4) -> [UInt8] {
        let inner = "4 0 << /Type /Annot /Subtype /Link /Rect [0 0 1 1] /A << /S /Launch /F (x.exe) >> >>"
        var out = Array("%PDF-1.7\n".utf8)
        var offsets: [Int: Int] = [:]
        let objects = [
            1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
            5:
                "<< /Type /ObjStm /N 1 /First \(first) /Length \(length == "ok" ? String(inner.utf8.count) : length) >>\nstream\n\(inner)\nendstream",
        ]
        for n in objects.keys.sorted() {
            offsets[n] = out.count
            out += Array("\(n) 0 obj\n\(objects[n]!)\nendobj\n".utf8)
        }
        let x = out.count
        var rows: [UInt8] = [0, 0, 0, 0, 0]
        for n in 1...6 {
            switch n {
            case 4: rows += [2, 0, 0, 5, 0]
            case 6: rows += [1, UInt8(x >> 16 & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x & 0xFF), 0]
            default:
                let o = offsets[n]!
                rows += [1, UInt8(o >> 16 & 0xFF), UInt8(o >> 8 & 0xFF), UInt8(o & 0xFF), 0]
            }
        }
        out += Array("6 0 obj\n<< /Type /XRef /Size 7 /W [1 3 1] /Root 1 0 R /Length \(rows.count) >>\nstream\n".utf8)
        out += rows + Array("\nendstream\nendobj\nstartxref\n\(x)\n%%EOF\n".utf8)
        return out
    }

    /// One page whose text is one word of 30,000 characters (100 lines of `a.a.…a-`, which text
    /// extraction joins again at the hyphens): a backtracking pattern such as
    /// `[a-z0-9.-]+\.example\.com` takes many seconds on it.
    public static var slowSearchPage: [UInt8] {
        let line = String(repeating: "a.", count: 149) + "a-"
        let content =
            "BT /F1 2 Tf 10 780 Td 3 TL " + (0..<100).map { _ in "(\(line)) '" }.joined(separator: " ") + " ET"
        return classic([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ])
    }

    static let brokenLink = "<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /Dest [9 0 R /Fit] >>"
    public static let launchLink =
        "<< /Type /Annot /Subtype /Link /Rect [0 30 100 50] /A << /S /Launch /F (x.exe) >> >>"
    static let big = String(repeating: "9", count: 400)
    static let twoPow63 = "9223372036854775808"
    static let intMax = "9223372036854775807"

    /// Name → bytes of every hostile file.
    public static var all: [(name: String, bytes: [UInt8])] {
        let links = onePage(annots: [brokenLink, launchLink])
        let deepArray = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let deepDict = String(repeating: "<< /A ", count: 400) + "1" + String(repeating: " >>", count: 400)
        func box(_ b: String) -> [String] {
            [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [\(b)] /CropBox [\(b)] /Rotate \(intMax) >>",
            ]
        }
        return [
            // Numbers (trust issue, 2).
            (
                "labels-st-max.pdf",
                classic(
                    onePage(
                        catalog: "/PageLabels << /Nums [0 << /S /D /St \(intMax) >> 0 << /S /a /St \(intMax) >>] >>"))
            ),
            (
                "labels-st-roman.pdf",
                classic(onePage(catalog: "/PageLabels << /Nums [0 << /S /r /St 9223372036854775800 >>] >>"))
            ),
            (
                "rect-1e19.pdf",
                classic(
                    onePage(annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [0 0 10000000000000000000 20] /Dest [3 0 R /XYZ 0 0 0] >>"
                    ]))
            ),
            (
                "rect-24-digits.pdf",
                classic(
                    onePage(annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [-123456789012345678901234.5 0 123456789012345678901234.5 20] /A << /S /URI /URI (http://example.com) >> >>"
                    ]))
            ),
            (
                "rect-400-digits.pdf",
                classic(
                    onePage(annots: [
                        "<< /Type /Annot /Subtype /Link /Rect [0 0 \(big).5 20] /Dest [3 0 R /XYZ \(big).0 0 0] >>"
                    ]))
            ),
            (
                "dest-page-int-max.pdf",
                classic(
                    onePage(annots: ["<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /Dest [\(intMax) /Fit] >>"]))
            ),
            ("mediabox-2e63.pdf", classic(box("0 0 \(twoPow63) 792"))),
            ("mediabox-400-digits.pdf", classic(box("0 0 \(big).0 792"))),
            ("mediabox-int-max.pdf", classic(box("-\(intMax) 0 \(intMax) 792"))),
            ("xref-length.pdf", xrefStream("/W [1 2 1]", length: "9223372036854775800")),
            ("xref-index.pdf", xrefStream("/W [1 2 1] /Index [9223372036854775800 100]")),
            ("xref-index-count.pdf", xrefStream("/W [1 2 1] /Index [1 \(intMax)]")),
            ("xref-w.pdf", xrefStream("/W [1 \(intMax) \(intMax)]")),
            ("xref-columns.pdf", xrefStream("/W [1 2 1] /DecodeParms << /Predictor 12 /Columns \(intMax) >>")),
            (
                "xref-colors.pdf",
                xrefStream(
                    "/W [1 2 1] /DecodeParms << /Predictor 12 /Columns 100000000000 /Colors 100000 /BitsPerComponent 16 >>"
                )
            ),
            ("objstm-length.pdf", objectStream(length: "9223372036854775800")),
            // Silent passes (trust issue, 3).
            ("xref-one-offset-wrong.pdf", classic(links, wrongOffset: 4)),
            ("xref-shifted.pdf", classic(links, shift: 7)),
            (
                "nested-deep.pdf",
                classic(
                    onePage(annots: [
                        brokenLink.replacingOccurrences(of: " >>", with: " /Junk \(deepArray) >>"),
                        launchLink.replacingOccurrences(of: "/Rect", with: "/Junk \(deepDict) /Rect"),
                    ]))
            ),
        ]
    }

    /// Writes every hostile file into `folder`; returns their names.
    @discardableResult
    public static func write(to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for f in all { try Data(f.bytes).write(to: URL(fileURLWithPath: folder + "/" + f.name)) }
        return all.map(\.name)
    }
}
