import XCTest

@testable import PDFPipeCore

/// (#66) What a rebuild did to the anchors a baseline recorded, on hand-made lists: each way the
/// closest new name is found, and each way it is declined.
final class AnchorDiffTests: XCTestCase {
    func a(_ name: String, _ page: Int?, _ title: String? = nil, top: Double? = nil) -> Anchor {
        Anchor(name: name, page: page, title: title, top: top)
    }

    func diff(_ old: [Anchor], _ new: [Anchor], pages: (Int?, Int?) = (10, 10)) -> [Finding] {
        AnchorDiff.findings(
            old: DocumentAnchors(pages: pages.0, names: old), new: DocumentAnchors(pages: pages.1, names: new))
    }

    func testTheSameAnchorsInAnotherOrderGiveNothing() {
        let names = [
            a("intro", 1, "Introduction", top: 700), a("install", 3, "Installation", top: 650), a("page.1", 1),
        ]
        XCTAssertEqual(diff(names, names.reversed()), [])
        // A page moved (content grew before it) is no finding by itself.
        XCTAssertEqual(
            diff(names, [a("intro", 1, "Introduction"), a("install", 4, "Installation"), a("page.1", 1)]), [])
    }

    func testARenameIsFoundByItsTitleItsPlaceOrItsSpellingOnItsPage() throws {
        let old = [
            a("intro", 1, "Introduction", top: 700), a("sec:dl", 3, "Download", top: 600),
            a("fig:arch", 5, top: 420), a("tab:flags", 7, top: 300), a("gone", 8, "Appendix", top: 700),
            a("eq:one", 9, top: 100), a("usage", 4, "Usage", top: 700),
        ]
        // A chapter of 2 pages inserted after page 2: everything after it moved by 2.
        let new = [
            a("intro", 1, "Introduction", top: 700), a("new-chapter", 3, "Upgrading", top: 700),
            a("sec:download", 5, "Download", top: 600), a("fig:architecture", 7, top: 420.5),
            a("tab:cli-flags", 9, top: 250), a("tab:other", 9, top: 100), a("eq:uno", 3, top: 100),
            a("usage", 6, "Usage", top: 700),
        ]
        let fs = diff(old, new, pages: (9, 11))
        let removed = Dictionary(
            uniqueKeysWithValues: fs.filter { $0.rule == "dest.removed" }.map {
                ($0.details["anchor"]!.stringValue!, $0)
            })
        XCTAssertEqual(Set(removed.keys), ["sec:dl", "fig:arch", "tab:flags", "gone", "eq:one"])
        func closest(_ n: String) -> (String?, String?) {
            (removed[n]?.details["closest"]?["name"]?.stringValue, removed[n]?.details["closest"]?["why"]?.stringValue)
        }
        XCTAssertEqual(closest("sec:dl").0, "sec:download")
        XCTAssertEqual(closest("sec:dl").1, "same title")
        XCTAssertEqual(closest("fig:arch").0, "fig:architecture")
        XCTAssertEqual(closest("fig:arch").1, "same place")
        XCTAssertEqual(closest("tab:flags").0, "tab:cli-flags")
        XCTAssertEqual(closest("tab:flags").1, "similar name on the same page")
        // Nothing with its title, place or page: declined, not guessed ('eq:uno' is spelt close
        // but on another page; 'new-chapter' has another title).
        XCTAssertNil(closest("gone").0)
        XCTAssertNil(closest("eq:one").0)
        XCTAssertTrue(removed["gone"]!.message.contains("no new one takes its place"))
        XCTAssertEqual(removed["sec:dl"]!.details["baselinePage"], .int(3))
        XCTAssertNil(removed["sec:dl"]!.page, "a removed anchor has no page in the document")

        let count = try XCTUnwrap(fs.first { $0.rule == "dest.page-count-changed" })
        XCTAssertEqual(count.details["movedFrom"], .int(4))
        XCTAssertEqual(count.details["movedBy"], .int(2))
        XCTAssertTrue(count.message.contains("11 pages, 9 in the baseline"), count.message)
        XCTAssertEqual(count.severity, .note)
    }

