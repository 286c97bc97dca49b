/// The rules Core reports itself, whatever the stages: the file cannot be read or is damaged, the
/// document's process failed (isolation), a stage failed, a walk stopped at a limit, the pipeline's
/// own `ignore` entries. A stage's rules are declared with the stage.
extension Rule {
    public static let pdfUnreadable = Rule(
        "pdf.unreadable", severity: .error,
        summary: "the file cannot be opened as a PDF (not a PDF, empty, or damaged beyond repair)",
        hint: "check that the file is a complete PDF; re-export or re-download it",
        details:
            #"the file cannot be opened as a PDF by any reader pdfpipe has: empty, no `%PDF-` header, or damaged beyond repair; or its catalog or page tree cannot be read (never a pass with no page). A file that qpdf cannot open but pdfpipe's reader or poppler can (as MuPDF and PDFium do: a `startxref` a few bytes off in a file of cross-reference streams, an `/Encrypt` that is not a dictionary, a broken trailer) is not unreadable: it is audited through that reader and gets `pdf.damaged` (a warning) saying what was repaired; read by poppler alone, its links are checked as poppler reads them (internal and named destinations, GoToR and Launch files, URI syntax; findings marked `reader: "poppler"`), and the warning says what was not (bookmarks, the open action, the inventory)"#,
        failsIn: Viewer.mainstream, sample: "samples/garbage.pdf")

    public static let pdfPasswordRequired = Rule(
        "pdf.password-required", severity: .error,
        summary: "the document is encrypted with a user password, so it cannot be opened without it",
        hint:
            "to check it, put a normalize stage first with the password: {\"use\": \"normalize\", \"with\": {\"passwordEnv\": \"PDF_PASSWORD\"}} (or passwordFile; several passwords: passwords per file glob); to publish it, remove the user password",
        details:
            #"encrypted with a user password; cannot be opened without it. Also when the owner password is empty and the user password is not: qpdf and poppler open such a file (pdfpipe then still checks it), PDFium and MuPDF ask for the password"#,
        failsIn: Viewer.mainstream, sample: "samples/encrypted-user.pdf")

    public static let pdfEncrypted = Rule(
        "pdf.encrypted", severity: .warning,
        summary: "the document is encrypted (an owner password restricts what readers may do)",
        hint: "publish documentation without encryption so that every tool can read it",
        details:
            #"encrypted with an owner password only: it opens, but readers are restricted"#,
        sample: "samples/encrypted-owner.pdf")

    public static let pdfDamaged = Rule(
        "pdf.damaged", severity: .warning,
        summary: "qpdf had to repair or skip damaged structure while reading (broken xref table, bad objects)",
        hint: "re-save the document with a conforming writer (qpdf, for one, rewrites it repaired)",
        details:
            #"qpdf repaired or skipped damaged structure while reading (one finding per document: the first message, `count`, and the first ten under `qpdfMessages`); or pdfpipe's reader repaired a value as poppler and MuPDF do (an integer past 64 bits read as a real: one bad value, the rest of the object is read; `repairedObjects`)"#,
        sample: "samples/damaged-xref.pdf"
    )

