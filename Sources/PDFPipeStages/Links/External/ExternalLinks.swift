import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import SystemIO

/// The external check of one document's URI links: http(s) through the run's `URLChecker`,
/// `file:` and relative URIs on disk, `mailto:` syntax, `#page=`/`#nameddest=` fragments of PDF
/// targets. Fills each link's `check` and reports findings where the links sit.
struct ExternalLinks {
    let options: ExternalOptions
    let checker: URLChecker
    let remote: RemoteDocuments
    /// The document's absolute path and the run's input root (file targets must stay inside it).
    let sourcePath: String
    let inputRoot: String
    let allowOutsideRoot: Bool
    /// The document's own date, when `archive` is on and the document says one.
    var documentDate: DocumentDate? = nil

    /// One URI link of the document and where it sits.
    struct Site {
        var record: LinkRecord
        var page: Int?
        var rect: [Double]?
        var object: String?
        var prefix: String
    }

    /// How one link's target is checked.
    enum Plan: Sendable {
        /// `anchor`: the fragment as written, for a web page's anchors (`htmlFragments`);
        /// `remapped`: `url` is not the one written (`remap`).
        case network(url: String, fragment: PDFFragment?, anchor: String?, remapped: Bool)
        case file(path: String, fragment: PDFFragment?)
        case mailto
        case otherScheme(String)
        case skipped(String)
        case malformed
        case none
    }

    func plan(_ r: LinkRecord) -> Plan {
        guard r.kind == .uri, let uri = r.uri else { return .none }
        if r.uriState == .malformed { return .malformed }
        if r.uriState == .unknownScheme {
            // uri.unknown-scheme said so where the link sits: one finding, not also a note here.
            return .skipped(
                "scheme '\(URIReference.parse(uri).scheme?.lowercased() ?? "")' is not one any system handles")
        }
        // A file on the author's Windows disk (uri.absolute-file says so): nothing here to check.
        if URIReference.windowsPath(uri) != nil { return .skipped("absolute Windows path") }
        let parts = URIReference.parse(uri)
        let fragment = parts.fragment.flatMap(PDFFragment.init)
        // A path from the root of the author's disk (uri.absolute-file): what it names on this
        // machine says nothing of a reader's.
        if r.uriState == .relative, URIReference.absolutePath(uri) != nil { return .skipped("absolute path") }
        if r.uriState == .relative {
            // Viewers resolve it against the document's own folder.
            return .file(path: resolveLocal(URIReference.percentDecoded(parts.path)), fragment: fragment)
        }
        switch parts.scheme?.lowercased() {
        case "http"?, "https"?:
            var bare = parts
            bare.fragment = nil
            let url = bare.text
            if options.offline { return .skipped("offline") }
            if !options.isSelected(url) { return .skipped("excluded") }
            let anchor = parts.fragment.flatMap { $0.isEmpty ? nil : $0 }
            let checked = options.remapped(url)
            return .network(url: checked, fragment: fragment, anchor: anchor, remapped: checked != url)
        case "file"?:
            if let a = parts.authority, !a.isEmpty, a.lowercased() != "localhost" {
                return .skipped("file on another host '\(a)'")
            }
            return .file(path: resolveLocal(URIReference.percentDecoded(parts.path)), fragment: fragment)
        case "mailto"?:
            return .mailto
        case let s?:
            return .otherScheme(s)
        case nil:
            return .none
        }
    }

    func resolveLocal(_ path: String) -> String {
        // Path arithmetic only: Foundation's standardizingPath also resolves symbolic links, which
        // put the target's real (absolute) path into messages and reports.
        Paths.absolute(path, relativeTo: Paths.parent(sourcePath))
    }

    /// The finding of a link's outcome, placed where the link is (nil: nothing to say).
    static func finding(_ out: Outcome, at site: Site) -> Finding? {
        guard let problem = out.finding else { return nil }
        var f = Finding(
            rule: problem.rule, page: site.page, object: site.object, rect: site.rect,
            message: site.prefix + problem.message, hint: problem.hint)
        f.details = [
            "uri": .string(site.record.uriWritten ?? site.record.uri ?? ""),
            "status": out.status.map { .int($0) } ?? .null,
        ]
        if problem.rule == .uriRedirected, let written = site.record.uriWritten ?? site.record.uri {
            let resolved = site.record.uri ?? written
            if let fix = LinkFix.redirect(
                written: written, resolved: resolved, redirects: out.check.redirects,
                finalURL: out.check.finalURL ?? "")
            {
                f.details["fix"] = fix.json
            } else {
                f.details["fixDeclined"] = .string(
                    LinkFix.redirectDeclined(written: written, resolved: resolved, redirects: out.check.redirects))
            }
        }
        f.annotationIndex = site.record.annotationIndex
        return f
    }

