/// The page of each rule (`docs/rules/<id>.md`, and `pdfpipe rules ID`): what it means, its default
/// severity and what that severity says about viewers, how to fix it, an example of the PDF
/// construct where one shows it, and how to change its level or accept a finding. Made from the
/// rule's declaration only; a test holds the committed pages to it.
package enum RulePages {
    /// Where the pages are published (SARIF's `helpUri`).
    package static let baseURL = "https://github.com/pdfpipe/pdfpipe/blob/main/docs/rules/"

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
    package static func page(_ rule: Rule) -> String {
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
        if !rule.failsIn.isEmpty {
            out += "## Viewers that fail on it\n\n\(rule.failsIn.map(\.rawValue).joined(separator: ", ")).\n\n"
        }
        if let example = rule.example {
            out += "## Example\n\nA PDF object that gives it:\n\n```\n\(example)\n```\n\n"
        }
        if let sample = rule.sample {
            let with =
                sample.stages.map { "the stages `\($0)`" }
                ?? "the stage that reports it"
                + (sample.options.map { " with the options `\($0)`" } ?? " at its default options")
            let server =
                sample.webServer
                ? ", its web links answered by [`scripts/http-fixture.py`](../../scripts/http-fixture.py) on loopback (`PORT`: the port it prints)"
                : ""
            out +=
                "## Sample\n\n[`\(sample.file)`](../../\(sample.file)) in the repository gives it: \(with)\(server) (the tests check it there, and not on a clean file).\n\n"
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
