import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import PDFReader

/// `validate-links`: every link annotation, bookmark and the open action, read from the raw
/// objects and checked (internal targets, named destinations, GoToR files, URI syntax, actions).
public struct ValidateLinksStage: Stage {
    public static let descriptor = StageDescriptor(
        ValidateLinksStage.self, id: "validate-links",
        summary:
            "check link annotations, bookmarks and the open action: destinations, GoToR files, URI syntax, actions",
        rules: LinkRules.destinations + LinkRules.links + LinkRules.external + LinkRules.accessibility,
        produces: [.of(LinkPlacements.self), .of(PageBoxes.self)],
        service: { stage, label, context in stage.services(context, label: label) }, runSections: [WebSection.self])

    public var inventory: Bool
    public var linkText: Bool
    package var options: LinkAudit.Options
    public var external = ExternalOptions()
    public var accessibility = AccessibilityMode.auto

    public init(_ o: ValidateLinksOptions) throws(PipelineError) {
        inventory = o.inventory
        linkText = o.linkText
        accessibility = o.accessibility
        options = LinkAudit.Options(o)
        external = try ExternalOptions(o.external, path: "external", version: PDFPipeVersion.string)
    }

    /// The run's URL checker and GoToR files for the stage instance labelled `label` (`Job.stage`),
    /// made on first use.
    func services(_ context: RunContext, label: String) -> LinkServices {
        context.service(ServiceKey(stage: label, "links")) {
            var options = external
            options.shards = context.shards
            return LinkServices(external: options, documentTimeout: context.documentTimeout)
        }
    }

    public func run(_ job: inout Job) throws {
        guard let tables = try job.linkTablesOrPoppler() else { return }
        var audit = LinkAudit(
            source: tables.source, pages: tables.pageObjects, table: tables.table, options: options,
            sourcePath: job.source,
            inputRoot: job.inputRoot, remote: services(job.context, label: job.stage).remote)
        audit.run()
        if let qpdf = (tables.source as? QPDFSource)?.file { job.reportWarnings(of: qpdf) }
        if !audit.limitReached,
            tables.source is QPDFSource || ((tables.source as? PDFReader)?.declines.isEmpty == false)
        {
            job.crossCheckLinkCounts(audit.links, pageCount: tables.pageObjects.count)
        }
        var kinds: [String: Int] = [:]
        for l in audit.links { kinds[l.kind.rawValue, default: 0] += 1 }
        var summary = LinkSummarySection(
            links: audit.links.count, bookmarks: audit.outline.count,
            // Which reader read the objects: pdfpipe's own, or qpdf (damaged, encrypted, unusual files).
            reader: tables.source is QPDFSource ? "qpdf" : "pdfpipe", kinds: kinds)
        var findings = audit.findings
        if let (access, said) = accessibilityCheck(tables, audit: audit, path: job.workingFile) {
            findings += access
            summary.accessibility = said
        }
        let read = options.textChecks ? LinkTextChecks.run(job.workingFile, audit) : nil
        findings += read?.findings ?? []
        job[.linkSummary] = summary
        job.products[LinkPlacements.self] = LinkPlacements(audit.links)
        job.products[PageBoxes.self] = audit.pageBoxes
        let checked = Checked(
            findings: findings, links: audit.links, outline: audit.outline, openAction: audit.openAction,
            textRead: read)
        guard external.enabled else { return conclude(&job, checked, audit: audit) }
        // The web verdicts are joined when the run's checker has answered this document's URLs:
        // until then the worker goes on with other documents (`Job.defer`).
        var (check, sites, plans) = externalCheck(job, checked)
        if external.section.archive.enabled { check.documentDate = DocumentDate.of(tables.source) }
        let answers = Answers()
        let budget = webBudget(job)
        check.fetch(plans, within: budget) { answers.fulfil($0) }
        job.defer(
            DeferredWork(
                whenReady: { answers.whenReady($0) },
                finish: { job in
                    let verdicts = Verdicts(check: check, sites: sites, plans: plans, fetched: answers.value)
                    conclude(&job, joined(checked, verdicts, budget: budget, job: job), audit: audit)
                }))
    }