    public static let pdfPagesLost = Rule(
        "pdf.pages-lost", severity: .error,
        summary:
            "the normalized copy has a different number of pages than the original's page tree declares (repair lost or found pages)",
        hint: "compare the copy with the original; the original's page tree is damaged",
        details:
            #"the pages found walking the normalized copy's page tree differ from the /Count the original declares: repair lost or found pages, or the /Count is wrong (poppler and MuPDF count pages by /Count, so they list pages that are not there; qpdf copies /Count as it was)"#,
        sample: .init("Tests/Fixtures/rules/pages-count-wrong.pdf", stages: #"[{"use": "normalize"}]"#))

    public static let pdfCrashed = Rule(
        "pdf.crashed", severity: .error,
        summary: "processing the document crashed its (isolated) process; the rest of the batch went on",
        hint: "report the file to pdfpipe; other tools may choke on it too",
        details:
            #"with isolation: the document's process died (the message gives the signal, e.g. SIGSEGV, and its last stderr line)"#
    )

    public static let pdfChangedDuringRun = Rule(
        "pdf.changed-during-run", severity: .error,
        summary:
            "the file changed while it was read (its size or modification time is not what it was when its turn came); its results are not kept",
        hint: "run again once whatever writes the file (a build, a sync) has finished with it",
        details:
            #"the file's size or modification time changed between the start and the end of its processing (a build still writing it, a sync replacing it, a truncation): what the stages read may mix two versions, so the document's findings and outputs are not reported; this one finding stands for them. A read past the new end of a truncated file is caught (it reads zeros, never a crash)"#,
        failsIn: Viewer.mainstream)

    public static let pdfTimeout = Rule(
        "pdf.timeout", severity: .error,
        summary: "the document took longer than timeoutSeconds; its (isolated) process was stopped",
        hint: "raise timeoutSeconds if the document is merely big; hostile files (nested forms) never finish",
        details:
            #"with `timeoutSeconds`: the document took longer; its process was stopped"#)

    public static let pdfOutOfMemory = Rule(
        "pdf.out-of-memory", severity: .error,
        summary: "the document's (isolated) process ran out of memory under memoryLimitMB",
        hint: "raise memoryLimitMB if the document is merely big",
        details:
            #"with `memoryLimitMB`: the document's process died for lack of memory"#)

    public static let pdfParseMessage = Rule(
        "pdf.parse-message", severity: .note,
        summary: "poppler (or the MuPDF engine) reported a problem while reading the document",
        hint:
            "the message comes from the library named at its start (poppler or MuPDF); it often points at damaged or unusual structure",
        details:
            #"poppler logged a problem while reading (with `crossCheck`, or while rendering; at most 20 per document; its messages about links, destinations and actions are left out when validate-links checked the document: its findings say more)"#,
        sample: .init("samples/actions.pdf", stages: #"[{"use": "thumbnails"}]"#))

    public static let pdfPageMismatch = Rule(
        "pdf.page-mismatch", severity: .warning,
        summary: "qpdf and poppler disagree about the document's pages (count, size or label)",
        hint: "the page tree is probably damaged; run the normalize stage to rewrite it",
        details:
            #"qpdf and poppler disagree about page count, size or label (`inspect` with `crossCheck`; the link stages too, for a file read through qpdf: its links were checked on qpdf's pages only)"#,
        sample: .init(
            "Tests/Fixtures/rules/pages-count-wrong.pdf", stages: #"[{"use": "inspect", "with": {"crossCheck": true}}]"#
        )
    )

    public static let pdfLinkCountMismatch = Rule(
        "pdf.link-count-mismatch", severity: .warning,
        summary:
            "qpdf, reading a damaged file, and poppler find a different number of links on a page (qpdf reads an object with one unrepresentable value as null, and its links vanish); the links only poppler reads were checked as poppler reads them",
        hint: "re-save the document with a conforming writer; the page's objects are damaged",
        details:
            #"a file read (in part) through qpdf, which reads an object holding one unrepresentable value (an integer past 64 bits) as null: qpdf and poppler count a different number of links on a page (`qpdfLinks`, `popplerLinks`); where poppler has more, the page's links were also checked as poppler reads them (`reader: "poppler"`)"#,
        sample: .init("Tests/Fixtures/rules/link-integer-overflow.pdf", stages: #"[{"use": "validate-links"}]"#)
    )

    public static let stageFailed = Rule(
        "stage.failed", severity: .error,
        summary: "a stage could not finish on this document; later stages were skipped",
        hint: "the message says why; if it looks like a bug in pdfpipe, report it with the file",
        details:
            #"a stage could not finish on a document; later stages were skipped (a warning when only part of its work was lost: a page's text or thumbnail)"#,
        sample: .init("Tests/Fixtures/rules/pages-count-wrong.pdf", stages: #"[{"use": "extract-text"}]"#))

    public static let pdfLimitExceeded = Rule(
        "pdf.limit-exceeded", severity: .warning,
        summary:
            "the document has more links (maxLinks) or named destinations (maxDestinations) than the limit, or a stream that inflates past the reader's bounds (100 times the file's size per stream, 200 times in all; a decompression bomb), or it hit a budget of what one file may cost (details.budget names it: thumbnails.maxPixels, thumbnails.renderSeconds, extract-text.searchSeconds, external.documentSeconds); the rest were not checked",
        hint: "raise the limit if the document is genuine; hostile files use huge counts to exhaust memory",
        details:
            #"a document has more link annotations than `maxLinks` (`validate-links`) or more named destinations than `maxDestinations` (`resolve-destinations`), or a stream that inflates past pdfpipe's reader's bounds (per stream 100 times the file's size, at least 16 MB and at most 256 MB; per document 200 times, 64 MB to 1 GB: a decompression bomb is stopped there, never handed to qpdf); the rest were not checked. Also a budget of what one file may cost, named in `budget`: `thumbnails.maxPixels` (a page larger than that many pixels is rendered at the resolution that fits), `thumbnails.renderSeconds` (a page that takes longer is not rendered, nor the pages after it), `extract-text.searchSeconds` (the regular-expression terms' time per document; the pages left are listed, not searched), `external.documentSeconds` (a document's web checks in all, at most `--timeout`; the links not answered by then are not verified), `validate-links.accessibility` (links without alternate text judged by the text under them: 100,000 a document). The budgets are listed in docs/reliability.md"#,
        sample: .init("samples/broken-links.pdf", stages: #"[{"use": "validate-links", "with": {"maxLinks": 10}}]"#))

    public static let pdfWalkLimit = Rule(
        "pdf.walk-limit", severity: .note,
        summary:
            "a walk over the document's structure (a /Next chain of actions, the outline) stopped at a size limit; the message says where, and what lies past it was not checked (a limit, not a defect: no cycle was seen)",
        hint: "nothing to fix if the document is genuine; hostile files use huge structures to exhaust time",
        details:
            #"a walk stopped at a size limit (a `/Next` chain of more than 10,000 actions, an outline of more than 100,000 bookmarks, a name tree deeper than 64 levels): the message says where; what lies past it was not checked. Walks are iterative, so depth alone never stops one, and only a real revisit of an object is a cycle"#,
        sample: .init("Tests/Fixtures/rules/name-tree-deep.pdf", stages: #"[{"use": "resolve-destinations"}]"#))

    public static let destRemoved = Rule(
        "dest.removed", severity: .warning,
        summary:
            "against a baseline that records the document's anchors: a named destination it had is gone, so links into the document by that name (#nameddest=, other PDFs' GoToR, web pages) fail",
        hint: "keep the old name as a second anchor (\\hypertarget, an id), or update every link to the new one",
        details:
            #"with a baseline that records the document's named destinations (`pdfpipe anchors`, or a report of a run whose resolve-destinations lists them: the `anchor-guard` pipeline): a name the baseline lists is no longer defined. Viewers open such a link at the first page (PDFium, MuPDF, poppler, pdf.js) or not at all. The finding names the closest new anchor when one is clear: the only new one whose bookmark has the old one's title, the only new one at the same place (page moved as the pages around it moved, top within 2 points), or the only new one on that page spelt like it (at most half its letters changed); otherwise none (`details.closest`). A document the baseline records anchors for that is no longer in the batch loses them all: one finding for the run, naming it and how many (`details.document`, `details.anchors`). A warning; a team that publishes its anchors raises it to an error under the pipeline's `rules` (the built-in `anchor-guard` does)"#
    )

    public static let destChanged = Rule(
        "dest.changed", severity: .warning,
        summary:
            "against a baseline that records the document's anchors: a named destination still exists but its bookmark's title changed, so links to it open another section (a counter-made name, section.3.1, after a chapter was inserted)",
        hint: "give sections stable names (\\label with hyperref's destlabel, an explicit id) rather than counters",
        details:
            #"with a baseline that records the document's named destinations: a name both define, whose bookmark's title differs (`section.3.1` was 'Installation', is now 'Upgrading'); the finding names where the old title went when one new anchor has it"#
    )

    public static let destPageCountChanged = Rule(
        "dest.page-count-changed", severity: .note,
        summary:
            "against a baseline that records the document's anchors: the page count changed, so links by page number (#page=12) past the change open other pages",
        hint: "link into the document by named destination (#nameddest=) rather than by page number",
        details:
            #"with a baseline that records the document's page count: it changed. Where anchors both versions have moved, the finding says from which page on and by how many (`movedFrom`, `movedBy`)"#
    )

    public static let destAnchorsNotCompared = Rule(
        "dest.anchors-not-compared", severity: .note,
        summary:
            "the baseline records documents' named destinations but this run did not list them, so removed ones could not be found",
        hint: "run the anchor-guard pipeline, or resolve-destinations with {\"list\": true}",
        details:
            #"the baseline records named destinations for documents whose run did not list them (resolve-destinations without `list: true`): one finding per run, naming how many documents and the first"#
    )

    public static let configSuppressionExpired = Rule(
        "config.suppression-expired", severity: .warning,
        summary:
            "an entry of the pipeline's 'ignore' list is past its 'expires' date; the findings it took out count again",
        hint: "fix the findings, or renew the entry with a new date and reason",
        details:
            #"an `ignore` entry is past its `expires` date; its findings count again"#)

    public static let configSuppressionUnused = Rule(
        "config.suppression-unused", severity: .note,
        summary: "an entry of the pipeline's 'ignore' list matched no finding in the whole batch",
        hint: "remove the entry: the problem it was for is gone (or its rule, path, uri or page no longer match)",
        details:
            #"an `ignore` entry matched no finding in the whole batch"#)
}

/// Core's rules, in two lists: `RuleCatalog` puts the stages' rules between them.
public enum CoreRules {
    /// Reading the document (first in every list of rules).
    public static let document: [Rule] = [
        .pdfUnreadable, .pdfPasswordRequired, .pdfEncrypted, .pdfDamaged, .pdfPagesLost, .pdfCrashed,
        .pdfChangedDuringRun,
        .pdfTimeout,
        .pdfOutOfMemory, .pdfParseMessage, .pdfPageMismatch, .pdfLinkCountMismatch,
    ]
    /// How the run went: a stage failed, a limit stopped the work, the pipeline's `ignore` entries
    /// (last in every list of rules).
    public static let process: [Rule] = [
        .stageFailed, .pdfLimitExceeded, .pdfWalkLimit, .destRemoved, .destChanged, .destPageCountChanged,
        .destAnchorsNotCompared, .configSuppressionExpired, .configSuppressionUnused,
    ]
}