    /// Judges every site from the answers (`fetch`); returns the findings, and the sites with
    /// `check` filled in.
    func judge(_ sites: inout [Site], plans: [Plan], fetched: [URLChecker.Key: URLFetch]) -> [Finding] {
        var findings: [Finding] = []
        for (i, p) in plans.enumerated() {
            var out = Outcome()
            // A web link's URL when it is the one written (not remapped): the web archive
            // (`archive`) and its https address (`httpsUpgrade`) are asked for that one only.
            var written: String?
            switch p {
            case .none:
                continue
            case .malformed:
                out.outcome = .malformed
            case .mailto:
                // The link audit reported what is wrong with the addresses (uri.malformed or
                // uri.mailto-not-an-address); here only the outcome.
                out.outcome = MailtoCheck.verdict(in: sites[i].record.uri ?? "") == nil ? .ok : .malformed
            case .otherScheme(let scheme):
                out.outcome = .skipped
                out.reason = "scheme '\(scheme)' is not checked"
                if options.noteOtherSchemes {
                    out.finding = Problem(.uriUncheckedScheme, "'\(scheme):' links are not checked", nil)
                }
            case .skipped(let why):
                out.outcome = .skipped
                out.reason = why
            case .file(let path, let fragment):
                out = checkFileSite(path, fragment: fragment, record: sites[i].record)
            case .network(let url, let fragment, let anchor, let remapped):
                guard let f = fetched[URLChecker.Key(url: url, download: false)] else { continue }
                if !remapped { written = url }
                judgeWeb(f, url: url, fragment: fragment, anchor: anchor, fetched: fetched, into: &out)
            }
            if let url = written, options.section.httpsUpgrade,
                let f = httpsFinding(url, at: sites[i], outcome: out, fetched: fetched)
            {
                findings.append(f)
            }
            if var f = Self.finding(out, at: sites[i]) {
                if let url = written, options.section.archive.enabled {
                    addArchiveFix(to: &f, url: url, outcome: out.outcome, fetched: fetched)
                }
                findings.append(f)
            }
            sites[i].record.check = out.check
        }
        return findings
    }

    /// A web link's verdict from its answers: the status, `confirmRuns`' hold, a silent pass, its
    /// fragment.
    func judgeWeb(
        _ f: URLFetch, url: String, fragment: PDFFragment?, anchor: String?, fetched: [URLChecker.Key: URLFetch],
        into out: inout Outcome
    ) {
        judge(f, url: url, into: &out)
        if options.confirmRuns > 1 { holdIfFlaky(url: url, status: f.status, into: &out) }
        if out.accepted { Self.judgeSilentPass(f, url: url, fetched: fetched, into: &out) }
        if out.accepted,
            let kind = Self.fragmentCheck(url: url, fragment: fragment, anchor: anchor, first: f, options: options)
        {
            checkFragment(
                kind, url: url, fragment: fragment, anchor: anchor,
                download: fetched[URLChecker.Key(url: url, download: true)], into: &out)
        }
    }

    /// A problem with a link: its rule, the message, and a hint when the rule's own does not fit.
    struct Problem {
        var rule: Rule
        var message: String
        var hint: String?
        init(_ rule: Rule, _ message: String, _ hint: String?) {
            self.rule = rule
            self.message = message
            self.hint = hint
        }
    }

    typealias CheckOutcome = LinkCheck.Outcome

    /// What the check of one link concluded (`check`, the link's typed verdict) and the problem it
    /// found, when it found one; `out.outcome` reads and writes `out.check.outcome`.
    @dynamicMemberLookup
    struct Outcome {
        var check = LinkCheck()
        /// The problem the check found, when it found one.
        var finding: Problem?

        subscript<T>(dynamicMember path: WritableKeyPath<LinkCheck, T>) -> T {
            get { check[keyPath: path] }
            set { check[keyPath: path] = newValue }
        }

        var accepted: Bool { check.outcome == .ok || check.outcome == .okAfterRetry || check.outcome == .redirected }

        /// What the answer was, as the link's `check` records it.
        mutating func record(_ f: URLFetch) {
            check.status = f.status
            check.attempts = f.attempts
            check.redirects = f.redirects
            check.finalURL = f.finalURL
            check.fromCache = f.fromCache
            check.confirmed = f.confirmed
        }
    }

    /// One link asked on the web: its URL (remapped), its fragment, and whether it is the URL
    /// written (not remapped: an archive is asked for that one only).
    struct Asked: Sendable {
        var url: String
        var fragment: PDFFragment?
        var anchor: String?
        var remapped: Bool
    }

    /// The keys one round of requests asks, from the answers of the rounds before.
    typealias Round = @Sendable ([URLChecker.Key: URLFetch]) -> [URLChecker.Key]

