/// The page of each rule (`docs/rules/<id>.md`, and `pdfpipe rules ID`): what it means, its default
/// severity and what that severity says about viewers, how to fix it, an example of the PDF
/// construct where one shows it, and how to change its level or accept a finding. Made from the
/// rule table only; a test holds the committed pages to it.
public enum RulePages {
    /// Where the pages are published (SARIF's `helpUri`).
    public static let baseURL = "https://github.com/pdfpipe/pdfpipe/blob/main/docs/rules/"

    /// The PDF constructs that show a rule (the smallest object that gives the finding).
    static let examples: [String: String] = [
        "dest.name-not-found":
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest (sec:intro) >>   % no 'sec:intro' in /Names /Dests",
        "dest.page-not-in-document":
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [6 0 R /Fit] >>   % 6 0 R is not a page",
        "dest.page-out-of-range": "<< /Subtype /Link /Rect [72 700 200 712] /Dest [7 /Fit] >>   % a 3-page document",
        "dest.integer-page":
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [1 /XYZ 0 792 0] >>   % a number, not 3 0 R",
        "dest.malformed": "/Names [(bad.value) 42]   % a named destination that is an integer",
        "dest.viewer-dependent":
            "<< /Subtype /Link /Rect [72 700 200 712] /Dest [3 0 R /XYZ 0] >>   % /XYZ takes 3 operands",
        "dest.missing-parameter": "<< /Subtype /Link /Rect [72 700 200 712] /Dest [3 0 R /XYZ] >>",
        "link.no-target": "<< /Subtype /Link /Rect [72 700 200 712] >>   % neither /Dest nor /A",
        "link.zero-area": "<< /Subtype /Link /Rect [10 10 10 40] /Dest [3 0 R /Fit] >>",
        "link.off-page": "<< /Subtype /Link /Rect [900 900 950 920] /Dest [3 0 R /Fit] >>   % a 612 x 792 page",
        "action.malformed": "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /GoTo >> >>   % no /D",
        "action.cycle":
            "4 0 obj << /S /URI /URI (https://example.com/) /Next 5 0 R >>\n5 0 obj << /S /GoTo /D [3 0 R /Fit] /Next 4 0 R >>",
        "action.launch": "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /Launch /F (setup.exe) >> >>",
        "action.launch-target-missing":
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /Launch /F (setup.exe) >> >>   % no setup.exe beside the PDF",
        "action.javascript":
            "<< /Subtype /Link /Rect [72 700 200 712] /A << /S /JavaScript /JS (app.alert\\(1\\)) >> >>",
        "outline.no-target": "<< /Title (A heading without a target) /Parent 10 0 R >>   % no /Dest, /A or /First",
        "outline.cycle": "11 0 obj << /Title (One) /Next 12 0 R >>\n12 0 obj << /Title (Two) /Next 11 0 R >>",
        "uri.malformed": "<< /S /URI /URI (http://exa mple.com/) >>   % a space in the host",
        "uri.browser-repaired": "<< /S /URI /URI (https://example.com/a^b c) >>   % browsers send %5E and %20",
        "uri.absolute-file": "<< /S /URI /URI (file:///home/author/notes.pdf) >>",
        "uri.relative": "<< /S /URI /URI (chapter2.html) >>   % no scheme: relative to the PDF",
        "uri.insecure-scheme": "<< /S /URI /URI (http://example.com/) >>",
        "uri.file-missing": "<< /S /URI /URI (notes/missing.pdf) >>   % no notes/missing.pdf beside the PDF",
        "uri.fragment-missing":
            "<< /S /URI /URI (https://example.com/guide.pdf#nameddest=setup) >>   % guide.pdf has no 'setup'",
        "gotor.file-missing": "<< /S /GoToR /F (missing.pdf) /D [0 /Fit] >>",
        "gotor.dest-missing": "<< /S /GoToR /F (guide.pdf) /D (no.such.dest) >>",
        "gotor.page-out-of-range": "<< /S /GoToR /F (guide.pdf) /D [99 /Fit] >>   % guide.pdf has 4 pages",
        "gotor.outside-root": "<< /S /GoToR /F (../outside.pdf) /D [0 /Fit] >>",
        "page.invalid-rotate": "<< /Type /Page /MediaBox [0 0 612 792] /Rotate 45 >>",
        "page.no-media-box": "<< /Type /Page /Parent 2 0 R >>   % no /MediaBox here or inherited",
    ]

    /// What a default severity says (the policy of the rules table).
    static func meaning(of rule: Rule) -> String {
        if rule.offByDefault {
            return
                "**off**: nothing is reported until a pipeline gives it a level (an inventory fact some audits want)."
        }
        switch rule.severity {
        case .error:
            return
                "**error**: a reader does not get where the author meant in at least one mainstream viewer (PDFium, MuPDF, poppler, pdf.js), or the document cannot be read. It fails the run at the default `failOn`."
        case .warning:
            return
                "**warning**: works in some viewers and not in others, works by accident, or could not be verified. It fails the run with `failOn: warning`."
        case .note:
            return
                "**note**: against the spec or style, but the mainstream viewers handle it alike. Listed with `--verbose`; fails the run only with `failOn: note`."
        }
    }

    /// The page of `rule`, as Markdown.
    public static func page(_ rule: Rule) -> String {
        var out = "# `\(rule.id)`\n\n"
        out += "Default: \(meaning(of: rule))\n\n"
        out += "## What it means\n\n\(capitalized(rule.summary)).\n\n"
        if rule.details != rule.summary {
            out += "## When it is reported\n\n\(capitalized(fromRulesFolder(rule.details))).\n\n"
        }
        let fix =
            rule.hint.isEmpty
            ? "Nothing, if it is intended: the rule reports a fact (turn it on where the documents must not have it)"
            : capitalized(rule.hint)
        out += "## How to fix it\n\n\(fix).\n\n"
        if let example = examples[rule.id] {
            out += "## Example\n\nA PDF object that gives it:\n\n```\n\(example)\n```\n\n"
        }
        let other = rule.severity == .error ? "warning" : "error"
        out += "## Its level, or accepting a finding\n\n"
        out += "In the pipeline file, `\"rules\": {\"\(rule.id)\": \"\(rule.offByDefault ? "warning" : other)\"}` "
        out +=
            "changes its level (`\"off\"` turns it off); an `ignore` entry takes out the findings it matches, with a reason "
        out +=
            "(`{\"rule\": \"\(rule.id)\", \"path\": \"legacy/**\", \"reason\": \"…\"}`); a baseline (`--baseline`) accepts today's findings.\n\n"
        out += "All rules: `pdfpipe rules`, or the table in [the reference](../reference.md#rules).\n"
        return out
    }

    /// The details' links are relative to docs/; the pages are one folder down.
    static func fromRulesFolder(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "](") {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            if !(rest.hasPrefix("http") || rest.hasPrefix("#") || rest.hasPrefix("../")) { out += "../" }
        }
        return out + rest
    }

    static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        let text = first.uppercased() + s.dropFirst()
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
