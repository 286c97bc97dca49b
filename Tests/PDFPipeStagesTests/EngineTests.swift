import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// (#20) The MuPDF engine, in a build with the `MuPDF` trait (`scripts/test.sh` runs this suite in
/// such a build too): the same outputs as poppler — image sizes, rotation, page boxes, the link
/// overlay, text, word boxes, search, pages without a text layer, page workers — and how much the
/// two differ, measured. In a build without MuPDF only the last test runs (the pipeline is refused).
final class EngineTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-engine-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func requireMuPDF() throws {
        guard PageEngine.mupdf.isAvailable else {
            // scripts/test.sh sets this for the MuPDF build: there a missing engine is a failure.
            if ProcessInfo.processInfo.environment["PDFPIPE_EXPECT_MUPDF"] == "1" {
                XCTFail("this build should have MuPDF")
            }
            throw XCTSkip("built without MuPDF (swift build --traits MuPDF)")
        }
    }

    func run(_ name: String, _ stages: String, root: String = Samples.folder, folder: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out + "/" + folder, inputRoot: root, jobs: 1).process(
            InputDocument(path: root + "/" + name, relativePath: name))
    }

    /// Every page of every sample at 200 px with both engines: the same files, the same sizes,
    /// nearly the same pixels. The page content differs by antialiasing and font rasterizing (a mean
    /// of at most 2.3 of 255 per channel on the samples); link annotations' borders differ more
    /// (poppler draws them at least a pixel wide, MuPDF at their true width: 8.9 on broken-links.pdf's
    /// page of 16 bordered links).
    func testThumbnailsAgreeWithPoppler() throws {
        try requireMuPDF()
        for annotations in [true, false] {
            var worst = (0.0, "")
            for name in Samples.readable where name != "encrypted-owner.pdf" {
                let stages = { (e: String) in
                    #"[{"use": "thumbnails", "with": {"width": 200, "pages": "all", "incremental": false, "annotations": \#(annotations), "engine": "\#(e)"}}]"#
                }
                let p = try run(name, stages("poppler"), folder: "poppler")
                let m = try run(name, stages("mupdf"), folder: "mupdf")
                XCTAssertEqual(m.artifacts, p.artifacts, name)
                XCTAssertEqual(m.status, p.status, name)
                XCTAssertEqual(
                    m.findings.filter { $0.rule != "pdf.parse-message" },
                    p.findings.filter { $0.rule != "pdf.parse-message" }, name)
                for a in p.artifacts where a.kind == "thumbnail" {
                    let pi = try CairoImage(png: out + "/poppler/" + a.path)
                    let mi = try CairoImage(png: out + "/mupdf/" + a.path)
                    XCTAssertEqual(mi.width, pi.width, "\(name) \(a.path)")
                    XCTAssertEqual(mi.height, pi.height, "\(name) \(a.path)")
                    let d = ThumbnailsTests.meanDifference(mi, pi)
                    if d > worst.0 { worst = (d, "\(name) \(a.path)") }
                    XCTAssertLessThan(
                        d, annotations ? 10 : 3,
                        "\(name) \(a.path) (annotations \(annotations)): mean absolute difference from poppler")
                }
            }
            print(
                "EngineTests: annotations \(annotations): largest mean difference from poppler \(worst.0) (\(worst.1))")
        }
    }

    /// Turned and cropped pages, other page boxes, no annotations, transparency: as poppler.
    func testPageBoxesRotationAndOptions() throws {
        try requireMuPDF()
        for with in [
            #""pages": "all", "box": "trim""#, #""pages": "all", "annotations": false"#,
            #""pages": "1-2", "background": "transparent""#,
        ] {
            let stages = { (e: String) in
                #"[{"use": "thumbnails", "with": {"width": 150, \#(with), "incremental": false, "engine": "\#(e)"}}]"#
            }
            for name in ["rotated-cropped.pdf", "inventory.pdf"] {
                let p = try run(name, stages("poppler"), folder: "p")
                let m = try run(name, stages("mupdf"), folder: "m")
                XCTAssertEqual(m.artifacts, p.artifacts, "\(name) \(with)")
                for a in p.artifacts {
                    let pi = try CairoImage(png: out + "/p/" + a.path)
                    let mi = try CairoImage(png: out + "/m/" + a.path)
                    XCTAssertEqual(mi.width, pi.width, "\(name) \(with) \(a.path)")
                    XCTAssertEqual(mi.height, pi.height, "\(name) \(with) \(a.path)")
                    XCTAssertLessThan(ThumbnailsTests.meanDifference(mi, pi), 8, "\(name) \(with) \(a.path)")
                }
            }
        }
    }

    /// The overlay through MuPDF: broken links red, working ones yellow, where they sit.
    func testTheOverlayOnAMuPDFRendering() throws {
        try requireMuPDF()
        let r = try run(
            "broken-links.pdf",
            #"[{"use": "validate-links"}, {"use": "thumbnails", "with": {"width": 612, "overlay": "links", "engine": "mupdf"}}]"#,
            folder: "m")
        let image = try CairoImage(png: out + "/m/" + (try XCTUnwrap(r.artifacts.first?.path)))
        let broken = image.pixel(x: 72, y: 792 - 678)
        let working = image.pixel(x: 72, y: 792 - (678 - 12 * 26))
        XCTAssertTrue(broken.r > 150 && broken.g < 90, "\(broken)")
        XCTAssertTrue(working.r > 150 && working.g > 120 && working.b < 90, "\(working)")
    }

    /// Words as multisets: MuPDF's text against `pdftotext`'s (poppler-utils), on every sample with
    /// text; the issue's bar is a similarity of 0.98.
    func testTextAgreesWithPdftotext() throws {
        try requireMuPDF()
        func words(_ s: String) -> [String: Int] {
            var c: [String: Int] = [:]
            for w in s.split(whereSeparator: { $0.isWhitespace }) { c[String(w), default: 0] += 1 }
            return c
        }
        var compared = 0
        for name in Samples.readable where name != "encrypted-owner.pdf" {
            // The content's text: pdftotext leaves out the fields MuPDF makes appearances for.
            let r = try run(
                name, #"[{"use": "extract-text", "with": {"engine": "mupdf", "annotations": false}}]"#, folder: "m")
            guard let file = r.artifacts.first(where: { $0.kind == "text" })?.path else { continue }
            let ours = words(try String(contentsOfFile: out + "/m/" + file, encoding: .utf8))
            let ref = words(
                try ExternalTool.run("/usr/bin/pdftotext", [Samples.path(name), "-"], mergingErrors: false).output)
            let common = ours.reduce(0) { $0 + min($1.value, ref[$1.key] ?? 0) }
            let total = ours.values.reduce(0, +) + ref.values.reduce(0, +)
            guard total > 0 else { continue }
            compared += 1
            let similarity = 2 * Double(common) / Double(total)
            XCTAssertGreaterThanOrEqual(similarity, 0.98, "\(name): word similarity with pdftotext")
        }
        XCTAssertGreaterThan(compared, 10)
    }

    /// (#34, 1, 2) The text annotations draw, and scripts word assembly must know (Chinese set
    /// apart, kerning, vertical writing), as `mutool draw -F txt` (MuPDF's own tool) reads them: the
    /// same words, the fields MuPDF makes appearances for included; the hidden note left out.
    func testAnnotationAndScriptTextAgreeWithMutool() throws {
        try requireMuPDF()
        let mutool = "/usr/bin/mutool"
        guard FileManager.default.isExecutableFile(atPath: mutool) else {
            throw Prerequisite.missing("mutool (apt-get install mupdf-tools: scripts/setup.sh --mupdf)")
        }
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        try TestPDF.write(out + "/in/form.pdf", objects: AnnotationTextPDF.objects())
        try TestPDF.write(out + "/in/scripts.pdf", objects: ScriptTextPDF.objects())
        // Text drawn off the page is none a viewer shows (MuPDF's text device keeps it unless told).
        try TestPDF.write(out + "/in/offpage.pdf", objects: ScriptTextPDF.offPage())
        try TestPDF.write(out + "/in/kerned.pdf", objects: ScriptTextPDF.kerned())
        // #63 (8): invisible spaces inside words: "represent", as mutool reads it.
        try TestPDF.write(out + "/in/invisible.pdf", objects: ScriptTextPDF.invisibleSpaces())
        try FileManager.default.copyItem(atPath: Samples.path("inventory.pdf"), toPath: out + "/in/inventory.pdf")
        for name in ["form.pdf", "inventory.pdf", "scripts.pdf", "offpage.pdf", "kerned.pdf", "invisible.pdf"] {
            let r = try run(
                name, #"[{"use": "extract-text", "with": {"engine": "mupdf"}}]"#, root: out + "/in", folder: "m")
            XCTAssertEqual(r.status, .ok, name)
            let ours = try String(
                contentsOfFile: out + "/m/text/" + name.replacingOccurrences(of: ".pdf", with: ".txt"), encoding: .utf8)
            let theirs = try ExternalTool.run(mutool, ["draw", "-F", "txt", out + "/in/" + name], mergingErrors: false)
                .output
            // mutool prints the control character MuPDF reads for ZapfDingbats' check mark
            // (U+0014); pdfpipe gives U+FFFD for it, as for any glyph it cannot map.
            func words(_ s: String) -> [String] {
                s.unicodeScalars.map { $0.value < 0x09 || (0x0E..<0x20).contains($0.value) ? "\u{FFFD}" : String($0) }
                    .joined()
                    .split(whereSeparator: { $0.isWhitespace }).map(String.init).sorted()
            }
            guard name == "scripts.pdf" else {
                XCTAssertEqual(words(ours), words(theirs), name)
                continue
            }
            // mutool spaces Chinese set 0.15 em apart ("发 票 …"), which pdfpipe reads as
            // pdftotext does (no space inside CJK text below a quarter of an em): that line is
            // the one difference.
            func counts(_ w: [String]) -> [String: Int] { w.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
            let (a, b) = (counts(words(ours)), counts(words(theirs)))
            XCTAssertEqual(a.filter { $0.value > b[$0.key, default: 0] }.keys.sorted(), ["发票中文测试"])
            XCTAssertEqual(
                b.filter { $0.value > a[$0.key, default: 0] }.keys.sorted(), "发票中文测试".map(String.init).sorted())
            if name == "scripts.pdf" {
                XCTAssertTrue(ours.contains("发 票 中 文 测 试"), "0.3 em apart: spaces (\(ours))")
                XCTAssertEqual(ours.components(separatedBy: "represented").count - 1, 3, "kerned up to 0.1 em: whole")
            }
            XCTAssertFalse(ours.contains(AnnotationTextPDF.hiddenWord), name)
        }
    }

    /// Word boxes in the JSON output: the same words as poppler's, boxes within 1.5 points; search
    /// hits and pages without a text layer as with poppler.
    func testWordBoxesSearchAndNoTextLayer() throws {
        try requireMuPDF()
        let stages = { (e: String) in
            #"[{"use": "extract-text", "with": {"format": "json", "words": true, "engine": "\#(e)", "search": ["DRAFT", {"term": "internal\\.example", "regex": true}, {"term": "cafe", "ignoreDiacritics": true}]}}]"#
        }
        let p = try run("text-search.pdf", stages("poppler"), folder: "p")
        let m = try run("text-search.pdf", stages("mupdf"), folder: "m")
        XCTAssertEqual(
            m.findings.map { "\($0.rule) \($0.page ?? 0) \($0.message)" },
            p.findings.map { "\($0.rule) \($0.page ?? 0) \($0.message)" })
        XCTAssertTrue(m.findings.contains { $0.rule == "text.no-text-layer" && $0.page == 3 })
        XCTAssertGreaterThanOrEqual(m.findings.filter { $0.rule == "text.match" }.count, 3)
        func words(_ r: DocumentResult, _ folder: String) throws -> [(String, [Double])] {
            let path = try XCTUnwrap(r.artifacts.first { $0.kind == "text" }?.path)
            let v = try JSONParser.parse(String(contentsOfFile: out + "/" + folder + "/" + path, encoding: .utf8))
            return (v["pages"]?.arrayValue ?? []).flatMap { $0["words"]?.arrayValue ?? [] }.map {
                ($0["text"]?.stringValue ?? "", $0["box"]?.arrayValue?.compactMap(\.doubleValue) ?? [])
            }
        }
        let pw = try words(p, "p")
        let mw = try words(m, "m")
        XCTAssertEqual(mw.map(\.0), pw.map(\.0))
        // Horizontally the same; vertically MuPDF's boxes span the font's ascent and descent,
        // poppler's the glyphs' font size: MuPDF's contain poppler's and are at most 1.6 times as tall.
        var tallest = 0.0
        for (a, b) in zip(mw, pw) where a.0 == b.0 && a.1.count == 4 && b.1.count == 4 {
            XCTAssertEqual(a.1[0], b.1[0], accuracy: 0.5, "'\(a.0)': \(a.1) against poppler's \(b.1)")
            XCTAssertEqual(a.1[2], b.1[2], accuracy: 0.5, "'\(a.0)': \(a.1) against poppler's \(b.1)")
            XCTAssertLessThanOrEqual(a.1[1], b.1[1] + 0.5, "'\(a.0)'")
            XCTAssertGreaterThanOrEqual(a.1[3], b.1[3] - 0.5, "'\(a.0)'")
            tallest = max(tallest, (a.1[3] - a.1[1]) / (b.1[3] - b.1[1]))
        }
        XCTAssertLessThanOrEqual(tallest, 1.6)
        print("EngineTests: MuPDF's word boxes are at most \(tallest) times as tall as poppler's")
    }

    /// Pages shared among three MuPDF workers (each with its own context and document) give what
    /// one worker gives, while other threads keep the cores busy.
    func testPageWorkersGiveTheSameFiles() throws {
        try requireMuPDF()
        let load = CoreLoad()
        defer { load.stop() }
        func render(_ workers: Int) throws -> [String: Data] {
            let r = try run(
                "page-labels.pdf",
                #"[{"use": "thumbnails", "with": {"width": 120, "pages": "all", "incremental": false, "engine": "mupdf", "pageWorkers": \#(workers)}}]"#,
                folder: "w\(workers)")
            var files: [String: Data] = [:]
            for a in r.artifacts {
                files[a.path] = FileManager.default.contents(atPath: out + "/w\(workers)/" + a.path)
            }
            return files
        }
        let one = try render(1)
        XCTAssertEqual(one.count, 8)
        XCTAssertEqual(try render(3), one)
    }

    /// Every hostile file of the test support (deep nesting, loops, numbers past 64 bits, a page
    /// 10^400 points wide, 20,000 links on a page…) through both MuPDF stages, in this process: each
    /// document gets its result, nothing traps, a page that cannot be drawn is that page's finding.
    /// (#44, 4) MuPDF's render is stopped through its cookie when it goes past its budget: the
    /// work ends (nothing is left running, no worker to replace), and the stage says which page.
    /// No clock decides: the operator bomb cannot be drawn in 50 ms.
    func testAMuPDFRenderPastItsBudgetIsStoppedNotLeftRunning() throws {
        try requireMuPDF()
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let path = out + "/bomb.pdf"
        try Data(SurvivalPDFs.operatorBomb()).write(to: URL(fileURLWithPath: path))
        let page = try XCTUnwrap(try PageEngine.mupdf.open(path).enginePage(0))
        XCTAssertTrue(page.cancellable)
        let before = EngineDeadline.abandoned
        let cancel = RenderCancel()
        let draw = { () -> Bool in
            (try? page.render(scale: 150 / 72, transparent: false, annotations: true, region: nil, cancel: cancel))
                != nil
        }
        let outcome = EngineDeadline.outcome(seconds: 0.05, cancel: cancel.cancel, grace: 60, draw)
        guard case .cancelled = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(EngineDeadline.abandoned, before)
        let r = try run(
            "bomb.pdf", #"[{"use": "thumbnails", "with": {"engine": "mupdf", "dpi": 150, "renderSeconds": 0.05}}]"#,
            root: out, folder: "t")
        XCTAssertEqual(r.findings.map { $0.details["budget"]?.stringValue }, ["thumbnails.renderSeconds"])
        XCTAssertEqual(EngineDeadline.abandoned, before, "stopped, not left running")
    }

    func testEveryHostileFileFinishesThroughMuPDF() throws {
        try requireMuPDF()
        let names = try HostilePDFs.write(to: out + "/in")
        let pipeline = try Pipeline.parse(
            // upscale false: a degenerate page enlarged to the box cannot be drawn (a finding), which
            // is not what this test is about.
            #"{"stages": [{"use": "thumbnails", "with": {"pages": "all", "engine": "mupdf", "incremental": false, "upscale": false}}, {"use": "extract-text", "with": {"engine": "mupdf"}}]}"#,
            file: "t.json", catalog: StageTable.all, formats: ["json"])
        let runner = Runner(pipeline: pipeline, outputDirectory: out + "/o", inputRoot: out + "/in", jobs: 2)
        let results = names.map { runner.process(InputDocument(path: out + "/in/" + $0, relativePath: $0)) }
        XCTAssertEqual(results.map(\.path), names)
        let wide = try XCTUnwrap(results.first { $0.path == "mediabox-400-digits.pdf" })
        // MuPDF reads a 10^400-point media box as invalid and uses a default page (poppler: "cannot render").
        XCTAssertEqual(wide.artifacts.filter { $0.kind == "thumbnail" }.count, 1, "\(wide.findings)")
        for r in results where r.status != .failed {
            XCTAssertFalse(
                r.findings.contains {
                    $0.rule == "stage.failed" && !$0.message.contains("cannot render") && !$0.message.contains("MuPDF")
                }, "\(r.path): \(r.findings)")
        }
    }

    /// Regression (issue 29, 13): a document whose page tree is broken came back from thumbnails
    /// and extract-text as `ok` with 0 pages, no image, an empty text file and no finding. Each
    /// engine now says why it made nothing, and both say the same of the same documents; a file
    /// the engine cannot open but pdfpipe's reader can is the stage's failure, not an unreadable file.
    func testStagesThatMadeNothingSayWhyWithEitherEngine() throws {
        let folder = out + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
        let files: [(String, [UInt8])] = [
            (
                "pages-missing.pdf",
                HostilePDFs.classic([
                    "<< /Type /Catalog /Pages 9 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page,
                ])
            ),
            ("pages-integer.pdf", HostilePDFs.classic(["<< /Type /Catalog /Pages 2 0 R >>", "5", page])),
            (
                "pages-empty.pdf",
                HostilePDFs.classic(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"])
            ),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        var engines = ["poppler"]
        if PageEngine.mupdf.isAvailable { engines.append("mupdf") }
        for engine in engines {
            for stage in ["thumbnails", "extract-text"] {
                let stages = #"[{"use": "\#(stage)", "with": {"engine": "\#(engine)"}}]"#
                for (name, _) in files {
                    let r = try run(name, stages, root: folder, folder: engine + stage)
                    XCTAssertEqual(r.status, .failed, "\(engine) \(stage) \(name)")
                    // (The engines' own parse messages are notes beside it.)
                    let said = r.findings.filter { $0.severity != .note }
                    XCTAssertEqual(said.map(\.rule), ["pdf.unreadable"], "\(engine) \(stage) \(name)")
                    XCTAssertTrue(
                        said.first?.message.contains("no page could be read from the page tree") == true,
                        "\(r.findings)")
                    XCTAssertTrue(r.artifacts.isEmpty, "\(engine) \(stage) \(name): \(r.artifacts)")
                }
            }
        }
        // Read by pdfpipe's reader, refused by poppler (a startxref 4 bytes off in a file of
        // cross-reference streams): the stage failed, the file is not unreadable, and it says so.
        var bytes = HostilePDFs.objectStream()
        let key = Array("startxref\n".utf8)
        let at = try XCTUnwrap(
            (0...(bytes.count - key.count)).reversed().first { bytes[$0..<$0 + key.count].elementsEqual(key) })
        let digits = bytes[(at + key.count)...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        let moved = Array(String(Int(String(decoding: digits, as: UTF8.self))! + 4).utf8)
        bytes.replaceSubrange((at + key.count)..<(at + key.count + digits.count), with: moved)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/startxref-off.pdf"))
        let r = try run(
            "startxref-off.pdf", #"[{"use": "thumbnails", "with": {"engine": "poppler"}}]"#, root: folder, folder: "s")
        XCTAssertEqual(r.findings.map(\.rule), ["stage.failed"], "\(r.findings)")
        XCTAssertTrue(r.findings.first?.message.contains("its page tree has 1 page") == true, "\(r.findings)")
        // A page the engine cannot load gives no text: said for that page, not an empty page.
        try Data(
            HostilePDFs.classic([
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [7 0 R] /Count 1 >>", page,
            ])
        ).write(to: URL(fileURLWithPath: folder + "/kid-missing.pdf"))
        let text = try run(
            "kid-missing.pdf", #"[{"use": "extract-text", "with": {"engine": "poppler"}}]"#, root: folder, folder: "k")
        XCTAssertTrue(
            text.findings.contains { $0.rule == "stage.failed" && $0.page == 1 && $0.message.hasPrefix("no text:") },
            "\(text.findings)")
    }

    /// Files MuPDF cannot open are the document's failure, named as such.
    func testUnreadableAndEncryptedFiles() throws {
        try requireMuPDF()
        let stages = #"[{"use": "thumbnails", "with": {"engine": "mupdf"}}]"#
        let garbage = try run("garbage.pdf", stages, folder: "g")
        XCTAssertEqual(garbage.status, .failed)
        XCTAssertEqual(garbage.findings.map(\.rule), ["pdf.unreadable"])
        XCTAssertTrue(
            garbage.findings.first?.message.hasPrefix("MuPDF cannot open the file") ?? false, "\(garbage.findings)")
        let locked = try run("encrypted-user.pdf", stages, folder: "e")
        XCTAssertEqual(locked.findings.map(\.rule), ["pdf.password-required"])
    }

    /// `pdfpipe stages` lists the `engine` option only in a build that has MuPDF; the schema
    /// always has it.
    func testTheEngineOptionIsListedOnlyWhereItIsBuiltIn() throws {
        for d in [ThumbnailsStage.descriptor, ExtractTextStage.descriptor] {
            let engine = try XCTUnwrap(d.options.first { $0.key == "engine" }, d.id)
            XCTAssertEqual(engine.listed, PageEngine.mupdf.isAvailable, d.id)
        }
        let schema = JSONWriter.compact(PipelineSchema.make(catalog: StageTable.all, formats: ["json"]))
        XCTAssertTrue(
            schema.contains(#""enum":["poppler","mupdf"]"#), "the schema has the engine option in every build")
    }

    /// A build without MuPDF refuses a pipeline that asks for it, saying how to build it in.
    func testAskingForAnEngineThisBuildLacksIsAValidationError() throws {
        guard !PageEngine.mupdf.isAvailable else { throw XCTSkip("this build has MuPDF") }
        for stage in ["thumbnails", "extract-text"] {
            XCTAssertThrowsError(
                try Pipeline.parse(
                    #"{"stages": [{"use": "\#(stage)", "with": {"engine": "mupdf"}}]}"#, file: "p.json",
                    catalog: StageTable.all, formats: ["json"])
            ) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("stages[0].with.engine"), text)
                XCTAssertTrue(text.contains("swift build --traits MuPDF"), text)
            }
        }
    }
}