    /// What the run's checker answered for a document's web links.
    struct Verdicts {
        let check: ExternalLinks
        var sites: [ExternalLinks.Site]
        let plans: [ExternalLinks.Plan]
        let fetched: [URLChecker.Key: URLFetch]
    }

    /// The document's links with the web verdicts joined: their findings, each link's check, and
    /// the links not answered within the document's web budget (`external.documentSeconds`).
    func joined(_ checked: Checked, _ v: Verdicts, budget: Double, job: Job) -> Checked {
        var sites = v.sites
        var c = checked
        c.findings += v.check.judge(&sites, plans: v.plans, fetched: v.fetched)
        // Only the links' own URLs (a host's probe, a page read, an archive's answer or an https
        // address past the budget is no link: its link's own answer says).
        var asked: Set<String> = []
        for case .network(let url, _, _, _) in v.plans { asked.insert(url) }
        let late = Set(
            v.fetched.filter { !$0.key.page && !$0.key.captures && $0.value.failure == .overBudget }.map(\.value.url)
        ).intersection(asked).sorted()
        if let first = late.first {
            c.findings.append(
                .budgetHit(
                    "external.documentSeconds",
                    "\(late.count) web link\(late.count == 1 ? " was" : "s were") not verified: the document's web checks may take \(JSONWriter.format(budget)) s (external.documentSeconds\(job.context.documentTimeout > 0 && job.context.documentTimeout <= external.documentSeconds ? ", lowered to --timeout" : "")), and \(late.count == 1 ? "it was" : "they were") not answered by then (first: '\(first)')"
                ))
        }
        for i in c.links.indices { c.links[i] = sites[i].record }
        for i in c.outline.indices { c.outline[i].link = sites[c.links.count + i].record }
        if c.openAction != nil { c.openAction = sites[c.links.count + c.outline.count].record }
        return c
    }

    /// The link-accessibility check (`accessibility`): its findings and what `linkSummary` says of
    /// the document (the part checked, or that it was skipped); nil when off.
    func accessibilityCheck(_ tables: LinkTables, audit: LinkAudit, path: String) -> ([Finding], String)? {
        let root = PDFObject.root(of: tables.source)
        let (check, said) = LinkAccessibility.plan(
            accessibility, root: root, source: tables.source, pages: tables.pageObjects,
            geometries: audit.geometries)
        guard let said else { return nil }
        guard var check else { return ([], said) }
        check.run(outlineItems: audit.outlineItems, openAction: root["OpenAction"], path: path)
        return (check.findings, said)
    }

    /// A document's links, bookmarks and open action with their findings, the web's included once
    /// they are in.
    struct Checked {
        var findings: [Finding]
        var links: [LinkRecord]
        var outline: [OutlineRecord]
        var openAction: LinkRecord?
        /// What `textChecks` read: the text under the links of the pages it read.
        var textRead: LinkTextChecks.Read?
    }

    /// Reports the findings (with the text under their links) and the sections.
    func conclude(_ job: inout Job, _ c: Checked, audit: LinkAudit) {
        var findings = c.findings
        if linkText {
            // Findings that matter (warning or above, as the pipeline's rules say): 361 of 448 link
            // findings on the real-world corpus are notes about http:// links, whose text is
            // mostly the address itself, and opening poppler for those documents cost a quarter
            // of the link audit's time.
            let job = job
            // The pages textChecks read give their links' text without opening the file again.
            let read = c.textRead ?? LinkTextChecks.Read()
            for i in findings.indices where findings[i].details["linkText"] == nil {
                guard let link = findings[i].link, read.pages.contains(link.page),
                    (job.effectiveSeverity(of: findings[i]) ?? .note) >= .warning, let text = read.texts[link]
                else { continue }
                findings[i].details["linkText"] = .string(text)
            }
            LinkText.annotate(&findings, path: job.workingFile, geometries: audit.geometries) {
                (job.effectiveSeverity(of: $0) ?? .note) >= .warning && !read.pages.contains($0.link?.page ?? 0)
            }
        }
        for f in findings { job.report(f) }
        if !audit.limitReached, var summary = job[.linkSummary] {
            let records = c.links + c.outline.map(\.link) + (c.openAction.map { [$0] } ?? [])
            summary.checks = Self.verdicts(records, findings: findings, job: job)
            job[.linkSummary] = summary
        }
        if inventory {
            job[.links] = c.links.map(\.json)
            job[.outline] = c.outline.map(\.json)
            job[.openAction] = c.openAction?.json
        }
    }

