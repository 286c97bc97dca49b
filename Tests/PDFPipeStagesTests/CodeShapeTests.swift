import Foundation
import TestSupport
import XCTest

/// (#33, 6) Functions fit on a screen: at most five of 80 lines or more, each saying why it is
/// long ("Long on purpose" in its documentation). A function is counted from its `func` or `init`
/// line to its closing brace (braces in string literals and comments left out).
final class CodeShapeTests: XCTestCase {
    func testAtMostFiveLongFunctionsEachJustified() throws {
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path + "/Sources"
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            ?? []
        XCTAssertGreaterThan(files.count, 50)
        var long: [String] = []
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
                guard end - start + 1 >= 80 else { continue }
                let name = "\(file):\(start + 1)"
                long.append(name)
                let doc = lines[max(0, start - 6)..<start].joined(separator: "\n")
                if !doc.contains("Long on purpose") { unjustified.append(name) }
            }
        }
        XCTAssertLessThanOrEqual(long.count, 5, "functions of 80+ lines: \(long)")
        XCTAssertEqual(unjustified, [], "a long function says why in its documentation")
    }
}
