import PDFPipeCore
import PDFPipeWeb

/// The rules of validate-links' external check (`external`): web links requested, local files and
/// fragments looked up, and what the run as a whole says about the network.
extension Rule {
    /// The web rules' samples: Tests/Fixtures/rules/web-links.pdf (one link per behaviour of
    /// scripts/http-fixture.py; `web.test` remapped to it) with the external check's `options`.
    static func webSample(_ options: String = "", file: String = "web-links.pdf", sites: Bool = false) -> Sample {
        // `sites`: also the fixture's site without 404s and its parked domain.
        let more =
            sites
            ? #", {"pattern": "^http://soft\\.test/", "replacement": "http://127.0.0.2:PORT/"}, {"pattern": "^http://parked\\.test/", "replacement": "http://127.0.0.3:PORT/"}"#
            : ""
        let remap = #""remap": [{"pattern": "^http://web\\.test/", "replacement": "http://127.0.0.1:PORT/"}\#(more)]"#
        return Sample(
            "Tests/Fixtures/rules/" + file,
            stages:
                #"[{"use": "validate-links", "with": {"external": {"enabled": true, \#(options)"retries": 0, "timeoutSeconds": 0.5, "maxRedirects": 3, \#(remap)}}}]"#,
            webServer: true)
    }

    /// The options of most web samples: loopback may be requested (the fixture server is there).
    static let webAllowed = #""allowPrivateAddresses": true, "#

    public static let uriHttpError = Rule(
        "uri.http-error", severity: .error,
        summary:
            "a web link's final answer (after redirects) is a status not accepted (default: anything outside 200-299)",
        hint: "fix or remove the link; if the status is expected, add it to external.accept",
        details:
            #"external check: a web link's final status (after redirects) is not in `accept`"#,
        sample: webSample(webAllowed))

    public static let uriBlocked = Rule(
        "uri.blocked", severity: .warning,
        summary:
            "a web link answered 403, 429 or 503 with a bot protection's signature (a challenge or CAPTCHA page): the checker was refused, the link probably works",
        hint:
            "check it by hand; for a site that always refuses checkers, accept its status under 'hosts' or exclude it",
        details:
            #"external check: a 403, 429 or 503 that carries a bot protection's signature (Cloudflare's `cf-mitigated` or challenge page, AWS WAF, DataDome, Imperva, Sucuri, Akamai, PerimeterX, DDoS-Guard, a CAPTCHA page): the checker was refused, the link probably works; the message says what was seen"#,
        sample: webSample(webAllowed))

    public static let uriUnreachable = Rule(
        "uri.unreachable", severity: .error,
        summary:
            "a web link's host cannot be reached: DNS failure, connection refused or reset, TLS error (after the retries)",
        hint: "check the host name; if the site is gone, remove or replace the link",
        details:
            #"external check: DNS, connection or TLS failure (after the retries)"#,
        sample: webSample(webAllowed))

    public static let uriTimeout = Rule(
        "uri.timeout", severity: .error,
        summary: "a web link did not answer within external.timeoutSeconds (after the retries)",
        hint: "check the link by hand; raise external.timeoutSeconds for slow sites",
        details:
            #"external check: no answer within `timeoutSeconds` (after the retries)"#,
        sample: webSample(webAllowed))

    public static let uriRateLimited = Rule(
        "uri.rate-limited", severity: .warning,
        summary:
            "a web link's host kept answering 429 Too Many Requests, after the host was slowed down and the request retried: the link could not be verified (it is not known to be broken)",
        hint:
            "lower the host's pace under 'hosts' (maxPerHost, intervalSeconds), or check it by hand; a link cache spares the next run",
        details:
            #"external check: still 429 after `retries` + 4 retries, the whole host paused in between (`Retry-After`, then an adaptive pace): not verified — never `uri.http-error`; `check.outcome` is `rate-limited`, report.json's `sections.web.hosts` shows the host's 429s and pauses"#,
        sample: webSample(webAllowed))

