import PDFBridge
import PDFPipeCore
import PDFPipeWeb

/// `archive`: a dead web link's fix from a web archive — the capture closest to the document's
/// own date that answered 200 and is not itself an error page (`WebArchive`). A checker may
/// decline, never guess: without a date, an index answer or a capture read as sound, the finding
/// says why it has no fix.
extension ExternalLinks {
    /// Whether a link's answer makes it dead for the archive: 404 or 410 (not accepted), a host
    /// name that no longer resolves, and with `silentPasses` a soft 404 or a parked domain.
    static func isDead(_ f: URLFetch, url: String, fetched: [URLChecker.Key: URLFetch], options: ExternalOptions)
        -> Bool
    {
        if f.failure == nil, let s = f.status, s == 404 || s == 410,
            !options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(s)
        {
            return true
        }
        if f.unresolvedName != nil { return true }
        guard options.section.archive.silentPasses, f.failure == nil, (200...299).contains(f.status ?? 0) else {
            return false
        }
        var out = Outcome()
        out.outcome = .ok
        judgeSilentPass(f, url: url, fetched: fetched, into: &out)
        return out.outcome == .softNotFound || out.outcome == .parked
    }

    /// The outcomes whose findings an archived capture may fix.
    static let archivable: Set<CheckOutcome> = [.httpError, .unreachable, .softNotFound, .parked]

    /// The index query of each dead link (written as checked, not remapped).
    static func archiveQueries(
        _ asked: [Asked], fetched: [URLChecker.Key: URLFetch], options: ExternalOptions, date: DocumentDate
    ) -> [URLChecker.Key] {
        var keys: Set<URLChecker.Key> = []
        for a in asked where !a.remapped {
            guard let f = fetched[URLChecker.Key(url: a.url, download: false)],
                isDead(f, url: a.url, fetched: fetched, options: options)
            else { continue }
            keys.insert(query(a.url, options: options, date: date))
        }
        return keys.sorted(by: order)
    }

    static func query(_ url: String, options: ExternalOptions, date: DocumentDate) -> URLChecker.Key {
        URLChecker.Key(
            url: WebArchive.queryURL(index: options.section.archive.index, url: url, closest: date.timestamp),
            download: false, captures: true)
    }

    /// The captures an index answer offers for `url`: status 200, the same resource, closest to
    /// the date first (sorted here, not taken from the server's order; a tie goes to the earlier).
    static func candidates(_ answer: URLFetch?, url: String, date: DocumentDate) -> [WebArchive.Capture] {
        guard let answer, answer.failure == nil, answer.status == 200, let all = answer.captures,
            let day = Timestamp.seconds(date.timestamp)
        else { return [] }
        func distance(_ c: WebArchive.Capture) -> Int { abs((Timestamp.seconds(c.timestamp) ?? 0) - day) }
        return all.filter { $0.status == 200 && WebArchive.sameResource($0.original, url) }
            .sorted { (distance($0), $0.timestamp) < (distance($1), $1.timestamp) }
    }

    /// The raw replay of each dead link's closest captures (`WebArchive.read` of them), to tell
    /// a sound capture from an archived error page.
    static func captureReads(
        _ asked: [Asked], fetched: [URLChecker.Key: URLFetch], options: ExternalOptions, date: DocumentDate
    ) -> [URLChecker.Key] {
        var keys: Set<URLChecker.Key> = []
        for a in asked where !a.remapped {
            guard let answer = fetched[query(a.url, options: options, date: date)] else { continue }
            for c in candidates(answer, url: a.url, date: date).prefix(WebArchive.read) {
                keys.insert(read(c, options: options))
            }
        }
        return keys.sorted(by: order)
    }

    static func read(_ c: WebArchive.Capture, options: ExternalOptions) -> URLChecker.Key {
        URLChecker.Key(
            url: WebArchive.replayURL(
                prefix: options.section.archive.replay, timestamp: c.timestamp, url: c.original, raw: true),
            download: false, page: true)
    }

    /// Why a capture's replay is not a sound page, or nil when it is: it answered 200 at that
    /// very capture (an archive redirects to another capture when it lacks one), and its page
    /// says neither "not found" nor that the domain is for sale.
    static func unsound(_ read: URLFetch?, capture: WebArchive.Capture, options: ExternalOptions) -> String? {
        guard let read else { return "not read" }
        if read.failure != nil || read.status != 200 { return "its replay \(said(read))" }
        let at = options.section.archive.replay + capture.timestamp
        guard read.finalURL.hasPrefix(at) else { return "its replay moved to another capture ('\(read.finalURL)')" }
        if let says = read.page?.saysNotFound { return "an archived error page ('\(says)')" }
        if let words = read.page?.parking { return "an archived parking page ('\(words)')" }
        return nil
    }

    /// What an archive's answer was, for a reason.
    static func said(_ answer: URLFetch?) -> String {
        guard let answer else { return "was not asked" }
        switch answer.failure {
        case .overBudget?: return "was not answered within the document's web budget (documentSeconds)"
        case let f?: return "failed (\(f.rawValue)\(answer.message.map { ": \($0)" } ?? ""))"
        case nil: return "answered \(answer.status ?? 0)"
        }
    }

    /// Adds to a dead link's finding the archived capture that fixes it (`fix`, and the evidence
    /// under `archive`), or why there is none (`fixDeclined`).
    func addArchiveFix(to f: inout Finding, url: String, outcome: CheckOutcome, fetched: [URLChecker.Key: URLFetch]) {
        guard Self.archivable.contains(outcome),
            let first = fetched[URLChecker.Key(url: url, download: false)],
            Self.isDead(first, url: url, fetched: fetched, options: options),
            let written = f.details["uri"]?.stringValue
        else { return }
        switch archiveFix(written: written, url: url, fetched: fetched) {
        case .success(let (fix, evidence)):
            f.details["fix"] = fix.json
            f.details["archive"] = evidence
        case .failure(let why):
            f.details["fixDeclined"] = .string(why.description)
        }
    }

