import Foundation
import TestSupport
import XCTest

/// (#48) The public API of the library products does not grow (or shrink) by accident: every
/// `public` declaration of PDFPipeCore, PDFPipeStages and PDFPipeWeb, as `scripts/shape.py --api` lists it (by
/// module and enclosing type, so moving code between files changes nothing), is in
/// docs/api-surface.txt. A change to the list is a change to the API (docs/api.md says what that
/// means); regenerate it with `python3 scripts/shape.py --api > docs/api-surface.txt` and let the
/// review see the diff.
final class PublicAPITests: XCTestCase {
    func testThePublicSurfaceIsTheCommittedOne() throws {
        let root = URL(fileURLWithPath: Samples.folder).deletingLastPathComponent().path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw Prerequisite.missing("python3 (scripts/setup.sh --test)")
        }
        let (status, listed) = try ExternalTool.run(
            "/usr/bin/python3", [root + "/scripts/shape.py", "--api"], mergingErrors: false)
        XCTAssertEqual(status, 0)
        let committed = try String(contentsOfFile: root + "/docs/api-surface.txt", encoding: .utf8)
        let now = Set(listed.split(separator: "\n").map(String.init))
        let then = Set(committed.split(separator: "\n").map(String.init))
        XCTAssertGreaterThan(now.count, 100, "the scanner found the declarations")
        XCTAssertEqual(
            now.subtracting(then).sorted(), [],
            "public now, not in docs/api-surface.txt: make it `package` (docs/api.md), or regenerate the list")
        XCTAssertEqual(
            then.subtracting(now).sorted(), [],
            "in docs/api-surface.txt, no longer public: a removal from the API (docs/api.md); regenerate the list")
    }
}
