/// One fact a stage found about a document: a flat value with a stable rule id (`rule`: the id of
/// the declared `Rule` it was made from, or read back from a report).
public struct Finding: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    /// 1-based page number, when the finding is about a page.
    public var page: Int?
    /// The page label readers see (`/PageLabels`), when the document has labels.
    public var pageLabel: String? { didSet { pageLabel = pageLabel.map(ConsoleText.escape) } }
    /// The PDF object, as `12 0 R`, when one is concerned.
    public var object: String?
    /// `[x1, y1, x2, y2]` in PDF user space, when a rectangle is concerned.
    public var rect: [Double]?
    /// The stage that reported it.
    public var stage: String?
    /// A lowercase fragment; user values in single quotes. Text from documents reaches every
    /// report people and CI read (Markdown, GitHub annotations, HTML, JUnit, SARIF, the console),
    /// so whatever is set here goes through the one function that makes document text safe for
    /// them (`ConsoleText.escape`: control characters, C1 controls, bidirectional overrides and
    /// line breaks written as escapes); the JSON encodings stay exact encodings of that text.
    public var message: String { didSet { message = ConsoleText.escape(message) } }
    /// How to fix it (may quote the document: the same treatment).
    public var hint: String? { didSet { hint = hint.map(ConsoleText.escape) } }
    /// Rule-specific fields, written beside the others (`uri` and `status` of external-link findings).
    public var details: [String: JSONValue] = [:]
    /// The finding's stable identity (see `DocumentResult.fingerprints`), once assigned.
    public var fingerprint: String?
    /// Against a baseline (`--baseline`): `new` findings count toward `--fail-on`, `unchanged` ones
    /// do not.
    public var baseline: BaselineState?

    /// The page as reports show it: the number, and the label readers see when the document has
    /// labels (`12 (xii)`); nil when the finding is not about a page. The one place that says how.
    public var pageText: String? { page.map { p in "\(p)" + (pageLabel.map { " (\($0))" } ?? "") } }

    /// The fix the finding proposes (`details["fix"]`, which `fix-links` applies), as people read
    /// it: "replace with `to` (why)".
    public var suggestedFix: (from: String, to: String, why: String)? {
        guard case .object(let o)? = details["fix"], let from = o["from"]?.stringValue, let to = o["to"]?.stringValue
        else { return nil }
        return (from, to, o["why"]?.stringValue ?? "")
    }

    /// The keys every finding may have, declared once for writing and reading; anything else in a
    /// report's finding is a detail.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case rule, severity, message, page, pageLabel, object, rect, stage, hint, fingerprint, baseline
    }

    /// A finding of a declared rule: its default severity and hint unless given.
    public init(
        rule: Rule, severity: Severity? = nil, page: Int? = nil, pageLabel: String? = nil, object: String? = nil,
        rect: [Double]? = nil, stage: String? = nil, message: String, hint: String? = nil
    ) {
        self.init(
            ruleID: rule.id, severity: severity ?? rule.severity, page: page, pageLabel: pageLabel, object: object,
            rect: rect, stage: stage, message: message, hint: hint ?? rule.hint)
    }

    /// A finding read back from a report: its rule is an id, whatever rules this build declares.
    init(
        ruleID: String, severity: Severity, page: Int?, pageLabel: String?, object: String?, rect: [Double]?,
        stage: String?, message: String, hint: String?
    ) {
        self.rule = ruleID
        self.severity = severity
        self.page = page
        self.pageLabel = pageLabel.map(ConsoleText.escape)
        self.object = object
        self.rect = rect
        self.stage = stage
        self.message = ConsoleText.escape(message)
        self.hint = hint.map(ConsoleText.escape)
    }
}

/// Written as one object: the declared fields over the details.
extension Finding: Codable, JSONRepresentable {
    public var json: JSONValue { JSONValue(encoding: self) }