    func archiveFix(written: String, url: String, fetched: [URLChecker.Key: URLFetch]) -> Result<
        (LinkFix, JSONValue), FixLinksStage.Decline
    > {
        guard let date = documentDate else {
            return .failure(
                FixLinksStage.Decline(
                    description:
                        "the document says no date (/ModDate, xmp:ModifyDate, /CreationDate, xmp:CreateDate) to choose an archived capture by"
                ))
        }
        let bare = written.firstIndex(of: "#").map { String(written[..<$0]) } ?? written
        guard bare == url else {
            return .failure(
                FixLinksStage.Decline(description: "the link is written relative to the document's /URI /Base"))
        }
        let answer = fetched[Self.query(url, options: options, date: date)]
        guard let answer, answer.failure == nil, answer.status == 200 else {
            return .failure(FixLinksStage.Decline(description: "the web archive's index \(Self.said(answer))"))
        }
        let candidates = Self.candidates(answer, url: url, date: date)
        guard !candidates.isEmpty else {
            let listed = answer.captures?.count ?? 0
            return .failure(
                FixLinksStage.Decline(
                    description: listed == 0
                        ? "the web archive has no capture of it"
                        : "the web archive has no capture of it that answered 200 (of the \(listed) it listed closest to the document's date, \(Timestamp.day(date.timestamp)))"
                ))
        }
        var refused: [String] = []
        for c in candidates.prefix(WebArchive.read) {
            if let why = Self.unsound(fetched[Self.read(c, options: options)], capture: c, options: options) {
                refused.append("\(Timestamp.day(c.timestamp)): \(why)")
                continue
            }
            return .success(archived(c, written: written, date: date))
        }
        return .failure(
            FixLinksStage.Decline(
                description:
                    "the \(refused.count) capture\(refused.count == 1 ? "" : "s") closest to the document's date that answered 200 are not sound pages (\(refused.joined(separator: "; ")))"
            ))
    }

    /// The fix to capture `c`, its fragment kept, and the evidence the report shows.
    func archived(_ c: WebArchive.Capture, written: String, date: DocumentDate) -> (LinkFix, JSONValue) {
        var to = WebArchive.replayURL(prefix: options.section.archive.replay, timestamp: c.timestamp, url: c.original)
        if let hash = written.firstIndex(of: "#") { to += written[hash...] }
        let days = ((Timestamp.seconds(c.timestamp) ?? 0) - (Timestamp.seconds(date.timestamp) ?? 0)) / 86400
        let when =
            days == 0
            ? "the day of the document's date"
            : "\(abs(days)) day\(abs(days) == 1 ? "" : "s") \(days < 0 ? "before" : "after") the document's date"
        let fix = LinkFix(
            .uri, from: written, to: to,
            why:
                "dead; the web archive's capture of \(Timestamp.day(c.timestamp)) (\(when), \(Timestamp.day(date.timestamp)) by \(date.field)) answered 200 and is not an error page"
        )
        let evidence: JSONValue = [
            "capture": .string(c.timestamp), "captured": .string(c.original), "documentDate": .string(date.timestamp),
            "dateFrom": .string(date.field), "days": .int(days),
        ]
        return (fix, evidence)
    }
}

/// `httpsUpgrade`: an http link whose https address answers the same.
extension ExternalLinks {
    /// The https address of an http link that works and stays on http (a link redirected to
    /// https has its redirect's fix), or nil.
    static func httpsVariant(_ url: String, answer f: URLFetch) -> String? {
        guard url.lowercased().hasPrefix("http://"), f.failure == nil, (200...299).contains(f.status ?? 0),
            f.finalURL.lowercased().hasPrefix("http://")
        else { return nil }
        return "https://" + url.dropFirst(7)
    }

    /// The media type of a content type (`text/html; charset=utf-8` → `text/html`).
    static func mediaType(_ contentType: String?) -> String {
        (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            ?? ""
    }

    /// `uri.https-available` for a link whose https address answered the same final status and
    /// content type as its http one, with the fix; nil otherwise.
    func httpsFinding(_ url: String, at site: Site, outcome out: Outcome, fetched: [URLChecker.Key: URLFetch])
        -> Finding?
    {
        guard out.outcome == .ok, let f = fetched[URLChecker.Key(url: url, download: false)],
            let secure = Self.httpsVariant(url, answer: f),
            let s = fetched[URLChecker.Key(url: secure, download: false)], s.failure == nil, s.status == f.status,
            Self.mediaType(s.contentType) == Self.mediaType(f.contentType),
            let written = site.record.uriWritten ?? site.record.uri, written.lowercased().hasPrefix("http://"),
            written.firstIndex(of: "#").map({ String(written[..<$0]) }) ?? written == url
        else { return nil }
        let to = "https://" + written.dropFirst(7)
        let type = Self.mediaType(f.contentType)
        var finding = Finding(
            rule: .uriHTTPSAvailable, page: site.page, object: site.object, rect: site.rect,
            message:
                site.prefix
                + "'\(written)' answers the same over https (\(f.status ?? 0)\(type.isEmpty ? "" : ", " + type)): '\(to)'"
        )
        finding.details = [
            "uri": .string(written), "status": .int(f.status ?? 0),
            "fix": LinkFix(
                .uri, from: written, to: String(to),
                why: "its https address answers the same (\(f.status ?? 0)\(type.isEmpty ? "" : ", " + type))"
            ).json,
        ]
        finding.annotationIndex = site.record.annotationIndex
        return finding
    }
}
