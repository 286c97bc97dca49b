import PDFBridge
import PDFReader
import TestSupport
import XCTest

/// pdfpipe's own object reader against qpdf: every object of every sample it accepts must read the
/// same through both; the files it must refuse are refused, and qpdf takes over.
final class ReaderTests: XCTestCase {
    /// Samples the reader refuses, and why.
    let refused = [
        "damaged-xref.pdf": "which is not where",
        "encrypted-owner.pdf": "the file is encrypted",
        "encrypted-user.pdf": "the file is encrypted",
        "garbage.pdf": "no startxref",
        "empty.pdf": "no startxref",
    ]

    /// Streams are compared by dictionary: qpdf gives no data offset.
    func comparable(_ v: PDFValue) -> PDFValue {
        switch v {
        case .stream(let d, _): .stream(d.mapValues(comparable), dataOffset: -1)
        case .dictionary(let d): .dictionary(d.mapValues(comparable))
        case .array(let a): .array(a.map(comparable))
        default: v
        }
    }

    /// (#44, 7) Cross-reference streams whose numbers cannot describe their file are named before
    /// qpdf reads them, and qpdf then reads the file without them: a /Columns of 10^12 made it take
    /// 1.6 GB. No sample (several use cross-reference streams) is flagged; nor were 409 real files
    /// with them (bench corpus, docs/reliability.md).
    func testHostileCrossReferenceStreamsAreNamedBeforeQPDFReadsThem() throws {
        func check(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer { XRefStreamCheck.hostile(in: $0) } }
        XCTAssertEqual(
            check(SurvivalPDFs.xrefColumns),
            "cross-reference stream at offset 117: its predictor's rows (/Columns 1000000000000, /Colors 1, /BitsPerComponent 8) are longer than the 4096 bytes a cross-reference row can be"
        )
        let byName = Dictionary(uniqueKeysWithValues: HostilePDFs.all.map { ($0.name, $0.bytes) })
        XCTAssertEqual(
            check(try XCTUnwrap(byName["xref-w.pdf"])).map { $0.hasSuffix("a /W entry is not 0 to 8 bytes") }, true)
        XCTAssertNotNil(check(try XCTUnwrap(byName["xref-index-count.pdf"])))
        XCTAssertNotNil(check(try XCTUnwrap(byName["xref-colors.pdf"])))
        for name in Samples.all {
            XCTAssertNil(XRefStreamCheck.hostile(path: Samples.path(name)), name)
        }
        // qpdf is told, and says why with its warnings.
        let path = NSTemporaryDirectory() + "/pdfpipe-xref-columns-\(UUID().uuidString).pdf"
        defer { unlink(path) }
        try Data(SurvivalPDFs.xrefColumns).write(to: URL(fileURLWithPath: path))
        do {
            let q = try QPDFFile(path: path)
            XCTAssertTrue(
                q.takeWarnings().first?.text.contains("read without the file's cross-reference streams") == true)
        } catch {
            // Without its cross-reference stream the file has no trailer: qpdf cannot open it, at once.
            XCTAssertTrue("\(error)".contains("Root") || "\(error)".contains("trailer"), "\(error)")
        }
    }

    func testEveryObjectReadsTheSameAsThroughQPDF() throws {
        var objects = 0
        for name in Samples.all where refused[name] == nil {
            let reader = try PDFReader(path: Samples.path(name))
            let qpdf = QPDFSource(try QPDFFile(path: Samples.path(name)))
            XCTAssertEqual(
                comparable(reader.trailer).dictionaryWithoutIDs, comparable(qpdf.trailer).dictionaryWithoutIDs, name)
            XCTAssertGreaterThan(reader.objectCount, 5, name)
            for n in 1...reader.objectCount + 2 {
                let ref = ObjectRef(n, 0)
                XCTAssertEqual(comparable(reader.resolve(ref)), comparable(qpdf.resolve(ref)), "\(name) object \(n)")
                objects += 1
            }
        }
        XCTAssertGreaterThan(objects, 250)
    }

    func testObjectStreamsAndCrossReferenceStreams() throws {
        let reader = try PDFReader(path: Samples.path("links-objstm.pdf"))
        let pages = PageTree.pages(reader)
        XCTAssertEqual(pages.count, 4)
        XCTAssertEqual(pages[0]["Annots"]?.count, 5)
        XCTAssertEqual(pages[0]["Annots"]?[1]["Dest"]?.bytes, Array("chapter.2".utf8))
        XCTAssertEqual(PDFObject.root(of: reader)["Names"]?["Dests"]?["Names"]?.count, 6)
    }

    func testRefusedFilesFallBackToQPDF() throws {
        for (name, reason) in refused {
            XCTAssertThrowsError(try PDFReader(path: Samples.path(name)), name) { e in
                XCTAssertTrue("\(e)".contains(reason), "\(name): \(e)")
            }
        }
        let source = try ObjectSources.open(path: Samples.path("damaged-xref.pdf")) { () throws(BridgeError) in
            try QPDFFile(path: Samples.path("damaged-xref.pdf"))
        }
        XCTAssertTrue(source is QPDFSource)
        XCTAssertEqual(PageTree.pages(source).count, 2)
    }

