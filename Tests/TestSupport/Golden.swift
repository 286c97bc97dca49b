import Foundation
import XCTest

/// Golden files: `text` is compared with the committed file (re-recorded with RECORD_SNAPSHOTS=1),
/// and a mismatch says where (#33, 7): the first line that differs, with the two versions around
/// the first character that differs, and how many lines differ in all.
public enum Golden {
    public static func check(
        _ text: String, against path: String, name: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        guard text != golden else { return }
        XCTFail(
            "\(name) differs from its golden file (re-record with RECORD_SNAPSHOTS=1 and review the diff):\n"
                + diff(expected: golden, actual: text), file: file, line: line)
    }

    /// Where two texts part: the first differing line (numbered from 1), ±60 characters of each
    /// around the first differing character, and how many lines differ.
    public static func diff(expected: String, actual: String) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var differing = 0
        var first: Int?
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            differing += 1
            if first == nil { first = i }
        }
        guard let i = first else { return "(the texts are equal)" }
        let x = i < a.count ? Array(a[i]) : []
        let y = i < b.count ? Array(b[i]) : []
        var c = 0
        while c < min(x.count, y.count), x[c] == y[c] { c += 1 }
        func around(_ s: [Character]) -> String {
            let lo = max(0, c - 60)
            let hi = min(s.count, c + 60)
            return (lo > 0 ? "…" : "") + String(s[lo..<hi]) + (hi < s.count ? "…" : "")
        }
        return
            "line \(i + 1), column \(c + 1) (\(differing) \(differing == 1 ? "line differs" : "lines differ"); golden \(a.count) lines, now \(b.count)):\n"
            + "  golden: \(i < a.count ? around(x) : "(no such line)")\n"
            + "  now:    \(i < b.count ? around(y) : "(no such line)")"
    }
}
