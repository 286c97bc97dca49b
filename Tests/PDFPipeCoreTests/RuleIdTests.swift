import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#22, 2) A rule id is a string in the code that reports it, and an unknown id silently counts as
/// an error (`Rules.defaultSeverity`). Until ids are declared as values beside their code, this
/// scan holds every rule-shaped string literal in Sources/ to the rule table: a misspelt id fails
/// here instead of becoming an error with no summary, hint or documentation.
final class RuleIdTests: XCTestCase {
    func testEveryRuleIdInTheSourcesIsDeclared() throws {
        let declared = Set(Rules.all.map(\.id))
        let prefixes = Set(declared.map { String($0.split(separator: ".")[0]) })
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path + "/Sources"
        let pattern = try NSRegularExpression(
            pattern: #""((?:\#(prefixes.sorted().joined(separator: "|")))\.[a-z0-9][a-z0-9.-]*)""#)
        var seen = 0
        var unknown: [String] = []
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            ?? []
        XCTAssertGreaterThan(files.count, 50)
        for file in files where !file.hasPrefix("pdfpipe-samples/") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let r = Range(m.range(at: 1), in: text) else { continue }
                let id = String(text[r])
                if id.hasSuffix(".pdf") || id.hasSuffix(".json") { continue }  // file names, not rules
                if id == "pdf.js" { continue }  // a viewer's name (dest.viewer-dependent names it)
                seen += 1
                if !declared.contains(id) { unknown.append("\(file): \(id)") }
            }
        }
        XCTAssertGreaterThan(seen, 100, "the scan found the rule ids")
        XCTAssertEqual(unknown, [], "rule ids the rule table does not declare")
    }
}
