import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import PDFReader
import SystemIO

/// The fragment checker: `#page=`/`#nameddest=` of a PDF target (on disk or fetched) and, with
/// `htmlFragments`, a web page's anchors.
extension ExternalLinks {
    /// What a link's `#fragment` asks to be checked in the document it names.
    enum FragmentCheck { case pdf, html }

    /// The check a web link's fragment needs, given the first answer `first` (accepted): a PDF's
    /// page or named destination (the path ends in .pdf, or the server says PDF), or with
    /// htmlFragments an anchor of an HTML page; nil when there is none to make.
    static func fragmentCheck(
        url: String, fragment: PDFFragment?, anchor: String?, first f: URLFetch, options: ExternalOptions
    ) -> FragmentCheck? {
        let isPDF = PDFFragment.isPDF(url) || (f.contentType ?? "").lowercased().contains("pdf")
        if isPDF, let fragment, fragment.page != nil || fragment.nameddest != nil { return .pdf }
        if !isPDF, options.htmlFragments, let anchor, HTMLAnchors.isCheckable(anchor), HTMLAnchors.isHTML(f.contentType)
        {
            return .html
        }
        return nil
    }

    /// Checks the fragment against the downloaded document. A fragment that cannot be checked (the
    /// body too slow or too large, not the kind of document the link expects, the download
    /// refused) is `fragment-unverified` with its reason: never `ok`, since nothing was checked.
    func checkFragment(
        _ kind: FragmentCheck, url: String, fragment: PDFFragment?, anchor: String?, download doc: URLFetch?,
        into out: inout Outcome
    ) {
        let written = "#" + (anchor ?? "")
        func unverified(_ why: String) {
            out.outcome = .fragmentUnverified
            out.reason = why
            out.finding = Problem(
                .uriFragmentUnverified,
                "'\(url)' answers, but its fragment '\(written)' could not be checked: \(why)",
                nil)
        }
        guard let doc else { return unverified("the document was not downloaded") }
        if let failure = doc.failure {
            return unverified(
                failure == .timeout
                    ? "its body did not arrive within the time limit (timeoutSeconds)"
                    : "downloading it failed (\(doc.message ?? failure.rawValue))")
        }
        let status = doc.status ?? 0
        guard options.accept(for: URLParts.host(of: doc.finalURL) ?? "").contains(status) else {
            return unverified("downloading it was answered with status \(status)")
        }
        if let message = doc.message { return unverified(message) }
        switch kind {
        case .html:
            guard let anchors = doc.anchors, let anchor else {
                return unverified("it was not served as HTML (\(doc.contentType ?? "no content type"))")
            }
            if !HTMLAnchors.indicates(anchor, in: anchors) {
                out.outcome = .fragmentMissing
                out.finding = Problem(
                    .uriFragmentMissing,
                    "the page '\(url)' has no element with the id '\(URIReference.percentDecoded(anchor))' (nor an <a> with that name)",
                    "link to an anchor the page has, or update the link after the page changed"
                )
            }
        case .pdf:
            guard let fragment, let d = doc.document else {
                return unverified("it is not a PDF (served as \(doc.contentType ?? "no content type"))")
            }
            if let error = d.error { return unverified("it cannot be read as a PDF (\(error))") }
            if let problem = fragment.problem(in: d, name: url) {
                out.outcome = .fragmentMissing
                out.finding = Problem(.uriFragmentMissing, problem, nil)
            }
        }
    }
}

/// Adobe's PDF open parameters in a URI fragment: `#page=3`, `#nameddest=intro`, `#page=3&zoom=50`;
/// a fragment without `=` on a PDF is a named destination, as Acrobat reads it.
struct PDFFragment: Sendable {
    var page: Int?
    var pageText: String?
    var nameddest: String?
    /// The fragment had only `name=value` parameters we do not check (zoom, view, search…).
    var explicit: Bool

    init?(_ fragment: String) {
        guard !fragment.isEmpty else { return nil }
        explicit = fragment.contains("=")
        if !explicit {
            nameddest = URIReference.percentDecoded(fragment)
            return
        }
        for part in fragment.split(separator: "&") {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            switch kv[0].lowercased() {
            case "page":
                pageText = kv[1]
                page = Int(kv[1])
            case "nameddest": nameddest = URIReference.percentDecoded(kv[1])
            default: break
            }
        }
        if pageText == nil && nameddest == nil { return nil }
    }

    /// A path or URL that names a PDF (`.pdf`, before any query).
    static func isPDF(_ url: String) -> Bool {
        var path = url
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
        return path.lowercased().hasSuffix(".pdf")
    }

    func problem(in doc: RemoteDocument, name: String) -> String? {
        if let pageText {
            guard let page, page >= 1 else {
                return "'#page=\(pageText)' in the link to '\(name)' is not a page number"
            }
            if page > doc.pageCount {
                return
                    "the link asks for page \(page) of '\(name)', which has \(doc.pageCount) page\(doc.pageCount == 1 ? "" : "s")"
            }
        }
        if let nameddest {
            let key = DestinationKey.string(Array(nameddest.utf8))
            if doc.lookup(key) == nil && doc.lookup(.name(nameddest)) == nil {
                return "'\(name)' has no named destination '\(nameddest)'"
            }
        }
        return nil
    }
}
