import PDFPipeCore

/// The link-accessibility rules (`validate-links`' `accessibility`). Declared as warnings: a
/// document that claims PDF/UA (or a run that demands it) gets them as errors, each finding saying
/// which. What fails is assistive technology (NVDA, JAWS, VoiceOver reading with Acrobat or a
/// browser), not a viewer's rendering.
extension Rule {
    public static let accessLinkNotTagged = Rule(
        "access.link-not-tagged", severity: .warning,
        summary:
            "a link annotation is not in the structure tree as the child (through an OBJR) of a Link element (PDF/UA-1 7.18.5-1, Matterhorn 28-011; PDF/UA-2 8.2.5.20-1: Link or Reference): a screen reader does not reach or announce it",
        hint: "tag the link: a Link structure element whose /K holds an OBJR with /Obj pointing at the annotation",
        details:
            #"a visible link annotation that no `OBJR` of the structure tree names, or whose `OBJR` sits in an element other than `Link` (after the `/RoleMap`; PDF/UA-2 also allows `Reference`). ISO 14289-1 7.18.5 (Matterhorn 28-011), ISO 14289-2 8.2.5.20-1. An error when the document claims PDF/UA or the run demands it (`accessibility: "pdf-ua-1"`), a warning for a tagged document that claims nothing"#,
        example:
            "<< /Type /OBJR /Obj 12 0 R >> inside << /S /Span /K [...] >>   % a Span, not a Link",
        sample: "Tests/Fixtures/verapdf/7.18.5-t01-fail-a.pdf")

    public static let accessLinkParentTree = Rule(
        "access.link-parent-tree", severity: .warning,
        summary:
            "a tagged link annotation's /StructParent is missing, or leads through the /ParentTree elsewhere than to the element that holds its OBJR: from the annotation (where focus starts) its element cannot be found",
        hint:
            "give the annotation a /StructParent key whose /ParentTree entry is its Link element (qpdf --check and the producer's tagging fix it)",
        details:
            #"the way back from a link annotation to its structure element is broken: no `/StructParent`, a key the `/ParentTree` lacks, or an entry that names another element than the one whose `OBJR` names the annotation (ISO 32000-1 14.7.4.4; veraPDF does not check the agreement, its issue 1630)"#,
        example: "<< /Subtype /Link /Rect [72 700 200 712] /StructParent 7 >>   % /ParentTree has no key 7",
        sample: "Tests/Fixtures/rules/link-no-struct-parent.pdf")

    public static let accessLinkNoAlt = Rule(
        "access.link-no-alt", severity: .warning,
        summary:
            "a link annotation has no alternate text (/Contents; PDF/UA-2 also accepts the element's /Alt) (PDF/UA-1 7.18.5-2, Matterhorn 28-012; PDF/UA-2 8.9.4.1): a screen reader cannot say where it leads",
        hint: "put a description of the link's target in the annotation's /Contents",
        details:
            #"a link annotation without `/Contents` (or with empty text). PDF/UA-1 7.18.5-2 asks for `/Contents`; when the Link element carries `/Alt` instead, PAC 2024 accepts it and veraPDF does not (its issue 1497): the finding says so (`elementAlt`) rather than choosing. PDF/UA-2 8.9.4.1 accepts either. One finding per document (and `/Alt` or not), with `count`, `pages` and every link in `locations` (page, object, rectangle, annotation index, the text under it; up to 10,000)"#,
        example:
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /URI /URI (https://example.org) >> >>   % no /Contents",
        sample: "Tests/Fixtures/verapdf/7.18.5-t02-fail-a.pdf"
    )

    public static let accessTabOrder = Rule(
        "access.tab-order", severity: .warning,
        summary:
            "pages with annotations lack /Tabs /S (PDF/UA-1 7.18.3, Matterhorn 28-008/009; PDF/UA-2 8.9.3.3 allows /A, /W, /S): the keyboard moves through links in an order unrelated to the text (one finding per document)",
        hint: "set /Tabs /S on every page that has annotations (the structure order)",
        details:
            #"pages that have annotations and no `/Tabs` entry, or one other than `/S` (PDF/UA-2: `/A`, `/W` or `/S`); one finding per document with `count` and the first `pages`"#,
        example: "<< /Type /Page /Annots [12 0 R] >>   % no /Tabs",
        sample: "Tests/Fixtures/verapdf/7.18.3-t01-fail-a.pdf")

    public static let accessLinkTargetsMixed = Rule(
        "access.link-targets-mixed", severity: .warning,
        summary:
            "one Link element encloses link annotations with different targets (PDF/UA-2 8.2.5.20-2): a screen reader announces one link where there are several",
        hint: "give each target its own Link element",
        details:
            #"(PDF/UA-2) one `Link` or `Reference` element holds `OBJR`s of annotations whose actions or destinations differ"#,
        example:
            "<< /S /Link /K [<< /Type /OBJR /Obj 12 0 R >> << /Type /OBJR /Obj 13 0 R >>] >>   % 12 and 13 go to different pages",
        sample: "Tests/Fixtures/verapdf/8.2.5.20-t02-fail-a.pdf"
    )

    public static let accessDestNotStructure = Rule(
        "access.dest-not-structure", severity: .warning,
        summary:
            "a link, bookmark or open action goes to a place in the document without a structure destination (/SD) (PDF/UA-2 8.8): assistive technology cannot move to the element (one finding per document)",
        hint: "write GoTo actions with /SD (the structure element) beside /D",
        details:
            #"(PDF/UA-2) a link annotation's `/Dest`, a GoTo action without `/SD`, a bookmark or the open action; one finding per document with `count`"#,
        example: "<< /S /GoTo /D [3 0 R /Fit] >>   % no /SD", sample: "Tests/Fixtures/verapdf/8.8-t01-fail-a.pdf")

    public static let accessLinkPurpose = Rule(
        "access.link-purpose", severity: .warning,
        summary:
            "a tagged link's purpose (its /Contents, else its element's /Alt or /ActualText, else the text under it) is empty or a bare address (WCAG 2.2 2.4.4, 2.4.9; veraPDF's WCAG machine check 2.4.9-1): a screen reader says only 'link', or spells the address out",
        hint: "describe where the link leads ('the 2024 annual report'), not its address",
        details:
            #"the text a screen reader reads for a link — its `/Contents`, else its element's `/Alt` or `/ActualText`, else the text under it (read with poppler for those links only) — is empty, or only a URL, `www.` address or `mailto:` other than the link's own target (the target's address as its text tells a person where it goes: WCAG 2.4.4 judges the purpose in context; up to 100,000 links a document are judged by the text under them, past it `pdf.limit-exceeded` with `budget: "validate-links.accessibility"`); checked in the documents the accessibility check covers. A warning whatever the claim (WCAG is not part of PDF/UA)"#,
        example: "<< /Subtype /Link /Contents (https://example.org/report.pdf) ... >>",
        sample: "Tests/Fixtures/rules/access-link-purpose.pdf")
}

extension LinkRules {
    /// validate-links' `accessibility` check.
    static let accessibility: [Rule] = [
        .accessLinkNotTagged, .accessLinkParentTree, .accessLinkNoAlt, .accessTabOrder, .accessLinkTargetsMixed,
        .accessDestNotStructure, .accessLinkPurpose,
    ]
}
