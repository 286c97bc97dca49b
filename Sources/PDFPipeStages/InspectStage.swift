import PDFBridge
import PDFPipeCore

/// `inspect`: the document's basic facts through qpdf — version, encryption, producer, page count,
/// boxes, rotation and labels — optionally cross-checked with poppler.
public struct InspectStage: Stage {
    public static let descriptor = StageDescriptor(
        id: "inspect",
        summary: "document facts: PDF version, encryption, producer, pages with boxes, rotation and labels",
        options: [
            OptionSpec("pageDetails", .bool, default: true, "list every page (size, boxes, rotation, label) under info.pages"),
            OptionSpec(
                "crossCheck", .bool, default: false,
                "open the document with poppler too and report where it disagrees with qpdf (pdf.page-mismatch)"),
        ],
        make: { options in InspectStage(options: options) })

    public var pageDetails: Bool
    public var crossCheck: Bool

    public init(options: OptionValues) {
        pageDetails = options.bool("pageDetails")
        crossCheck = options.bool("crossCheck")
    }

    public func run(_ job: inout Job) throws {
        let file = try job.qpdf()
        let count: Int
        do {
            count = try file.pageCount()
        } catch {
            throw DocumentFailure(rule: "pdf.unreadable", message: "qpdf cannot read the page tree: \(job.stripPath(error.description))")
        }
        job.pageCount = count
        // Boxes, rotation and labels through the same code as the link stages, fed by qpdf here.
        let source = QPDFSource(file)
        let ranges = PageLabels.read(root: PDFObject.root(of: source))
        let labels = ranges.map { PageLabels.labels($0, count: count) }
        job.pageLabels = labels

        var info: [String: JSONValue] = [
            "pdfVersion": .string(file.extensionLevel > 0 ? "\(file.pdfVersion) (extension level \(file.extensionLevel))" : file.pdfVersion),
            "encrypted": .bool(file.isEncrypted),
            "linearized": .bool(file.isLinearized),
        ]
        for key in ["Producer", "Creator", "Title"] {
            if let v = file.info(key), !v.isEmpty { info[key.prefix(1).lowercased() + key.dropFirst()] = .string(v) }
        }
        if file.isEncrypted {
            job.report(Finding(rule: "pdf.encrypted", message: "the document is encrypted; it opens without a password, but an owner password restricts it"))
        }

        var pages: [JSONValue] = []
        var geometries: [PageGeometry] = []
        for i in 0..<count {
            let ref = file.page(i).objectID.map { ObjectRef($0.number, $0.generation) }
            let g = PageGeometry(page: ref.map { PDFObject(source: source, value: .ref($0)) })
            geometries.append(g)
            if pageDetails {
                var p: [String: JSONValue] = [
                    "page": .int(i + 1),
                    "mediaBox": json(g.mediaBox),
                    "cropBox": json(g.cropBox),
                    "rotate": .int(g.rotate),
                    "width": .double(round(g.displaySize.width)),
                    "height": .double(round(g.displaySize.height)),
                ]
                if let labels { p["label"] = .string(labels[i]) }
                pages.append(.object(p))
            }
            if let bad = g.invalidRotate {
                job.report(Finding(rule: "page.invalid-rotate", page: i + 1, message: "/Rotate is \(bad), not a multiple of 90; viewers ignore it"))
            }
            if g.mediaBoxMissing {
                job.report(Finding(rule: "page.no-media-box", page: i + 1, message: "the page has no /MediaBox; readers assume US Letter"))
            }
            // qpdf never reuses object handles: release them page by page to bound memory.
            file.releaseAll()
        }
        file.releaseAll()
        if pageDetails { info["pages"] = .array(pages) }
        job.sections["info"] = .object(info)
        job.reportWarnings(of: file)

        if crossCheck { try compareWithPoppler(&job, geometries: geometries, labels: labels) }
    }

    private func compareWithPoppler(_ job: inout Job, geometries: [PageGeometry], labels: [String]?) throws {
        let poppler = try job.poppler()
        defer { job.reportMessages(of: poppler) }
        guard poppler.pageCount == geometries.count else {
            job.report(Finding(rule: "pdf.page-mismatch", message: "qpdf counts \(geometries.count) pages, poppler \(poppler.pageCount)"))
            return
        }
        var reported = 0
        for (i, g) in geometries.enumerated() where reported < 20 {
            guard let page = poppler.page(i) else { continue }
            let (w, h) = page.size
            let expected = g.displaySize
            if abs(w - expected.width) > 0.5 || abs(h - expected.height) > 0.5 {
                job.report(Finding(
                    rule: "pdf.page-mismatch", page: i + 1,
                    message: "qpdf sizes the page \(fmt(expected.width)) x \(fmt(expected.height)), poppler \(fmt(w)) x \(fmt(h))"))
                reported += 1
            }
            // Poppler gives the page number as the label when there are none.
            let popplerLabel = page.label ?? ""
            let ours = labels?[i] ?? String(i + 1)
            if popplerLabel != ours {
                job.report(Finding(rule: "pdf.page-mismatch", page: i + 1, message: "page label is '\(ours)' by qpdf, '\(popplerLabel)' by poppler"))
                reported += 1
            }
        }
    }

    private func json(_ r: PDFRect) -> JSONValue { .array(r.array.map { .double(round($0)) }) }
    private func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
    private func fmt(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(round(v)) }
}
