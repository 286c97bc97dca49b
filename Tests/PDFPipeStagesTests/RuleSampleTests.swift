import Foundation
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// (#48) Each rule that names a sample (`Rule.sample`) fires there, and not on a clean file: the
/// stages the sample names, else the stages that declare the rule (`inspect` for Core's) with the
/// sample's options, offline, the rule turned on when it is off by default, over the committed
/// sample (samples/ or Tests/Fixtures/rules/). One case per rule, each failure naming its rule;
/// `scripts/shape.py` counts the rules with no sample yet. The web rules' samples need the fixture
/// web server: `ExternalLinkTests.testEveryWebRuleFiresOnItsSample` runs them.
final class RuleSampleTests: XCTestCase {
    /// A sample every stage reads without a finding of a rule that has a sample.
    static let clean = "links-internal.pdf"

    func testEveryRuleFiresOnItsSampleAndNotOnACleanFile() throws {
        let samples = Samples.folder
        let root = (samples as NSString).deletingLastPathComponent
        let sampled = StageTable.rules.all.filter { $0.sample.map { !$0.webServer } ?? false }
        XCTAssertGreaterThanOrEqual(sampled.count, 70)
        let out = NSTemporaryDirectory() + "/pdfpipe-rule-samples-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: out) }
        for rule in sampled {
            let sample = try XCTUnwrap(rule.sample?.file)
            XCTAssertTrue(
                sample.hasPrefix("samples/") || sample.hasPrefix("Tests/Fixtures/"),
                "\(rule.id): a sample is a committed file of samples/ or Tests/Fixtures/")
            let file = root + "/" + sample
            XCTAssertTrue(FileManager.default.fileExists(atPath: file), "\(rule.id): \(sample) does not exist")
            // The stages that declare it, in the table's order (resolve-destinations before
            // validate-links); the last one gets the sample's options.
            let ids = StageTable.all.filter { $0.rules.contains(rule) }.map(\.id)
            let stages = (ids.isEmpty ? ["inspect"] : ids).enumerated().map { i, id in
                let with = i == max(0, ids.count - 1) ? rule.sample?.options.map { #", "with": \#($0)"# } ?? "" : ""
                return #"{"use": "\#(id)"\#(with)}"#
            }
            let stage = rule.sample?.stages ?? "[" + stages.joined(separator: ", ") + "]"
            let on = rule.offByDefault ? #", "rules": {"\#(rule.id)": "warning"}"# : ""
            var pipeline = try Pipeline.parse(
                #"{"stages": \#(stage)\#(on)}"#, file: "p.json", catalog: StageTable.all,
                formats: ["json"], environment: .offline)
            pipeline.offline = true
            let runner = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: samples, jobs: 1)
            defer { _ = runner.finish() }
            func fired(_ path: String) -> Bool {
                let result = runner.process(
                    InputDocument(path: path, relativePath: (path as NSString).lastPathComponent))
                return (result.findings + result.suppressed).contains { $0.rule == rule.id }
            }
            XCTAssertTrue(fired(file), "\(rule.id): not reported on its sample \(sample) by '\(stage)'")
            XCTAssertFalse(
                fired(samples + "/" + Self.clean), "\(rule.id): reported on the clean file \(Self.clean)")
        }
    }
}
