import PDFPipeCore
import PDFPipeWeb
import PDFReader

/// Where the link annotations of a document lie, as validate-links read them (exact rectangles,
/// unlike the inventory's rounded ones): what the thumbnails' overlay draws.
package struct LinkPlacements: Sendable {
    package struct Link: Sendable {
        package var page: Int
        /// The place in the page's `/Annots`: with `page`, the link's identity in findings.
        package var annotationIndex: Int
        package var rect: PDFRect
    }

    package var links: [Link]

    init(_ records: [LinkRecord]) {
        links = records.compactMap { r in
            guard let page = r.page, let index = r.annotationIndex, let rect = r.rect else { return nil }
            return Link(page: page, annotationIndex: index, rect: rect)
        }
    }
}

/// One link (annotation, bookmark or open action) of the inventory in `report.json`.
package struct LinkRecord: Sendable, Equatable {
    /// 1-based page of a link annotation.
    package var page: Int?
    /// The annotation object (`12 0 R`).
    package var object: String?
    /// The annotation's position in its page's `/Annots` (0-based): with `page`, the link's
    /// identity, which findings about it carry too (the overlay matches on it, not on rectangles).
    package var annotationIndex: Int?
    /// Normalized, in PDF user space.
    package var rect: PDFRect?
    /// `goto`, `gotor`, `uri`, `launch`, `named`, `javascript`, `other`, or `none` (no target).
    package var kind = LinkKind.none
    /// The destination's name, when the target is named.
    package var destination: String?
    /// The 1-based page the link leads to (in the other file for `gotor`), when it resolves.
    package var targetPage: Int?
    /// The URI after applying the catalog's `/URI /Base`.
    package var uri: String?
    /// The file of a GoToR or Launch action, as written.
    package var file: String?
    /// The action type for `named` (the name) and `other` (the /S type).
    package var action: String?
    /// The URI as written in the PDF (before `/URI /Base`); not in the inventory, which shows `uri`.
    package var uriWritten: String?
    /// How `uri` reads: well formed and absolute, malformed, or relative with no base to resolve it.
    package var uriState: URIState = .absolute
    /// The external check's verdict (report.json's `check`), typed until the report's edge.
    package var check: LinkCheck?

    /// The link's identity (page and place in the page's `/Annots`), for a link annotation.
    package var link: LinkID? {
        guard let page, let annotationIndex else { return nil }
        return LinkID(page: page, annotationIndex: annotationIndex)
    }

    /// `unknownScheme`: a scheme no system handles (uri.unknown-scheme said so; not checked further).
    package enum URIState: Sendable, Equatable { case absolute, malformed, relative, unknownScheme }

    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "targetPage": targetPage.map { .int($0) } ?? .null,
        ]
        if let page { o["page"] = .int(page) }
        if let rect { o["rect"] = .array(rect.array.map { .double(($0 * 1000).rounded() / 1000) }) }
        if let object { o["object"] = .string(object) }
        if let annotationIndex { o["annotationIndex"] = .int(annotationIndex) }
        if let destination { o["destination"] = .string(destination) }
        if let uri { o["uri"] = .string(uri) }
        if let file { o["file"] = .string(file) }
        if let action { o["action"] = .string(action) }
        if let check { o["check"] = check.json }
        return .object(o)
    }
}

/// One bookmark of the outline.
package struct OutlineRecord: Sendable, Equatable {
    /// Titles from the top level down to this item.
    package var titles: [String]
    package var link: LinkRecord

    package var title: String { titles.joined(separator: " / ") }

    package var json: JSONValue {
        guard case .object(var o) = link.json else { return .null }
        o["title"] = .string(titles.last ?? "")
        o["level"] = .int(titles.count)
        return .object(o)
    }
}

/// What the external check concluded about one link: typed from the checker to the report's edge
/// (`json`, a link's `check` in report.json), where the run's summary counts it (`verdict`).
package struct LinkCheck: Sendable, Equatable {
    /// report.json's `check.outcome`.
    package enum Outcome: String, Sendable {
        case ok
        case okAfterRetry = "ok-after-retry"
        case redirected, blocked, malformed, skipped, timeout, unreachable
        case fileMissing = "file-missing"
        case fileUnreadable = "file-unreadable"
        case fragmentMissing = "fragment-missing"
        case fragmentUnverified = "fragment-unverified"
        case httpError = "http-error"
        case redirectLoop = "redirect-loop"
        case tooManyRedirects = "too-many-redirects"
        case rateLimited = "rate-limited"
        /// Not answered before the document's web budget ran out (`documentSeconds`).
        case overBudget = "over-budget"
        /// Failed, but not yet in `confirmRuns` consecutive runs (`uri.flaky`).
        case flaky
        /// Answered with a success that is not the page meant: a page that says "not found"
        /// (`uri.soft-404`), a parked domain (`uri.parked`), a sign-in page (`uri.login-wall`).
        case softNotFound = "soft-404"
        case parked
        case loginWall = "login-wall"
    }

    package var outcome = Outcome.ok
    package var status: Int?
    package var attempts = 0
    package var redirects: [URLFetch.Hop] = []
    package var finalURL: String?
    package var fromCache = false
    /// Failed twice: when first asked and when asked again at the end of the run.
    package var confirmed = false
    package var reason: String?
    package var message: String?

    package init() {}

    /// How the run's `summary.links` counts the link.
    package enum Verdict: Sendable { case ok, redirected, blocked, skipped, unverified, broken }

    package var verdict: Verdict {
        switch outcome {
        case .ok, .okAfterRetry: .ok
        case .redirected: .redirected
        case .blocked: .blocked
        case .skipped: .skipped
        case .timeout, .unreachable, .fragmentUnverified, .rateLimited, .flaky, .overBudget, .softNotFound, .parked,
            .loginWall:
            .unverified
        case .malformed, .fileMissing, .fileUnreadable, .fragmentMissing, .httpError, .redirectLoop,
            .tooManyRedirects:
            .broken
        }
    }

    /// As report.json writes it.
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "outcome": .string(outcome.rawValue), "status": status.map { .int($0) } ?? .null,
            "attempts": .int(attempts),
            "fromCache": .bool(fromCache),
        ]
        if let finalURL {
            o["finalURL"] = .string(finalURL)
            o["redirects"] = .array(redirects.map { ["url": .string($0.url), "status": .int($0.status)] })
        }
        if let reason { o["reason"] = .string(reason) }
        if let message { o["message"] = .string(message) }
        if confirmed { o["confirmed"] = true }
        return .object(o)
    }
}
