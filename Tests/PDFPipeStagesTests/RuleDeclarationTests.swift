import Foundation
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// (#33, 1) Rules are declared once, as values beside the code that reports them, and each stage
/// lists its own: a finding is made from a `Rule` value, so a misspelt id does not compile, and a
/// stage that reports a rule its descriptor does not list trips `Job.report`'s assertion in every
/// test that reaches it. What is left to check here: no id is spelt as a string where findings
/// are made, ids are unique and well formed, and the run's catalog is Core's plus its stages'.
final class RuleDeclarationTests: XCTestCase {
    func testNoRuleIdIsSpeltOutsideItsDeclaration() throws {
        let ids = StageTable.rules.ids
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path + "/Sources"
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            ?? []
        XCTAssertGreaterThan(files.count, 50)
        var declarations = 0
        var spelt: [String] = []
        for file in files where !file.hasPrefix("pdfpipe-samples/") {
            let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (n, line) in lines.enumerated() {
                for id in ids where line.contains("\"\(id)\"") {
                    // The one place an id is written: the first argument of its `Rule(`.
                    if n > 0, lines[n - 1].hasSuffix("= Rule("), line.drop(while: { $0 == " " }).hasPrefix("\"\(id)\"")
                    {
                        declarations += 1
                    } else {
                        spelt.append("\(file):\(n + 1): \(id)")
                    }
                }
            }
        }
        XCTAssertEqual(declarations, ids.count, "each rule declared once")
        XCTAssertEqual(spelt, [], "rule ids spelt as strings outside their declaration: use the Rule value")
    }

    func testIdsAreUniqueWellFormedAndDocumented() {
        let all = StageTable.rules.all
        XCTAssertGreaterThan(all.count, 70)
        XCTAssertEqual(Set(all.map(\.id)).count, all.count)
        for r in all {
            XCTAssertNotNil(r.id.wholeMatch(of: /[a-z]+\.[a-z]+(-[a-z0-9]+)*/), r.id)
            XCTAssertFalse(r.summary.isEmpty, r.id)
            if r.severity == .error, !r.failsIn.isEmpty {
                XCTAssertFalse(r.details.isEmpty, r.id)
            }
        }
        // An error about what a reader sees names the viewers that fail on it.
        for id in ["dest.name-not-found", "uri.malformed", "gotor.file-missing", "pdf.unreadable"] {
            XCTAssertEqual(StageTable.rules.rule(id)?.failsIn, Viewer.mainstream, id)
        }
    }

    func testTheCatalogIsCoresRulesAndEveryStagesOwn() {
        let catalog = StageTable.rules
        XCTAssertEqual(Array(catalog.all.prefix(CoreRules.document.count)), CoreRules.document)
        XCTAssertEqual(Array(catalog.all.suffix(CoreRules.process.count)), CoreRules.process)
        for d in StageTable.all {
            for r in d.rules { XCTAssertNotNil(catalog.rule(r.id), "\(d.id): \(r.id)") }
        }
        // A stage that declares no rule of its own reports Core's only; a rule shared by two stages
        // (resolve-destinations' and validate-links' destinations) is listed once.
        let shared = Rule.destNameNotFound
        XCTAssertEqual(catalog.all.filter { $0 == shared }.count, 1)
        XCTAssertEqual(RuleCatalog(stages: []).all, CoreRules.document + CoreRules.process)
    }
}
