import Foundation
import PDFBridge
import PDFReader
import SystemIO

// The samples of outlines, page geometry and labels, text and the inventory.

// MARK: - outlines.pdf: nested bookmarks, UTF-16 titles, one broken child.

func outlines() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let names = d.w.add("<< /Names [(part.1) [\(d.page(0)) /Fit] (part.2) [\(d.page(1)) /Fit]] >>")
    d.catalogEntries = "/Names << /Dests \(names) >> /PageMode /UseOutlines"
    d.specs[0].lines = ["Bookmarks three levels deep."]
    d.catalogEntries +=
        " /Outlines "
        + outline(
            d,
            [
                OutlineItem(
                    title: "Part 1", entries: "/Dest (part.1)",
                    children: [
                        OutlineItem(
                            title: "Chapter 1.1", entries: "/Dest [\(d.page(0)) /XYZ 72 600 null]",
                            children: [
                                OutlineItem(
                                    title: "Section 1.1.1", entries: "/A << /S /GoTo /D [\(d.page(0)) /FitH 400] >>")
                            ])
                    ]),
                OutlineItem(
                    title: "Partie 2 — Übersicht", entries: "/Dest (part.2)",
                    children: [
                        OutlineItem(title: "Broken child", entries: "/Dest (part.9)"),
                        OutlineItem(title: "Web site", entries: "/A << /S /URI /URI (https://example.com/) >>"),
                    ], utf16: true),
                OutlineItem(title: "Part 3", entries: "/Dest [\(d.page(2)) /Fit]"),
                OutlineItem(title: "A heading without a target", entries: ""),
            ])
    return d.bytes(id: "outlines")
}

// MARK: - outline-cycle.pdf: the outline's /Next chain loops.

func outlineCycle() -> [UInt8] {
    let d = SampleDocument(pageCount: 2)
    let w = d.w
    let root = w.reserve()
    let a = w.reserve()
    let b = w.reserve()
    let c = w.reserve()
    w.set(root, "<< /Type /Outlines /First \(w.ref(a)) /Last \(w.ref(c)) /Count 3 >>")
    w.set(a, "<< /Title (One) /Parent \(w.ref(root)) /Next \(w.ref(b)) /Dest [\(d.page(0)) /Fit] >>")
    w.set(b, "<< /Title (Two) /Parent \(w.ref(root)) /Prev \(w.ref(a)) /Next \(w.ref(c)) /Dest [\(d.page(1)) /Fit] >>")
    w.set(
        c,
        "<< /Title (Three, loops back to One) /Parent \(w.ref(root)) /Prev \(w.ref(b)) /Next \(w.ref(a)) /Dest [\(d.page(1)) /Fit] >>"
    )
    d.catalogEntries = "/Outlines \(w.ref(root))"
    d.specs[0].lines = ["The third bookmark's /Next points back to the first."]
    return d.bytes(id: "outline-cycle")
}

// MARK: - rotated-cropped.pdf: /Rotate 0, 90 (inherited), 180, 270, -90, 450; a crop box off the origin.

func rotatedCropped() -> [UInt8] {
    let d = SampleDocument(pageCount: 6)
    d.specs[0].heading = "Rotate 0, crop box 50 60 562 742"
    d.specs[0].cropBox = [50, 60, 562, 742]
    d.specs[1].heading = "Rotate 90 (inherited)"
    d.specs[1].mediaBox = nil  // inherited too
    d.specs[2].heading = "Rotate 180"
    d.specs[2].rotate = 180
    d.specs[3].heading = "Rotate 270"
    d.specs[3].rotate = 270
    d.specs[3].mediaBox = [0, 0, 400, 300]
    d.specs[4].heading = "Rotate -90"
    d.specs[4].rotate = -90
    d.specs[5].heading = "Rotate 450"
    d.specs[5].rotate = 450
    d.groups = [(1..<2, "/Rotate 90 /MediaBox [0 0 612 792]")]
    for i in 0..<6 {
        let area = d.specs[i].cropBox ?? d.specs[i].mediaBox ?? [0, 0, 612, 792]
        d.specs[i].links = [
            LinkSpec(
                rect: [area[0] + 100, area[1] + 100, area[0] + 250, area[1] + 140], caption: "to page 1",
                entries: "/Dest [\(d.page(0)) /Fit]")
        ]
    }
    return d.bytes(id: "rotated-cropped")
}

