import PDFPipeCore

/// The rules of `extract-text`.
extension Rule {
    public static let textMatch = Rule(
        "text.match", severity: .error,
        summary: "a search term of extract-text was found (the severity is the term's own)",
        hint: "remove or change the text, or the search term",
        details:
            #"a search term of `extract-text` was found"#,
        sample: .init("samples/gotor.pdf", with: #"{"search": ["links-internal.pdf"]}"#))

    public static let textSearchIncomplete = Rule(
        "text.search-incomplete", severity: .warning,
        summary:
            "a regular-expression search term ran out of time on a page (it backtracks on that text), so the page was not fully searched",
        hint:
            "anchor the pattern so that it cannot backtrack, e.g. (?<![a-z0-9-])[a-z0-9-]+\\.example\\.com instead of [a-z0-9.-]+\\.example\\.com",
        details:
            #"a regular-expression term ran out of its 2 s on a page (it backtracks on that text): the page was not fully searched"#,
        sample: .init(
            "Tests/Fixtures/rules/text-backtracks.pdf",
            with: #"{"format": "none", "search": [{"term": "(a+)+b", "regex": true}]}"#)
    )

    public static let textExtractionIncomplete = Rule(
        "text.extraction-incomplete", severity: .warning,
        summary:
            "a page's content shows text but the engine's extraction read none of it: the text file, search and every check that reads text miss it",
        hint:
            "compare with pdftotext or mutool draw -F txt; try extract-text with the other engine (engine: mupdf), and report the file to the engine's project",
        details:
            #"a page whose content streams show text (strings of `Tj`, `TJ`, `'`, `"`, in the page and the forms it draws, read without any engine) while the engine's extraction read none, or (poppler) where poppler's selection by whole lines finds characters its text lacks, or where poppler lacks a CJK character collection (poppler-data not installed): the text file and search miss them (never silence)"#,
        sample: "Tests/Fixtures/rules/text-unreadable.pdf")

    public static let textNoTextLayer = Rule(
        "text.no-text-layer", severity: .warning,
        summary:
            "a page draws images but has no text: a scan without OCR, or text drawn as pictures (not searchable, not accessible)",
        hint: "run OCR on the page, or export text as text",
        details:
            #"a page draws images but has no text (a scan without OCR)"#, sample: "samples/text-search.pdf")
}
