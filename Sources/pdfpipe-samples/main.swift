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

// MARK: - links-internal.pdf: internal links by page reference and by name; all valid.

func linksInternal() -> [UInt8] {
    let d = SampleDocument(pageCount: 4)
    let names = d.w.add(
        "<< /Names [(chapter.2) [\(d.page(1)) /XYZ 72 720 null] (section.2.1) << /D [\(d.page(2)) /FitH 700] >> (table.1) [\(d.page(3)) /FitR 72 500 300 700]] >>"
    )
    d.catalogEntries = "/Names << /Dests \(names) >> /PageLabels << /Nums [0 << /S /D >>] >>"
    d.specs[0].lines = ["Internal links: explicit page references, named destinations, GoTo actions."]
    d.specs[0].links = stack([
        ("page 3 by reference (Fit)", "/Dest [\(d.page(2)) /Fit]"),
        ("chapter.2 by name", "/Dest (chapter.2)"),
        ("section.2.1 by GoTo action", "/A << /S /GoTo /D (section.2.1) >>"),
        ("page 4 by GoTo with XYZ", "/A << /S /GoTo /D [\(d.page(3)) /XYZ 72 700 null] >>"),
        ("table.1 by name (FitR)", "/Dest (table.1)"),
    ])
    d.specs[1].heading = "Chapter 2"
    d.specs[1].links = stack([
        ("back to page 1 (FitB)", "/Dest [\(d.page(0)) /FitB]"),
        ("page 3 (FitV 72)", "/Dest [\(d.page(2)) /FitV 72]"),
        ("page 4 (FitBH 600)", "/Dest [\(d.page(3)) /FitBH 600]"),
        ("page 1 (FitBV 100)", "/Dest [\(d.page(0)) /FitBV 100]"),
    ])
    d.specs[2].heading = "Section 2.1"
    d.specs[3].heading = "Table 1"
    d.catalogEntries +=
        " /Outlines "
        + outline(
            d,
            [
                OutlineItem(title: "Introduction", entries: "/Dest [\(d.page(0)) /Fit]"),
                OutlineItem(
                    title: "Chapter 2", entries: "/Dest (chapter.2)",
                    children: [
                        OutlineItem(title: "Section 2.1", entries: "/A << /S /GoTo /D (section.2.1) >>")
                    ]),
                OutlineItem(title: "Table 1", entries: "/Dest (table.1)"),
            ])
    return d.bytes(id: "links-internal")
}

// MARK: - dests-catalog.pdf: PDF 1.1 style catalog /Dests; all valid.

func destsCatalog() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let appendix = d.w.add("<< /D [\(d.page(2)) /XYZ null null null] >>")
    d.catalogEntries =
        "/Dests << /intro [\(d.page(0)) /XYZ 72 740 0] /usage [\(d.page(1)) /Fit] /appendix \(appendix) >>"
    d.specs[0].lines = ["Old-style destinations in the catalog /Dests dictionary (keys are names)."]
    d.specs[0].links = stack([
        ("usage by name object", "/Dest /usage"),
        ("appendix by name object (value is a dictionary with /D)", "/Dest /appendix"),
        ("intro by GoTo with a name", "/A << /S /GoTo /D /intro >>"),
    ])
    d.specs[1].heading = "Usage"
    d.specs[2].heading = "Appendix"
    return d.bytes(id: "dests-catalog", version: "1.1")
}

// MARK: - dests-nametree.pdf: a two-level /Names /Dests tree with /Kids and /Limits; all valid.

