import Foundation
import PDFBridge
import PDFReader
import SystemIO

// Writes the sample PDFs of samples/ (see samples/README.md for what each one exercises).
// Usage: pdfpipe-samples [FOLDER]   (default: samples)

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "samples"
try FileSystem.createFolder(folder)

func save(_ name: String, _ bytes: [UInt8]) {
    let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
    do {
        try Data(bytes).write(to: url, options: .atomic)
        print("wrote \(url.path) (\(bytes.count) bytes)")
    } catch {
        FileHandle.standardError.write(Data("pdfpipe-samples: \(url.path): \(error)\n".utf8))
        exit(1)
    }
}

/// Links stacked down a page, 26 points apart.
func stack(_ items: [(caption: String, entries: String)], top: Double = 660, x: Double = 72, width: Double = 300)
    -> [LinkSpec]
{
    items.enumerated().map { i, item in
        let y = top - Double(i) * 26
        return LinkSpec(rect: [x, y, x + width, y + 16], caption: item.caption, entries: item.entries)
    }
}

/// An outline: items as (title, entries, children). Returns the /Outlines reference.
struct OutlineItem {
    var title: String
    var entries: String
    var children: [OutlineItem] = []
    var utf16 = false
}

func outline(_ doc: SampleDocument, _ items: [OutlineItem]) -> String {
    let w = doc.w
    let root = w.reserve()
    func build(_ items: [OutlineItem], parent: Int) -> (first: Int, last: Int, count: Int) {
        let numbers = items.map { _ in w.reserve() }
        var total = items.count
        for (i, item) in items.enumerated() {
            var d =
                "<< /Title \(item.utf16 ? PDFString.utf16(item.title) : PDFString.literal(item.title)) /Parent \(w.ref(parent)) \(item.entries)"
            if i > 0 { d += " /Prev \(w.ref(numbers[i - 1]))" }
            if i + 1 < numbers.count { d += " /Next \(w.ref(numbers[i + 1]))" }
            if !item.children.isEmpty {
                let c = build(item.children, parent: numbers[i])
                d += " /First \(w.ref(c.first)) /Last \(w.ref(c.last)) /Count \(c.count)"
                total += c.count
            }
            w.set(numbers[i], d + " >>")
        }
        return (numbers.first!, numbers.last!, total)
    }
    let top = build(items, parent: root)
    w.set(root, "<< /Type /Outlines /First \(w.ref(top.first)) /Last \(w.ref(top.last)) /Count \(top.count) >>")
    return w.ref(root)
}

// MARK: - damaged-xref.pdf: every xref offset is wrong; qpdf and poppler rebuild the table.

func damagedXref() -> [UInt8] {
    let d = SampleDocument(pageCount: 2)
    d.specs[0].lines = ["The cross-reference table of this file is wrong; readers must rebuild it."]
    d.specs[0].links = [
        LinkSpec(rect: [72, 600, 300, 620], caption: "to page 2", entries: "/Dest [\(d.page(1)) /Fit]")
    ]
    return d.bytes(id: "damaged-xref", damage: .brokenXref)
}

/// A plain two-page document to encrypt.
func plainForEncryption(_ id: String, _ note: String) -> [UInt8] {
    let d = SampleDocument(pageCount: 2)
    d.specs[0].lines = [note]
    d.specs[0].links = [
        LinkSpec(rect: [72, 600, 300, 620], caption: "to page 2", entries: "/Dest [\(d.page(1)) /Fit]")
    ]
    return d.bytes(id: id, info: d.w.add("<< /Producer (pdfpipe-samples) /Title (\(id)) >>"))
}

/// Rewrites a plain sample through qpdf (object streams, encryption), reproducibly.
func rewritten(_ name: String, _ plain: [UInt8], _ options: QPDFWriteOptions) {
    let tmp = NSTemporaryDirectory() + "pdfpipe-samples-\(getpid())-\(name)"
    defer { FileSystem.unlink(tmp) }
    do {
        try Data(plain).write(to: URL(fileURLWithPath: tmp))
        let file = try QPDFFile(path: tmp)
        let out = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        try file.write(to: out, options: options)
        print("wrote \(out) (through qpdf)")
    } catch {
        FileHandle.standardError.write(Data("pdfpipe-samples: \(name): \(error)\n".utf8))
        exit(1)
    }
}

save("links-internal.pdf", linksInternal())
save("dests-catalog.pdf", destsCatalog())
save("dests-nametree.pdf", destsNameTree())
save("dests-bad-limits.pdf", destsBadLimits())
save("uri-links.pdf", uriLinks())
save("uri-targets.pdf", uriTargets())
save("gotor.pdf", gotor())
save("actions.pdf", actions())
save("broken-links.pdf", brokenLinks())
save("outlines.pdf", outlines())
save("outline-cycle.pdf", outlineCycle())
save("rotated-cropped.pdf", rotatedCropped())
save("page-labels.pdf", pageLabels())
save("text-search.pdf", textSearch())
save("inventory.pdf", inventory())
save("damaged-xref.pdf", damagedXref())
rewritten(
    "encrypted-owner.pdf",
    plainForEncryption("encrypted-owner", "Encrypted with an owner password only: anyone can open it."),
    QPDFWriteOptions(encryption: .aes128(user: "", owner: "owner-secret"), forTestsStaticIDs: true))
rewritten(
    "encrypted-user.pdf", plainForEncryption("encrypted-user", "Encrypted with the user password 'user-secret'."),
    QPDFWriteOptions(encryption: .aes128(user: "user-secret", owner: "owner-secret"), forTestsStaticIDs: true))
// The same links as links-internal.pdf, packed in object streams with a cross-reference stream
// (what pdfTeX, LuaTeX and most modern writers produce).
rewritten("links-objstm.pdf", linksInternal(), QPDFWriteOptions(forTestsStaticIDs: true, objectStreams: true))
save(
    "garbage.pdf",
    Array("This is not a PDF file, whatever its name says.\n".utf8)
        + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
save("empty.pdf", [])