// MARK: - page-labels.pdf: roman, decimal, prefixed and letter labels.

func pageLabels() -> [UInt8] {
    let d = SampleDocument(pageCount: 8)
    let labels = ["i", "ii", "iii", "1", "2", "A-1", "A-2", "aa"]
    for (i, l) in labels.enumerated() { d.specs[i].heading = "Page \(i + 1), label \(l)" }
    d.catalogEntries =
        "/PageLabels << /Nums [0 << /S /r >> 3 << /S /D >> 5 << /S /D /P (A-) >> 7 << /S /a /St 27 >>] >>"
    d.specs[3].links = [
        LinkSpec(rect: [72, 600, 300, 620], caption: "to page iii", entries: "/Dest [\(d.page(2)) /Fit]")
    ]
    return d.bytes(id: "page-labels")
}

// MARK: - text-search.pdf: text for extraction and search; a page with an image and no text.

func textSearch() -> [UInt8] {
    let d = SampleDocument(pageCount: 4, ligatureFont: true)
    func text(_ x: Double, _ y: Double, _ s: String, size: Double = 12) -> String {
        "BT /F2 \(d.fmt(size)) Tf \(d.fmt(x)) \(d.fmt(y)) Td \(PDFString.winAnsi(s)) Tj ET\n"
    }
    d.specs[0].heading = "Release notes"
    d.specs[0].extraContent =
        text(72, 680, "This manual is a DRAFT and not for release.")
        + text(72, 660, "Do not keep lists of forbidden")
        + text(72, 646, "words in the source tree.")
        + text(72, 620, "Open the \u{FB01}le dialog to see the \u{FB01}nal \u{FB02}ow of work.")
        + text(72, 600, "Contact: build.internal.example.com (an internal host name).")
    d.specs[1].heading = "Accents"
    d.specs[1].extraContent =
        text(72, 680, "Caf\u{E9}, r\u{E9}sum\u{E9} and na\u{EF}ve keep their accents.")
        + text(72, 660, "The second draft is due in May.")
    // Page 3 draws an image and no text at all (a scanned page, say).
    let image = d.w.addStream(
        "00FF80FF00FF80FF00>",
        dictionary:
            "/Type /XObject /Subtype /Image /Width 3 /Height 3 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode"
    )
    d.specs[2].noText = true
    d.specs[2].extraContent = "q 300 0 0 300 150 300 cm /Im1 Do Q\n"
    d.specs[2].extraResources = "/XObject << /Im1 \(image) >>"
    d.specs[3].heading = "Appendix"
    d.specs[3].extraContent = text(72, 680, "Nothing to report here.")
    return d.bytes(id: "text-search")
}

// MARK: - inventory.pdf: form fields of every type, annotations, attachments, mixed page sizes.

