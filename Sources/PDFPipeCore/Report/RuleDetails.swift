/// What each rule reports, case by case, and what viewers do about it: the "when" column of the
/// rules table in docs/reference.md (held to it by `RulePagesTests`) and the body of each rule's
/// page (`RulePages`). Markdown.
extension Rules {
    static let details: [String: String] = [
        "pdf.unreadable":
            #"the file cannot be opened as a PDF by any reader pdfpipe has: empty, no `%PDF-` header, or damaged beyond repair; or its catalog or page tree cannot be read (never a pass with no page). A file that qpdf cannot open but pdfpipe's reader or poppler can (as MuPDF and PDFium do: a `startxref` a few bytes off in a file of cross-reference streams, an `/Encrypt` that is not a dictionary, a broken trailer) is not unreadable: it is audited through that reader and gets `pdf.damaged` (a warning) saying what was repaired; read by poppler alone, its links are checked as poppler reads them (internal and named destinations, GoToR and Launch files, URI syntax; findings marked `reader: "poppler"`), and the warning says what was not (bookmarks, the open action, the inventory)"#,
        "pdf.password-required":
            #"encrypted with a user password; cannot be opened without it. Also when the owner password is empty and the user password is not: qpdf and poppler open such a file (pdfpipe then still checks it), PDFium and MuPDF ask for the password"#,
        "pdf.encrypted":
            #"encrypted with an owner password only: it opens, but readers are restricted"#,
        "pdf.damaged":
            #"qpdf repaired or skipped damaged structure while reading (one finding per document: the first message, `count`, and the first ten under `qpdfMessages`); or pdfpipe's reader repaired a value as poppler and MuPDF do (an integer past 64 bits read as a real: one bad value, the rest of the object is read; `repairedObjects`)"#,
        "pages.mixed-sizes":
            #"the pages differ in size or rotation"#,
        "forms.present":
            #"the document has form fields (turn on under `rules` where forms must not ship)"#,
        "attachments.present":
            #"the document embeds files (turn on where attachments must not ship)"#,
        "annotations.javascript-in-widget":
            #"a form field's widget runs JavaScript"#,
        "pdf.pages-lost":
            #"the normalized copy has another number of pages than the original's page tree declares"#,
        "pdf.parse-message":
            #"poppler logged a problem while reading (with `crossCheck`, or while rendering; at most 20 per document; its messages about links, destinations and actions are left out when validate-links checked the document: its findings say more)"#,
        "pdf.page-mismatch":
            #"qpdf and poppler disagree about page count, size or label (`inspect` with `crossCheck`; the link stages too, for a file read through qpdf: its links were checked on qpdf's pages only)"#,
        "pdf.link-count-mismatch":
            #"a file read (in part) through qpdf, which reads an object holding one unrepresentable value (an integer past 64 bits) as null: qpdf and poppler count a different number of links on a page (`qpdfLinks`, `popplerLinks`); where poppler has more, the page's links were also checked as poppler reads them (`reader: "poppler"`)"#,
        "text.match":
            #"a search term of `extract-text` was found"#,
        "text.no-text-layer":
            #"a page draws images but has no text (a scan without OCR)"#,
        "text.search-incomplete":
            #"a regular-expression term ran out of its 2 s on a page (it backtracks on that text): the page was not fully searched"#,
        "page.invalid-rotate":
            #"`/Rotate` is not a multiple of 90 (viewers ignore it)"#,
        "page.no-media-box":
            #"a page has no `/MediaBox`, not even inherited (readers assume US Letter)"#,
        "dest.name-not-found":
            #"a link, bookmark or open action names a destination that neither `/Dests` nor the `/Names` tree defines"#,
        "dest.name-unverified":
            #"a named destination that is not among the names read when not all of them could be (more than `maxDestinations`, a name tree deeper than 64 levels: `pdf.walk-limit`): it could not be checked, which is not the same as missing"#,
        "dest.page-not-in-document":
            #"the destination points at an object that is not a page of this document"#,
        "dest.page-out-of-range":
            #"an integer page number past the last page"#,
        "dest.integer-page":
            #"a local destination gives a page number where a page reference belongs; PDFium, poppler and MuPDF go to that page (one finding per document, with `count` and `pages`)"#,
        "dest.missing-parameter":
            #"an explicit destination with missing, extra, null or non-numeric operands that PDFium, MuPDF, poppler and pdf.js all follow: `[page /XYZ 68 628]` without its zoom, `[page /FitH]` (one finding per document, with `count`); the table of every case is in [docs/destinations.md](destinations.md)"#,
        "dest.malformed":
            #"a destination no viewer can follow: no page (an empty array, a first element that is not a page), a name whose value is not a destination"#,
        "dest.viewer-dependent":
            #"an explicit destination whose view some viewers refuse: PDFium and MuPDF go to the page, the message names those that do nothing (poppler: an unknown view, `/FitV` without its operand, `/FitR` with three…; pdf.js: wrong operand counts, non-numbers). One finding per problem and document, with `count`; every case in [docs/destinations.md](destinations.md)"#,
        "dest.position-off-page":
            #"the destination's top lies below the bottom of the target page (beyond `positionTolerance`): viewers show the next page. A position above the top or beyond a side is clamped by viewers and passes (on real PDFs, 3,682 of 3,724 positions outside the page were such)"#,
        "dest.duplicate-name":
            #"a name defined more than once in the name tree"#,
        "dest.tree-malformed":
            #"wrong or missing `/Limits`, unsorted keys, loops, bad entries in the name tree"#,
        "link.no-target":
            #"a link with neither `/Dest` nor `/A`"#,
        "link.zero-area":
            #"a link rectangle without width or height"#,
        "link.off-page":
            #"a link rectangle outside the crop box"#,
        "link.malformed":
            #"a link without a valid `/Rect`"#,
        "action.malformed":
            #"an action without `/S`, a GoTo without `/D`, a GoToR without `/F`, a Named action without `/N`"#,
        "action.cycle":
            #"a `/Next` chain loops: an action leads back to itself; viewers still follow the link (PDFium and poppler stop at the loop, MuPDF and pdf.js run the first action only) (an action two branches share is no loop; a long chain is walked whole, up to `pdf.walk-limit`)"#,
        "action.launch":
            #"a Launch action (viewers block or warn)"#,
        "action.launch-target-missing":
            #"a Launch action's file does not exist (inside the input root), or the `#fragment` of a local HTML page names no anchor of it (with `gotor`)"#,
        "action.javascript":
            #"a JavaScript action (often blocked, not checkable)"#,
        "action.named-unknown":
            #"a Named action other than the four standard ones"#,
        "action.unsupported":
            #"an action type pdfpipe does not check (Movie, SetOCGState, …)"#,
        "outline.cycle":
            #"the bookmarks loop: an item is reached again (nesting of any depth is walked); PDFium, MuPDF, poppler and pdf.js stop at the loop and show each bookmark once, simpler tools may hang"#,
        "outline.no-target":
            #"a bookmark with neither `/Dest` nor `/A` and no children: clicking it does nothing"#,
        "uri.malformed":
            #"a URI no viewer can follow: a broken host or scheme, empty, control characters, `https//…` (the colon forgotten: read as a relative path; the fix gives the URL)"#,
        "uri.browser-repaired":
            #"not valid as written, but browsers repair it the same way (the WHATWG URL standard): non-ASCII characters, spaces or `^ | { } " < >` after the host, a stray `%`, slashes after `https:` other than `//`, control characters or spaces before or after it (a C string's terminating NUL, a trailing line break; MuPDF drops the NUL too), tabs and line breaks inside it, a backslash in the path (a slash to browsers); the message gives what a browser requests, and the external check requests that"#,
        "uri.absolute-file":
            #"a `file:` URI with an absolute path (`file:///home/…`), or a Windows path with a drive letter, as a `file:` URI or bare (`file://C:\Users\…`, `C:\Users\…`): it works only on the machine the PDF was made on (not requested by the external check)"#,
        "uri.relative":
            #"a relative URI in a document without `/URI /Base`"#,
        "uri.insecure-scheme":
            #"an http URI"#,
        "uri.http-error":
            #"external check: a web link's final status (after redirects) is not in `accept`"#,
        "uri.unreachable":
            #"external check: DNS, connection or TLS failure (after the retries)"#,
        "uri.timeout":
            #"external check: no answer within `timeoutSeconds` (after the retries)"#,
        "uri.redirected":
            #"external check: a permanent redirect (301/308) to a URL that works; the fix names it"#,
        "uri.redirect-loop":
            #"external check: the redirects come back to a URL already visited"#,
        "uri.too-many-redirects":
            #"external check: more than `maxRedirects` redirects"#,
        "uri.skipped":
            #"external check: not requested on purpose — the host resolves to a loopback, private, link-local or multicast address, or the file lies outside the input root"#,
        "uri.nothing-checked":
            #"external check, said once for the run: it has web links but requested none (every one resolves to a private, loopback or link-local address) — a check that checked nothing is not silence"#,
        "uri.network-down":
            #"external check, said once for the run: three or more web hosts and none answered (every request failed to resolve, connect or answer in time); each link's `uri.unreachable` stays in report.json, and the console and annotations leave them out"#,
        "uri.file-missing":
            #"external check: a `file:` or relative URI names a file that does not exist"#,
        "uri.fragment-missing":
            #"external check: a link to a PDF asks for a `#page=` past its end or a `#nameddest=` it does not define; with `htmlFragments`, a link to a web page names an anchor the page does not have"#,
        "uri.fragment-unverified":
            #"external check: the link answers, but its `#page=`/`#nameddest=` (or, with `htmlFragments`, its HTML anchor) could not be checked — the body did not arrive within `timeoutSeconds`, was larger than `downloadLimitMB`, or is not a PDF (or not HTML) although the link expects one; `check.outcome` is `fragment-unverified`, `check.reason` says why"#,
        "uri.unchecked-scheme":
            #"external check: a scheme that is not checked (`ftp:`, `tel:`, …)"#,
        "gotor.file-missing":
            #"a GoToR file that does not exist"#,
        "gotor.file-unreadable":
            #"a GoToR file that is not a readable PDF"#,
        "gotor.dest-missing":
            #"a GoToR name that the target file does not define"#,
        "gotor.page-out-of-range":
            #"a GoToR page number past the target's last page"#,
        "gotor.outside-root":
            #"a GoToR file outside the input root (not followed)"#,
        "stage.failed":
            #"a stage could not finish on a document; later stages were skipped"#,
        "pdf.crashed":
            #"with isolation: the document's process died (the message gives the signal, e.g. SIGSEGV, and its last stderr line)"#,
        "pdf.timeout":
            #"with `timeoutSeconds`: the document took longer; its process was stopped"#,
        "pdf.limit-exceeded":
            #"a document has more link annotations than `maxLinks` (`validate-links`) or more named destinations than `maxDestinations` (`resolve-destinations`), or a stream that inflates past pdfpipe's reader's bounds (per stream 100 times the file's size, at least 16 MB and at most 256 MB; per document 200 times, 64 MB to 1 GB: a decompression bomb is stopped there, never handed to qpdf); the rest were not checked"#,
        "uri.blocked":
            #"external check: a 403, 429 or 503 that carries a bot protection's signature (Cloudflare's `cf-mitigated` or challenge page, AWS WAF, DataDome, Imperva, Sucuri, Akamai, PerimeterX, DDoS-Guard, a CAPTCHA page): the checker was refused, the link probably works; the message says what was seen"#,
        "pdf.walk-limit":
            #"a walk stopped at a size limit (a `/Next` chain of more than 10,000 actions, an outline of more than 100,000 bookmarks, a name tree deeper than 64 levels): the message says where; what lies past it was not checked. Walks are iterative, so depth alone never stops one, and only a real revisit of an object is a cycle"#,
        "config.suppression-expired":
            #"an `ignore` entry is past its `expires` date; its findings count again"#,
        "config.suppression-unused":
            #"an `ignore` entry matched no finding in the whole batch"#,
        "pdf.out-of-memory":
            #"with `memoryLimitMB`: the document's process died for lack of memory"#,
    ]
}