    /// What became of each link, bookmark and open action (report.json's `summary.links`): the
    /// web check's outcome where it ran; otherwise broken when an error (at the pipeline's levels)
    /// names that link — by its object, or its page and place in the page's /Annots — else ok.
    static func verdicts(_ records: [LinkRecord], findings: [Finding], job: Job) -> LinkTotals {
        var errorObjects = Set<String>()
        var errorLinks = Set<LinkID>()
        for f in findings where (job.effectiveSeverity(of: f) ?? .note) == .error {
            if let o = f.object { errorObjects.insert(o) }
            if let link = f.link { errorLinks.insert(link) }
        }
        var t = LinkTotals()
        for r in records {
            t.total += 1
            if let verdict = r.check?.verdict {
                switch verdict {
                case .ok: t.ok += 1
                case .redirected: t.redirected += 1
                case .blocked: t.blocked += 1
                case .skipped: t.skipped += 1
                case .unverified: t.unverified += 1
                case .broken: t.broken += 1
                }
            } else if r.object.map(errorObjects.contains) == true
                || (r.link.map(errorLinks.contains) ?? false)
            {
                t.broken += 1
            } else if r.kind == .goto || r.kind == .gotor {
                t.ok += 1
            } else {
                // Not checked: a web link with the external check off, JavaScript, named actions,
                // a link without a target.
                t.skipped += 1
            }
        }
        return t
    }

    /// Seconds the document's web checks may take in all: `documentSeconds`, and no more than the
    /// document's `--timeout` (infinite: no limit).
    func webBudget(_ job: Job) -> Double {
        let own = external.documentSeconds > 0 ? external.documentSeconds : .infinity
        let timeout = job.context.documentTimeout
        return timeout > 0 ? min(own, timeout) : own
    }

    /// The external check over links, bookmarks and the open action: the checker, each link's
    /// site and how it is checked.
    func externalCheck(_ job: Job, _ c: Checked) -> (ExternalLinks, [ExternalLinks.Site], [ExternalLinks.Plan]) {
        typealias Site = ExternalLinks.Site
        var sites: [Site] = []
        for l in c.links {
            sites.append(Site(record: l, page: l.page, rect: l.rect?.array, object: l.object, prefix: ""))
        }
        for o in c.outline {
            sites.append(
                Site(record: o.link, page: nil, rect: nil, object: o.link.object, prefix: "bookmark '\(o.title)': "))
        }
        if let openAction = c.openAction {
            sites.append(Site(record: openAction, page: nil, rect: nil, object: nil, prefix: "open action: "))
        }
        var options = external
        if job.offline { options.offline = true }
        let services = services(job.context, label: job.stage)
        let check = ExternalLinks(
            options: options, checker: services.checker, remote: services.remote,
            sourcePath: job.source, inputRoot: job.inputRoot,
            allowOutsideRoot: self.options.allowOutsideRoot)
        return (check, sites, sites.map { check.plan($0.record) })
    }
}

/// The answers to one document's URLs, filled in by the checker's callback; `whenReady` calls
/// back at once when they are in, else when they arrive.
final class Answers: Sendable {
    private struct State {
        var value: [URLChecker.Key: URLFetch]?
        var waiting: [@Sendable () -> Void] = []
    }
    private let state = Locked(State())

    func fulfil(_ value: [URLChecker.Key: URLFetch]) {
        let waiting = state.withLock { s in
            s.value = value
            defer { s.waiting.removeAll() }
            return s.waiting
        }
        for w in waiting { w() }
    }

