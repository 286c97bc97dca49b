internal import CQPDF
import Foundation
import PDFReader
import SystemIO

/// The text a page's annotations draw — form-field values, signature appearances, FreeText notes,
/// stamps — read through poppler.
///
/// Viewers, `pdftotext` and `mutool` draw annotations over the page, but poppler-glib's text
/// (`poppler_page_get_text`) reads the page's content stream alone. So pdfpipe writes a copy of
/// the document, in memory and with qpdf, whose pages draw nothing but their annotations'
/// appearance streams — placed as PDF 32000-1 §12.5.5 places them (the form's bounding box, through
/// its matrix, fitted to the annotation's rectangle) — and reads that copy's text through poppler:
/// the characters and boxes are poppler's own, in the same page space as the page's text.
///
/// Which annotations: those a viewer draws on screen — an appearance stream (`/AP /N`, or the
/// entry of its `/AS` state), not hidden (`/F` bits Hidden, NoView), not a Popup, its optional
/// content on. Form fields get their appearances made first where viewers make them
/// (`withAppearances`).
package enum AnnotationLayer {
    /// The annotation text of `pages` (0-based) of the document at `path`: per page that draws
    /// any, the text (poppler's order) with a box per scalar, as `textAndLayout` gives them.
    package static func text(path: String, pages: Set<Int>) throws(BridgeError) -> [Int: (
        text: [Unicode.Scalar], boxes: [PDFRect]
    )] {
        let file = try withAppearances(path, pages: pages)
        guard let (bytes, kept) = try copy(file, pages: pages) else { return [:] }
        let copy = try PopplerFile(bytes: bytes, name: path)
        var out: [Int: (text: [Unicode.Scalar], boxes: [PDFRect])] = [:]
        for (j, original) in kept.enumerated() {
            guard let page = copy.page(j) else { continue }
            let (text, boxes) = page.textAndLayout()
            if text.contains(where: { !$0.properties.isWhitespace }) { out[original] = (text, boxes) }
        }
        _ = copy.log.drain()  // about pdfpipe's copy: said once already of the document itself
        return out
    }

    /// The document through qpdf, with its form fields' appearances made where viewers make them:
    /// every field when the form asks for that (`/NeedAppearances true`), and a field without any
    /// appearance on `pages` (poppler, MuPDF, PDFium and Acrobat draw its value all the same).
    /// qpdf's job (`--generate-appearances`) writes a copy, read back at once.
    static func withAppearances(_ path: String, pages: Set<Int>) throws(BridgeError) -> QPDFFile {
        let file = try QPDFFile(path: path)
        guard let form = QPDFObject(file: file, handle: qpdf_get_root(file.q))["AcroForm"], form.isDictionary else {
            return file
        }
        let asked = form["NeedAppearances"]?.bool == true
        guard asked || (try? fieldWithoutAppearance(file, pages: pages)) == true else { return file }
        let base = NSTemporaryDirectory() + "pdfpipe-appearances-\(UUID().uuidString)"
        defer {
            FileSystem.unlink(base + "-in.pdf")
            FileSystem.unlink(base + ".pdf")
        }
        var input = path
        if !asked {
            // qpdf makes appearances only for a form that asks: a copy that asks.
            form.set("NeedAppearances", file.make(.bool(true)))
            guard (try? file.write(to: base + "-in.pdf")) != nil else { return try QPDFFile(path: path) }
            input = base + "-in.pdf"
        }
        let job: JSONObjectText = [
            ("inputFile", input), ("outputFile", base + ".pdf"), ("generateAppearances", ""), ("decrypt", ""),
        ]
        let (status, _) = QPDFJob.run(json: job.text)
        // qpdf's exit status 3 is "done, with warnings"; a failure leaves the fields as they are.
        guard status == 0 || status == 3, let made = try? QPDFFile(path: base + ".pdf") else {
            return asked ? file : try QPDFFile(path: path)
        }
        return made  // qpdf keeps its file open: the name can go
    }

    /// Whether a form field's widget on `pages` has no appearance stream at all.
    static func fieldWithoutAppearance(_ file: QPDFFile, pages: Set<Int>) throws(BridgeError) -> Bool {
        let count = try file.pageCount()
        for i in pages.sorted() where i < count {
            guard let annots = file.page(i)["Annots"], annots.isArray else { continue }
            let missing = annots.items.prefix(20_000).contains {
                $0.isDictionary && $0["Subtype"]?.name == "Widget" && $0["AP"] == nil
            }
            if missing { return true }
        }
        return false
    }

    /// Makes `page` draw its annotations' appearances and nothing else (its content and
    /// resources replaced, its /Annots removed); false when no annotation has an appearance to draw.
    private static func drawAnnotationsOnly(_ page: QPDFObject, in file: QPDFFile, hidden off: Set<Int>) -> Bool {
        guard let annots = page["Annots"], annots.isArray else { return false }
        var content = ""
        let forms = file.make(.dictionary(PDFDictionary()))
        var drawn = 0
        // A page with more annotations than this is hostile; the text of its first ones is kept.
        for annotation in annots.items.prefix(20_000) {
            guard let form = appearance(annotation, hidden: off),
                let rect = annotation["Rect"]?.rectangle,
                let cm = placement(rect: rect, form: form)
            else { continue }
            forms.set("A\(drawn)", form)
            content += "q \(cm.map(number).joined(separator: " ")) cm /A\(drawn) Do Q\n"
            drawn += 1
        }
        guard drawn > 0 else { return false }
        let resources = file.make(.dictionary(PDFDictionary()))
        resources.set("XObject", forms)
        page.set("Resources", resources)
        page.set("Contents", file.makeStream(Array(content.utf8)))
        page.remove("Annots")
        return true
    }

    /// The copy: only `pages` that draw an annotation, each drawing only its annotations. Nil when
    /// none does. Returns the copy's bytes and, per page of the copy, the original page index.
    static func copy(_ file: QPDFFile, pages: Set<Int>) throws(BridgeError) -> (bytes: [UInt8], kept: [Int])? {
        // Each page gets its own /MediaBox, /CropBox, /Rotate, /Resources: the kept pages are then
        // moved under the root /Pages as they are.
        if qpdf_push_inherited_attributes_to_page(file.q) & QPDF_ERRORS != 0 {
            throw .qpdf(message: file.takeError()?.text ?? "cannot read the page tree", code: .pages)
        }
        let root = QPDFObject(file: file, handle: qpdf_get_root(file.q))
        let off = hiddenGroups(root)
        let count = try file.pageCount()
        var kept: [(index: Int, page: QPDFObject)] = []
        for i in 0..<count where pages.contains(i) {
            let page = file.page(i)
            guard drawAnnotationsOnly(page, in: file, hidden: off) else { continue }
            kept.append((i, page))
        }
        guard !kept.isEmpty else { return nil }
        // The kept pages become the whole page tree (what is no longer referenced is not written).
        guard let tree = root["Pages"] else { throw .qpdf(message: "the document has no page tree", code: .pages) }
        let kids = file.make(.array([]))
        for k in kept {
            kids.append(k.page)
            k.page.set("Parent", tree)
        }
        tree.set("Kids", kids)
        tree.set("Count", file.make(.int(kept.count)))
        root.remove("AcroForm")  // the fields are drawn by the copy's content now
        root.remove("Outlines")
        root.remove("Names")
        if qpdf_update_all_pages_cache(file.q) & QPDF_ERRORS != 0 {
            throw .qpdf(message: file.takeError()?.text ?? "cannot read the page tree", code: .pages)
        }
        return (try file.writtenToMemory(), kept.map(\.index))
    }

    /// The appearance stream a viewer draws for `annotation` on screen, if any.
    static func appearance(_ annotation: QPDFObject, hidden: Set<Int>) -> QPDFObject? {
        guard annotation.isDictionary, annotation["Subtype"]?.name != "Popup" else { return nil }
        let flags = annotation["F"]?.int ?? 0
        guard flags & (2 | 32) == 0 else { return nil }  // Hidden, NoView
        if let group = annotation["OC"]?.objectID?.number, hidden.contains(group) { return nil }
        guard let normal = annotation["AP"]?["N"] else { return nil }
        if normal.isStream { return normal }
        guard normal.isDictionary, let state = annotation["AS"]?.name, let stream = normal[state], stream.isStream
        else { return nil }
        return stream
    }

    /// The optional content groups that are off in the default configuration (`/OCProperties /D
    /// /OFF`), by object number.
    static func hiddenGroups(_ root: QPDFObject) -> Set<Int> {
        guard let off = root["OCProperties"]?["D"]?["OFF"], off.isArray else { return [] }
        return Set(off.items.prefix(10_000).compactMap { $0.objectID?.number })
    }

    /// The matrix that draws `form` in `rect` (PDF 32000-1 §12.5.5): the form's /BBox through its
    /// /Matrix gives a box, which this maps onto the rectangle. Nil for a degenerate or absurd box.
    static func placement(rect: PDFRect, form: QPDFObject) -> [Double]? {
        guard let bbox = form["BBox"]?.rectangle else { return nil }
        var m = [1.0, 0, 0, 1, 0, 0]
        if let matrix = form["Matrix"], matrix.count == 6 {
            let v = matrix.items.compactMap(\.number)
            if v.count == 6 { m = v }
        }
        let corners = [(bbox.x1, bbox.y1), (bbox.x1, bbox.y2), (bbox.x2, bbox.y1), (bbox.x2, bbox.y2)].map {
            (m[0] * $0.0 + m[2] * $0.1 + m[4], m[1] * $0.0 + m[3] * $0.1 + m[5])
        }
        let (tx1, tx2) = (corners.map(\.0).min()!, corners.map(\.0).max()!)
        let (ty1, ty2) = (corners.map(\.1).min()!, corners.map(\.1).max()!)
        let (rx1, rx2) = (min(rect.x1, rect.x2), max(rect.x1, rect.x2))
        let (ry1, ry2) = (min(rect.y1, rect.y2), max(rect.y1, rect.y2))
        guard tx2 - tx1 > 1e-6, ty2 - ty1 > 1e-6, rx2 - rx1 > 1e-6, ry2 - ry1 > 1e-6 else { return nil }
        let sx = (rx2 - rx1) / (tx2 - tx1)
        let sy = (ry2 - ry1) / (ty2 - ty1)
        let a = [sx, 0, 0, sy, rx1 - tx1 * sx, ry1 - ty1 * sy]
        // Every number of the file is hostile: nothing that cannot be written as a plain number.
        guard a.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else { return nil }
        return a
    }

    /// A number as a content stream takes it (no exponent).
    static func number(_ v: Double) -> String {
        var s = String(format: "%.6f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}

/// A JSON object of string values, written in order (qpdf's job JSON).
struct JSONObjectText: ExpressibleByArrayLiteral {
    var entries: [(String, String)]
    init(arrayLiteral elements: (String, String)...) { entries = elements }

    var text: String {
        "{" + entries.map { "\(escape($0.0)): \(escape($0.1))" }.joined(separator: ", ") + "}"
    }

    private func escape(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