    func testTwoCandidatesAreNoAnswer() {
        let old = [a("sec:a", 2, "Notes", top: 500)]
        let new = [a("x", 2, "Notes", top: 400), a("y", 2, "Notes", top: 300)]
        XCTAssertNil(diff(old, new).first?.details["closest"])
    }

    func testACounterNameThatNowOpensAnotherSectionIsChanged() throws {
        let old = [a("chapter.3", 5, "Configuration"), a("chapter.4", 8, "Usage")]
        let new = [a("chapter.3", 5, "Upgrading"), a("chapter.4", 7, "Configuration"), a("chapter.5", 10, "Usage")]
        let fs = diff(old, new)
        XCTAssertEqual(fs.map(\.rule), ["dest.changed", "dest.changed"])
        XCTAssertEqual(fs[0].details["anchor"], .string("chapter.3"))
        XCTAssertEqual(fs[0].details["closest"]?["name"], .string("chapter.4"))
        XCTAssertTrue(fs[0].message.contains("now opens 'Upgrading', not 'Configuration'"), fs[0].message)
        XCTAssertEqual(fs[0].page, 5)
    }

    /// Names of a hostile length are not compared by spelling (the distance would cost the
    /// product of their lengths): the removal is still said, without a guessed closest name.
    func testHugeNamesAreNotSpelledOut() {
        let long = String(repeating: "a", count: 200_000)
        let fs = diff([a(long + "x", 3, top: 100)], [a(long + "y", 3, top: 500)])
        XCTAssertEqual(fs.map(\.rule), ["dest.removed"])
        XCTAssertNil(fs[0].details["closest"])
    }

    func testManyRemovedAnchorsAreCountedPastTheLimit() {
        let old = (0..<(AnchorDiff.findingLimit + 5)).map { a("n\($0)", 1) }
        let fs = diff(old, [])
        XCTAssertEqual(fs.count, AnchorDiff.findingLimit + 1)
        XCTAssertEqual(fs.last?.details["count"], .int(5))
    }

    /// A baseline's anchors turn into findings per document, at the pipeline's level, with
    /// fingerprints of their own; a document without its list is counted as not compared.
    func testThePolicyComparesAtThePipelinesLevel() {
        let baseline = Baseline(
            documents: [:],
            anchors: [
                "a.pdf": DocumentAnchors(pages: 2, names: [a("x", 1), a("y", 2)]),
                "b.pdf": DocumentAnchors(pages: 1, names: [a("z", 1)]),
            ])
        var policy = ResultPolicy(suppressions: [], baseline: baseline, today: "2026-12-06")
        policy.levels = ["dest.removed": .severity(.error)]
        var d = DocumentResult(
            path: "a.pdf", pageCount: 2,
            sections: ["destinations": ["names": [["name": "x", "page": 1]]]])
        policy.apply(&d)
        XCTAssertEqual(d.findings.map(\.rule), ["dest.removed"])
        XCTAssertEqual(d.findings[0].severity, .error)
        XCTAssertEqual(d.findings[0].baseline, .new)
        // Applied again (a merge with --baseline): compared afresh, not twice.
        policy.apply(&d)
        XCTAssertEqual(d.findings.count, 1)
        var other = DocumentResult(path: "a.pdf", pageCount: 2)
        other.findings = [d.findings[0]]
        other.findings[0].details["anchor"] = .string("y2")
        other.findings[0].fingerprint = nil
        other.assignFingerprints()
        XCTAssertNotEqual(other.findings[0].fingerprint, d.findings[0].fingerprint)

        var b = DocumentResult(path: "b.pdf", pageCount: 1)
        policy.apply(&b)
        XCTAssertEqual(b.findings, [])
        XCTAssertEqual(policy.anchorFindings.map(\.rule), ["dest.anchors-not-compared"])
        XCTAssertTrue(policy.anchorFindings[0].message.contains("1 document this run did not list (b.pdf)"))
    }
}
