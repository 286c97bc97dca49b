/// Tells "the checker was refused" from "the link is broken": a 403, 429 or 503 that carries a bot
/// protection's signature (a challenge header, a challenge or CAPTCHA page) is `uri.blocked` — the
/// page probably works in a browser — rather than `uri.http-error`. The signatures are the ones the
/// big protections document or visibly send: Cloudflare (`cf-mitigated`, its "Just a moment…" and
/// "Attention Required!" pages), AWS WAF (`x-amzn-waf-action`), DataDome, Imperva/Incapsula, Sucuri,
/// Akamai, PerimeterX/HUMAN, DDoS-Guard, and any small page that asks for a CAPTCHA.
enum BotProtection {
    /// Why the answer looks like a refusal of the checker, or nil when it looks like a real error.
    static func signature(status: Int, server: String?, signals: String?, body: String?) -> String? {
        guard [403, 429, 503].contains(status) else { return nil }
        let server = (server ?? "").lowercased()
        let signals = (signals ?? "").lowercased()
        let page = (body ?? "").lowercased()
        func header(_ name: String) -> String? {
            guard let r = signals.range(of: name + ":") else { return nil }
            let rest = signals[r.upperBound...].drop { $0 == " " }
            return String(rest.prefix { $0 != ";" })
        }
        if let v = header("cf-mitigated") { return "Cloudflare asked for a browser challenge (cf-mitigated: \(v))" }
        if let v = header("x-amzn-waf-action") {
            return "AWS WAF asked for a \(v.isEmpty ? "challenge" : v) (x-amzn-waf-action)"
        }
        if header("x-datadome") != nil || header("x-dd-b") != nil || page.contains("captcha-delivery.com") {
            return "DataDome bot protection answered"
        }
        if header("x-iinfo") != nil || page.contains("incapsula incident") || page.contains("_incapsula_resource") {
            return "Imperva (Incapsula) bot protection answered"
        }
        if header("x-sucuri-id") != nil || server.contains("sucuri") { return "the Sucuri firewall answered" }
        if page.contains("px-captcha") || page.contains("perimeterx") {
            return "PerimeterX (HUMAN) bot protection answered"
        }
        if server.contains("ddos-guard") || page.contains("ddos-guard") { return "DDoS-Guard answered" }
        let cloudflarePage = [
            "challenge-platform", "cf-chl-", "cf_chl_", "just a moment...", "attention required! | cloudflare",
            "cf-browser-verification",
        ]
        if server.contains("cloudflare"), cloudflarePage.contains(where: page.contains) {
            return "Cloudflare answered with a challenge page"
        }
        if server.contains("akamaighost") && status == 403 && page.contains("access denied")
            && page.contains("reference #")
        {
            return "Akamai refused the request (an 'Access Denied' page with a reference number)"
        }
        let captcha = ["g-recaptcha", "h-captcha", "hcaptcha.com", "cf-turnstile", "recaptcha/api", "captcha"]
        if (body?.utf8.count ?? 0) < 65_536, let mark = captcha.first(where: page.contains) {
            return "the answer is a page asking for a CAPTCHA ('\(mark)')"
        }
        return nil
    }
}
