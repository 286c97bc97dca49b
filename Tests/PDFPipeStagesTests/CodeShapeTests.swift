import Foundation
import TestSupport
import XCTest

/// (#33, 6) Functions fit on a screen: at most five of 80 lines or more, each saying why it is
/// long ("Long on purpose" in its documentation). (#48) Functions of 50 lines or more are counted
/// too, and the count only goes down: lower `fiftyLineLimit` when a change takes one below 50. A function is counted from its `func` or `init`
/// line to its closing brace (braces in string literals and comments left out).
final class CodeShapeTests: XCTestCase {
    /// Functions of 50+ lines now (62 before #48); `python3 scripts/shape.py --list` says where.
    static let fiftyLineLimit = 38

    func testAtMostFiveLongFunctionsEachJustified() throws {
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path + "/Sources"
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            ?? []
        XCTAssertGreaterThan(files.count, 50)
        var long: [String] = []
        var fifty: [String] = []
        var unjustified: [String] = []
        let declaration =
            /^\s*(?:@[A-Za-z]+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|mutating|override|final|nonisolated)\s+)*(?:func\s|init[?(<])/
        for file in files.sorted() {
            let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (start, line) in lines.enumerated() where line.firstMatch(of: declaration) != nil {
                var depth = 0
                var opened = false
                var end = start
                scan: while end < lines.count {
                    let code = lines[end].replacing(/"(?:\\.|[^"\\])*"/, with: "\"\"")
                    for c in code.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" {
                        if c == "{" {
                            depth += 1
                            opened = true
                        } else if c == "}" {
                            depth -= 1
                        }
                        if opened && depth == 0 { break scan }
                    }
                    end += 1
                }
                let name = "\(file):\(start + 1)"
                if end - start + 1 >= 50 { fifty.append(name) }
                guard end - start + 1 >= 80 else { continue }
                long.append(name)
                let doc = lines[max(0, start - 6)..<start].joined(separator: "\n")
                if !doc.contains("Long on purpose") { unjustified.append(name) }
            }
        }
        XCTAssertLessThanOrEqual(long.count, 5, "functions of 80+ lines: \(long)")
        XCTAssertEqual(unjustified, [], "a long function says why in its documentation")
        XCTAssertLessThanOrEqual(
            fifty.count, Self.fiftyLineLimit,
            "functions of 50+ lines: \(fifty.count), more than \(Self.fiftyLineLimit); split the new one: \(fifty)")
    }
}
