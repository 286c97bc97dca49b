import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import SystemIO

/// What a relative URI probably meant: a web host whose scheme was forgotten, or a mail address
/// written without `mailto:` (viewers look for a file of that name).
extension ExternalLinks {
    /// The host a relative URI probably meant when it starts like one (`www.example.org/…`,
    /// `example.com/x`: a scheme was forgotten; on 935 real manuals, `mathworld.wolfram.com/topics/…`
    /// in pgfmanual), or nil. A dot is not enough:
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
}