func destsNameTree() -> [UInt8] {
    let d = SampleDocument(pageCount: 6)
    let w = d.w
    // Keys sorted by bytes ("c.third" < "caf\u{E9}": '.' is 0x2E). "caf\u{E9}" in PDFDocEncoding and "übersicht" in UTF-16BE with a BOM.
    let cafe = PDFString.hex(Array("caf".utf8) + [0xE9])
    let uber = PDFString.utf16("übersicht")
    let leaf1 = w.add(
        "<< /Limits [(a.first) (b.second)] /Names [(a.first) [\(d.page(0)) /Fit] (alpha.2) [\(d.page(1)) /Fit] (b.second) [\(d.page(1)) /FitH 500]] >>"
    )
    let leaf2 = w.add(
        "<< /Limits [(c.third) (d.fourth)] /Names [(c.third) [\(d.page(2)) /XYZ 100 600 2] \(cafe) [\(d.page(2)) /Fit] (d.fourth) [\(d.page(3)) /Fit]] >>"
    )
    let leaf3 = w.add(
        "<< /Limits [(e.fifth) (f.sixth)] /Names [(e.fifth) [\(d.page(4)) /Fit] (f.sixth) << /D [\(d.page(5)) /Fit] >>] >>"
    )
    let leaf4 = w.add("<< /Limits [\(uber) \(uber)] /Names [\(uber) [\(d.page(5)) /FitH 400]] >>")
    let mid1 = w.add("<< /Limits [(a.first) (d.fourth)] /Kids [\(leaf1) \(leaf2)] >>")
    let mid2 = w.add("<< /Limits [(e.fifth) \(uber)] /Kids [\(leaf3) \(leaf4)] >>")
    let root = w.add("<< /Kids [\(mid1) \(mid2)] >>")
    d.catalogEntries = "/Names << /Dests \(root) >>"
    d.specs[0].lines = ["A /Names /Dests tree: root, two middle nodes, four leaves, with /Limits."]
    d.specs[0].links = stack([
        ("a.first", "/Dest (a.first)"),
        ("b.second", "/Dest (b.second)"),
        ("c.third", "/Dest (c.third)"),
        ("caf\u{E9} (PDFDocEncoding key)", "/Dest \(cafe)"),
        ("d.fourth", "/A << /S /GoTo /D (d.fourth) >>"),
        ("e.fifth", "/Dest (e.fifth)"),
        ("f.sixth (dictionary value)", "/Dest (f.sixth)"),
        ("uebersicht (UTF-16 key)", "/Dest \(uber)"),
    ])
    return d.bytes(id: "dests-nametree")
}

// MARK: - dests-bad-limits.pdf: a name tree with wrong /Limits, unsorted keys and a duplicate key.

func destsBadLimits() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let w = d.w
    // 'zulu' sits in a leaf whose /Limits claim it holds only a...c: a reader that trusts /Limits misses it.
    let leaf1 = w.add(
        "<< /Limits [(alpha) (charlie)] /Names [(alpha) [\(d.page(0)) /Fit] (zulu) [\(d.page(2)) /Fit] (charlie) [\(d.page(1)) /Fit]] >>"
    )
    // Unsorted keys and no /Limits at all; 'bravo' is defined twice (in both leaves).
    let leaf2 = w.add(
        "<< /Names [(echo) [\(d.page(2)) /Fit] (bravo) [\(d.page(1)) /Fit] (delta) [\(d.page(1)) /FitH 300]] >>")
    let leaf3 = w.add("<< /Limits [(bravo) (bravo)] /Names [(bravo) [\(d.page(2)) /Fit]] >>")
    let root = w.add("<< /Kids [\(leaf1) \(leaf2) \(leaf3)] >>")
    d.catalogEntries = "/Names << /Dests \(root) >>"
    d.specs[0].lines = ["Name tree with wrong /Limits, unsorted keys and a duplicate key; every name is defined."]
    d.specs[0].links = stack([
        ("zulu (hidden by wrong /Limits)", "/Dest (zulu)"),
        ("echo (leaf without /Limits, unsorted)", "/Dest (echo)"),
        ("delta", "/Dest (delta)"),
        ("bravo (defined twice)", "/Dest (bravo)"),
    ])
    return d.bytes(id: "dests-bad-limits")
}

// MARK: - uri-links.pdf: absolute, relative (with /URI /Base), mailto, insecure and malformed URIs.

func uriLinks() -> [UInt8] {
    let d = SampleDocument(pageCount: 1)
    d.catalogEntries = "/URI << /Base (https://docs.example.org/manual/) >>"
    d.specs[0].lines = ["URI links. The catalog /URI /Base is https://docs.example.org/manual/."]
    d.specs[0].links = stack([
        ("absolute https", "/A << /S /URI /URI (https://example.com/) >>"),
        ("relative: guide/intro.html", "/A << /S /URI /URI (guide/intro.html) >>"),
        ("relative with ..: ../index.html#top", "/A << /S /URI /URI (../index.html#top) >>"),
        ("mailto", "/A << /S /URI /URI (mailto:docs@example.com) >>"),
        ("insecure http", "/A << /S /URI /URI (http://example.com/plain) >>"),
        ("malformed: space in host", "/A << /S /URI /URI (http://exa mple.com/) >>"),
        ("malformed: bad scheme", "/A << /S /URI /URI (ht!tp://example.com/) >>"),
        ("empty URI", "/A << /S /URI /URI () >>"),
        ("URI action without /URI", "/A << /S /URI >>"),
        ("colon forgotten: https//", "/A << /S /URI /URI (https//cran.r-project.org/) >>"),
        ("browsers repair: ^ and a space", "/A << /S /URI /URI (https://example.com/a^b c) >>"),
        ("absolute file: URI", "/A << /S /URI /URI (file:///home/author/notes.pdf) >>"),
    ])
    return d.bytes(id: "uri-links")
}

