import Foundation
import PDFBridge
import TestSupport
import XCTest

@testable import PDFReader

/// (#65, 1) Incremental updates: objects rewritten after the original bytes, which stay a prefix;
/// qpdf finds the file sound, and pdfpipe's reader and poppler read the new versions.
final class IncrementalUpdateTests: XCTestCase {
    var dir = ""
    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-update-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Every object of every sample the reader accepts, written and parsed again, is itself
    /// (streams aside: an update never rewrites their data).
    func testValuesWrittenReadBackTheSame() throws {
        var checked = 0
        for name in Samples.all {
            guard let reader = try? PDFReader(path: Samples.path(name)) else { continue }
            for n in 1...reader.objectCount {
                let value = reader.resolve(ObjectRef(n, 0))
                if case .stream = value { continue }
                let written = try XCTUnwrap(value.written, "\(name) object \(n)")
                let parsed = try written.withUnsafeBufferPointer { b in
                    var p = PDFParser(b)
                    return try p.object()
                }
                XCTAssertEqual(parsed, value, "\(name) object \(n): \(String(decoding: written, as: UTF8.self))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 200)
        XCTAssertEqual(
            PDFValue.dictionary(["A B": .name("x#(y)/é"), "S": .string([0, 0xFF, 0x28])]).written.map {
                String(decoding: $0, as: UTF8.self)
            }, "<</A#20B /x#23#28y#29#2F#C3#A9 /S <00FF28> >>")
        XCTAssertNil(PDFValue.real(.nan).written)
    }

    /// A link's URI replaced by an update, in a file whose newest cross-reference section is a
    /// table and in one where it is a stream (the same file through qpdf's object streams).
    func testALinkRewrittenByAnUpdate() throws {
        let table = dir + "/table.pdf"
        try FileManager.default.copyItem(atPath: Samples.path("uri-links.pdf"), toPath: table)
        let stream = dir + "/stream.pdf"
        XCTAssertEqual(
            try ExternalTool.run("/usr/bin/qpdf", ["--object-streams=generate", table, stream]).status, 0)
        for (path, isStream) in [(table, false), (stream, true)] {
            let reader = try PDFReader(path: path)
            XCTAssertEqual(reader.newestSection.isStream, isStream, path)
            // The first link annotation whose action is a URI.
            guard let (ref, annotation) = firstURILink(reader) else { return XCTFail("no URI link in \(path)") }
            guard case .dictionary(var d) = annotation, case .dictionary(var action)? = d["A"] else {
                return XCTFail("the URI action is not inline in \(path)")
            }
            action["URI"] = .string(Array("https://example.org/fixed".utf8))
            d["A"] = .dictionary(action)
            let tail = try IncrementalUpdate.tail(for: reader, replacing: [(ref, .dictionary(d))])
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let updated = path + ".fixed.pdf"
            try (original + Data(tail)).write(to: URL(fileURLWithPath: updated))
            let check = try ExternalTool.run("/usr/bin/qpdf", ["--check", updated])
            XCTAssertEqual(check.status, 0, check.output)
            XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: updated)).starts(with: original))
            // pdfpipe's reader and poppler read the new version.
            let again = try PDFReader(path: updated)
            guard case .dictionary(let newAnnotation)? = firstURILink(again)?.1,
                case .dictionary(let newAction)? = newAnnotation["A"]
            else { return XCTFail("no URI link after the update") }
            XCTAssertEqual(newAction["URI"], .string(Array("https://example.org/fixed".utf8)))
            let poppler = try PopplerFile(path: updated)
            let uris = (0..<poppler.pageCount).flatMap { poppler.page($0)?.links.compactMap(\.uri) ?? [] }
            XCTAssertTrue(uris.contains("https://example.org/fixed"), "\(uris)")
            XCTAssertEqual(again.newestSection.isStream, isStream, "an update of the same kind")
        }
    }

    /// A hostile trailer /Size (the largest integer) is refused, not an overflow of the next
    /// object number.
    func testAHostileSizeIsRefused() throws {
        let path = dir + "/size.pdf"
        let body =
            "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
        let xref = body.utf8.count
        let pdf =
            body + "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n"
            + "trailer\n<< /Size 9223372036854775807 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try pdf.write(toFile: path, atomically: true, encoding: .ascii)
        let reader = try PDFReader(path: path)
        XCTAssertThrowsError(
            try IncrementalUpdate.tail(
                for: reader, replacing: [(ObjectRef(1, 0), .dictionary(["Type": .name("Catalog")]))])
        ) { XCTAssertTrue("\($0)".contains("out of range"), "\($0)") }
    }

    func firstURILink(_ reader: PDFReader) -> (ObjectRef, PDFValue)? {
        for page in PageTree.pages(reader) {
            guard case .array(let annots)? = page.dictionary?["Annots"] else { continue }
            for case .ref(let r) in annots {
                let a = reader.resolve(r)
                if case .dictionary(let d) = a, d["Subtype"] == PDFValue.name("Link"),
                    case .dictionary(let action)? = d["A"],
                    action["S"] == PDFValue.name("URI")
                {
                    return (r, a)
                }
            }
        }
        return nil
    }
}
