import PDFBridge
import PDFPipeStages
import PDFPipeWeb
import PDFReader
import TestSupport
import XCTest

final class GeometryTests: XCTestCase {
    /// Each page of rotated-cropped.pdf strokes its link rectangle in blue. Mapped with LinkGeometry
    /// onto poppler's rendering, the middle of every edge of the mapped rectangle must be blue.
    func testLinkRectanglesLandOnTheirStrokesInRenderedPages() throws {
        let q = try QPDFFile(path: Samples.path("rotated-cropped.pdf"))
        let p = try PopplerFile(path: Samples.path("rotated-cropped.pdf"))
        let scale = 2.0
        let pageObjects = PageTree.pages(QPDFSource(q))
        for i in 0..<p.pageCount {
            let g = PageGeometry(page: pageObjects[i])
            let rect = try XCTUnwrap(q.page(i)["Annots"]?[0]["Rect"]?.rectangle)
            let r = LinkGeometry.pixelRect(rect, on: g, scale: scale)
            let image = try XCTUnwrap(p.page(i)).render(scale: scale)
            func blueNear(_ x: Double, _ y: Double) -> Bool {
                for dx in -1...1 {
                    for dy in -1...1 {
                        let px = Int(x.rounded()) + dx
                        let py = Int(y.rounded()) + dy
                        guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
                        let c = image.pixel(x: px, y: py)
                        if Int(c.b) - Int(c.r) > 60 { return true }
                    }
                }
                return false
            }
            let edges = [
                ("left", r.x, r.y + r.height / 2), ("right", r.x + r.width, r.y + r.height / 2),
                ("top", r.x + r.width / 2, r.y), ("bottom", r.x + r.width / 2, r.y + r.height),
            ]
            for (edge, x, y) in edges {
                XCTAssertTrue(
                    blueNear(x, y), "page \(i + 1) (/Rotate \(g.rotate)): no stroke at the \(edge) edge of \(r)")
            }
            // And nothing blue in the middle of the rectangle (the mapping is not merely near a stroke).
            XCTAssertFalse(blueNear(r.x + r.width / 2, r.y + r.height / 2 - 4), "page \(i + 1)")
        }
    }

    func testEveryRotation() {
        var g = PageGeometry(page: nil as PDFObject?)
        g.mediaBox = PDFRect(0, 0, 200, 100)
        g.cropBox = PDFRect(10, 20, 200, 100)  // 190 x 80 visible
        let rect = PDFRect(20, 30, 60, 40)  // 40 x 10, 10 right of and 10 above the crop origin
        let expected: [Int: PixelRect] = [
            0: PixelRect(x: 10, y: 60, width: 40, height: 10),
            90: PixelRect(x: 10, y: 10, width: 10, height: 40),
            180: PixelRect(x: 140, y: 10, width: 40, height: 10),
            270: PixelRect(x: 60, y: 140, width: 10, height: 40),
        ]
        for (rotate, want) in expected {
            g.rotate = rotate
            XCTAssertEqual(LinkGeometry.pixelRect(rect, on: g, scale: 1), want, "rotate \(rotate)")
        }
        g.rotate = 0
        XCTAssertEqual(LinkGeometry.pixelRect(rect, on: g, scale: 0.5), PixelRect(x: 5, y: 30, width: 20, height: 5))
    }
}

final class URITests: XCTestCase {
    /// RFC 3986 §5.4.1 and §5.4.2 examples.
    func testResolutionExamplesOfRFC3986() {
        let base = "http://a/b/c/d;p?q"
        let cases: [(String, String)] = [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
        ]
        for (reference, want) in cases {
            XCTAssertEqual(URIReference.resolve(reference, against: base), want, reference)
        }
    }

    func testSyntaxProblems() {
        let good = [
            "https://example.com/", "http://[::1]:8080/x", "mailto:a@b.c", "ftp://x.org/%20y", "guide/intro.html",
            "urn:isbn:0451450523", "https://a.b/c?d=e&f=g#h",
        ]
        for u in good { XCTAssertNil(URIReference.problem(in: u), u) }
        let bad: [(String, String)] = [
            ("", "the URI is empty"), ("http://exa mple.com/", "space at position 11 (write %20)"),
            ("ht!tp://example.com/", "invalid scheme 'ht!tp'"),
            ("http:/example.com", "an http URI needs '//' and a host"),
            ("https://", "the URI has no host"), ("http://x.org:80a/", "invalid port '80a'"),
            ("http://x.org/%zz", "'%' at position 14 is not followed by two hex digits"),
            ("http://x.org/é", "non-ASCII character 'é' at position 14 (percent-encode it as UTF-8)"),
            ("http://x.org/a\"b", "character '\"' at position 15 is not allowed (percent-encode it)"),
            ("mailto:", "the mailto URI has no address"),
            ("http://ex_ample{.com", "character '{' at position 16 is not allowed (percent-encode it)"),
        ]
        for (u, want) in bad { XCTAssertEqual(URIReference.problem(in: u), want, u) }
    }

    func testTextDecoding() {
        XCTAssertEqual(PDFTextDecoding.decode([0xFE, 0xFF, 0x00, 0xFC, 0x00, 0x62]), "üb")
        XCTAssertEqual(PDFTextDecoding.decode(Array("caf".utf8) + [0xE9]), "café")
        XCTAssertEqual(PDFTextDecoding.decode([0x8D, 0x8E, 0x80, 0x93]), "“”•ﬁ")
        XCTAssertEqual(PDFTextDecoding.decode([0xEF, 0xBB, 0xBF, 0xC3, 0xA9]), "é")
    }
}