func inventory() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let w = d.w
    let p1 = d.page(0)
    // Form fields. 'address' holds /FT for its two kids (street, city), which inherit it.
    let address = w.reserve()
    let street = w.add(
        "<< /Type /Annot /Subtype /Widget /Parent \(w.ref(address)) /T (street) /V (Main Street 1) /Rect [72 650 300 670] /P \(p1) >>"
    )
    let city = w.add(
        "<< /Type /Annot /Subtype /Widget /Parent \(w.ref(address)) /T (city) /Ff 2 /V (Springfield) /Rect [72 620 300 640] /P \(p1) >>"
    )
    w.set(address, "<< /FT /Tx /T (address) /Kids [\(street) \(city)] >>")
    let agree = w.add(
        "<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /Yes /AS /Yes /Rect [72 580 90 598] /P \(p1) >>")
    let size = w.reserve()
    let sizeS = w.add(
        "<< /Type /Annot /Subtype /Widget /Parent \(w.ref(size)) /AS /Off /Rect [72 540 90 558] /P \(p1) >>")
    let sizeM = w.add(
        "<< /Type /Annot /Subtype /Widget /Parent \(w.ref(size)) /AS /M /Rect [100 540 118 558] /P \(p1) >>")
    w.set(size, "<< /FT /Btn /Ff 49152 /T (size) /V /M /Kids [\(sizeS) \(sizeM)] >>")
    let reset = w.add(
        "<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (reset) /Rect [72 500 160 520] /P \(p1) /A << /S /JavaScript /JS (this.resetForm\\(\\);) >> >>"
    )
    let color = w.add(
        "<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131073 /T (color) /Opt [(red) (green)] /V (green) /Rect [72 460 200 480] /P \(p1) >>"
    )
    let signature = w.add("<< /Type /Annot /Subtype /Widget /FT /Sig /T (signature) /Rect [72 400 300 440] /P \(p1) >>")
    d.catalogEntries =
        "/AcroForm << /Fields [\(w.ref(address)) \(agree) \(w.ref(size)) \(reset) \(color) \(signature)] >>"
    d.specs[0].heading = "Form"
    d.specs[0].otherAnnots = [street, city, agree, sizeS, sizeM, reset, color, signature]
    // Page 2: A4 landscape, turned; a note, a square, a file attachment annotation.
    d.specs[1].heading = "Annotations"
    d.specs[1].mediaBox = [0, 0, 842, 595]
    d.specs[1].rotate = 90
    let csv = w.addStream("a,b\n1,2\n", dictionary: "/Type /EmbeddedFile /Subtype /text#2Fcsv")
    d.specs[1].otherAnnots = [
        w.add("<< /Type /Annot /Subtype /Text /Rect [100 400 120 420] /Contents (A sticky note) >>"),
        w.add("<< /Type /Annot /Subtype /Square /Rect [200 300 400 380] /C [1 0 0] >>"),
        w.add(
            "<< /Type /Annot /Subtype /FileAttachment /Rect [500 400 520 420] /FS << /Type /Filespec /F (data.csv) /UF \(PDFString.utf16("data.csv")) /EF << /F \(csv) >> >> >>"
        ),
    ]
    // Page 3: media that viewers play (a Screen with a rendition, an old Movie annotation).
    d.specs[2].heading = "Media"
    let screen = w.reserve()
    w.set(
        screen,
        "<< /Type /Annot /Subtype /Screen /Rect [72 400 372 600] /P \(d.page(2)) /A << /S /Rendition /OP 0 /AN \(w.ref(screen)) /R << /S /MR /C << /S /MCD /D << /Type /Filespec /F (clip.mp4) >> /CT (video/mp4) >> >> >> >>"
    )
    d.specs[2].otherAnnots = [
        w.ref(screen),
        w.add("<< /Type /Annot /Subtype /Movie /Rect [72 100 372 300] /Movie << /F (old.mov) >> >>"),
    ]
    // An embedded file in the /EmbeddedFiles name tree, with its declared size and MD5.
    let notes = w.addStream(
        "hello, attachment\n",
        dictionary:
            "/Type /EmbeddedFile /Subtype /text#2Fplain /Params << /Size 18 /CheckSum <91C3BAD2EA101D5EA9B5B7CC5CE8B7F3> >>"
    )
    let spec = w.add(
        "<< /Type /Filespec /F (notes.txt) /UF \(PDFString.utf16("notes.txt")) /Desc (Release notes) /EF << /F \(notes) >> >>"
    )
    d.catalogEntries += " /Names << /EmbeddedFiles << /Names [(notes.txt) \(spec)] >> >>"
    return d.bytes(id: "inventory")
}
