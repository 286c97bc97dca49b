import Foundation
import PDFPipeCore
import PDFPipeWeb
import PDFReader
import SystemIO

extension LinkAudit {
    // MARK: - URIs

    /// Judges a URI by its scheme (`URISchemes.judge`); returns the link's state when that
    /// settles it, nil to go on with its syntax.
    mutating func checkScheme(_ text: String, place: Place) -> LinkRecord.URIState? {
        let (finding, state) = URISchemes.judge(text, custom: options.customSchemes)
        if let finding {
            let fix = finding.rule == .uriSchemeMisspelt ? URISchemes.fixed(text, custom: options.customSchemes) : nil
            report(
                finding.rule, finding.message, at: place, groupBy: finding.group, hint: finding.hint,
                fix: fix.map { LinkFix(.uri, from: text, to: $0, why: "the scheme misspelt") })
        }
        return state
    }

    /// The catalog's /URI /Base when it is an absolute URI to resolve relative ones against.
    var usableBase: String? {
        guard let base = uriBase, URIReference.problem(in: base) == nil, !URIReference.parse(base).isRelative else {
            return nil
        }
        return base
    }

    /// Reports a relative URI in a document without a usable /URI /Base: a path from the root of
    /// the author's disk is `uri.absolute-file` (viewers open that path on the reader's machine, a
    /// file URL's path resolved against the document's, where it is not: what the rule says of the
    /// same path as a file: URI), any other `uri.relative`.
    mutating func reportRelative(_ written: String, place: Place) -> LinkRecord.URIState {
        if let path = URIReference.absolutePath(written) {
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(written))' names a file by its absolute path (\(ConsoleText.escape(path))) without 'file:', and the document has no /URI /Base: viewers open that path on the reader's machine, so it works only on the machine the PDF was made on",
                at: place, target: written)
        } else {
            report(
                .uriRelative,
                "'\(ConsoleText.escape(written))' is relative and the document has no /URI /Base; viewers resolve it against the document's own location",
                at: place)
        }
        return .relative
    }

    /// Checks a URI's syntax; returns it resolved against the catalog's /URI /Base.
    mutating func checkURI(_ text: String?, place: Place) -> (String?, LinkRecord.URIState) {
        guard let text else {
            report(.uriMalformed, "the URI action has no /URI", at: place)
            return (nil, .malformed)
        }
        let lower = text.lowercased()
        if let scheme = ["https//", "http//"].first(where: lower.hasPrefix) {
            // The colon forgotten: every viewer reads it as a relative path.
            let fixed = String(scheme.dropLast(2)) + "://" + text.dropFirst(scheme.count)
            var f = Finding(
                rule: .uriMalformed, page: place.page, object: place.object, rect: place.rect?.array,
                message: place.prefix
                    + "'\(ConsoleText.escape(text))' lacks the ':' after '\(scheme.dropLast(2))': every viewer reads it as a path relative to the document",
                hint: "write '\(ConsoleText.escape(fixed))'")
            f.annotationIndex = place.annotationIndex
            findings.append(f)
            return (text, .malformed)
        }
        if let path = URIReference.windowsPath(text) {
            // What it is: a file on the author's disk, not a malformed URI.
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(text))' names a file by its absolute Windows path (\(ConsoleText.escape(path))) on the machine the PDF was made on; it works for no other reader",
                at: place, target: text)
            return (text, .absolute)
        }
        if let state = checkScheme(text, place: place) { return (text, state) }
        var written = text
        if let problem = URIReference.problem(in: text) {
            // What every browser repairs the same way is a warning that says how; the rest an error.
            if let (repaired, reason) = URIReference.browserForm(text), URIReference.problem(in: repaired) == nil {
                report(
                    .uriBrowserRepaired,
                    "'\(ConsoleText.escape(text))': \(reason); browsers read it as '\(repaired)', other tools and strict viewers may not",
                    at: place,
                    groupBy: text)
                written = repaired
            } else {
                report(.uriMalformed, "'\(ConsoleText.escape(text))': \(problem)", at: place)
                return (text, .malformed)
            }
        }
        var resolved = written
        if URIReference.parse(written).isRelative {
            guard let base = usableBase else { return (written, reportRelative(written, place: place)) }
            resolved = URIReference.resolve(written, against: base)
        }
        let parts = URIReference.parse(resolved)
        if parts.scheme?.lowercased() == "file", parts.path.hasPrefix("/"),
            parts.authority.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true
        {
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(resolved))' names a file by its absolute path on the machine the PDF was made on; it works for no other reader",
                at: place, target: resolved)
        }
        if parts.scheme?.lowercased() == "http" {
            report(
                .uriInsecureScheme,
                "'\(ConsoleText.escape(resolved))' uses http; use https where the site supports it", at: place,
                groupBy: parts.authority?.lowercased() ?? "")
        }
        return (resolved, .absolute)
    }
}
