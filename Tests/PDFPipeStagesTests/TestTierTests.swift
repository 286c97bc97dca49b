import Foundation
import TestSupport
import XCTest

/// (#48) The two test tiers of `scripts/test.sh`: the integration tier names its classes in one
/// list, the fast tier is every other class. A name in the list that is no test class would move
/// nothing (a renamed class would fall into the fast tier unseen): each must be one.
final class TestTierTests: XCTestCase {
    func testEveryIntegrationClassExists() throws {
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path
        let script = try String(contentsOfFile: root + "/scripts/test.sh", encoding: .utf8)
        let match = try XCTUnwrap(script.firstMatch(of: /\nintegration='\\\.\(([A-Za-z|]+)\)\/'\n/))
        let listed = match.1.split(separator: "|").map(String.init)
        XCTAssertGreaterThan(listed.count, 5)
        XCTAssertEqual(Set(listed).count, listed.count, "a class named twice")
        var classes: Set<String> = []
        let tests = root + "/Tests"
        for file in FileManager.default.enumerator(atPath: tests)?.compactMap({ $0 as? String }) ?? []
        where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for m in text.matches(of: /final class ([A-Za-z]+): XCTestCase/) { classes.insert(String(m.1)) }
        }
        XCTAssertTrue(classes.contains("TestTierTests"))
        XCTAssertEqual(listed.filter { !classes.contains($0) }, [], "named in scripts/test.sh, not a test class")
    }
}