    /// The trust issue (#60), 7: a file cut short while it was read got `pdf.changed-during-run`,
    /// but the reader went on through the zero-filled mapping, each object failing over to qpdf's
    /// recovery (3,000 pages: 62 s against 4.3 s intact). Once the mapping has faulted, nothing more
    /// is read: every object is null, said once, and the fallback is never made.
    func testAFileCutShortUnderTheReaderStopsIt() throws {
        let dir = NSTemporaryDirectory() + "pdfpipe-cut-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pages = 3000
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\(3 + $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
        ]
        for i in 0..<pages {
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [<< /Subtype /Link /Rect [0 0 9 9] /A << /S /URI /URI (https://example.com/\(i)) >> >>] >>"
            )
        }
        let path = dir + "/cut.pdf"
        try TestPDF.write(path, objects: objects)
        let reader = try PDFReader(path: path)
        var fallbacks = 0
        reader.fallback = {
            fallbacks += 1
            return nil
        }
        XCTAssertNotEqual(reader.resolve(ObjectRef(3, 0)), .null, "read while whole")
        XCTAssertEqual(truncate(path, 8192), 0)
        // The first read past the new end faults onto zeros; from then on nothing is read.
        var nulls = 0
        for n in 4..<(3 + pages) where reader.resolve(ObjectRef(n, 0)) == .null { nulls += 1 }
        XCTAssertTrue(reader.truncatedWhileRead)
        XCTAssertGreaterThanOrEqual(nulls, pages - 40, "the objects past the cut")
        XCTAssertEqual(fallbacks, 0, "no object handed to qpdf's recovery")
        XCTAssertEqual(reader.declines.filter { $0.reason.contains("cut short") }.count, 1, "said once")
        XCTAssertNil(reader.streamData(ObjectRef(3, 0)))
    }

    func testParsingDetails() throws {
        let dir = NSTemporaryDirectory() + "pdfpipe-reader-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // One object with every kind of token, then a classic xref.
        let body =
            "1 0 obj\n<< /Type /Catalog /A#20B (a\\(b\\)\\n\\101\r\nz) /H <48 65 6c6C6f> /N [-.5 +3 4. 12 0 R null true] /E [] /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
        let header = "%PDF-1.4\n"
        let o1 = header.utf8.count
        let o2 = o1 + body.components(separatedBy: "2 0 obj")[0].utf8.count
        let xrefAt = o1 + body.utf8.count
        let text =
            header + body + "xref\n0 3\n0000000000 65535 f \n"
            + String(format: "%010d 00000 n \n%010d 00000 n \n", o1, o2)
            + "trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n\(xrefAt)\n%%EOF\n"
        let path = dir + "/t.pdf"
        try text.write(toFile: path, atomically: true, encoding: .isoLatin1)
        let reader = try PDFReader(path: path)
        let root = PDFObject.root(of: reader)
        XCTAssertEqual(root["A B"]?.bytes, Array("a(b)\nA\nz".utf8))
        XCTAssertEqual(root["H"]?.bytes, Array("Hello".utf8))
        XCTAssertEqual(
            root["N"]?.value, .array([.real(-0.5), .int(3), .real(4), .ref(ObjectRef(12, 0)), .null, .bool(true)]))
        XCTAssertEqual(root["E"]?.count, 0)
        XCTAssertEqual(root["Pages"]?["Count"]?.int, 0)
        XCTAssertEqual(root.reference, "1 0 R")
        XCTAssertNil(root["Missing"])
    }

    /// Inputs that crashed the reader under scripts/fuzz-reader.sh (AddressSanitizer): each must now
    /// open or be refused, and every object must read or fail with an error.
    func testFuzzRegressionCorpus() throws {
        let folder =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/Fuzz/reader"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 1)
        for name in files {
            guard let reader = try? PDFReader(path: folder + "/" + name) else { continue }
            for n in 0..<min(reader.objectCount, 5_000) {
                _ = try? reader.object(ObjectRef(n, 0))
                _ = reader.streamData(ObjectRef(n, 0))
            }
        }
        // The first one (an object stream with /First -55, and offsets the mutation moved) is now
        // refused whole: its cross-reference table does not lead to its objects.
        XCTAssertThrowsError(try PDFReader(path: folder + "/objstm-negative-first.pdf")) { e in
            XCTAssertTrue("\(e)".contains("which is not where '24 0 obj' is"), "\(e)")
        }
        // An object stream with /First -55 is refused, not read before its buffer.
        let path = NSTemporaryDirectory() + "pdfpipe-first-\(UUID().uuidString).pdf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(HostilePDFs.objectStream(first: -55)).write(to: URL(fileURLWithPath: path))
        let reader = try PDFReader(path: path)
        var messages: [String] = []
        for n in 1..<reader.objectCount {
            do { _ = try reader.object(ObjectRef(n, 0)) } catch { messages.append(error.description) }
        }
        XCTAssertTrue(messages.contains { $0.contains("has a bad /First -55") }, "\(messages)")
    }
}

extension PDFValue {
    /// A trailer without its /ID (qpdf and the file may differ there) nor the xref-stream keys.
    var dictionaryWithoutIDs: PDFValue {
        guard case .dictionary(var d) = self else { return self }
        for k in ["ID", "W", "Index", "Length", "Filter", "DecodeParms", "Type", "Prev", "XRefStm"] { d[k] = nil }
        return .dictionary(d)
    }
}
