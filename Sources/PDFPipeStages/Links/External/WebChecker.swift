import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import SystemIO

/// The web checker: what a URL's answer (`URLFetch`) means for its link, and `confirmRuns`' hold on
/// a link that failed in fewer runs than it asks.
extension ExternalLinks {
    /// With `confirmRuns` K > 1, a web failure is an error only when the link failed in the K-1 runs
    /// before this one too (`LinkHistory`); before that it is `uri.flaky`, saying how it failed. A
    /// definite answer confirmed in this run (404 Not Found, 410 Gone, asked again on a new
    /// connection) is no passing failure: it is an error at once (the history still counts it).
    func holdIfFlaky(url: String, status: Int?, into out: inout Outcome) {
        let failures: [Rule] = [.uriHttpError, .uriTimeout, .uriUnreachable, .uriRedirectLoop, .uriTooManyRedirects]
        guard let problem = out.finding, failures.contains(where: { $0.id == problem.rule.id }) else { return }
        if problem.rule.id == Rule.uriHttpError.id, out.confirmed, status == 404 || status == 410 { return }
        let runs = checker.failuresBefore(url) + 1
        guard runs < options.confirmRuns else { return }
        out.outcome = .flaky
        out.reason = problem.rule.id
        out.finding = Problem(
            .uriFlaky,
            "\(problem.message) — failed in \(runs) run\(runs == 1 ? "" : "s") in a row; an error once it has failed in \(options.confirmRuns) (confirmRuns)",
            nil)
    }

    func judge(_ f: URLFetch, url: String, into out: inout Outcome) {
        out.record(f)
        let at = f.redirects.isEmpty ? "" : " (after redirects to '\(f.finalURL)')"
        switch f.failure {
        case .timeout?:
            out.outcome = .timeout
            out.finding = Problem(
                .uriTimeout,
                "'\(url)' did not answer in time (\(f.attempts) attempt\(f.attempts == 1 ? "" : "s"))\(at)", nil
            )
        case .unreachable?:
            out.outcome = .unreachable
            out.finding = Problem(
                .uriUnreachable, "'\(url)' cannot be reached\(at): \(f.message ?? "connection failed")", nil
            )
        case .redirectLoop?:
            out.outcome = .redirectLoop
            out.finding = Problem(.uriRedirectLoop, "'\(url)': \(f.message ?? "the redirects loop")", nil)
        case .tooManyRedirects?:
            out.outcome = .tooManyRedirects
            out.finding = Problem(.uriTooManyRedirects, "'\(url)': \(f.message ?? "too many redirects")", nil)
        case .malformed?:
            out.outcome = .malformed
            out.finding = Problem(.uriMalformed, "'\(url)': \(f.message ?? "not a URL libcurl accepts")", nil)
        case .overBudget?:
            // One finding for the document says it (`ValidateLinksStage`), not one per link.
            out.outcome = .overBudget
            out.message = f.message
        case .rateLimited?:
            out.outcome = .rateLimited
            out.message = f.message
            out.finding = Problem(
                .uriRateLimited, "'\(url)' could not be verified: \(f.message ?? "its host kept answering 429")", nil)
        case .privateAddress?:
            out.outcome = .skipped
            out.reason = "private-address"
            out.message = f.message
            out.finding = Problem(
                .uriSkipped, "'\(url)' was not requested: \(f.message ?? "private address")",
                "set allowPrivateAddresses to check intranet links"
            )
        case nil:
            judgeAnswer(f, url: url, at: at, into: &out)
        }
    }

