import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import SystemIO

/// The file checker: `file:` and relative URIs on disk (inside the input root unless
/// `allowOutsideRoot`), their PDF fragments included.
extension ExternalLinks {
    /// A `file:` or relative link: the file (and its fragment) looked up, with what the written
    /// URI was probably meant to be when the file is missing.
    func checkFileSite(_ path: String, fragment: PDFFragment?, record: LinkRecord) -> Outcome {
        var out = Outcome()
        checkFile(path, fragment: fragment, into: &out)
        // An absolute file: URI is already a warning of its own (uri.absolute-file).
        if out.reason == "outside-root",
            URIReference.parse(record.uri ?? "").scheme?.lowercased() == "file"
        {
            out.finding = nil
        }
        if out.outcome == .fileMissing, let written = record.uriWritten,
            ExternalLinks.looksLikeMailAddress(written)
        {
            out.finding = Problem(
                .uriFileMissing,
                "the file '\(relative(path))' does not exist; '\(written)' looks like an e-mail address without 'mailto:'",
                "write 'mailto:\(written)'"
            )
        } else if out.outcome == .fileMissing, let written = record.uriWritten,
            let host = ExternalLinks.looksLikeHost(written)
        {
            out.finding = Problem(
                .uriFileMissing,
                "the file '\(relative(path))' does not exist; '\(written)' looks like a web address without 'https://'",
                "write 'https://\(host)…' (a URI without a scheme is a path relative to the PDF)"
            )
        }
        return out
    }

    func checkFile(_ path: String, fragment: PDFFragment?, into out: inout Outcome) {
        out.finalURL = nil
        if !allowOutsideRoot && !Paths.isReachable(path, root: inputRoot, from: sourcePath) {
            out.outcome = .skipped
            out.reason = "outside-root"
            out.finding = Problem(
                .uriSkipped, "'\(path)' lies outside the input root and was not checked",
                "set allowOutsideRoot to check files outside the input root"
            )
            return
        }
        guard let kind = LocalCopies.kind(path) else {
            out.outcome = .fileMissing
            out.finding = Problem(
                .uriFileMissing, "the file '\(relative(path))' does not exist",
                Suggestions.fileHint(path, from: Paths.parent(sourcePath), within: allowOutsideRoot ? nil : inputRoot))
            return
        }
        out.outcome = .ok
        if let fragment, kind != .directory, PDFFragment.isPDF(path) {
            let doc = remote.document(at: path)
            if let error = doc.error {
                out.outcome = .fileUnreadable
                out.finding = Problem(
                    .uriFragmentMissing, "'\(relative(path))' cannot be read to check its fragment: \(error)", nil
                )
            } else if let problem = fragment.problem(in: doc, name: relative(path)) {
                out.outcome = .fragmentMissing
                out.finding = Problem(.uriFragmentMissing, problem, nil)
            }
        }
    }
}
