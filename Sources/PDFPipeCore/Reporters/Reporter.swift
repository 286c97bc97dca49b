/// Turns a run report into one file. Reporters are pure: no I/O, no clock, no absolute paths.
public protocol Reporter: Sendable {
    /// The name used in `--format` and `report.formats`.
    var format: String { get }
    /// The file written in the output folder.
    var fileName: String { get }
    func render(_ report: RunReport) -> String
}

/// Every reporter, in one table.
public enum Reporters {
    public static let all: [any Reporter] = [JSONReporter()]

    public static var formats: [String] { all.map(\.format) }

    public static func reporter(for format: String) -> (any Reporter)? { all.first { $0.format == format } }
}

/// `report.json`: the contract CI scripts read.
public struct JSONReporter: Reporter {
    public init() {}
    public var format: String { "json" }
    public var fileName: String { "report.json" }
    public func render(_ report: RunReport) -> String { JSONWriter.pretty(report.json) }
}
