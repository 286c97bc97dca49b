import PDFPipeCore

/// The rules of the link stages' own reading of the document (resolve-destinations and
/// validate-links): destinations, link annotations, actions, bookmarks, URI syntax, GoToR files.
extension Rule {
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

    public static let uriTextMismatch = Rule(
        "uri.text-mismatch", severity: .warning,
        summary:
            "a web link's visible text is itself a web address, and not the one the link leads to (a copy-paste slip, and the pattern of phishing)",
        hint: "make the text and the target the same address",
        details:
            #"with `textChecks`: the text under the link's rectangle (poppler's text layer) is a bare web address (`http://`, `https://` or `www.`) that differs from the link's URI in host or path (scheme, `www.`, the host's case, a fragment and a trailing `/` aside; a text cut short by a line break or an ellipsis that begins the URI is the URI)"#,
        sample: Sample("Tests/Fixtures/rules/uri-text.pdf", with: #"{"textChecks": true}"#))

    public static let uriUnlinked = Rule(
        "uri.unlinked", severity: .warning,
        summary: "web addresses written in the page text with no link on them: readers cannot follow them",
        hint: "make each address a link (hyperref, or the authoring tool's link option)",
        details:
            #"with `textChecks`: an `http://`, `https://` or `www.` address at a word's start in a page's text (poppler's text layer), whose first character no link annotation covers; one finding per document, listing the addresses with their pages (`addresses`, at most 50; `count` says them all)"#,
        sample: Sample("Tests/Fixtures/rules/uri-text.pdf", with: #"{"textChecks": true}"#))

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
        .uriBrowserRepaired, .uriAbsoluteFile, .uriRelative, .uriInsecureScheme, .uriTextMismatch, .uriUnlinked,
        .gotorFileMissing, .gotorFileUnreadable, .gotorDestMissing, .gotorPageOutOfRange, .gotorOutsideRoot,
    ]
    /// The external check's (validate-links' `external`).
    static let external: [Rule] = [
        .uriHttpError, .uriBlocked, .uriUnreachable, .uriTimeout, .uriRedirected, .uriRedirectLoop,
        .uriTooManyRedirects, .uriNothingChecked, .uriNetworkDown, .uriSkipped, .uriFileMissing, .uriFragmentMissing,
        .uriFragmentUnverified, .uriUncheckedScheme, .uriRateLimited, .uriFlaky, .uriRecovered, .uriSoft404,
        .uriParked, .uriLoginWall, .uriHTTPSAvailable,
    ]
}