    func whenReady(_ ready: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if s.value != nil { return true }
            s.waiting.append(ready)
            return false
        }
        if now { ready() }
    }

    /// The answers (empty before they are in).
    var value: [URLChecker.Key: URLFetch] { state.withLock { $0.value ?? [:] } }
}

/// validate-links' run-wide services: the URL checker (one request per URL per run; its threads and
/// its cache) and the GoToR target files, read once per run. Ended with the run: the cache is saved
/// (when the web check ran) and the checker's threads stop.
final class LinkServices: RunService {
    let checker: URLChecker
    let remote = RemoteDocuments()
    private let external: ExternalOptions
    /// `--timeout`: a worker's question is answered within it.
    private let documentTimeout: Double

    init(external: ExternalOptions, documentTimeout: Double = 0) {
        checker = URLChecker(options: external, readDocument: RemoteDocument.load)
        self.external = external
        self.documentTimeout = documentTimeout
    }

    func shutdown() throws {
        defer { checker.shutdown() }
        if external.enabled { try checker.saveCache() }
    }

    var needsShutdown: Bool { checker.isRunning }

    /// A web check that checked nothing says so once, for the run: every URL was not requested
    /// (private addresses), or no host answered at all (the network looks down, and the
    /// `uri.unreachable` verdicts say nothing about the links). A worker's copy says nothing: its
    /// URLs were the parent's to check.
    func runFindings() -> [Finding] {
        guard external.enabled, checker.forward == nil else { return [] }
        let o = checker.outcomes()
        var out: [Finding] = []
        if o.urls > 0 && o.privateAddresses == o.urls {
            out.append(
                Finding(
                    rule: .uriNothingChecked,
                    message:
                        "0 of \(o.urls) web URL\(o.urls == 1 ? "" : "s") checked: every one resolves to a private, loopback or link-local address, which pdfpipe does not request (external.allowPrivateAddresses)"
                ))
        }
        if o.networkLooksDown {
            var how: [String] = []
            if o.notResolved > 0 { how.append("\(o.notResolved) not resolved (DNS)") }
            if o.notConnected > 0 { how.append("\(o.notConnected) not connected") }
            if o.timedOut > 0 { how.append("\(o.timedOut) timed out") }
            out.append(
                Finding(
                    rule: .uriNetworkDown,
                    message:
                        "the network looks down: none of the \(o.hosts) web hosts answered (\(o.urls - o.privateAddresses) URLs: \(how.joined(separator: ", "))); the web links were not verified"
                ))
        }
        return out
    }

    /// `web`: each host's requests, 429 and 503 answers, retries, pauses and peak rate, when the
    /// web check requested anything.
    func runSections() -> [String: JSONValue] {
        guard external.enabled, checker.forward == nil else { return [:] }
        let hosts = checker.statistics.filter { $0.requests > 0 }
        guard !hosts.isEmpty else { return [:] }
        return WebSection(hosts: hosts).runSection
    }

    /// A worker's URLs, checked by this process's checker (once per run, whichever worker asks).
    func answer(_ question: JSONValue) -> JSONValue {
        [
            "fetches": URLChecker.answer(
                checker.check(
                    URLChecker.keys(from: question),
                    within: min(URLChecker.budget(from: question), documentTimeout > 0 ? documentTimeout : .infinity)))
        ]
    }

    /// In a worker: the URLs go to the parent's checker.
    func forward(to ask: @escaping @Sendable (JSONValue) -> JSONValue) {
        checker.forward = { keys, seconds in
            URLChecker.fetches(from: ask(URLChecker.request(keys, within: seconds))["fetches"] ?? .null)
        }
    }
}

// The sections validate-links writes (`linkSummary` is Core's: the run's summary reads it).
extension SectionKey where Value == [JSONValue] {
    /// The link inventory (`inventory: true`): each link annotation, its action and verdict.
    public static var links: Self { .init("links") }
    /// The outline (`inventory: true`): each bookmark, its level and link.
    public static var outline: Self { .init("outline") }
}

extension SectionKey where Value == JSONValue {
    /// The document's open action (`inventory: true`), when it has one.
    public static var openAction: Self { .init("openAction") }
}