// MARK: - uri-targets.pdf: what the external check settles without the network (files, fragments
// of local PDFs, mailto syntax, other schemes); its web link is skipped under --offline.

func uriTargets() -> [UInt8] {
    let d = SampleDocument(pageCount: 1)
    d.specs[0].lines = ["URI targets the external check resolves on disk: files, PDF fragments, mailto, schemes."]
    d.specs[0].links = stack([
        ("links-internal.pdf#page=2", "/A << /S /URI /URI (links-internal.pdf#page=2) >>"),
        ("links-internal.pdf#page=9 (it has 4 pages)", "/A << /S /URI /URI (links-internal.pdf#page=9) >>"),
        (
            "file:links-internal.pdf#nameddest=chapter.2",
            "/A << /S /URI /URI (file:links-internal.pdf#nameddest=chapter.2) >>"
        ),
        ("links-internal.pdf#no.such.dest", "/A << /S /URI /URI (links-internal.pdf#no.such.dest) >>"),
        ("missing file", "/A << /S /URI /URI (handbook/missing.pdf) >>"),
        ("scheme forgotten", "/A << /S /URI /URI (www.example.org/docs) >>"),
        ("mailto, no @", "/A << /S /URI /URI (mailto:docs-at-example.com) >>"),
        ("tel:", "/A << /S /URI /URI (tel:+15551234567) >>"),
        ("web link", "/A << /S /URI /URI (https://example.com/handbook) >>"),
    ])
    return d.bytes(id: "uri-targets")
}

// MARK: - gotor.pdf: links to other files of the batch, good and broken.

func gotor() -> [UInt8] {
    let d = SampleDocument(pageCount: 1)
    d.specs[0].lines = ["GoToR: remote files by string and dictionary file specs, by name and by page."]
    d.specs[0].links = stack([
        ("links-internal.pdf, name chapter.2", "/A << /S /GoToR /F (links-internal.pdf) /D (chapter.2) >>"),
        ("links-internal.pdf, page index 1 (page 2)", "/A << /S /GoToR /F (links-internal.pdf) /D [1 /Fit] >>"),
        (
            "dests-catalog.pdf by /UF, name usage",
            "/A << /S /GoToR /F << /Type /Filespec /F (dests-catalog.pdf) /UF \(PDFString.utf16("dests-catalog.pdf")) >> /D /usage >>"
        ),
        ("missing file", "/A << /S /GoToR /F (missing.pdf) /D [0 /Fit] >>"),
        ("links-internal.pdf, undefined name", "/A << /S /GoToR /F (links-internal.pdf) /D (no.such.dest) >>"),
        ("links-internal.pdf, page index 99", "/A << /S /GoToR /F (links-internal.pdf) /D [99 /Fit] >>"),
        ("outside the input root", "/A << /S /GoToR /F (../outside.pdf) /D [0 /Fit] >>"),
        ("new window flag", "/A << /S /GoToR /F (dests-nametree.pdf) /D (a.first) /NewWindow true >>"),
    ])
    return d.bytes(id: "gotor")
}

// MARK: - actions.pdf: every action type, /Next chains, an open action.

