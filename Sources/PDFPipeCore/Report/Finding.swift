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

    /// The keys every finding may have; anything else in a report's finding is a detail.
    static let fixedKeys: Set<String> = [
        "rule", "severity", "message", "page", "pageLabel", "object", "rect", "stage", "hint", "fingerprint",
        "baseline",
    ]

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

extension Finding: JSONRepresentable {
    public var json: JSONValue {
        var o = details
        o["rule"] = .string(rule)
        o["severity"] = .string(severity.rawValue)
        o["message"] = .string(message)
        if let page { o["page"] = .int(page) }
        if let pageLabel { o["pageLabel"] = .string(pageLabel) }
        if let object { o["object"] = .string(object) }
        if let rect { o["rect"] = .array(rect.map { .double($0) }) }
        if let stage { o["stage"] = .string(stage) }
        if let hint { o["hint"] = .string(hint) }
        if let fingerprint { o["fingerprint"] = .string(fingerprint) }
        if let baseline { o["baseline"] = .string(baseline.rawValue) }
        return .object(o)
    }

    public init(json: JSONValue) throws(ReportDecodingError) {
        guard let rule = json["rule"]?.stringValue, let message = json["message"]?.stringValue,
            let sev = json["severity"]?.stringValue.flatMap(Severity.init(rawValue:))
        else { throw ReportDecodingError(message: "finding without rule, severity or message") }
        self.init(
            ruleID: rule, severity: sev, page: json["page"]?.intValue, pageLabel: json["pageLabel"]?.stringValue,
            object: json["object"]?.stringValue, rect: json["rect"]?.arrayValue?.compactMap(\.doubleValue),
            stage: json["stage"]?.stringValue, message: message, hint: json["hint"]?.stringValue)
        fingerprint = json["fingerprint"]?.stringValue
        baseline = json["baseline"]?.stringValue.flatMap(BaselineState.init(rawValue:))
        for (k, v) in json.objectValue ?? [:] where !Finding.fixedKeys.contains(k) { details[k] = v }
    }
}

/// Where a finding stands against a baseline (SARIF's `baselineState`).
public enum BaselineState: String, Sendable {
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
