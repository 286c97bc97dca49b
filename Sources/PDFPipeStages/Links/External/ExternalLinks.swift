import Foundation
import PDFBridge
import PDFPipeCore
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
        /// `anchor`: the fragment as written, for a web page's anchors (`htmlFragments`).
        case network(url: String, fragment: PDFFragment?, anchor: String?)
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
            return .network(url: options.remapped(url), fragment: fragment, anchor: anchor)
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

    /// Judges every site from the answers (`fetch`); returns the findings, and the sites with
    /// `check` filled in.
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
        f.annotationIndex = site.record.annotationIndex
        return f
    }

    func judge(_ sites: inout [Site], plans: [Plan], fetched: [URLChecker.Key: URLFetch]) -> [Finding] {
        var findings: [Finding] = []
        for (i, p) in plans.enumerated() {
            var out = Outcome()
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
            case .network(let url, let fragment, let anchor):
                guard let f = fetched[URLChecker.Key(url: url, download: false)] else { continue }
                judge(f, url: url, into: &out)
                if options.confirmRuns > 1 { holdIfFlaky(url: url, status: f.status, into: &out) }
                if out.accepted,
                    let kind = Self.fragmentCheck(
                        url: url, fragment: fragment, anchor: anchor, first: f, options: options)
                {
                    checkFragment(
                        kind, url: url, fragment: fragment, anchor: anchor,
                        download: fetched[URLChecker.Key(url: url, download: true)], into: &out)
                }
            }
            if let f = Self.finding(out, at: sites[i]) { findings.append(f) }
            sites[i].record.check = out.check
        }
        return findings
    }

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

    /// A link's check result, as the inventory shows it.
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

    /// Requests every distinct URL of `plans` once, then downloads the PDFs whose fragment must be
    /// read (a .pdf path, or served as application/pdf) and, with htmlFragments, the web pages
    /// whose anchor must be found: each once. Returns at once; `done` gets every answer.
    func fetch(
        _ plans: [Plan], within seconds: Double = .infinity,
        then done: @escaping @Sendable ([URLChecker.Key: URLFetch]) -> Void
    ) {
        var keys: [URLChecker.Key] = []
        var wanted: [(url: String, fragment: PDFFragment?, anchor: String?)] = []
        for p in plans {
            guard case .network(let url, let fragment, let anchor) = p else { continue }
            keys.append(URLChecker.Key(url: url, download: false))
            wanted.append((url, fragment, anchor))
        }
        guard !keys.isEmpty else { return done([:]) }
        let (checker, options, asked) = (self.checker, self.options, wanted)
        let start = SystemClock.uptimeNanoseconds
        checker.submit(keys, within: seconds) { fetched in
            var downloads: Set<URLChecker.Key> = []
            for (url, fragment, anchor) in asked {
                guard let f = fetched[URLChecker.Key(url: url, download: false)], f.failure == nil,
                    options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(f.status ?? 0),
                    Self.fragmentCheck(url: url, fragment: fragment, anchor: anchor, first: f, options: options) != nil
                else { continue }
                downloads.insert(URLChecker.Key(url: url, download: true))
            }
            guard !downloads.isEmpty else { return done(fetched) }
            let left = seconds - SystemClock.seconds(since: start)
            checker.submit(downloads.sorted { $0.url < $1.url }, within: max(left, 0.001)) { more in
                done(fetched.merging(more) { a, _ in a })
            }
        }
    }

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

    /// The host, when a relative URI starts like one (`www.example.org/…`, `example.com/x`): a
    /// scheme was forgotten. On 935 real manuals: `mathworld.wolfram.com/topics/…` in pgfmanual.
    /// The host a relative URI probably meant (`www.ctan.org/pkg/x`), or nil. A dot is not enough:
    /// `transapp.cs`, `INSTALL.nut` and `XDGA.3.man` are file names. The last label must be a
    /// top-level domain people link to: a generic one from the list below or an assigned
    /// two-letter country code; a name that is also a common file extension (`.pl`, `.sh`, `.md`)
    /// counts only after `www.` or with a path after it.
    static func looksLikeHost(_ written: String) -> String? {
        let parts = written.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let first = parts.first.map(String.init) ?? ""
        let hasPath = parts.count > 1 && !parts[1].isEmpty
        let labels = first.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tldLabel = labels.last,
            labels.allSatisfy({
                !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { return nil }
        let tld = tldLabel.lowercased()
        guard genericTLDs.contains(tld) || countryTLDs.contains(tld) else { return nil }
        let www = first.lowercased().hasPrefix("www.")
        if fileExtensions.contains(tld) && !www && !hasPath { return nil }
        if labels.count == 2 && !www && !hasPath && !genericTLDs.contains(tld) { return nil }
        return first
    }

    /// `someone@example.org` written without `mailto:` (viewers then look for a file of that name).
    static func looksLikeMailAddress(_ written: String) -> Bool {
        let parts = written.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(where: { "/:?# ".contains($0) }) else {
            return false
        }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy {
                !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
            && (labels.last.map { $0.count >= 2 && $0.allSatisfy(\.isLetter) } ?? false)
    }

    static let genericTLDs: Set<String> = [
        "com", "org", "net", "edu", "gov", "mil", "int", "info", "biz", "name", "pro", "io", "dev", "app", "ai", "xyz",
        "online", "site", "tech", "cloud", "page", "blog", "wiki", "museum", "aero", "coop", "science", "foundation",
    ]
    /// ISO 3166 two-letter codes that are assigned top-level domains (plus uk, eu, ac).
    static let countryTLDs: Set<String> = Set(
        ("ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ca cc cd cf cg ch ci ck cl "
            + "cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs "
            + "gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt "
            + "lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph "
            + "pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl "
            + "tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw").split(
                separator: " "
            ).map(String.init))
    /// Top-level domains that are also common file extensions.
    static let fileExtensions: Set<String> = [
        "html", "htm", "pdf", "txt", "tex", "ps", "png", "jpg", "svg", "xml", "zip", "gz", "md", "doc", "docx", "csv",
        "json",
        "pl", "sh", "py", "rs", "cc", "in", "am", "ac", "es", "ms", "st", "so", "ai", "io", "mo", "ml", "hs", "ts",
        "js", "sc", "nl", "cs",
    ]

    func relative(_ path: String) -> String {
        let root = inputRoot.hasSuffix("/") ? inputRoot : inputRoot + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
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
