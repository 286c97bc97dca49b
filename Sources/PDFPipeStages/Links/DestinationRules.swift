import PDFPipeCore

/// The rules of destinations (`dest.*`): what resolve-destinations' name table and every link's
/// target report.
extension Rule {
    public static let destNameNotFound = Rule(
        "dest.name-not-found", severity: .error,
        summary:
            "a link, bookmark or open action names a destination that neither the /Dests dictionary nor the /Names tree defines",
        hint: "define the destination (an anchor/label in the source), or point the link at an existing one",
        details:
            #"a link, bookmark or open action names a destination that neither `/Dests` nor the `/Names` tree defines"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest (sec:intro) >>   % no 'sec:intro' in /Names /Dests",
        failsIn: Viewer.mainstream, sample: "samples/broken-links.pdf")

    public static let destNameUnverified = Rule(
        "dest.name-unverified", severity: .warning,
        summary:
            "a named destination that is not among the names read, when not all could be read (more than maxDestinations, a name tree deeper than the walk goes): it could not be checked",
        hint: "check the link by hand; raise maxDestinations if the document is genuine",
        details:
            #"a named destination that is not among the names read when not all of them could be (more than `maxDestinations`, a name tree deeper than 64 levels: `pdf.walk-limit`): it could not be checked, which is not the same as missing"#,
        sample: .init(
            "samples/dests-nametree.pdf",
            stages: #"[{"use": "resolve-destinations", "with": {"maxDestinations": 3}}, {"use": "validate-links"}]"#))

    public static let destPageNotInDocument = Rule(
        "dest.page-not-in-document", severity: .error,
        summary:
            "the destination points at an object that is not a page of this document (a deleted page, another object)",
        hint: "regenerate the document; pages removed after linking leave such links behind",
        details:
            #"the destination points at an object that is not a page of this document"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [6 0 R /Fit] >>   % 6 0 R is not a page",
        failsIn: Viewer.mainstream, sample: "samples/broken-links.pdf")

    public static let destPageOutOfRange = Rule(
        "dest.page-out-of-range", severity: .error,
        summary: "the destination gives an integer page number past the last page",
        hint: "point the link at an existing page",
        details:
            #"an integer page number past the last page"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [7 /Fit] >>   % a 3-page document",
        failsIn: Viewer.mainstream, sample: "samples/broken-links.pdf")

    public static let destIntegerPage = Rule(
        "dest.integer-page", severity: .note,
        summary:
            "a local destination gives a page number where PDF requires a page reference; PDFium, poppler and MuPDF go to that page (one finding per document, with the count)",
        hint: "make the generator write a page reference ([12 0 R /Fit])",
        details:
            #"a local destination gives a page number where a page reference belongs; PDFium, poppler and MuPDF go to that page (one finding per document, with `count` and `pages`)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [1 /XYZ 0 792 0] >>   % a number, not 3 0 R",
        sample: "samples/broken-links.pdf")

    public static let destMalformed = Rule(
        "dest.malformed", severity: .error,
        summary:
            "the destination cannot be followed by any viewer: no page (an empty array, a first element that is not a page), or not a destination at all (a name whose value is a number, say)",
        hint: "write [page /XYZ left top zoom], [page /Fit], [page /FitH top], … with the right parameters",
        details:
            #"a destination no viewer can follow: no page (an empty array, a first element that is not a page), a name whose value is not a destination"#,
        example:
            "/Names [(bad.value) 42]   % a named destination that is an integer",
        failsIn: Viewer.mainstream, sample: "samples/broken-links.pdf")

    public static let destNameEncoding = Rule(
        "dest.name-encoding", severity: .warning,
        summary:
            "a link names its destination in another text encoding than the definition (UTF-16BE, UTF-8 with a BOM, PDFDocEncoding, a name object): PDFium, MuPDF and pdf.js compare names as text and follow it, poppler (Evince, Okular) compares bytes and does not; one finding per pair of encodings (and file) and document, with the count",
        hint: "write the link's name and the destination's key the same way (PDFDocEncoding for ASCII names)",
        details:
            #"a named destination that matches its definition only as text, not byte for byte (`<FEFF0063…>` for a key `(chap2)`, locally or in a GoToR file): PDFium, MuPDF and pdf.js follow it; poppler and MuPDF 1.21 do not. Also a name written in UTF-8 without a byte-order mark in both places (XeTeX and LuaTeX labels past ASCII): poppler and PDFium follow it, MuPDF does not. One finding per pair of encodings (and GoToR file) and document, with `count`"#,
        example:
            "<< /S /GoToR /F (other.pdf) /D <FEFF00630068006100700032> >>   % other.pdf defines (chap2)",
        failsIn: [.poppler],
        sample: "Tests/Fixtures/rules/dest-name-encoding.pdf")

    public static let destViewerDependent = Rule(
        "dest.viewer-dependent", severity: .warning,
        summary:
            "an explicit destination whose view (fit type or operands) some mainstream viewers refuse: PDFium and MuPDF go to the page, and the message names those that do nothing (poppler, pdf.js); one finding per problem and document, with the count",
        hint:
            "write the view as PDF 32000 gives it: [page /XYZ left top zoom], [page /Fit], [page /FitH top], [page /FitR l b r t]",
        details:
            #"an explicit destination whose view some viewers refuse: PDFium and MuPDF go to the page, the message names those that do nothing (poppler: an unknown view, `/FitV` without its operand, `/FitR` with three…; pdf.js: wrong operand counts, non-numbers), and PDF 2.0 structure destinations (`[structElem /Fit]`: the element's page, which PDFium does not go to). One finding per problem and document, with `count`; every case in [docs/destinations.md](destinations.md)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [3 0 R /XYZ 0] >>   % /XYZ takes 3 operands",
        sample: "samples/broken-links.pdf")

    public static let destPositionOffPage = Rule(
        "dest.position-off-page", severity: .warning,
        summary:
            "the destination's top lies below the bottom of the target page (beyond positionTolerance): viewers land apart, Chrome's PDF viewer on the next page, MuPDF at the bottom of this one (a position above the top or beyond a side is clamped by viewers and passes)",
        hint:
            "put the anchor on the page it is on: a heading at the top of the next page (Chromium writes them so) is [next page /XYZ left top zoom]",
        details:
            #"the destination's top lies below the bottom of the target page (beyond `positionTolerance`). Viewers land apart, measured by `bench/viewers.sh`: Chrome's PDF viewer, its pages in one scroll, goes that far down into the next page (from the last page, to the end of the document); MuPDF, one page at a time, stops at the bottom of the target page. Which is right depends on where the anchor is: Chromium writes the destinations of headings that moved to the next page so, where Chrome lands and MuPDF does not. A position above the top or beyond a side is clamped by viewers and passes (on real PDFs, 3,682 of 3,724 positions outside the page were such)"#,
        sample: "samples/broken-links.pdf"
    )

    public static let destMissingParameter = Rule(
        "dest.missing-parameter", severity: .note,
        summary:
            "an explicit destination with missing, extra, null or non-numeric operands that PDFium, MuPDF, poppler and pdf.js all follow ([page /XYZ 68 628] without its zoom, [page /FitH] without its operand; one finding per document, with the count)",
        hint: "write the operands the view takes ([page /XYZ left top null], [page /FitH null])",
        details:
            #"an explicit destination with missing, extra, null or non-numeric operands that PDFium, MuPDF, poppler and pdf.js all follow: `[page /XYZ 68 628]` without its zoom, `[page /FitH]` (one finding per document, with `count`); the table of every case is in [docs/destinations.md](destinations.md)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [3 0 R /XYZ] >>", sample: "samples/broken-links.pdf")

    public static let destDuplicateName = Rule(
        "dest.duplicate-name", severity: .warning,
        summary: "a name is defined more than once in the /Names /Dests tree; readers may pick either definition",
        hint: "give each anchor a unique name",
        details:
            #"a name defined more than once in the name tree"#, sample: "samples/dests-bad-limits.pdf")

    public static let destTreeMalformed = Rule(
        "dest.tree-malformed", severity: .warning,
        summary:
            "the /Names /Dests tree is malformed: wrong or missing /Limits, unsorted keys, loops, bad entries (pdfpipe reads it whole; other readers may miss names)",
        hint: "rewrite the document with a conforming writer",
        details:
            #"wrong or missing `/Limits`, unsorted keys, loops, bad entries in the name tree"#,
        sample: "samples/dests-bad-limits.pdf")
}
