import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

final class InventoryTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-inventory-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func inspect(_ name: String, _ with: String, rules: String = "{}") throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "inspect", "with": \#(with)}], "rules": \#(rules)}"#, file: "t.json",
            catalog: StageTable.all,
            formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path(name), relativePath: name))
    }

    func testFormFieldsWithInheritedTypes() throws {
        let r = try inspect("inventory.pdf", #"{"forms": true}"#)
        XCTAssertEqual(
            r.sections["forms"],
            [
                ["name": "address.street", "type": "text", "flags": [], "value": "Main Street 1", "pages": [1]],
                ["name": "address.city", "type": "text", "flags": ["required"], "value": "Springfield", "pages": [1]],
                ["name": "agree", "type": "checkbox", "flags": [], "value": "Yes", "pages": [1]],
                ["name": "size", "type": "radio", "flags": [], "value": "M", "pages": [1]],
                ["name": "reset", "type": "pushbutton", "flags": [], "value": nil, "pages": [1]],
                ["name": "color", "type": "combo", "flags": ["readOnly"], "value": "green", "pages": [1]],
                ["name": "signature", "type": "signature", "flags": [], "value": nil, "pages": [1]],
            ])
        // forms.present is off unless a pipeline turns it on; JavaScript in a widget is a note.
        XCTAssertEqual(r.findings.map(\.rule), ["pages.mixed-sizes", "annotations.javascript-in-widget"])
        XCTAssertEqual(r.findings[1].message, "form field 'reset' runs JavaScript")
        let on = try inspect("inventory.pdf", #"{"forms": true}"#, rules: #"{"forms.present": "warning"}"#)
        XCTAssertEqual(on.findings.first { $0.rule == "forms.present" }?.message, "the document has 7 form fields")
        XCTAssertEqual(on.findings.first { $0.rule == "forms.present" }?.severity, .warning)
    }

    /// poppler's form API names and types the same fields.
    func testFormFieldsAgreeWithPoppler() throws {
        let r = try inspect("inventory.pdf", #"{"forms": true}"#)
        let ours = (r.sections["forms"]?.arrayValue ?? []).map {
            "\($0["name"]!.stringValue!) \($0["type"]!.stringValue!)"
        }
        let poppler = try PopplerFile(path: Samples.path("inventory.pdf"))
        let theirs = try XCTUnwrap(poppler.page(0)).formFields.map { "\($0.name) \($0.type)" }
        // poppler lists one entry per widget: the radio group 'size' has two.
        XCTAssertEqual(Array(Set(theirs)).sorted(), ours.sorted())
        XCTAssertEqual(try XCTUnwrap(poppler.page(0)).formFields.first { $0.name == "color" }?.readOnly, true)
    }

    func testAttachmentsAndMedia() throws {
        let r = try inspect("inventory.pdf", #"{"attachments": true, "extractAttachments": true}"#)
        XCTAssertEqual(
            r.sections["attachments"],
            [
                [
                    "name": "notes.txt", "origin": "EmbeddedFiles", "description": "Release notes",
                    "mimeType": "text/plain", "size": 18,
                    "md5": "91c3bad2ea101d5ea9b5b7cc5ce8b7f3", "file": "attachments/inventory/notes.txt",
                ],
                [
                    "name": "data.csv", "origin": "FileAttachment", "page": 2, "mimeType": "text/csv", "size": 8,
                    "md5": "e5ebd4c02cefbe7955977c67ada242b7", "file": "attachments/inventory/data.csv",
                ],
            ])
        XCTAssertEqual(
            try String(contentsOfFile: out + "/attachments/inventory/notes.txt", encoding: .utf8), "hello, attachment\n"
        )
        XCTAssertEqual(
            r.sections["media"],
            [
                ["page": 3, "subtype": "Screen", "target": "clip.mp4"],
                ["page": 3, "subtype": "Movie", "target": "old.mov"],
            ])
        // poppler finds the same embedded files (it lists the /EmbeddedFiles tree only).
        let poppler = try PopplerFile(path: Samples.path("inventory.pdf")).attachments
        XCTAssertEqual(poppler.map(\.name), ["notes.txt"])
        XCTAssertEqual(poppler.map(\.size), [18])
    }

    func testAnnotationsAndGeometry() throws {
        let r = try inspect("inventory.pdf", #"{"annotations": "counts", "layoutWidth": 800, "layoutGap": 10}"#)
        XCTAssertEqual(
            r.sections["annotations"],
            [
                "total": 13,
                "counts": ["Widget": 8, "Text": 1, "Square": 1, "FileAttachment": 1, "Screen": 1, "Movie": 1],
            ])
        XCTAssertEqual(
            r.findings.first?.message,
            "the pages come in 2 sizes (612 x 792 pt (2 pages), 595 x 842 pt (1 page)) and 2 rotations (0, 90)")
        // Page 2 is A4 landscape turned upright: 595 x 842 as displayed.
        let pages = try XCTUnwrap(r.sections["info"]?["pages"]?.arrayValue)
        XCTAssertEqual(pages[1]["widthMm"], 209.9)
        XCTAssertEqual(pages[1]["heightMm"], 297)
        // Offsets: 792 * 800 / 612 = 1035.294, + 10; then 842 * 800 / 595 = 1132.101, + 10.
        XCTAssertEqual(
            r.sections["layout"], ["width": 800, "gap": 10, "offsets": [0, 1045.294, 2187.395], "height": 3222.689])
        let list = try inspect("rotated-cropped.pdf", #"{"annotations": "list"}"#)
        XCTAssertEqual(list.sections["annotations"]?["items"]?.arrayValue?.count, 6)
        XCTAssertEqual(list.sections["annotations"]?["items"]?.arrayValue?.first?["rect"], [150, 160, 300, 200])
    }

    func testMD5() throws {
        XCTAssertEqual(Checksum.md5(Array("".utf8)), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(
            Checksum.md5(Array("The quick brown fox jumps over the lazy dog".utf8)), "9e107d9d372bb6826bd81d3542a419d6")
        XCTAssertEqual(Checksum.md5([UInt8](repeating: 0x61, count: 1000)), "cabe45dcc9ae5b66ba86600cca6b8ba8")
        // Streaming, across the 1 MB pieces: the same as md5sum.
        let path = NSTemporaryDirectory() + "pdfpipe-md5-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: path))
        let md5sum = try ExternalTool.run("/usr/bin/md5sum", [path]).output.prefix(32)
        XCTAssertEqual(Checksum.fileMD5(path), String(md5sum))
        XCTAssertNil(Checksum.fileMD5("/dev/zero"), "not a regular file")
    }
}
