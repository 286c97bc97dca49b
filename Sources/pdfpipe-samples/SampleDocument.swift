import Foundation
import PDFReader

/// A link drawn on a sample page: its rect, a caption printed inside it, and the annotation
/// entries that follow `/Type /Annot /Subtype /Link /Rect […]`.
struct LinkSpec {
    var rect: [Double]
    var caption: String
    var entries: String
}

/// A page of a sample document.
struct PageSpec {
    var heading: String
    var mediaBox: [Double]? = [0, 0, 612, 792]
    var cropBox: [Double]? = nil
    var rotate: Int? = nil
    var links: [LinkSpec] = []
    var lines: [String] = []
    /// Content operators appended as they are (text in other fonts, images).
    var extraContent = ""
    /// Extra resource entries (`/XObject << /Im1 5 0 R >>`).
    var extraResources = ""
    /// No heading or lines: a page without any text (an image-only page).
    var noText = false
    /// Annotations other than links, as references (`12 0 R`), added to /Annots.
    var otherAnnots: [String] = []
}

/// Builds a small document: catalog, flat page tree, Helvetica, pages with text, link rectangles
/// and a black marker square in the lower-left corner of the crop box (so that rendering tests can
/// tell which way a page is turned).
final class SampleDocument {
    let w = PDFWriter()
    let font: String
    let pagesNumber: Int
    private(set) var pageNumbers: [Int] = []
    var catalogEntries = ""
    var pagesEntries = ""
    var specs: [PageSpec] = []
    /// Pages may be grouped under intermediate /Pages nodes: index → extra node entries.
    var groups: [(range: Range<Int>, entries: String)] = []

    /// Helvetica with the fi and fl ligatures at 0xAE and 0xAF (`PDFString.winAnsi` writes them).
    let ligatureFont: String?

    init(pageCount: Int, ligatureFont withLigatures: Bool = false) {
        pagesNumber = w.reserve()
        font = w.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        ligatureFont =
            withLigatures
            ? w.add(
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [174 /fi /fl] >> >>"
            )
            : nil
        for _ in 0..<pageCount { pageNumbers.append(w.reserve()) }
        specs = (0..<pageCount).map { PageSpec(heading: "Page \($0 + 1)") }
    }

    /// `N 0 R` of the page at a 0-based index.
    func page(_ i: Int) -> String { w.ref(pageNumbers[i]) }

    func fmt(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
    func box(_ b: [Double]) -> String { "[" + b.map(fmt).joined(separator: " ") + "]" }

    private func content(_ spec: PageSpec) -> String {
        let area = spec.cropBox ?? spec.mediaBox ?? [0, 0, 612, 792]
        var s = "0 0 0 rg\n\(fmt(area[0])) \(fmt(area[1])) 20 20 re f\n"
        if spec.noText { return s + spec.extraContent }
        s += "BT /F1 20 Tf \(fmt(area[0] + 60)) \(fmt(area[3] - 60)) Td \(PDFString.literal(spec.heading)) Tj ET\n"
        var y = area[3] - 90
        for line in spec.lines {
            s += "BT /F1 11 Tf \(fmt(area[0] + 60)) \(fmt(y)) Td \(PDFString.literal(line)) Tj ET\n"
            y -= 14
        }
        s += "0 0 1 RG 0.5 w\n"
        for l in spec.links {
            let r = l.rect
            s += "\(fmt(r[0])) \(fmt(r[1])) \(fmt(r[2] - r[0])) \(fmt(r[3] - r[1])) re S\n"
            if r[2] - r[0] > 20, r[3] - r[1] > 8 {
                s +=
                    "BT /F1 9 Tf \(fmt(min(r[0], r[2]) + 3)) \(fmt(min(r[1], r[3]) + 3)) Td \(PDFString.literal(l.caption)) Tj ET\n"
            }
        }
        return s + spec.extraContent
    }

    func bytes(id: String, version: String = "1.7", info: String? = nil, damage: PDFWriter.Damage = .none) -> [UInt8] {
        // Page tree: pages directly under the root, or under group nodes.
        var rootKids: [String] = []
        var parentOf = [Int](repeating: pagesNumber, count: pageNumbers.count)
        var i = 0
        while i < pageNumbers.count {
            if let g = groups.first(where: { $0.range.lowerBound == i }) {
                let n = w.reserve()
                for j in g.range { parentOf[j] = n }
                let kids = g.range.map { page($0) }.joined(separator: " ")
                w.set(
                    n,
                    "<< /Type /Pages /Parent \(w.ref(pagesNumber)) /Kids [\(kids)] /Count \(g.range.count) \(g.entries) >>"
                )
                rootKids.append(w.ref(n))
                i = g.range.upperBound
            } else {
                rootKids.append(page(i))
                i += 1
            }
        }
        for (i, spec) in specs.enumerated() {
            let contents = w.addStream(content(spec))
            var annots: [String] = []
            for l in spec.links {
                annots.append(
                    w.add("<< /Type /Annot /Subtype /Link /Rect \(box(l.rect)) /Border [0 0 0] \(l.entries) >>"))
            }
            var d =
                "<< /Type /Page /Parent \(w.ref(parentOf[i])) /Contents \(contents) /Resources << /Font << /F1 \(font)\(ligatureFont.map { " /F2 \($0)" } ?? "") >>\(spec.extraResources.isEmpty ? "" : " " + spec.extraResources) >>"
            if let m = spec.mediaBox { d += " /MediaBox \(box(m))" }
            if let c = spec.cropBox { d += " /CropBox \(box(c))" }
            if let r = spec.rotate { d += " /Rotate \(r)" }
            annots += spec.otherAnnots
            if !annots.isEmpty { d += " /Annots [\(annots.joined(separator: " "))]" }
            w.set(pageNumbers[i], d + " >>")
        }
        w.set(
            pagesNumber,
            "<< /Type /Pages /Kids [\(rootKids.joined(separator: " "))] /Count \(pageNumbers.count) \(pagesEntries) >>")
        let root = w.add("<< /Type /Catalog /Pages \(w.ref(pagesNumber)) \(catalogEntries) >>")
        return w.bytes(root: root, id: id, version: version, info: info, damage: damage)
    }
}