    /// A link that got an answer: blocked, an HTTP error, moved for good, or fine (at once, or only
    /// when asked again).
    private func judgeAnswer(_ f: URLFetch, url: String, at: String, into out: inout Outcome) {
        let status = f.status ?? 0
        if !options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(status), let why = f.blocked {
            out.outcome = .blocked
            out.message = why
            out.finding = Problem(
                .uriBlocked,
                "'\(url)' answered \(status)\(HTTPStatus.phrase(status).map { " \($0)" } ?? "")\(at), but to the checker only: \(why); the link probably works in a browser",
                "check it by hand; for a site that always refuses checkers, accept its status under 'hosts' or exclude it"
            )
        } else if !options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(status) {
            out.outcome = .httpError
            out.message = f.message
            let why = f.message.map { "; \($0)" } ?? ""
            out.finding = Problem(
                .uriHttpError,
                "'\(url)' answered \(status)\(HTTPStatus.phrase(status).map { " \($0)" } ?? "")\(at)\(why)", nil
            )
        } else if f.permanentlyRedirected {
            out.outcome = .redirected
            out.finding = Problem(
                .uriRedirected, "'\(url)' has moved permanently to '\(f.finalURL)'",
                "link to '\(f.finalURL)' instead"
            )
        } else if f.retries > 0 {
            // It works, but not every time: the really flaky link, said as a note.
            out.outcome = .okAfterRetry
            out.finding = Problem(
                .uriRecovered,
                "'\(url)' answered \(status)\(at) only after \(f.retries) retr\(f.retries == 1 ? "y" : "ies") (a timeout, a reset, a 5xx or a 429 first)",
                nil)
        } else {
            out.outcome = .ok
        }
    }
}

extension ExternalLinks {
    /// A link that answered with a success, judged on where it landed (`SilentPass`): a sign-in
    /// page it was redirected to, a parking service, a page that says "not found" on a host that
    /// answers a path that cannot exist with a success too. Each a warning with its evidence.
    static func judgeSilentPass(
        _ f: URLFetch, url: String, fetched: [URLChecker.Key: URLFetch], into out: inout Outcome
    ) {
        let hops = f.redirects.map(\.url) + [f.finalURL]
        if !f.redirects.isEmpty, SilentPass.isSignIn(f.finalURL), !SilentPass.isSignIn(url) {
            out.outcome = .loginWall
            out.finding = Problem(
                .uriLoginWall,
                "'\(url)' leads to a sign-in page: it redirects to '\(f.finalURL)' (\(f.redirects.map { "\($0.status)" }.joined(separator: ", then ")))",
                nil)
            return
        }
        if let service = hops.dropFirst().lazy.compactMap(SilentPass.parkingService).first {
            out.outcome = .parked
            out.finding = Problem(
                .uriParked, "'\(url)' redirects to a domain parking service (\(service)): '\(f.finalURL)'", nil)
            return
        }
        guard let page = fetched[URLChecker.Key(url: f.finalURL, download: false, page: true)]?.page,
            let probeURL = SilentPass.probeURL(for: f.finalURL),
            let probe = fetched[URLChecker.Key(url: probeURL, download: false, page: true)]
        else { return }
        let evidence =
            "; its host answers \(probe.status ?? 0) to a path that cannot exist ('\(probeURL)'\(probe.page?.title.map { ", titled '\($0)'" } ?? ""))"
        if let words = page.parking {
            out.outcome = .parked
            out.finding = Problem(.uriParked, "'\(url)' is a parked domain: its page says '\(words)'\(evidence)", nil)
        } else if let probePage = probe.page,
            let says = SilentPass.sameErrorPage(page, url: f.finalURL, probe: probePage, probeURL: probeURL)
        {
            // The host's answer to a path that cannot exist is the same "not found" page: its
            // error page under a success status (a page merely about errors is another page).
            out.outcome = .softNotFound
            out.finding = Problem(
                .uriSoft404, "'\(url)' answered \(f.status ?? 0), but its page says '\(says)'\(evidence)", nil)
        }
    }
}

/// Reason phrases for the findings.
enum HTTPStatus {
    static func phrase(_ code: Int) -> String? {
        let phrases: [Int: String] = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            406: "Not Acceptable", 408: "Request Timeout", 410: "Gone", 429: "Too Many Requests",
            451: "Unavailable For Legal Reasons",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
            504: "Gateway Timeout", 999: "(blocked by the site)",
        ]
        return phrases[code]
    }
}
