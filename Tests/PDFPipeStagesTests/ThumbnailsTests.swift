import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

@testable import PDFPipeStages

final class ThumbnailsTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-thumbs-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func run(_ name: String, _ stages: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path(name), relativePath: name))
    }

    /// The trust issue (#60), 5: render budgets were per page only, so a 3 KB file of 100 pages,
    /// each just under maxPixels, took 6–7 minutes. The document's own budgets: its pixels (the
    /// pages past it, in page order whatever the workers, are not rendered) and its time.
    func testADocumentHasARenderBudgetOfItsOwn() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let pages = 100
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\(3 + $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
        ]
        for _ in 0..<pages { objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>") }
        let file = out + "/budget.pdf"
        try TestPDF.write(file, objects: objects)
        func run(_ with: String) throws -> DocumentResult {
            let pipeline = try Pipeline.parse(
                #"{"stages": [{"use": "thumbnails", "with": {"pages": "all", "width": 300, "incremental": false, \#(with)}}]}"#,
                file: "t.json", catalog: StageTable.all, formats: ["json"])
            return Runner(pipeline: pipeline, outputDirectory: out + "/o", inputRoot: out, jobs: 1).process(
                InputDocument(path: file, relativePath: "budget.pdf"))
        }
        // 300 x 300 = 90,000 pixels a page: 11 pages fit in 1,000,000.
        var said: [String] = []
        for workers in [1, 3] {
            let r = try run(#""documentPixels": 1000000, "pageWorkers": \#(workers)"#)
            let budget = r.findings.filter { $0.rule == "pdf.limit-exceeded" }
            XCTAssertEqual(budget.map { $0.details["budget"]?.stringValue }, ["thumbnails.documentPixels"])
            said += budget.map(\.message)
            XCTAssertEqual(
                r.artifacts.filter { $0.kind == "thumbnail" }.map(\.page), Array(1...11).map { Optional($0) })
        }
        XCTAssertEqual(
            said.first,
            "89 pages not rendered (12-100): the document's thumbnails would have more than 1000000 pixels in all (documentPixels)"
        )
        XCTAssertEqual(said.first, said.last, "the same pages whatever the workers")
        // Time: a budget already spent renders nothing more and says so.
        let late = try run(#""documentSeconds": 0.001"#)
        let timed = late.findings.filter { $0.details["budget"]?.stringValue == "thumbnails.documentSeconds" }
        XCTAssertEqual(timed.count, 1)
        XCTAssertTrue(timed.first?.message.contains("took more than 0.001 s in all (documentSeconds)") == true)
        XCTAssertLessThan(late.artifacts.filter { $0.kind == "thumbnail" }.count, pages)
        // Without the budgets every page is rendered.
        let all = try run(#""documentPixels": 0, "documentSeconds": 0"#)
        XCTAssertEqual(all.artifacts.filter { $0.kind == "thumbnail" }.count, pages)
        XCTAssertFalse(all.findings.contains { $0.rule == "pdf.limit-exceeded" })
    }

    /// (#34, 4) Regression: `width: 200` gave 115×48 for a small page because upscale was off. The
    /// box asked for is the size given (as every peer's -scale-to); `upscale: false` keeps the old way.
    func testThumbnailsFitTheBoxAskedFor() throws {
        func width(_ with: String) throws -> Int {
            let r = try run("links-internal.pdf", #"[{"use": "thumbnails", "with": \#(with)}]"#)
            let png = try Data(contentsOf: URL(fileURLWithPath: out + "/" + (r.artifacts.first?.path ?? "")))
            // The PNG header's IHDR: width as a big-endian 32-bit number at byte 16.
            return png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : -1
        }
        XCTAssertEqual(try width(#"{"width": 2000, "incremental": false}"#), 2000)
        XCTAssertLessThan(try width(#"{"width": 2000, "upscale": false, "incremental": false}"#), 2000)
    }

    /// (#34, 3) Regression: at a fixed dpi the poppler engine ignored the page's /UserUnit (MuPDF
    /// and `mutool draw -r 72` give 500 × 250 for a 200 × 100 page with /UserUnit 2.5; poppler and
    /// pdfpipe gave 200 × 100). The page's size is its units times /UserUnit, in either engine.
    func testUserUnitSizesThePage() throws {
        try FileManager.default.createDirectory(atPath: out + "/uu", withIntermediateDirectories: true)
        try TestPDF.write(
            out + "/uu/u.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /UserUnit 2.5 >>",
            ])
        func size(_ with: String) throws -> [Int] {
            let pipeline = try Pipeline.parse(
                #"{"stages": [{"use": "thumbnails", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
                formats: ["json"])
            let r = Runner(pipeline: pipeline, outputDirectory: out + "/o", inputRoot: out + "/uu", jobs: 1).process(
                InputDocument(path: out + "/uu/u.pdf", relativePath: "u.pdf"))
            let png = try Data(contentsOf: URL(fileURLWithPath: out + "/o/" + (r.artifacts.first?.path ?? "")))
            return [16, 20].map { o in png[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        }
        XCTAssertEqual(try size(#"{"dpi": 72, "incremental": false}"#), [500, 250])
        XCTAssertEqual(try size(#"{"dpi": 144, "incremental": false}"#), [1000, 500])
        XCTAssertEqual(try size(#"{"width": 400, "upscale": false, "incremental": false}"#), [400, 200])
        XCTAssertEqual(try size(#"{"width": 100, "incremental": false}"#), [100, 50])
    }

    /// (#34, 5) Regression: a JPX image poppler cannot decode (the page drawn without it) was only a
    /// note. A page drawn with parts missing is a warning with its page, and an up-to-date skip
    /// says it again.
    func testAPageDrawnWithPartsMissingIsAWarningOnThatPage() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        let garbage = String(repeating: "jP  garbage-not-a-codestream ", count: 4)
        let content = "q 100 0 0 100 50 50 cm /Im1 Do Q"
        try TestPDF.write(
            out + "/in/jpx.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
                "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
                "<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /JPXDecode /Length \(garbage.utf8.count) >>\nstream\n\(garbage)\nendstream",
            ])
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "thumbnails", "with": {"width": 100}}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        for pass in ["render", "up-to-date skip"] {
            let r = Runner(pipeline: pipeline, outputDirectory: out + "/out", inputRoot: out + "/in", jobs: 1).process(
                InputDocument(path: out + "/in/jpx.pdf", relativePath: "jpx.pdf"))
            let incomplete = r.findings.filter { $0.rule == "page.render-incomplete" }
            XCTAssertEqual(incomplete.map(\.page), [1], "\(pass): \(r.findings.map(\.message))")
            XCTAssertEqual(incomplete.first?.severity, .warning)
            XCTAssertTrue(
                incomplete.first?.message.hasPrefix(
                    "the page was drawn with parts missing: poppler could not decode an image or a stream (poppler: ")
                    ?? false)
            XCTAssertEqual(r.findings.filter { $0.rule == "pdf.parse-message" }, [], "said once, as the warning")
            XCTAssertEqual(r.artifacts.count, 1, "the page is still drawn")
        }
    }

    /// (#34, 6) Regression: with the MuPDF engine, parse notes said "the message comes from
    /// poppler". Each note's hint names the library that said it.
    func testParseNotesNameTheirLibrary() {
        var job = Job(
            source: Samples.path("actions.pdf"), relativePath: "actions.pdf", outputDirectory: out,
            inputRoot: Samples.folder)
        job.reportPopplerMessages(["Syntax warning: something odd"], library: "MuPDF")
        job.reportPopplerMessages(["Syntax warning: something else"])
        XCTAssertEqual(
            job.findings.map { "\($0.message) | \($0.hint ?? "")" },
            [
                "MuPDF: Syntax warning: something odd | the message comes from MuPDF; it often points at damaged or unusual structure",
                "poppler: Syntax warning: something else | the message comes from poppler; it often points at damaged or unusual structure",
            ])
    }

    /// (#32, 4) Regression: poppler's parse notes repeated the link findings ("Illegal annotation
    /// destination" beside dest.malformed). Once validate-links has checked the document they are
    /// left out; without it they are the only word on those links, and stay.
    func testPopplersLinkNotesAreLeftToTheLinkCheck() throws {
        func notes(_ stages: String) throws -> [String] {
            try run("broken-links.pdf", stages).findings.filter { $0.rule == "pdf.parse-message" }.map(\.message)
        }
        let alone = try notes(#"[{"use": "thumbnails"}]"#)
        XCTAssertTrue(alone.contains { $0.contains("annotation destination") }, "\(alone)")
        let checked = try notes(#"[{"use": "validate-links"}, {"use": "thumbnails"}]"#)
        XCTAssertEqual(checked.filter { $0.lowercased().contains("destination") }, [], "\(checked)")
    }

    /// Pages shared out among three workers (PageWorkers hands them out as they finish) give the
    /// files and the report one worker gives.
    func testParallelPagesGiveTheSameThumbnails() throws {
        func render(_ workers: Int) throws -> (DocumentResult, [String: Data]) {
            let r = try run(
                "page-labels.pdf",
                #"[{"use": "thumbnails", "with": {"width": 120, "pages": "all", "incremental": false, "pageWorkers": \#(workers)}}]"#
            )
            var files: [String: Data] = [:]
            for a in r.artifacts { files[a.path] = FileManager.default.contents(atPath: out + "/" + a.path) }
            return (r, files)
        }
        let (one, files1) = try render(1)
        let (three, files3) = try render(3)
        XCTAssertEqual(one.artifacts, three.artifacts)
        XCTAssertEqual(one.artifacts.map(\.page), Array(1...8).map { Optional($0) })
        XCTAssertEqual(one.sections, three.sections)
        XCTAssertEqual(one.findings, three.findings)
        XCTAssertEqual(files1.count, 8)
        XCTAssertEqual(files1, files3)
        // Not incremental: no manifest, so the file was never hashed (trust issue, 8).
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/thumbnails/.manifest"))
    }

    /// Incremental (the default): a second run skips the pages, and the manifest keys on the file.
    func testASecondIncrementalRunSkipsTheRender() throws {
        let stages = #"[{"use": "thumbnails", "with": {"width": 60}}]"#
        XCTAssertEqual(try run("page-labels.pdf", stages).sections["thumbnails"], ["rendered": 1, "skipped": 0])
        XCTAssertEqual(try run("page-labels.pdf", stages).sections["thumbnails"], ["rendered": 0, "skipped": 1])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/thumbnails/.manifest/page-labels.json"))
    }

    /// Mean absolute difference per colour channel over every other pixel of the common area.
    static func meanDifference(_ ours: CairoImage, _ ref: CairoImage) -> Double {
        var diff = 0
        var n = 0
        for y in stride(from: 0, to: min(ours.height, ref.height), by: 2) {
            for x in stride(from: 0, to: min(ours.width, ref.width), by: 2) {
                let a = ours.pixel(x: x, y: y)
                let b = ref.pixel(x: x, y: y)
                diff += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
                n += 3
            }
        }
        return n == 0 ? .infinity : Double(diff) / Double(n)
    }

    /// pdftocairo (poppler-utils) at the same resolution: the same size, nearly the same pixels.
    /// (Its -scale-to-x rounds sizes its own way, so the resolution is given instead.)
    func testAgreesWithPdftocairo() throws {
        for name in ["links-internal.pdf", "rotated-cropped.pdf", "text-search.pdf"] {
            let r = try run(name, #"[{"use": "thumbnails", "with": {"width": 200, "pages": "all"}}]"#)
            let pages = r.artifacts.filter { $0.kind == "thumbnail" }
            XCTAssertEqual(pages.count, r.pageCount, name)
            for a in pages {
                let page = try XCTUnwrap(a.page)
                let ours = try CairoImage(png: out + "/" + a.path)
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftocairo")
                let poppler = try PopplerFile(path: Samples.path(name))
                let dpi = 200.0 / (try XCTUnwrap(poppler.page(page - 1)).size.width) * 72
                p.arguments = [
                    "-png", "-singlefile", "-cropbox", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)",
                    Samples.path(name), out + "/ref",
                ]
                p.standardError = FileHandle.nullDevice
                try p.run()
                p.waitUntilExit()
                let ref = try CairoImage(png: out + "/ref.png")
                XCTAssertEqual(ours.width, 200, "\(name) page \(page)")
                XCTAssertLessThanOrEqual(abs(ours.width - ref.width), 1, "\(name) page \(page)")
                XCTAssertLessThanOrEqual(abs(ours.height - ref.height), 1, "\(name) page \(page)")
                XCTAssertLessThan(Self.meanDifference(ours, ref), 6, "\(name) page \(page): mean absolute difference")
            }
        }
    }

    /// `annotations: false` draws the page content only, as `pdftoppm -hide-annotations` does;
    /// the default draws them (inventory.pdf page 2: a red /Square, a note and an attachment icon).
    func testAnnotationsHiddenAgreeWithPdftoppm() throws {
        let hidden = try run(
            "inventory.pdf",
            #"[{"use": "thumbnails", "with": {"width": 200, "pages": "2", "annotations": false, "folder": "off"}}]"#)
        let shown = try run(
            "inventory.pdf", #"[{"use": "thumbnails", "with": {"width": 200, "pages": "2", "folder": "on"}}]"#)
        let off = try CairoImage(
            png: out + "/" + (try XCTUnwrap(hidden.artifacts.first { $0.kind == "thumbnail" })).path)
        let on = try CairoImage(png: out + "/" + (try XCTUnwrap(shown.artifacts.first { $0.kind == "thumbnail" })).path)
        func reddish(_ image: CairoImage) -> Int {
            var n = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image.pixel(x: x, y: y)
                    if p.r > 150 && p.g < 100 && p.b < 100 { n += 1 }
                }
            }
            return n
        }
        XCTAssertGreaterThan(reddish(on), 20, "the /Square annotation is drawn")
        XCTAssertEqual(reddish(off), 0, "and hidden")
        let poppler = try PopplerFile(path: Samples.path("inventory.pdf"))
        let dpi = 200.0 / (try XCTUnwrap(poppler.page(1)).size.width) * 72
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
        p.arguments = [
            "-png", "-singlefile", "-cropbox", "-hide-annotations", "-r", "\(dpi)", "-f", "2", "-l", "2",
            Samples.path("inventory.pdf"), out + "/ref",
        ]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let ref = try CairoImage(png: out + "/ref.png")
        XCTAssertLessThanOrEqual(abs(off.height - ref.height), 1)
        XCTAssertLessThan(Self.meanDifference(off, ref), 6, "mean absolute difference from pdftoppm -hide-annotations")
    }

    /// `box: "trim"`: only the trim box, upright on a turned page, with the overlay in place; a box
    /// larger than the crop box is cut to it (poppler-glib renders no farther).
    func testOtherPageBoxes() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let content = "1 0 0 rg 100 100 200 100 re f 0 0 1 rg 0 0 100 400 re f"
        try TestPDF.write(
            out + "/boxes.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /CropBox [0 0 400 400] /TrimBox [100 100 300 200] /Rotate 90 /Contents 4 0 R >>",
                "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            ])
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "thumbnails", "with": {"dpi": 72, "box": "trim", "folder": "trim"}}, {"use": "thumbnails", "with": {"dpi": 72, "box": "media", "folder": "media"}}]}"#,
            file: "t.json", catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out, jobs: 1).process(
            InputDocument(path: out + "/boxes.pdf", relativePath: "boxes.pdf"))
        let paths = r.artifacts.filter { $0.kind == "thumbnail" }.map(\.path)
        XCTAssertEqual(paths, ["trim/boxes/1.png", "media/boxes/1.png"])
        let trim = try CairoImage(png: out + "/trim/boxes/1.png")
        XCTAssertEqual(trim.width, 100, "200 x 100 points, turned by /Rotate 90")
        XCTAssertEqual(trim.height, 200)
        for (x, y) in [(2, 2), (50, 100), (97, 197)] {
            let p = trim.pixel(x: x, y: y)
            XCTAssertTrue(p.r > 200 && p.g < 50 && p.b < 50, "all red inside the trim box at \(x),\(y): \(p)")
        }
        let media = try CairoImage(png: out + "/media/boxes/1.png")
        XCTAssertEqual(media.width, 400)
        XCTAssertEqual(media.height, 400)
    }

    /// Broken links outlined in red, working ones in yellow, where the links sit.
    func testOverlay() throws {
        let r = try run(
            "broken-links.pdf",
            #"[{"use": "validate-links"}, {"use": "thumbnails", "with": {"width": 612, "overlay": "links", "template": "{stem}-p{page:03}.png"}}]"#
        )
        XCTAssertEqual(r.artifacts, [Artifact(kind: "thumbnail", page: 1, path: "thumbnails/broken-links-p001.png")])
        let image = try CairoImage(png: out + "/thumbnails/broken-links-p001.png")
        XCTAssertEqual(image.width, 612)
        func colour(atLeftEdgeOf rect: [Double]) -> (r: UInt8, g: UInt8, b: UInt8) {
            image.pixel(x: Int(rect[0].rounded()), y: Int((792 - (rect[1] + rect[3]) / 2).rounded()))
        }
        // The first link names an undefined destination: red.
        let broken = colour(atLeftEdgeOf: [72, 670, 372, 686])
        XCTAssertGreaterThan(broken.r, 150)
        XCTAssertLessThan(broken.g, 90)
        // The thirteenth ('valid link to real.target') works: yellow.
        let working = colour(atLeftEdgeOf: [72, 670 - 12 * 26, 372, 686 - 12 * 26])
        XCTAssertGreaterThan(working.r, 150)
        XCTAssertGreaterThan(working.g, 120)
        XCTAssertLessThan(working.b, 90)
    }

    /// Regression (trust issue, 7a): the overlay matched findings to links by rounded rectangles,
    /// so a broken link whose /Rect has more than 3 decimals was drawn as working. It matches on
    /// the link's identity (page and place in /Annots) now.
    func testABrokenLinkWithAPreciseRectangleIsDrawnBroken() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try TestPDF.write(
            out + "/precise.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R /Names << /Dests << /Names [(ok) [3 0 R /Fit]] >> >> >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R 5 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [50.123456 300.987654 350.55555 330.44444] /Border [0 0 0] /Dest (missing) >>",
                "<< /Type /Annot /Subtype /Link /Rect [50.123456 100.987654 350.55555 130.44444] /Border [0 0 0] /Dest (ok) >>",
            ])
        // The overlay takes the links from validate-links itself (typed, exact rectangles), so it
        // draws them whether or not the report lists them (#22, 2: it parsed the report's section).
        for inventory in [true, false] {
            let pipeline = try Pipeline.parse(
                #"{"stages": [{"use": "validate-links", "with": {"inventory": \#(inventory)}}, {"use": "thumbnails", "with": {"dpi": 72, "overlay": "links", "incremental": false}}]}"#,
                file: "t.json", catalog: StageTable.all, formats: ["json"])
            let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: out, jobs: 1).process(
                InputDocument(path: out + "/precise.pdf", relativePath: "precise.pdf"))
            XCTAssertEqual(r.findings.map(\.rule), ["dest.name-not-found"])
            XCTAssertEqual(r.findings.first?.details["annotationIndex"], 0)
            XCTAssertEqual(r.sections["links"] == nil, !inventory)
            let image = try CairoImage(png: out + "/thumbnails/precise/1.png")
            let broken = image.pixel(x: 50, y: 400 - 315)
            let working = image.pixel(x: 50, y: 400 - 115)
            XCTAssertTrue(broken.r > 150 && broken.g < 90, "the broken link is red: \(broken)")
            XCTAssertTrue(
                working.r > 150 && working.g > 120 && working.b < 90, "the working link is yellow: \(working)")
        }
    }

    /// Regression (trust issue, 7b): `overlay: "links"` without a validate-links stage before it
    /// drew nothing and said nothing; the pipeline is refused instead.
    func testTheOverlayNeedsTheLinkInventoryBeforeIt() {
        for stages in [
            #"[{"use": "thumbnails", "with": {"overlay": "links"}}]"#,
            #"[{"use": "thumbnails", "with": {"overlay": "links"}}, {"use": "validate-links"}]"#,
        ] {
            XCTAssertThrowsError(
                try Pipeline.parse(
                    #"{"stages": \#(stages)}"#, file: "p.json", catalog: StageTable.all, formats: ["json"]), stages
            ) { e in
                // Said by product type, with the stage that makes it (no stage names another's id).
                XCTAssertTrue(
                    "\(e)".contains(
                        "overlay 'links' needs LinkPlacements, which no earlier stage makes: put validate-links earlier"
                    ),
                    "\(e)")
            }
        }
        XCTAssertNoThrow(
            try Pipeline.parse(
                #"{"stages": [{"use": "validate-links"}, {"use": "thumbnails", "with": {"overlay": "links"}}]}"#,
                file: "p.json", catalog: StageTable.all, formats: ["json"]))
    }

    func testOptionsAndNames() throws {
        func message(_ with: String) -> String {
            do {
                _ = try Pipeline.parse(
                    #"{"stages": [{"use": "thumbnails", "with": \#(with)}]}"#, file: "p.json", catalog: StageTable.all,
                    formats: ["json"])
                return "no error"
            } catch { return "\(error)" }
        }
        XCTAssertTrue(
            message(#"{"pages": "all", "template": "{stem}.png"}"#).hasSuffix(
                "stages[0].with.template: the template must contain {page} (or {page:03}), or pages would overwrite each other (without it, render one page: pages \"1\")"
            ))
        XCTAssertTrue(message(#"{"pages": "0"}"#).contains("stages[0].with.pages: invalid page '0'"))
        XCTAssertTrue(message(#"{"width": 0}"#).hasSuffix("stages[0].with.width: give a width, a height or a dpi"))
        // A template cannot leave the output folder.
        let r = try run(
            "page-labels.pdf",
            #"[{"use": "thumbnails", "with": {"template": "../../{name}-{page}.png", "pages": "2,last", "height": 100}}]"#
        )
        XCTAssertEqual(r.artifacts.map(\.path), ["thumbnails/page-labels-2.png", "thumbnails/page-labels-8.png"])
        XCTAssertEqual(try CairoImage(png: out + "/thumbnails/page-labels-8.png").height, 100)
    }
}

final class IncrementalThumbnailsTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-inc-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func run(_ with: String, force: Bool = false) throws -> DocumentResult {
        var pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "thumbnails", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        pipeline.force = force
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path("page-labels.pdf"), relativePath: "page-labels.pdf"))
    }

    func modified(_ relative: String) throws -> Date {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: out + "/" + relative)[.modificationDate] as? Date)
    }

    func testARerunWritesNothingAndAChangeRendersAgain() throws {
        let options = #"{"pages": "1-3,last-1", "contactSheet": true, "contactSheetColumns": 2}"#
        let first = try run(options)
        XCTAssertEqual(first.sections["thumbnails"], ["rendered": 4, "skipped": 0])
        XCTAssertEqual(
            first.artifacts.map(\.path),
            [
                "thumbnails/page-labels/1.png", "thumbnails/page-labels/2.png", "thumbnails/page-labels/3.png",
                "thumbnails/page-labels/7.png",
                "thumbnails/page-labels.contact.png",
            ])
        let sheet = try CairoImage(png: out + "/thumbnails/page-labels.contact.png")
        // Two columns and two rows of 200 x 259 thumbnails (612 x 792 pt pages), 8 pixels apart.
        XCTAssertEqual(sheet.width, 2 * (200 + 8) + 8)
        XCTAssertEqual(sheet.height, 2 * (259 + 8) + 8)
        let before = try modified("thumbnails/page-labels/1.png")
        usleep(20_000)
        let second = try run(options)
        XCTAssertEqual(second.sections["thumbnails"], ["rendered": 0, "skipped": 4])
        XCTAssertEqual(second.artifacts, first.artifacts)
        XCTAssertEqual(try modified("thumbnails/page-labels/1.png"), before, "nothing rewritten")
        XCTAssertEqual(try run(options, force: true).sections["thumbnails"], ["rendered": 4, "skipped": 0])
        XCTAssertEqual(
            try run(#"{"pages": "1-3,last-1", "contactSheet": true, "contactSheetColumns": 2, "width": 100}"#).sections[
                "thumbnails"], ["rendered": 4, "skipped": 0], "a changed option renders again")
    }
}

final class ThumbnailFormatTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-fmt-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func render(_ with: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "thumbnails", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path("rotated-cropped.pdf"), relativePath: "rotated-cropped.pdf"))
    }

    /// Width and height from a JPEG's start-of-frame marker.
    func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker == 0xC0 || marker == 0xC2 {
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }

    func testJPEGAndWebP() throws {
        let jpeg = try render(#"{"format": "jpeg", "quality": 80, "pages": "1,2"}"#)
        XCTAssertEqual(
            jpeg.artifacts.map(\.path), ["thumbnails/rotated-cropped/1.jpg", "thumbnails/rotated-cropped/2.jpg"])
        let j1 = try XCTUnwrap(FileManager.default.contents(atPath: out + "/thumbnails/rotated-cropped/1.jpg")).map {
            $0
        }
        XCTAssertEqual(Array(j1.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertEqual(jpegSize(j1).map { [$0.0, $0.1] }, [200, 267], "512 x 682 pt crop box at 200 px")
        let j2 = try XCTUnwrap(FileManager.default.contents(atPath: out + "/thumbnails/rotated-cropped/2.jpg")).map {
            $0
        }
        XCTAssertEqual(jpegSize(j2).map { [$0.0, $0.1] }, [200, 155], "turned 90 degrees: landscape")

        let webp = try render(#"{"format": "webp", "template": "{name}-{page:02}.webp"}"#)
        XCTAssertEqual(webp.artifacts.map(\.path), ["thumbnails/rotated-cropped-01.webp"])
        let w = try XCTUnwrap(FileManager.default.contents(atPath: out + "/thumbnails/rotated-cropped-01.webp")).map {
            $0
        }
        XCTAssertEqual(String(decoding: w[0..<4], as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: w[8..<12], as: UTF8.self), "WEBP")
        // VP8 frame header: 14-bit width and height at bytes 26...29.
        XCTAssertEqual(Int(w[26]) | (Int(w[27]) & 0x3F) << 8, 200)
        XCTAssertEqual(Int(w[28]) | (Int(w[29]) & 0x3F) << 8, 267)

        XCTAssertThrowsError(try render(#"{"format": "jpeg", "background": "transparent"}"#)) { e in
            XCTAssertTrue(
                "\(e)".hasSuffix(
                    "stages[0].with.background: transparent backgrounds need png (jpeg is written without alpha here)"),
                "\(e)")
        }
        XCTAssertThrowsError(try render(#"{"format": "webp", "template": "{page}.png"}"#)) { e in
            XCTAssertTrue(
                "\(e)".hasSuffix("stages[0].with.template: the template must end in .webp (or .{ext}) for webp images"),
                "\(e)")
        }
    }
}