    /// Requests every distinct URL of `plans` once, then downloads the PDFs whose fragment must be
    /// read (a .pdf path, or served as application/pdf) and, with htmlFragments, the web pages
    /// whose anchor must be found: each once. With `probeHosts`, the hosts of the links that
    /// answered with a success are each asked once for a path that cannot exist
    /// (`SilentPass.probeURL`); where that too is a success with a page that says "not found" or
    /// offers the domain for sale, the links' pages are read (GET, the first bytes) to tell a
    /// soft 404 or a parked domain. With `archive`, the web archive is asked for the captures of
    /// the links found dead, and the closest are read (`archiveQueries`, `captureReads`).
    /// Returns at once; `done` gets every answer.
    func fetch(
        _ plans: [Plan], within seconds: Double = .infinity,
        then done: @escaping @Sendable ([URLChecker.Key: URLFetch]) -> Void
    ) {
        var keys: [URLChecker.Key] = []
        var wanted: [Asked] = []
        for p in plans {
            guard case .network(let url, let fragment, let anchor, let remapped) = p else { continue }
            keys.append(URLChecker.Key(url: url, download: false))
            wanted.append(Asked(url: url, fragment: fragment, anchor: anchor, remapped: remapped))
        }
        guard !keys.isEmpty else { return done([:]) }
        let (options, asked, date, first) = (self.options, wanted, documentDate, keys)
        var rounds: [Round] = [
            { _ in first },
            { Self.secondRound(asked, fetched: $0, options: options).more.sorted(by: Self.order) },
            { Self.pagesToRead(Self.secondRound(asked, fetched: $0, options: options).probed, answers: $0) },
        ]
        if options.section.archive.enabled, let date {
            rounds.append { Self.archiveQueries(asked, fetched: $0, options: options, date: date) }
            rounds.append { Self.captureReads(asked, fetched: $0, options: options, date: date) }
        }
        Self.run(
            rounds[...], answers: [:], checker: checker, budget: (SystemClock.uptimeNanoseconds, seconds), done: done)
    }

    /// Asks each round's keys (those not answered yet) when the round before is answered, all
    /// within the budget (`start`, seconds); `done` gets every answer.
    static func run(
        _ rounds: ArraySlice<Round>, answers: [URLChecker.Key: URLFetch], checker: URLChecker,
        budget: (start: UInt64, seconds: Double), done: @escaping @Sendable ([URLChecker.Key: URLFetch]) -> Void
    ) {
        guard let round = rounds.first else { return done(answers) }
        let keys = round(answers).filter { answers[$0] == nil }
        guard !keys.isEmpty else {
            return run(rounds.dropFirst(), answers: answers, checker: checker, budget: budget, done: done)
        }
        let left = budget.seconds - SystemClock.seconds(since: budget.start)
        checker.submit(keys, within: answers.isEmpty ? budget.seconds : max(left, 0.001)) { got in
            run(
                rounds.dropFirst(), answers: answers.merging(got) { a, _ in a }, checker: checker, budget: budget,
                done: done)
        }
    }

    /// The order a round's keys are asked in (deterministic).
    @Sendable static func order(_ a: URLChecker.Key, _ b: URLChecker.Key) -> Bool {
        (a.url, a.page ? 1 : 0, a.download ? 1 : 0) < (b.url, b.page ? 1 : 0, b.download ? 1 : 0)
    }

    /// What the first answers call for: the downloads whose fragment must be read, and with
    /// `probeHosts` a probe of each host whose links answered 2xx (`probed`: final URL → probe).
    static func secondRound(
        _ asked: [Asked], fetched: [URLChecker.Key: URLFetch],
        options: ExternalOptions
    ) -> (more: Set<URLChecker.Key>, probed: [String: String]) {
        var more: Set<URLChecker.Key> = []
        var probed: [String: String] = [:]
        for a in asked {
            let (url, fragment, anchor) = (a.url, a.fragment, a.anchor)
            guard let f = fetched[URLChecker.Key(url: url, download: false)], f.failure == nil,
                options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(f.status ?? 0)
            else { continue }
            if options.probeHosts, (200...299).contains(f.status ?? 0), let probe = SilentPass.probeURL(for: f.finalURL)
            {
                probed[f.finalURL] = probe
                more.insert(URLChecker.Key(url: probe, download: false, page: true))
            }
            if fragmentCheck(url: url, fragment: fragment, anchor: anchor, first: f, options: options) != nil {
                more.insert(URLChecker.Key(url: url, download: true))
            }
            if options.section.httpsUpgrade, !a.remapped, let secure = httpsVariant(url, answer: f) {
                more.insert(URLChecker.Key(url: secure, download: false))
            }
        }
        return (more, probed)
    }

    /// The pages of hosts that answer a path that cannot exist with a success whose page says
    /// "not found" or offers the domain for sale (a host whose made-up path gives its home page or
    /// an app's shell has nothing to compare the links with).
    static func pagesToRead(_ probed: [String: String], answers: [URLChecker.Key: URLFetch]) -> [URLChecker.Key] {
        probed.filter { _, probe in
            guard let answer = answers[URLChecker.Key(url: probe, download: false, page: true)],
                answer.failure == nil, (200...299).contains(answer.status ?? 0), let page = answer.page
            else { return false }
            return page.saysNotFound != nil || page.parking != nil
        }.keys.map { URLChecker.Key(url: $0, download: false, page: true) }.sorted(by: order)
    }

    func relative(_ path: String) -> String {
        let root = inputRoot.hasSuffix("/") ? inputRoot : inputRoot + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}