func actions() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let w = d.w
    let uriStep = w.add("<< /S /URI /URI (https://example.com/next) >>")
    // A /Next cycle: A -> B -> A.
    let cycA = w.reserve()
    let cycB = w.reserve()
    w.set(cycA, "<< /S /GoTo /D [\(d.page(1)) /Fit] /Next \(w.ref(cycB)) >>")
    w.set(cycB, "<< /S /Named /N /NextPage /Next \(w.ref(cycA)) >>")
    d.catalogEntries = "/OpenAction << /S /GoTo /D [\(d.page(1)) /Fit] >>"
    d.specs[0].lines = ["Actions that are not plain GoTo, and chains of actions."]
    d.specs[0].links = stack(
        [
            ("Launch", "/A << /S /Launch /F (setup.exe) >>"),
            ("JavaScript", "/A << /S /JavaScript /JS (app.alert\\('hello'\\);) >>"),
            ("Named NextPage", "/A << /S /Named /N /NextPage >>"),
            ("Named PrevPage", "/A << /S /Named /N /PrevPage >>"),
            ("Named FirstPage", "/A << /S /Named /N /FirstPage >>"),
            ("Named LastPage", "/A << /S /Named /N /LastPage >>"),
            ("SubmitForm", "/A << /S /SubmitForm /F << /FS /URL /F (https://example.com/submit) >> >>"),
            ("ResetForm", "/A << /S /ResetForm >>"),
            ("Hide", "/A << /S /Hide /T (field1) >>"),
            ("other (Movie)", "/A << /S /Movie /T (clip) >>"),
            ("GoTo then /Next URI (dictionary)", "/A << /S /GoTo /D [\(d.page(2)) /Fit] /Next \(uriStep) >>"),
            (
                "GoTo then /Next array (Named, URI)",
                "/A << /S /GoTo /D [\(d.page(1)) /Fit] /Next [<< /S /Named /N /LastPage >> \(uriStep)] >>"
            ),
            ("/Next cycle", "/A \(w.ref(cycA))"),
            ("Launch an existing PDF", "/A << /S /Launch /F (links-internal.pdf) >>"),
        ], top: 670)
    return d.bytes(id: "actions")
}

// MARK: - broken-links.pdf: one broken link of every kind (see samples/README.md).

func brokenLinks() -> [UInt8] {
    let d = SampleDocument(pageCount: 3)
    let w = d.w
    let notAPage = w.add("<< /Type /Annot /Subtype /Text /Rect [0 0 10 10] /Contents (not a page) >>")
    let names = w.add("<< /Names [(bad.value) 42 (real.target) [\(d.page(1)) /Fit]] >>")
    d.catalogEntries = "/Names << /Dests \(names) >>"
    d.specs[0].lines = ["Broken links of every kind; see samples/README.md for the expected findings."]
    d.specs[0].links = stack(
        [
            ("undefined name", "/Dest (no.such.name)"),
            ("undefined name in GoTo", "/A << /S /GoTo /D (missing.too) >>"),
            ("target is not a page", "/Dest [\(notAPage) /Fit]"),
            ("integer page 7 of 3", "/Dest [7 /Fit]"),
            ("integer page 1 (valid, but an integer)", "/Dest [1 /Fit]"),
            ("XYZ with one argument", "/Dest [\(d.page(1)) /XYZ 1]"),
            ("unknown fit type", "/Dest [\(d.page(1)) /Bogus]"),
            ("destination value is a number", "/Dest (bad.value)"),
            ("XYZ position off the page", "/Dest [\(d.page(1)) /XYZ 5000 5000 null]"),
            ("FitR with a string argument", "/Dest [\(d.page(1)) /FitR 0 0 (x) 100]"),
            ("GoTo without /D", "/A << /S /GoTo >>"),
            ("no target at all", ""),
            ("valid link to real.target", "/Dest (real.target)"),
            ("XYZ top below the page", "/Dest [\(d.page(2)) /XYZ 72 -300 null]"),
            ("FitH without its parameter", "/Dest [\(d.page(1)) /FitH]"),
            ("integer page 2 (a second one)", "/Dest [2 /Fit]"),
        ], top: 670)
    // Degenerate and off-page rects.
    d.specs[0].links.append(
        LinkSpec(rect: [400, 100, 400, 130], caption: "zero width", entries: "/Dest [\(d.page(1)) /Fit]"))
    d.specs[0].links.append(
        LinkSpec(rect: [700, 900, 760, 930], caption: "off page", entries: "/Dest [\(d.page(1)) /Fit]"))
    // An inverted rect (x2 < x1): valid once normalized.
    d.specs[0].links.append(
        LinkSpec(rect: [560, 60, 420, 80], caption: "inverted rect", entries: "/Dest [\(d.page(2)) /Fit]"))
    d.catalogEntries +=
        " /Outlines "
        + outline(
            d,
            [
                OutlineItem(title: "Good item", entries: "/Dest [\(d.page(1)) /Fit]"),
                OutlineItem(title: "Broken item", entries: "/Dest (nowhere)"),
            ])
    return d.bytes(id: "broken-links")
}

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
