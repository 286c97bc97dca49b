import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

final class HTMLAnchorsTests: XCTestCase {
    func testAnchorsOfAPage() {
        let html = """
            <!DOCTYPE html><HTML><body>
            <H2 ID="Upper">x</H2><section id = spaced >y</section><A NAME='old-style'>z</A>
            <p title="id=&quot;fake&quot;" data-id="no">a &amp; b</p>
            <span id="a&amp;b"></span><span id="&#x43;af&#233;"></span><span id=""></span>
            <script>var s = '<div id="in-script">';</script><style>#x { content: "<p id='in-style'>" }</style>
            <!-- <div id="in-comment"> --><input name="not-an-a"><div id=last>
            """
        XCTAssertEqual(HTMLAnchors.parse(Array(html.utf8)), ["Upper", "spaced", "old-style", "a&b", "Café", "last"])
    }

    func testWhatAFragmentIndicates() {
        let anchors = ["intro", "Café", "a b"]
        XCTAssertTrue(HTMLAnchors.indicates("intro", in: anchors))
        XCTAssertFalse(HTMLAnchors.indicates("Intro", in: anchors), "ids are case-sensitive")
        XCTAssertTrue(HTMLAnchors.indicates("Caf%C3%A9", in: anchors))
        XCTAssertTrue(HTMLAnchors.indicates("a%20b", in: anchors))
        XCTAssertTrue(HTMLAnchors.indicates("Top", in: anchors), "#top is the top of any page")
        XCTAssertTrue(HTMLAnchors.indicates(":~:text=whatever", in: anchors), "text fragments name no element")
        XCTAssertFalse(HTMLAnchors.indicates("outro", in: anchors))
        XCTAssertTrue(HTMLAnchors.isHTML("text/html; charset=utf-8"))
        XCTAssertTrue(HTMLAnchors.isHTML("application/xhtml+xml"))
        XCTAssertFalse(HTMLAnchors.isHTML("application/pdf"))
        XCTAssertFalse(HTMLAnchors.isHTML(nil))
    }
}
