import PDFPipeCore

// The contributor recipe's report format ("Adding a report format"): `scripts/recipe-check.sh`
// moves it into Sources/PDFPipeCore/Reporters/ and adds it to `Reporters.all`.

/// A `Reporter` is pure: no I/O, no clock.
public struct ToyReporter: Reporter {
    public init() {}
    public var format: String { "toy" }
    public var fileName: String { "toy.txt" }
    public func render(_ report: RunReport) -> String {
        report.results.flatMap { d in d.findings.map { "\(d.path) \($0.rule) \($0.message)\n" } }.joined()
    }
}
