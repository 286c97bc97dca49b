import PDFPipeCore

/// The rules of the link stages' own reading of the document (resolve-destinations and
/// validate-links): destinations, link annotations, actions, bookmarks, URI syntax, GoToR files.
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
            "the destination's top lies below the bottom of the target page (beyond positionTolerance): viewers show the next page instead (a position above the top or beyond a side is clamped by viewers and passes)",
        hint: "put the anchor on the page; viewers scroll to the wrong page",
        details:
            #"the destination's top lies below the bottom of the target page (beyond `positionTolerance`): viewers show the next page. A position above the top or beyond a side is clamped by viewers and passes (on real PDFs, 3,682 of 3,724 positions outside the page were such)"#,
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

    public static let linkNoTarget = Rule(
        "link.no-target", severity: .warning,
        summary: "a link annotation has neither /Dest nor /A: clicking it does nothing",
        hint: "give the link a target, or remove it",
        details:
            #"a link with neither `/Dest` nor `/A`"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] >>   % neither /Dest nor /A", sample: "samples/broken-links.pdf")

    public static let linkZeroArea = Rule(
        "link.zero-area", severity: .warning,
        summary: "a link's /Rect has no width or no height: nobody can click it",
        hint: "give the link a real area (often a link around empty text)",
        details:
            #"a link rectangle without width or height"#,
        example:
            "<< /Subtype /Link /Rect [10 10 10 40] /Dest [3 0 R /Fit] >>", sample: "samples/broken-links.pdf")

    public static let linkOffPage = Rule(
        "link.off-page", severity: .warning,
        summary: "a link's /Rect lies outside the visible page (crop box): nobody can click it",
        hint: "move the link onto the page, or remove it",
        details:
            #"a link rectangle outside the crop box"#,
        example:
            "<< /Subtype /Link /Rect [900 900 950 920] /Dest [3 0 R /Fit] >>   % a 612 x 792 page",
        sample: "samples/broken-links.pdf")

    public static let linkMalformed = Rule(
        "link.malformed", severity: .warning,
        summary: "a link annotation has no valid /Rect",
        hint: "give the link a /Rect of four numbers",
        details:
            #"a link without a valid `/Rect`"#, sample: "Tests/Fixtures/rules/link-malformed.pdf")

    public static let actionMalformed = Rule(
        "action.malformed", severity: .error,
        summary:
            "an action lacks what it needs: no /S type, a GoTo without /D, a GoToR without /F, a Named action without /N",
        hint: "complete the action, or remove the link",
        details:
            #"an action without `/S`, a GoTo without `/D`, a GoToR without `/F`, a Named action without `/N`"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /GoTo >> >>   % no /D",
        failsIn: Viewer.mainstream, sample: "samples/broken-links.pdf")

    public static let actionCycle = Rule(
        "action.cycle", severity: .warning,
        summary:
            "an action's /Next chain loops back on itself; viewers still follow the link (PDFium and poppler stop at the loop, MuPDF and pdf.js run the first action only), so a warning",
        hint: "break the loop in the /Next chain",
        details:
            #"a `/Next` chain loops: an action leads back to itself; viewers still follow the link (PDFium and poppler stop at the loop, MuPDF and pdf.js run the first action only) (an action two branches share is no loop; a long chain is walked whole, up to `pdf.walk-limit`)"#,
        example:
            "4 0 obj << /S /URI /URI (https://example.com/) /Next 5 0 R >>\n5 0 obj << /S /GoTo /D [3 0 R /Fit] /Next 4 0 R >>",
        sample: "samples/actions.pdf"
    )

    public static let actionLaunch = Rule(
        "action.launch", severity: .warning,
        summary: "a Launch action starts a program or opens a file; viewers block or warn about it",
        hint: "link to a URI or a document (GoToR) instead",
        details:
            #"a Launch action (viewers block or warn)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /Launch /F (setup.exe) >> >>",
        sample: "samples/actions.pdf")

    public static let actionLaunchTargetMissing = Rule(
        "action.launch-target-missing", severity: .error,
        summary:
            "a Launch action's file does not exist (inside the input root), or the #fragment of a local HTML page names no anchor of it",
        hint: "ship the file with the document, or fix its name or fragment",
        details:
            #"a Launch action's file does not exist (inside the input root), or the `#fragment` of a local HTML page names no anchor of it (with `gotor`)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /Launch /F (setup.exe) >> >>   % no setup.exe beside the PDF",
        failsIn: Viewer.mainstream, sample: "samples/actions.pdf")

    public static let outlineNoTarget = Rule(
        "outline.no-target", severity: .warning,
        summary: "a bookmark with neither /Dest nor /A and no children: clicking it does nothing",
        hint: "give the bookmark a destination, or remove it",
        details:
            #"a bookmark with neither `/Dest` nor `/A` and no children: clicking it does nothing"#,
        example:
            "<< /Title (A heading without a target) /Parent 10 0 R >>   % no /Dest, /A or /First",
        sample: "samples/outlines.pdf")

    public static let actionJavascript = Rule(
        "action.javascript", severity: .warning,
        summary: "a JavaScript action: many viewers block it, and its target cannot be checked",
        hint: "use a plain link where one will do",
        details:
            #"a JavaScript action (often blocked, not checkable)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /JavaScript /JS (app.alert\\(1\\)) >> >>",
        sample: "samples/actions.pdf")

    public static let actionNamedUnknown = Rule(
        "action.named-unknown", severity: .note,
        summary: "a Named action other than NextPage, PrevPage, FirstPage, LastPage (viewer-specific)",
        hint: "use one of the four standard names, or a GoTo",
        details:
            #"a Named action other than the four standard ones"#,
        sample: "Tests/Fixtures/rules/action-named-unknown.pdf")

    public static let actionUnsupported = Rule(
        "action.unsupported", severity: .note,
        summary: "an action type pdfpipe does not check (Movie, Sound, Rendition, SetOCGState, …)",
        hint: "nothing to fix; the action is listed so that it is not silently passed over",
        details:
            #"an action type pdfpipe does not check (Movie, SetOCGState, …)"#, sample: "samples/actions.pdf")

    public static let outlineCycle = Rule(
        "outline.cycle", severity: .warning,
        summary:
            "the outline (bookmarks) loops: an item's /Next or /First leads back to an item already seen; PDFium, MuPDF, poppler and pdf.js stop at the loop and show each bookmark once, simpler tools may hang",
        hint: "rewrite the outline",
        details:
            #"the bookmarks loop: an item is reached again (nesting of any depth is walked); PDFium, MuPDF, poppler and pdf.js stop at the loop and show each bookmark once, simpler tools may hang"#,
        example:
            "11 0 obj << /Title (One) /Next 12 0 R >>\n12 0 obj << /Title (Two) /Next 11 0 R >>",
        sample: "samples/outline-cycle.pdf")

    public static let uriMalformed = Rule(
        "uri.malformed", severity: .error,
        summary: "a URI is not valid (RFC 3986) after applying /URI /Base: empty, spaces, bad scheme, no host, …",
        hint: "percent-encode the URI, or fix its scheme and host",
        details:
            #"a URI no viewer can follow: a broken host or scheme, empty, control characters, `https//…` (the colon forgotten: read as a relative path; the fix gives the URL)"#,
        example:
            "<< /S /URI /URI (http://exa mple.com/) >>   % a space in the host",
        failsIn: Viewer.mainstream, sample: "samples/uri-links.pdf")

    public static let uriSchemeMisspelt = Rule(
        "uri.scheme-misspelt", severity: .error,
        summary:
            "a URI whose scheme is a near miss of http, https or mailto (htp:, htps:, hhtp:, http;//, mialto:, email:): no system handles it, so clicking the link opens nothing in any viewer",
        hint: "write the scheme as meant (the message gives the URI)",
        details:
            #"a URI whose scheme no system handles and that is one edit (a letter added, dropped, changed or two swapped) from `http`, `https` or `mailto`, or a word for mail (`email:`, `e-mail:`, `mail:`), or `http;//` with a punctuation mark for the colon (read as a relative path); `hxxp` (a defanged link) and `validate-links` `customSchemes` are not near misses. Every case in [docs/uri-schemes.md](uri-schemes.md)"#,
        example:
            "<< /S /URI /URI (htps://example.org/) >>   % meant https://",
        failsIn: Viewer.mainstream, sample: "Tests/Fixtures/rules/uri-schemes.pdf")

    public static let uriUnknownScheme = Rule(
        "uri.unknown-scheme", severity: .warning,
        summary:
            "a URI whose scheme no system handles (doi:, isbn:, javascript:, a program's own): pdf.js links only http, https, ftp, mailto and tel, and the desktop has no program for it; one finding per scheme and document, with the count",
        hint:
            "use a scheme readers can open (https://doi.org/… for doi:), or list your own in validate-links customSchemes",
        details:
            #"a URI whose scheme is neither among the schemes systems handle (IANA's permanent ones and the common provisional ones: docs/uri-schemes.md) nor listed in `validate-links` `customSchemes`, nor a near miss (`uri.scheme-misspelt`); for `doi:`, `hdl:`, `arxiv:`, `pmid:`, `isbn:` and `ctan:` the hint gives the https resolver. One finding per scheme and document, with `count`"#,
        example:
            "<< /S /URI /URI (doi:10.1000/182) >>   % https://doi.org/10.1000/182 opens",
        failsIn: Viewer.mainstream, sample: "Tests/Fixtures/rules/uri-schemes.pdf")

    public static let uriMailtoNotAnAddress = Rule(
        "uri.mailto-not-an-address", severity: .note,
        summary:
            "a mailto: link whose address a person must complete or decode before sending: hidden from spam (name[at]example[dot]org), a placeholder (mailto:no email), or none; every viewer hands it to the mail client",
        hint: "write the address as it is: name@example.org",
        details:
            #"a `mailto:` link whose address is not one as written: hidden from spam (`[at]`, `(dot)`, ` at `, `nospam`…), without `@` (a placeholder: `mailto:no email`), or empty; viewers open the mail client with it, to be fixed by hand. An address with `@` that cannot be delivered (a broken domain, a space) is `uri.malformed`"#,
        example:
            "<< /S /URI /URI (mailto:adrien[at]example[dot]org) >>", sample: "samples/uri-targets.pdf")

    public static let uriBrowserRepaired = Rule(
        "uri.browser-repaired", severity: .warning,
        summary:
            "a URI that is not valid as written but that browsers repair the same way (non-ASCII characters, spaces or characters like ^ | { } after the host, a stray %, slashes after https:): it works in browsers, perhaps not in other tools",
        hint: "percent-encode it as the message shows",
        details:
            #"not valid as written, but browsers repair it the same way (the WHATWG URL standard): non-ASCII characters, spaces or `^ | { } " < >` after the host, a stray `%`, slashes after `https:` other than `//`, control characters or spaces before or after it (a C string's terminating NUL, a trailing line break; MuPDF drops the NUL too), tabs and line breaks inside it, a backslash in the path (a slash to browsers); in a `mailto:` the same in its query and fragment (a space in `?subject=`: every viewer opens it), never in the address; the message gives what a browser requests, and the external check requests that"#,
        example:
            "<< /S /URI /URI (https://example.com/a^b c) >>   % browsers send %5E and %20",
        sample: "samples/uri-links.pdf")

    public static let uriAbsoluteFile = Rule(
        "uri.absolute-file", severity: .warning,
        summary:
            "a file: URI with an absolute path (file:///home/…): it names a file on the machine the PDF was made on, and works for no other reader",
        hint: "ship the file beside the PDF and link to it with a relative path",
        details:
            #"a `file:` URI with an absolute path (`file:///home/…`), or a Windows path with a drive letter, as a `file:` URI or bare (`file://C:\Users\…`, `C:\Users\…`), or a path from the root without `file:` (`/usr/local/share/…`) in a document without `/URI /Base` (viewers open that path on the reader's machine): it works only on the machine the PDF was made on (not requested by the external check)"#,
        example:
            "<< /S /URI /URI (file:///home/author/notes.pdf) >>", sample: "samples/uri-links.pdf")

    public static let uriRelative = Rule(
        "uri.relative", severity: .note,
        summary:
            "a relative URI in a document without /URI /Base: viewers resolve it against the document's location",
        hint: "use an absolute URI, or set the catalog's /URI /Base",
        details:
            #"a relative URI in a document without `/URI /Base`"#,
        example:
            "<< /S /URI /URI (chapter2.html) >>   % no scheme: relative to the PDF", sample: "samples/uri-targets.pdf")

    public static let uriInsecureScheme = Rule(
        "uri.insecure-scheme", severity: .note,
        summary: "a URI uses http rather than https",
        hint: "use https where the site supports it",
        details:
            #"an http URI"#,
        example:
            "<< /S /URI /URI (http://example.com/) >>", sample: "samples/uri-links.pdf")

    public static let gotorFileMissing = Rule(
        "gotor.file-missing", severity: .error,
        summary: "a GoToR link's file does not exist (resolved against the linking document's folder)",
        hint: "ship the target file with the document, or fix the file name",
        details:
            #"a GoToR file that does not exist"#,
        example:
            "<< /S /GoToR /F (missing.pdf) /D [0 /Fit] >>",
        failsIn: Viewer.mainstream, sample: "samples/gotor.pdf")

    public static let gotorFileUnreadable = Rule(
        "gotor.file-unreadable", severity: .error,
        summary: "a GoToR link's file exists but cannot be read as a PDF",
        hint: "replace the target file with a readable PDF",
        details:
            #"a GoToR file that is not a readable PDF"#,
        failsIn: Viewer.mainstream,
        sample: "Tests/Fixtures/rules/gotor-unreadable.pdf")

    public static let gotorDestMissing = Rule(
        "gotor.dest-missing", severity: .error,
        summary: "a GoToR link names a destination that the target file does not define",
        hint: "define the destination in the target file, or link to one it has",
        details:
            #"a GoToR name that the target file does not define"#,
        example:
            "<< /S /GoToR /F (guide.pdf) /D (no.such.dest) >>",
        failsIn: Viewer.mainstream, sample: "samples/gotor.pdf")

    public static let gotorPageOutOfRange = Rule(
        "gotor.page-out-of-range", severity: .error,
        summary: "a GoToR link gives a page number past the target file's last page",
        hint: "link to an existing page of the target file",
        details:
            #"a GoToR page number past the target's last page"#,
        example:
            "<< /S /GoToR /F (guide.pdf) /D [99 /Fit] >>   % guide.pdf has 4 pages",
        failsIn: Viewer.mainstream, sample: "samples/gotor.pdf")

    public static let gotorOutsideRoot = Rule(
        "gotor.outside-root", severity: .error,
        summary: "a GoToR link's file lies outside the batch's input root, so it is not followed",
        hint: "keep linked documents together, or set the validate-links option allowOutsideRoot",
        details:
            #"a GoToR file outside the input root (not followed)"#,
        example:
            "<< /S /GoToR /F (../outside.pdf) /D [0 /Fit] >>", sample: "samples/gotor.pdf")
}

/// The link stages' rule lists, for their descriptors.
enum LinkRules {
    /// Destinations: what resolve-destinations' name table and every link's target report.
    static let destinations: [Rule] = [
        .destNameNotFound, .destNameUnverified, .destPageNotInDocument, .destPageOutOfRange, .destIntegerPage,
        .destMalformed, .destViewerDependent, .destNameEncoding, .destPositionOffPage, .destMissingParameter,
        .destDuplicateName,
        .destTreeMalformed,
    ]
    /// Link annotations, actions, bookmarks, URI syntax and GoToR files (validate-links).
    static let links: [Rule] = [
        .linkNoTarget, .linkZeroArea, .linkOffPage, .linkMalformed, .actionMalformed, .actionCycle, .actionLaunch,
        .actionLaunchTargetMissing, .outlineNoTarget, .actionJavascript, .actionNamedUnknown, .actionUnsupported,
        .outlineCycle, .uriMalformed, .uriSchemeMisspelt, .uriUnknownScheme, .uriMailtoNotAnAddress,
        .uriBrowserRepaired, .uriAbsoluteFile, .uriRelative, .uriInsecureScheme,
        .gotorFileMissing, .gotorFileUnreadable, .gotorDestMissing, .gotorPageOutOfRange, .gotorOutsideRoot,
    ]
    /// The external check's (validate-links' `external`).
    static let external: [Rule] = [
        .uriHttpError, .uriBlocked, .uriUnreachable, .uriTimeout, .uriRedirected, .uriRedirectLoop,
        .uriTooManyRedirects, .uriNothingChecked, .uriNetworkDown, .uriSkipped, .uriFileMissing, .uriFragmentMissing,
        .uriFragmentUnverified, .uriUncheckedScheme, .uriRateLimited, .uriFlaky, .uriRecovered,
    ]
}
