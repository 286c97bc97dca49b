/// Numbers that came from a PDF, made safe to print and to convert.
///
/// Every number in a PDF is hostile until checked: a `/Rect` of `1e19`, a `/MediaBox` of 400 digits
/// or a coordinate that arithmetic turned into infinity or NaN must never trap the process (a Swift
/// trap ends the whole batch). Conversions to `Int` go through `int(_:)`, and messages print
/// numbers with `text(_:)` — the one formatter of the project for numbers from documents.
package enum PDFNumber {
    /// Integers up to this magnitude convert exactly (2^53: every integer a Double holds exactly).
    package static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// `v` rounded by `rule`, or nil when it is not finite or too large to be an `Int` exactly.
    package static func int(_ v: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrEven) -> Int? {
        let r = v.rounded(rule)
        guard r.isFinite, abs(r) <= exactIntegerLimit else { return nil }
        return Int(r)
    }

    /// For messages: integral values without a fraction (`612`), others as Swift prints them
    /// (`0.5`, `1e+19`), `NaN` and `inf` as such. Never traps.
    package static func text(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v < 0 ? "-inf" : "inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }

    /// `a + b`, or nil when it overflows (offsets and sizes read from a file).
    @inlinable package static func add(_ a: Int, _ b: Int) -> Int? {
        let (s, o) = a.addingReportingOverflow(b)
        return o ? nil : s
    }
}
