import Foundation
import PDFBridge
import PDFReader
import SystemIO

// The samples of links, destinations and actions.

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
