/// How serious a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

    /// The order every list of severities is written in (options, rule levels, reports).
    public static let mostSevereFirst: [Severity] = [.error, .warning, .note]
}

/// A pipeline's setting for one rule: a severity, or off.
public enum RuleLevel: Sendable, Equatable {
    case off
    case severity(Severity)

    public init?(_ text: String) {
        if text == "off" {
            self = .off
        } else if let s = Severity(rawValue: text) {
            self = .severity(s)
        } else {
            return nil
        }
    }

    public static let names = Severity.mostSevereFirst.map(\.rawValue) + ["off"]

    /// `finding` as the report shows it under `levels` (a pipeline's `ruleLevels`): its rule's
    /// level applied, nil when the rule is off. One function for a document's findings
    /// (`Job.effectiveFindings`) and the run's (`Runner.runFindings`).
    public static func applied(_ levels: [String: RuleLevel], to finding: Finding) -> Finding? {
        var f = finding
        switch levels[f.rule] {
        case .off?: return nil
        case .severity(let s)?: f.severity = s
        case nil: break
        }
        return f
    }
}

/// The threshold at which a run fails: findings at or above it give exit code 1.
public enum FailOn: String, Codable, Sendable, CaseIterable {
    case error, warning, note, never

    /// The levels as help texts list them: `error | warning | note | never`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: " | ") }

    /// Whether a finding of this severity makes the run fail.
    public func fails(_ severity: Severity) -> Bool {
        switch self {
        case .never: false
        case .error: severity >= .error
        case .warning: severity >= .warning
        case .note: true
        }
    }
}