    public static let uriFlaky = Rule(
        "uri.flaky", severity: .warning,
        summary:
            "a web link failed in this run, but not yet in external.confirmRuns consecutive runs: it may be down, or a passing failure",
        hint: "nothing yet: it becomes its real error (uri.http-error, …) once it has failed confirmRuns runs in a row",
        details:
            #"external check with `confirmRuns` > 1: the link failed (the message says how) in fewer than `confirmRuns` consecutive runs, counted in the history file beside `cache.path` (`<cache>.history.json`); a run where it works resets the count. Only failures that may pass wait: a 404 or 410 confirmed in the same run (`confirmFailures`) is `uri.http-error` at once"#,
        sample: webSample(webAllowed + #""confirmRuns": 2, "cache": {"path": "links.json"}, "#))

    public static let uriRecovered = Rule(
        "uri.recovered", severity: .note,
        summary:
            "a web link worked, but only when it was asked again (a timeout, a reset, a 5xx or a 429 first): it is flaky",
        hint: "nothing to fix in the document; if it recurs, tell the site's owner",
        details:
            #"external check: the accepted answer came after `retries` (or the end-of-run confirmation) asked again; `check.outcome` is `ok-after-retry`. The link counts as ok"#,
        sample: webSample(webAllowed, file: "web-recovered.pdf"))

    public static let uriRedirected = Rule(
        "uri.redirected", severity: .note,
        summary: "a web link is permanently redirected (301 or 308) to another URL that works",
        hint: "link to the new URL",
        details:
            #"external check: a permanent redirect (301/308) to a URL that works; the fix names it"#,
        sample: webSample(webAllowed))

    public static let uriSoft404 = Rule(
        "uri.soft-404", severity: .warning,
        summary:
            "a web link answers 200, but its page says it is not found, and its host answers a path that cannot exist with a success too",
        hint: "link to the page's new address, or remove the link",
        details:
            #"external check with `probeHosts` (default): the host of a link that answered 2xx is asked once for a path that cannot exist; where that answers 2xx with a page titled as not found, the link's page is read (GET, at most 64 KB), and its `<title>` or first `<h1>`, within the first 8 KB, is the probe's own "not found" text ("Page not found", "404", "no longer available", …), each request's path aside: the host's error page. A real page whose title only mentions an error ("HTTP 404 explained") is another page. Both facts are in the message. A host that answers the made-up path 404 is taken at its word: its pages are not read"#,
        sample: webSample(webAllowed, file: "web-silent.pdf", sites: true))

    public static let uriParked = Rule(
        "uri.parked", severity: .warning,
        summary:
            "a web link lands on a parked domain: a redirect to a parking service, or a page that offers the domain for sale",
        hint: "the domain has lapsed: find where the content moved, or remove the link",
        details:
            #"external check: one of the link's redirects goes to a domain parking or sale service (Sedo, ParkingCrew, Bodis, Dan, Afternic, HugeDomains, …), or (with `probeHosts`, on a host that answers a path that cannot exist with a success) its page carries a parking page's words ("this domain is for sale", …)"#,
        sample: webSample(webAllowed, file: "web-silent.pdf", sites: true))

    public static let uriHTTPSAvailable = Rule(
        "uri.https-available", severity: .note,
        summary: "an http link whose https address answers the same: the link can be secure",
        hint: "link to the https address (fix-links writes it)",
        details:
            #"external check with `httpsUpgrade`: an http link that answered 2xx without leaving http is asked again at its https address (HEAD, same policy); the same final status and media type (`text/html`, …) there is the finding, with the https address as its fix. A link redirected to https is `uri.redirected` instead"#
    )

    public static let uriLoginWall = Rule(
        "uri.login-wall", severity: .warning,
        summary:
            "a web link answers only with a redirect to a sign-in page: readers without an account do not get the page",
        hint: "link to a public page, or say in the text that the page needs an account",
        details:
            #"external check: the link is redirected, and where it lands is a sign-in page (a path segment like `login`, `signin`, `sign_in`, `sso`, or an identity provider's host: accounts.google.com, login.microsoftonline.com, Okta, Auth0, …); a link written to a sign-in page is not reported"#,
        sample: webSample(webAllowed, file: "web-silent.pdf", sites: true))

    public static let uriRedirectLoop = Rule(
        "uri.redirect-loop", severity: .error,
        summary: "a web link's redirects lead back to a URL already visited",
        hint: "the site is misconfigured; link to a page that answers",
        details:
            #"external check: the redirects come back to a URL already visited"#,
        sample: webSample(webAllowed))

    public static let uriTooManyRedirects = Rule(
        "uri.too-many-redirects", severity: .error,
        summary: "a web link redirects more than external.maxRedirects times",
        hint: "link to the final URL, or raise external.maxRedirects",
        details:
            #"external check: more than `maxRedirects` redirects"#,
        sample: webSample(webAllowed))

    public static let uriNothingChecked = Rule(
        "uri.nothing-checked", severity: .warning,
        summary:
            "the run has web links but requested none of them (every one resolves to a private, loopback or link-local address): the web check checked nothing",
        hint: "set external.allowPrivateAddresses on a machine that may reach them, or exclude those links",
        details:
            #"external check, said once for the run: it has web links but requested none (every one resolves to a private, loopback or link-local address) — a check that checked nothing is not silence"#,
        sample: webSample())

    public static let uriNetworkDown = Rule(
        "uri.network-down", severity: .error,
        summary:
            "no web host answered (three or more, every request failed to resolve, connect or answer in time): the network looks down and no web link was verified",
        hint:
            "check the runner's network and DNS (a proxy? an offline runner?), or run with --offline; where a runner may be offline, \"rules\": {\"uri.network-down\": \"warning\"} lets such a run pass",
        details:
            #"external check, said once for the run: three or more web hosts and none answered (every request failed to resolve, connect or answer in time). It is the run's one error for it: each link's `uri.unreachable` or `uri.timeout` becomes a note that the link was not verified (in report.json; not an error, not a broken target, not annotated), and the link counts as unverified"#,
        collapses: [.uriUnreachable, .uriTimeout],
        sample: webSample(webAllowed, file: "network-down.pdf"))

    public static let uriSkipped = Rule(
        "uri.skipped", severity: .note,
        summary:
            "a link was not checked on purpose: its host resolves to a loopback, private, link-local or multicast address, or its file lies outside the input root",
        hint: "set external.allowPrivateAddresses (or allowOutsideRoot) if such links are expected",
        details:
            #"external check: not requested on purpose — the host resolves to a loopback, private, link-local or multicast address, or the file lies outside the input root"#,
        sample: .init("Tests/Fixtures/rules/uri-outside-root.pdf", with: #"{"external": {"enabled": true}}"#))

    public static let uriFileMissing = Rule(
        "uri.file-missing", severity: .error,
        summary: "a file: or relative URI names a file that does not exist (relative to the PDF's folder)",
        hint: "ship the file beside the PDF, or fix the path",
        details:
            #"external check: a `file:` or relative URI names a file that does not exist"#,
        example:
            "<< /S /URI /URI (notes/missing.pdf) >>   % no notes/missing.pdf beside the PDF",
        sample: .init("samples/uri-targets.pdf", with: #"{"external": {"enabled": true}}"#))

    public static let uriFragmentMissing = Rule(
        "uri.fragment-missing", severity: .error,
        summary:
            "a link to a PDF asks for a page (#page=N) or named destination (#nameddest=NAME) that the target does not have, or (htmlFragments) a link to a web page names an anchor the page does not have",
        hint: "fix the page number or destination name",
        details:
            #"external check: a link to a PDF asks for a `#page=` past its end or a `#nameddest=` it does not define; with `htmlFragments`, a link to a web page names an anchor the page does not have"#,
        example:
            "<< /S /URI /URI (https://example.com/guide.pdf#nameddest=setup) >>   % guide.pdf has no 'setup'",
        sample: .init("samples/uri-targets.pdf", with: #"{"external": {"enabled": true}}"#))

    public static let uriFragmentUnverified = Rule(
        "uri.fragment-unverified", severity: .warning,
        summary:
            "a web link answers, but its #fragment (#page=, #nameddest= on a PDF; an HTML anchor with htmlFragments) could not be checked: the body was too slow or too large, or the document is not what the link expects (the reason is in the message and check.reason)",
        hint:
            "check the fragment by hand; raise external.timeoutSeconds or downloadLimitMB if the document is merely big",
        details:
            #"external check: the link answers, but its `#page=`/`#nameddest=` (or, with `htmlFragments`, its HTML anchor) could not be checked — the body did not arrive within `timeoutSeconds`, was larger than `downloadLimitMB`, or is not a PDF (or not HTML) although the link expects one; `check.outcome` is `fragment-unverified`, `check.reason` says why"#,
        sample: webSample(webAllowed))

    public static let uriUncheckedScheme = Rule(
        "uri.unchecked-scheme", severity: .note,
        summary: "a URI with a scheme the external check does not check (ftp:, tel:, news:, …)",
        hint: "nothing to fix; set external.schemes to 'ignore' or turn the rule off to hide these",
        details:
            #"external check: a scheme that is not checked (`ftp:`, `tel:`, …)"#,
        sample: .init("samples/uri-targets.pdf", with: #"{"external": {"enabled": true}}"#))
}