    public func encode(to encoder: any Encoder) throws {
        try encoder.encodeMembers(details, besides: CodingKeys.self)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(page, forKey: .page)
        try c.encodeIfPresent(pageLabel, forKey: .pageLabel)
        try c.encodeIfPresent(object, forKey: .object)
        try c.encodeIfPresent(rect, forKey: .rect)
        try c.encodeIfPresent(stage, forKey: .stage)
        try c.encodeIfPresent(hint, forKey: .hint)
        try c.encodeIfPresent(fingerprint, forKey: .fingerprint)
        try c.encodeIfPresent(baseline, forKey: .baseline)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            ruleID: try c.decode(String.self, forKey: .rule), severity: try c.decode(Severity.self, forKey: .severity),
            page: try c.decodeIfPresent(Int.self, forKey: .page),
            pageLabel: try c.decodeIfPresent(String.self, forKey: .pageLabel),
            object: try c.decodeIfPresent(String.self, forKey: .object),
            rect: try c.decodeIfPresent([Double].self, forKey: .rect),
            stage: try c.decodeIfPresent(String.self, forKey: .stage),
            message: try c.decode(String.self, forKey: .message),
            hint: try c.decodeIfPresent(String.self, forKey: .hint)
        )
        fingerprint = try c.decodeIfPresent(String.self, forKey: .fingerprint)
        baseline = try c.decodeIfPresent(BaselineState.self, forKey: .baseline)
        details = try decoder.members(besides: CodingKeys.self)
    }

    public init(json: JSONValue) throws(ReportDecodingError) {
        do {
            self = try json.decode()
        } catch {
            throw ReportDecodingError(message: "a finding: " + JSONValueDecoder.describe(error))
        }
    }
}

/// Where a finding stands against a baseline (SARIF's `baselineState`).
public enum BaselineState: String, Codable, Sendable {
    /// Not in the baseline: counts toward `--fail-on`.
    case new
    /// In the baseline already: reported, but does not fail the run.
    case unchanged
}

/// A report file that could not be read back.
public struct ReportDecodingError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension Finding {
    /// A budget that bounds what one file may cost was hit: `pdf.limit-exceeded`, its option named
    /// in `details.budget` ("thumbnails.maxPixels") and in the message.
    public static func budgetHit(_ budget: String, page: Int? = nil, _ message: String) -> Finding {
        var f = Finding(rule: .pdfLimitExceeded, page: page, message: message)
        f.details["budget"] = .string(budget)
        return f
    }

    /// Page numbers for a message, runs joined: "2-5, 9".
    public static func pageList(_ pages: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        let p = pages.sorted()
        while i < p.count {
            var j = i
            while j + 1 < p.count && p[j + 1] == p[j] + 1 { j += 1 }
            parts.append(j > i ? "\(p[i])-\(p[j])" : "\(p[i])")
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }
}

extension Finding {
    /// The link annotation a finding is about, by its place in its page's `/Annots` (0-based):
    /// with `page`, the link's identity (the inventory's `annotationIndex`, what the HTML report's
    /// boxes and the thumbnails' overlay match on). Kept in `details` (report.json's
    /// `details.annotationIndex`); this is the one place its key is spelt.
    public var annotationIndex: Int? {
        get { details[Self.annotationIndexKey]?.intValue }
        set { details[Self.annotationIndexKey] = newValue.map { .int($0) } }
    }

    /// The link a finding is about, as a value: its page and its place in the page's `/Annots`.
    public var link: LinkID? {
        guard let page, let annotationIndex else { return nil }
        return LinkID(page: page, annotationIndex: annotationIndex)
    }

    static let annotationIndexKey = "annotationIndex"
}

/// A link annotation's identity in a document: its 1-based page and its 0-based place in the
/// page's `/Annots` (what findings, the inventory and the overlay share).
public struct LinkID: Sendable, Hashable {
    public var page: Int
    public var annotationIndex: Int

    public init(page: Int, annotationIndex: Int) {
        self.page = page
        self.annotationIndex = annotationIndex
    }
}
