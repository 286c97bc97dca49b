/// A documented rule: a stable id, its default severity, and what it means.
public struct Rule: Sendable {
    public var id: String
    public var severity: Severity
    public var summary: String
    public var hint: String
    /// Off unless a pipeline turns it on under `rules` (inventory facts some audits want).
    public var offByDefault = false
    /// When it is reported, case by case, and what viewers do (Markdown; `Rules.details`).
    public var details: String { Rules.details[id] ?? summary }

    public init(id: String, severity: Severity, summary: String, hint: String, offByDefault: Bool = false) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.hint = hint
        self.offByDefault = offByDefault
    }
}

/// Every rule a stage may report. Ids are a contract: add, never rename.
public enum Rules {
    public static let all: [Rule] = [
        Rule(
            id: "pdf.unreadable", severity: .error,
            summary: "the file cannot be opened as a PDF (not a PDF, empty, or damaged beyond repair)",
            hint: "check that the file is a complete PDF; re-export or re-download it"),
        Rule(
            id: "pdf.password-required", severity: .error,
            summary: "the document is encrypted with a user password, so it cannot be opened without it",
            hint:
                "to check it, put a normalize stage first with the password: {\"use\": \"normalize\", \"with\": {\"passwordEnv\": \"PDF_PASSWORD\"}} (or passwordFile; several passwords: passwords per file glob); to publish it, remove the user password"
        ),
        Rule(
            id: "pdf.encrypted", severity: .warning,
            summary: "the document is encrypted (an owner password restricts what readers may do)",
            hint: "publish documentation without encryption so that every tool can read it"),
        Rule(
            id: "pdf.damaged", severity: .warning,
            summary: "qpdf had to repair or skip damaged structure while reading (broken xref table, bad objects)",
            hint: "re-save the document with a conforming writer (qpdf, for one, rewrites it repaired)"),
        Rule(
            id: "pdf.pages-lost", severity: .error,
            summary:
                "the normalized copy has a different number of pages than the original's page tree declares (repair lost or found pages)",
            hint: "compare the copy with the original; the original's page tree is damaged"),
        Rule(
            id: "pdf.crashed", severity: .error,
            summary: "processing the document crashed its (isolated) process; the rest of the batch went on",
            hint: "report the file to pdfpipe; other tools may choke on it too"),
        Rule(
            id: "pdf.timeout", severity: .error,
            summary: "the document took longer than timeoutSeconds; its (isolated) process was stopped",
            hint: "raise timeoutSeconds if the document is merely big; hostile files (nested forms) never finish"),
        Rule(
            id: "pdf.out-of-memory", severity: .error,
            summary: "the document's (isolated) process ran out of memory under memoryLimitMB",
            hint: "raise memoryLimitMB if the document is merely big"),
        Rule(
            id: "pdf.parse-message", severity: .note,
            summary: "poppler (or the MuPDF engine) reported a problem while reading the document",
            hint:
                "the message comes from the library named at its start (poppler or MuPDF); it often points at damaged or unusual structure"
        ),
        Rule(
            id: "pdf.page-mismatch", severity: .warning,
            summary: "qpdf and poppler disagree about the document's pages (count, size or label)",
            hint: "the page tree is probably damaged; run the normalize stage to rewrite it"),
        Rule(
            id: "pdf.link-count-mismatch", severity: .warning,
            summary:
                "qpdf, reading a damaged file, and poppler find a different number of links on a page (qpdf reads an object with one unrepresentable value as null, and its links vanish); the links only poppler reads were checked as poppler reads them",
            hint: "re-save the document with a conforming writer; the page's objects are damaged"),
        Rule(
            id: "dest.name-not-found", severity: .error,
            summary:
                "a link, bookmark or open action names a destination that neither the /Dests dictionary nor the /Names tree defines",
            hint: "define the destination (an anchor/label in the source), or point the link at an existing one"),
        Rule(
            id: "dest.name-unverified", severity: .warning,
            summary:
                "a named destination that is not among the names read, when not all could be read (more than maxDestinations, a name tree deeper than the walk goes): it could not be checked",
            hint: "check the link by hand; raise maxDestinations if the document is genuine"),
        Rule(
            id: "dest.page-not-in-document", severity: .error,
            summary:
                "the destination points at an object that is not a page of this document (a deleted page, another object)",
            hint: "regenerate the document; pages removed after linking leave such links behind"),
        Rule(
            id: "dest.page-out-of-range", severity: .error,
            summary: "the destination gives an integer page number past the last page",
            hint: "point the link at an existing page"),
        Rule(
            id: "dest.integer-page", severity: .note,
            summary:
                "a local destination gives a page number where PDF requires a page reference; PDFium, poppler and MuPDF go to that page (one finding per document, with the count)",
            hint: "make the generator write a page reference ([12 0 R /Fit])"),
        Rule(
            id: "dest.malformed", severity: .error,
            summary:
                "the destination cannot be followed by any viewer: no page (an empty array, a first element that is not a page), or not a destination at all (a name whose value is a number, say)",
            hint: "write [page /XYZ left top zoom], [page /Fit], [page /FitH top], … with the right parameters"),
        Rule(
            id: "dest.viewer-dependent", severity: .warning,
            summary:
                "an explicit destination whose view (fit type or operands) some mainstream viewers refuse: PDFium and MuPDF go to the page, and the message names those that do nothing (poppler, pdf.js); one finding per problem and document, with the count",
            hint:
                "write the view as PDF 32000 gives it: [page /XYZ left top zoom], [page /Fit], [page /FitH top], [page /FitR l b r t]"
        ),
        Rule(
            id: "dest.position-off-page", severity: .warning,
            summary:
                "the destination's top lies below the bottom of the target page (beyond positionTolerance): viewers show the next page instead (a position above the top or beyond a side is clamped by viewers and passes)",
            hint: "put the anchor on the page; viewers scroll to the wrong page"),
        Rule(
            id: "dest.missing-parameter", severity: .note,
            summary:
                "an explicit destination with missing, extra, null or non-numeric operands that PDFium, MuPDF, poppler and pdf.js all follow ([page /XYZ 68 628] without its zoom, [page /FitH] without its operand; one finding per document, with the count)",
            hint: "write the operands the view takes ([page /XYZ left top null], [page /FitH null])"),
        Rule(
            id: "dest.duplicate-name", severity: .warning,
            summary: "a name is defined more than once in the /Names /Dests tree; readers may pick either definition",
            hint: "give each anchor a unique name"),
        Rule(
            id: "dest.tree-malformed", severity: .warning,
            summary:
                "the /Names /Dests tree is malformed: wrong or missing /Limits, unsorted keys, loops, bad entries (pdfpipe reads it whole; other readers may miss names)",
            hint: "rewrite the document with a conforming writer"),
        Rule(
            id: "link.no-target", severity: .warning,
            summary: "a link annotation has neither /Dest nor /A: clicking it does nothing",
            hint: "give the link a target, or remove it"),
        Rule(
            id: "link.zero-area", severity: .warning,
            summary: "a link's /Rect has no width or no height: nobody can click it",
            hint: "give the link a real area (often a link around empty text)"),
        Rule(
            id: "link.off-page", severity: .warning,
            summary: "a link's /Rect lies outside the visible page (crop box): nobody can click it",
            hint: "move the link onto the page, or remove it"),
        Rule(
            id: "link.malformed", severity: .warning,
            summary: "a link annotation has no valid /Rect",
            hint: "give the link a /Rect of four numbers"),
        Rule(
            id: "action.malformed", severity: .error,
            summary:
                "an action lacks what it needs: no /S type, a GoTo without /D, a GoToR without /F, a Named action without /N",
            hint: "complete the action, or remove the link"),
        Rule(
            id: "action.cycle", severity: .warning,
            summary:
                "an action's /Next chain loops back on itself; viewers still follow the link (PDFium and poppler stop at the loop, MuPDF and pdf.js run the first action only), so a warning",
            hint: "break the loop in the /Next chain"),
        Rule(
            id: "action.launch", severity: .warning,
            summary: "a Launch action starts a program or opens a file; viewers block or warn about it",
            hint: "link to a URI or a document (GoToR) instead"),
        Rule(
            id: "action.launch-target-missing", severity: .error,
            summary:
                "a Launch action's file does not exist (inside the input root), or the #fragment of a local HTML page names no anchor of it",
            hint: "ship the file with the document, or fix its name or fragment"),
        Rule(
            id: "outline.no-target", severity: .warning,
            summary: "a bookmark with neither /Dest nor /A and no children: clicking it does nothing",
            hint: "give the bookmark a destination, or remove it"),
        Rule(
            id: "action.javascript", severity: .warning,
            summary: "a JavaScript action: many viewers block it, and its target cannot be checked",
            hint: "use a plain link where one will do"),
        Rule(
            id: "action.named-unknown", severity: .note,
            summary: "a Named action other than NextPage, PrevPage, FirstPage, LastPage (viewer-specific)",
            hint: "use one of the four standard names, or a GoTo"),
        Rule(
            id: "action.unsupported", severity: .note,
            summary: "an action type pdfpipe does not check (Movie, Sound, Rendition, SetOCGState, …)",
            hint: "nothing to fix; the action is listed so that it is not silently passed over"),
        Rule(
            id: "outline.cycle", severity: .warning,
            summary:
                "the outline (bookmarks) loops: an item's /Next or /First leads back to an item already seen; PDFium, MuPDF, poppler and pdf.js stop at the loop and show each bookmark once, simpler tools may hang",
            hint: "rewrite the outline"),
        Rule(
            id: "uri.malformed", severity: .error,
            summary: "a URI is not valid (RFC 3986) after applying /URI /Base: empty, spaces, bad scheme, no host, …",
            hint: "percent-encode the URI, or fix its scheme and host"),
        Rule(
            id: "uri.browser-repaired", severity: .warning,
            summary:
                "a URI that is not valid as written but that browsers repair the same way (non-ASCII characters, spaces or characters like ^ | { } after the host, a stray %, slashes after https:): it works in browsers, perhaps not in other tools",
            hint: "percent-encode it as the message shows"),
        Rule(
            id: "uri.absolute-file", severity: .warning,
            summary:
                "a file: URI with an absolute path (file:///home/…): it names a file on the machine the PDF was made on, and works for no other reader",
            hint: "ship the file beside the PDF and link to it with a relative path"),
        Rule(
            id: "uri.relative", severity: .note,
            summary:
                "a relative URI in a document without /URI /Base: viewers resolve it against the document's location",
            hint: "use an absolute URI, or set the catalog's /URI /Base"),
        Rule(
            id: "uri.insecure-scheme", severity: .note,
            summary: "a URI uses http rather than https",
            hint: "use https where the site supports it"),
        Rule(
            id: "uri.http-error", severity: .error,
            summary:
                "a web link's final answer (after redirects) is a status not accepted (default: anything outside 200-299)",
            hint: "fix or remove the link; if the status is expected, add it to external.accept"),
        Rule(
            id: "uri.blocked", severity: .warning,
            summary:
                "a web link answered 403, 429 or 503 with a bot protection's signature (a challenge or CAPTCHA page): the checker was refused, the link probably works",
            hint:
                "check it by hand; for a site that always refuses checkers, accept its status under 'hosts' or exclude it"
        ),
        Rule(
            id: "uri.unreachable", severity: .error,
            summary:
                "a web link's host cannot be reached: DNS failure, connection refused or reset, TLS error (after the retries)",
            hint: "check the host name; if the site is gone, remove or replace the link"),
        Rule(
            id: "uri.timeout", severity: .error,
            summary: "a web link did not answer within external.timeoutSeconds (after the retries)",
            hint: "check the link by hand; raise external.timeoutSeconds for slow sites"),
        Rule(
            id: "uri.redirected", severity: .note,
            summary: "a web link is permanently redirected (301 or 308) to another URL that works",
            hint: "link to the new URL"),
        Rule(
            id: "uri.redirect-loop", severity: .error,
            summary: "a web link's redirects lead back to a URL already visited",
            hint: "the site is misconfigured; link to a page that answers"),
        Rule(
            id: "uri.too-many-redirects", severity: .error,
            summary: "a web link redirects more than external.maxRedirects times",
            hint: "link to the final URL, or raise external.maxRedirects"),
        Rule(
            id: "uri.nothing-checked", severity: .warning,
            summary:
                "the run has web links but requested none of them (every one resolves to a private, loopback or link-local address): the web check checked nothing",
            hint: "set external.allowPrivateAddresses on a machine that may reach them, or exclude those links"),
        Rule(
            id: "uri.network-down", severity: .error,
            summary:
                "no web host answered (three or more, every request failed to resolve, connect or answer in time): the network looks down and no web link was verified",
            hint: "check the runner's network and DNS (a proxy? an offline runner?), or run with --offline"),
        Rule(
            id: "uri.skipped", severity: .note,
            summary:
                "a link was not checked on purpose: its host resolves to a loopback, private, link-local or multicast address, or its file lies outside the input root",
            hint: "set external.allowPrivateAddresses (or allowOutsideRoot) if such links are expected"),
        Rule(
            id: "uri.file-missing", severity: .error,
            summary: "a file: or relative URI names a file that does not exist (relative to the PDF's folder)",
            hint: "ship the file beside the PDF, or fix the path"),
        Rule(
            id: "uri.fragment-missing", severity: .error,
            summary:
                "a link to a PDF asks for a page (#page=N) or named destination (#nameddest=NAME) that the target does not have, or (htmlFragments) a link to a web page names an anchor the page does not have",
            hint: "fix the page number or destination name"),
        Rule(
            id: "uri.fragment-unverified", severity: .warning,
            summary:
                "a web link answers, but its #fragment (#page=, #nameddest= on a PDF; an HTML anchor with htmlFragments) could not be checked: the body was too slow or too large, or the document is not what the link expects (the reason is in the message and check.reason)",
            hint:
                "check the fragment by hand; raise external.timeoutSeconds or downloadLimitMB if the document is merely big"
        ),
        Rule(
            id: "uri.unchecked-scheme", severity: .note,
            summary: "a URI with a scheme the external check does not check (ftp:, tel:, news:, …)",
            hint: "nothing to fix; set external.schemes to 'ignore' or turn the rule off to hide these"),
        Rule(
            id: "gotor.file-missing", severity: .error,
            summary: "a GoToR link's file does not exist (resolved against the linking document's folder)",
            hint: "ship the target file with the document, or fix the file name"),
        Rule(
            id: "gotor.file-unreadable", severity: .error,
            summary: "a GoToR link's file exists but cannot be read as a PDF",
            hint: "replace the target file with a readable PDF"),
        Rule(
            id: "gotor.dest-missing", severity: .error,
            summary: "a GoToR link names a destination that the target file does not define",
            hint: "define the destination in the target file, or link to one it has"),
        Rule(
            id: "gotor.page-out-of-range", severity: .error,
            summary: "a GoToR link gives a page number past the target file's last page",
            hint: "link to an existing page of the target file"),
        Rule(
            id: "gotor.outside-root", severity: .error,
            summary: "a GoToR link's file lies outside the batch's input root, so it is not followed",
            hint: "keep linked documents together, or set the validate-links option allowOutsideRoot"),
        Rule(
            id: "text.match", severity: .error,
            summary: "a search term of extract-text was found (the severity is the term's own)",
            hint: "remove or change the text, or the search term"),
        Rule(
            id: "text.search-incomplete", severity: .warning,
            summary:
                "a regular-expression search term ran out of time on a page (it backtracks on that text), so the page was not fully searched",
            hint:
                "anchor the pattern so that it cannot backtrack, e.g. (?<![a-z0-9-])[a-z0-9-]+\\.example\\.com instead of [a-z0-9.-]+\\.example\\.com"
        ),
        Rule(
            id: "text.no-text-layer", severity: .warning,
            summary:
                "a page draws images but has no text: a scan without OCR, or text drawn as pictures (not searchable, not accessible)",
            hint: "run OCR on the page, or export text as text"),
        Rule(
            id: "pages.mixed-sizes", severity: .note,
            summary: "the pages differ in size or rotation (breaks 'page = scroll offset / page height' arithmetic)",
            hint: "nothing to fix if intended; the report's layout offsets map scroll positions to pages"),
        Rule(
            id: "forms.present", severity: .note, summary: "the document has form fields (AcroForm)",
            hint: "an inventory fact; turn the rule on where forms must not ship", offByDefault: true),
        Rule(
            id: "attachments.present", severity: .note, summary: "the document embeds files",
            hint: "an inventory fact; turn the rule on where attachments must not ship", offByDefault: true),
        Rule(
            id: "annotations.javascript-in-widget", severity: .note,
            summary: "a form field's widget runs JavaScript (blocked by many viewers)",
            hint: "use plain form actions where one will do"),
        Rule(
            id: "page.render-incomplete", severity: .warning,
            summary:
                "the page was drawn with parts missing: the engine could not decode an image or a stream on it (a JPX, JBIG2 or JPEG image, an unknown filter); viewers that can decode it show what the thumbnail lacks",
            hint: "re-export the images in a common format (JPEG, Flate), or check the file for damage"),
        Rule(
            id: "page.invalid-rotate", severity: .warning,
            summary: "a page's /Rotate is not a multiple of 90, so viewers ignore it",
            hint: "set /Rotate to 0, 90, 180 or 270"),
        Rule(
            id: "page.no-media-box", severity: .warning,
            summary: "a page has no /MediaBox (not even an inherited one); readers assume US Letter",
            hint: "give the page tree a /MediaBox"),
        Rule(
            id: "stage.failed", severity: .error,
            summary: "a stage could not finish on this document; later stages were skipped",
            hint: "the message says why; if it looks like a bug in pdfpipe, report it with the file"),
        Rule(
            id: "pdf.limit-exceeded", severity: .warning,
            summary:
                "the document has more links (maxLinks) or named destinations (maxDestinations) than the limit, or a stream that inflates past the reader's bounds (100 times the file's size per stream, 200 times in all; a decompression bomb); the rest were not checked",
            hint: "raise the limit if the document is genuine; hostile files use huge counts to exhaust memory"),
        Rule(
            id: "pdf.walk-limit", severity: .note,
            summary:
                "a walk over the document's structure (a /Next chain of actions, the outline) stopped at a size limit; the message says where, and what lies past it was not checked (a limit, not a defect: no cycle was seen)",
            hint: "nothing to fix if the document is genuine; hostile files use huge structures to exhaust time"),
        Rule(
            id: "config.suppression-expired", severity: .warning,
            summary:
                "an entry of the pipeline's 'ignore' list is past its 'expires' date; the findings it took out count again",
            hint: "fix the findings, or renew the entry with a new date and reason"),
        Rule(
            id: "config.suppression-unused", severity: .note,
            summary: "an entry of the pipeline's 'ignore' list matched no finding in the whole batch",
            hint: "remove the entry: the problem it was for is gone (or its rule, path, uri or page no longer match)"),
    ]

    private static let byID: [String: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    public static func rule(_ id: String) -> Rule? { byID[id] }

    /// The default severity of a rule; unknown ids (a bug) count as errors.
    public static func defaultSeverity(of id: String) -> Severity { byID[id]?.severity ?? .error }
}
