import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import Synchronization
import SystemIO

/// What one answer means for its task: a retry (`RetryPolicy`), a redirect, GET after HEAD, a
/// confirmation, or the end.
extension URLChecker {
    /// A failure that would be reported broken or unverified, and that a second look might
    /// overturn: a timeout, a failed connection, a status not accepted (other than 429, which has
    /// its own retries, and a bot wall's). Loops, malformed URLs and the address policy are facts.
    static func needsConfirmation(_ f: URLFetch, accept: StatusSet) -> Bool {
        switch f.failure {
        case .timeout?, .unreachable?: return true
        case nil: return f.blocked == nil && f.status != 429 && !accept.contains(f.status ?? 0)
        default: return false
        }
    }

    /// What a request's answer `r` means for the task: the task to queue again (next hop, retry,
    /// GET after HEAD; with `notBefore` set for a retry), or nil when the task is finished (its
    /// `fetch` filled in; a download's file is read by the caller).
    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): what happens
    /// to one answer (a retry, a redirect, GET after HEAD, pushback) read in one place, each branch
    /// ending by saying what becomes of the task.
    func advance(
        _ task: inout Task, _ r: HTTPResponse, temporary: String?, scheduler: HostScheduler, now: Double
    ) -> Task? {
        let url = task.current
        let host = URLParts.host(of: url) ?? ""
        task.fetch.status = r.status
        task.fetch.contentType = r.contentType
        task.fetch.blocked = nil
        switch r.failure {
        case .blockedAddress(let address)?:
            return finish(
                &task, .privateAddress,
                "'\(host)' resolves to \(address), a loopback, private, link-local or multicast address")
        case .timeout?:
            return retry(&task, after: nil, scheduler, now: now)
                ?? finish(&task, .timeout, "no answer within \(JSONWriter.format(options.timeoutSeconds)) s")
        case .unreachable(let text)? where text.hasPrefix("DNS:"):
            // A name that does not resolve is an answer, not a passing failure: no retries (the
            // end-of-run confirmation asks once more, once per host).
            return finish(&task, .unreachable, scrub(text))
        case .unreachable(let text)?:
            return retry(&task, after: nil, scheduler, now: now) ?? finish(&task, .unreachable, scrub(text))
        case .other(let text)?:
            return finish(&task, .malformed, scrub(text))
        case nil:
            break
        }
        let status = r.status ?? 0
        if [301, 302, 303, 307, 308].contains(status), let written = r.location {
            let location = URIReference.resolve(written, against: url)
            task.fetch.redirects.append(URLFetch.Hop(url: url, status: status))
            if task.visited.contains(location) {
                return finish(&task, .redirectLoop, "the redirects loop back to '\(location)'")
            }
            if task.fetch.redirects.count > options.maxRedirects {
                return finish(&task, .tooManyRedirects, "more than \(options.maxRedirects) redirects")
            }
            task.visited.insert(location)
            task.current = location
            task.fetch.finalURL = location
            task.hopRetries = 0
            task.triedGet = false
            task.head = task.key.head(options)
            task.notBefore = -.infinity
            return task
        }
        let accept = options.accept(for: host)
        // 429: the host is slowed (HostScheduler); the request waits (Retry-After) and asks the
        // same way again, on a budget of its own. Still refused after it: not verified.
        if status == 429 && !accept.contains(status) {
            if let again = retry(&task, after: r.retryAfter, rateLimited: true, scheduler, now: now) { return again }
            task.fetch.failure = .rateLimited
            if task.fetch.message == nil {
                task.fetch.message =
                    "it still answered 429 Too Many Requests after \(task.rateRetries) retr\(task.rateRetries == 1 ? "y" : "ies"), its host slowed down in between"
            }
            return nil
        }
        // 5xx: a server failing HEAD may still answer GET, so switch first and retry the GET.
        if (500...599).contains(status) && !accept.contains(status) && !(task.head && !task.triedGet) {
            if let again = retry(&task, after: r.retryAfter, scheduler, now: now) { return again }
        }
        if task.head && !accept.contains(status) && !task.triedGet
            && (status == 405 || status == 501 || (options.getAfterAnyError && status >= 400))
        {
            task.head = false
            task.triedGet = true
            task.notBefore = -.infinity
            return task
        }
        if !accept.contains(status) {
            task.fetch.blocked = BotProtection.signature(
                status: status, server: r.server, signals: r.signals, body: r.snippet)
        } else if task.key.page, let snippet = r.snippet {
            task.fetch.page = SilentPass.Page(html: snippet)
        } else if task.key.captures {
            task.fetch.captures = WebArchive.captures(in: r.snippet ?? "")
        }
        return nil
    }

    /// The task again, to start at the time the scheduler says (`afterFailure`), or nil when it
    /// is not retried.
    func retry(
        _ task: inout Task, after retryAfter: Double?, rateLimited: Bool = false, _ scheduler: HostScheduler,
        now: Double
    ) -> Task? {
        let used = rateLimited ? task.rateRetries : task.hopRetries
        switch scheduler.afterFailure(
            url: task.current, used: used, rateLimited: rateLimited, retryAfter: retryAfter, now: now)
        {
        case .giveUp(let why):
            if let why { task.fetch.message = why }
            return nil
        case .retry(let at):
            if rateLimited { task.rateRetries += 1 } else { task.hopRetries += 1 }
            task.fetch.retries += 1
            task.notBefore = at
            return task
        }
    }

    func finish(_ task: inout Task, _ failure: URLFetch.Failure, _ message: String) -> Task? {
        task.fetch.failure = failure
        task.fetch.message = message
        if failure != .redirectLoop && failure != .tooManyRedirects {
            task.fetch.status = failure == .privateAddress ? nil : task.fetch.status
        }
        return nil
    }

    /// Messages never carry a header's secret value (everything written is scrubbed again:
    /// `Secrets`).
    func scrub(_ text: String) -> String {
        var t = text
        for s in options.secrets { t = t.replacingOccurrences(of: s, with: "***") }
        return Secrets.scrub(t)
    }
}
