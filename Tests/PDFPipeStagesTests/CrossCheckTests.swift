import PDFBridge
import PDFPipeStages
import PDFReader
import TestSupport
import XCTest

/// Page facts read from the raw objects through qpdf, checked against poppler.
final class CrossCheckTests: XCTestCase {
    func testSizesBoxesAndLabelsAgreeWithPopplerOnEverySample() throws {
        for name in Samples.readable {
            let q = try QPDFFile(path: Samples.path(name))
            let p = try PopplerFile(path: Samples.path(name))
            let count = try q.pageCount()
            let source = QPDFSource(q)
            let pageObjects = PageTree.pages(source)
            XCTAssertEqual(pageObjects.count, count, name)
            let labels = PageLabels.read(root: PDFObject.root(of: source)).map { PageLabels.labels($0, count: count) }
            for i in 0..<count {
                let g = PageGeometry(page: pageObjects[i])
                let page = try XCTUnwrap(p.page(i))
                XCTAssertEqual(page.size.width, g.displaySize.width, accuracy: 0.01, "\(name) page \(i + 1)")
                XCTAssertEqual(page.size.height, g.displaySize.height, accuracy: 0.01, "\(name) page \(i + 1)")
                XCTAssertEqual(page.cropBox, g.visibleBox, "\(name) page \(i + 1)")
                XCTAssertEqual(page.label, labels?[i] ?? String(i + 1), "\(name) page \(i + 1)")
            }
        }
    }

    /// The marker square sits in the lower-left corner of each page's crop box; poppler renders
    /// the page turned by /Rotate, so the corner where it lands tells the rotation qpdf read.
    func testRotationAsRenderedByPopplerMatchesQPDF() throws {
        let q = try QPDFFile(path: Samples.path("rotated-cropped.pdf"))
        let p = try PopplerFile(path: Samples.path("rotated-cropped.pdf"))
        var rotations: [Int] = []
        let pageObjects = PageTree.pages(QPDFSource(q))
        for i in 0..<p.pageCount {
            let g = PageGeometry(page: pageObjects[i])
            rotations.append(g.rotate)
            let image = try XCTUnwrap(p.page(i)).render(scale: 0.25)
            let corners = [
                "bottom-left": image.pixel(x: 2, y: image.height - 3), "top-left": image.pixel(x: 2, y: 2),
                "top-right": image.pixel(x: image.width - 3, y: 2),
                "bottom-right": image.pixel(x: image.width - 3, y: image.height - 3),
            ]
            let dark = corners.filter { $0.value.r < 64 }.map(\.key)
            let expected = [0: "bottom-left", 90: "top-left", 180: "top-right", 270: "bottom-right"][g.rotate]!
            XCTAssertEqual(dark, [expected], "page \(i + 1), /Rotate \(g.rotate)")
        }
        XCTAssertEqual(rotations, [0, 90, 180, 270, 270, 90])
    }
}
