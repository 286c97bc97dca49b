import PDFBridge
import PDFPipeCore
import PDFReader

/// `inspect`: the document's basic facts through qpdf — version, encryption, producer, page count,
/// boxes, rotation and labels — optionally cross-checked with poppler.
public struct InspectStage: Stage {
    public static let descriptor = StageDescriptor(
        InspectStage.self, id: "inspect",
        summary: "document facts: PDF version, encryption, producer, pages with boxes, rotation and labels",
        rules: [
            .pagesMixedSizes, .formsPresent, .attachmentsPresent, .annotationsJavascriptInWidget, .pageInvalidRotate,
            .pageNoMediaBox,
        ])

    public var pageDetails: Bool
    public var crossCheck: Bool
    package var annotations: AnnotationDetail
    public var forms: Bool
    public var attachments: Bool
    public var extractAttachments: Bool
    public var attachmentFolder: String
    public var layoutWidth: Double
    public var layoutGap: Double

    public init(_ o: InspectOptions) throws(PipelineError) {
        pageDetails = o.pageDetails
        crossCheck = o.crossCheck
        annotations = o.annotations
        forms = o.forms
        attachments = o.attachments || o.extractAttachments
        extractAttachments = o.extractAttachments
        attachmentFolder = try OutputNames.folder(o.attachmentFolder)
        layoutWidth = o.layoutWidth
        layoutGap = o.layoutGap
    }

    /// The document as inspect reads it: through qpdf, or — for a file qpdf cannot open but
    /// pdfpipe's reader can (an /Encrypt that is not a dictionary, a startxref a few bytes off in
    /// a file of cross-reference streams: MuPDF and PDFium open both) — through the reader.
    struct Facts {
        var source: any ObjectSource
        var qpdf: QPDFFile?
        var pages: [PDFObject]
        var info: [String: JSONValue]
    }

    func facts(_ job: inout Job) throws -> Facts? {
        var refused: DocumentFailure?
        var opened: QPDFFile?
        do {
            opened = try job.qpdf()
        } catch {
            refused = error
        }
        guard let file = opened else {
            let failure = refused ?? DocumentFailure(rule: .pdfUnreadable, message: "qpdf cannot open the file")
            guard failure.rule == .pdfUnreadable else { throw failure }
            var why = failure.message
            let opinion = job.popplerSecondOpinion()
            if !opinion.isEmpty, why.hasSuffix(opinion) { why.removeLast(opinion.count) }
            let reader = try? PDFReader(path: job.workingFile)
            let pages = reader.map { PageTree.pages($0) } ?? []
            guard let reader, !pages.isEmpty else {
                // Only poppler reads it (as MuPDF and PDFium may): damaged, not unreadable; what
                // inspect reports of pages and objects could not be read, which is said.
                guard let other = try? PopplerFile(path: job.workingFile), other.pageCount > 0 else { throw failure }
                job.pageCount = other.pageCount
                job.report(
                    Finding(
                        rule: .pdfDamaged,
                        message:
                            "\(why); poppler reads it (\(other.pageCount) page\(other.pageCount == 1 ? "" : "s")), so viewers may show it, but its boxes, labels and inventory could not be read"
                    ))
                return nil
            }
            job.report(
                Finding(
                    rule: .pdfDamaged,
                    message:
                        "\(why); pdfpipe's reader reads it (\(pages.count) page\(pages.count == 1 ? "" : "s")), as MuPDF and PDFium do, and it was inspected through that reader"
                ))
            var info: [String: JSONValue] = ["encrypted": .bool(false), "linearized": .bool(false)]
            if let version = reader.headerVersion { info["pdfVersion"] = .string(version) }
            let dict = PDFObject(source: reader, value: reader.trailer)["Info"]
            for key in ["Producer", "Creator", "Title"] {
                if let v = dict?[key]?.text, !v.isEmpty {
                    info[key.prefix(1).lowercased() + key.dropFirst()] = .string(v)
                }
            }
            return Facts(source: reader, qpdf: nil, pages: pages, info: info)
        }
        let count: Int
        do {
            count = try file.pageCount()
        } catch {
            throw DocumentFailure(
                rule: .pdfUnreadable, message: "qpdf cannot read the page tree: \(job.stripPath(error.description))")
        }
        let source = QPDFSource(file)
        var info: [String: JSONValue] = [
            "pdfVersion": .string(
                file.extensionLevel > 0
                    ? "\(file.pdfVersion) (extension level \(file.extensionLevel))" : file.pdfVersion),
            "encrypted": .bool(file.isEncrypted),
            "linearized": .bool(file.isLinearized),
        ]
        for key in ["Producer", "Creator", "Title"] {
            if let v = file.info(key), !v.isEmpty { info[key.prefix(1).lowercased() + key.dropFirst()] = .string(v) }
        }
        let pages = (0..<count).map { i in
            PDFObject(
                source: source,
                value: file.page(i).objectID.map { .ref(ObjectRef($0.number, $0.generation)) } ?? .null)
        }
        file.releaseAll()
        if file.isEncrypted { reportEncryption(&job, file) }
        return Facts(source: source, qpdf: file, pages: pages, info: info)
    }

    /// A page's entry in `info.pages`: its boxes, rotation, size (points and millimetres), label.
    func details(_ g: PageGeometry, page: Int, label: String?) -> JSONValue {
        var p: [String: JSONValue] = [
            "page": .int(page),
            "mediaBox": json(g.mediaBox),
            "cropBox": json(g.cropBox),
            "rotate": .int(g.rotate),
            "width": .double(round(g.displaySize.width)),
            "height": .double(round(g.displaySize.height)),
            "widthMm": .double((g.displaySize.width * 25.4 / 72 * 10).rounded() / 10),
            "heightMm": .double((g.displaySize.height * 25.4 / 72 * 10).rounded() / 10),
        ]
        if g.trimBox != g.cropBox { p["trimBox"] = json(g.trimBox) }
        if let label { p["label"] = .string(label) }
        return .object(p)
    }

    public func run(_ job: inout Job) throws {
        guard let facts = try facts(&job) else { return }
        let source = facts.source
        let file = facts.qpdf
        let count = facts.pages.count
        job.pageCount = count
        // Boxes, rotation and labels through the same code as the link stages.
        let ranges = PageLabels.read(root: PDFObject.root(of: source))
        let labels = ranges.map { PageLabels.labels($0, count: count) }
        job.pageLabels = labels
        var info = facts.info

        var pages: [JSONValue] = []
        var geometries: [PageGeometry] = []
        for i in 0..<count {
            let g = PageGeometry(page: facts.pages[i].isNull ? nil : facts.pages[i])
            geometries.append(g)
            if pageDetails { pages.append(details(g, page: i + 1, label: labels?[i])) }
            if let bad = g.invalidRotate {
                job.report(
                    Finding(
                        rule: .pageInvalidRotate, page: i + 1,
                        message: "/Rotate is \(bad), not a multiple of 90; viewers ignore it"))
            }
            if g.mediaBoxMissing {
                job.report(
                    Finding(
                        rule: .pageNoMediaBox, page: i + 1,
                        message: "the page has no /MediaBox; readers assume US Letter"))
            }
            // qpdf never reuses object handles: release them page by page to bound memory.
            file?.releaseAll()
        }
        file?.releaseAll()
        if pageDetails { info["pages"] = .array(pages) }
        job[.info] = info
        if let file { job.reportWarnings(of: file) }
        reportMixedPages(&job, geometries)
        if layoutWidth > 0 { job[.layout] = layout(geometries) }
        if annotations != .off || forms || attachments {
            try inventory(&job, DocumentInventory(source: source, pages: facts.pages))
        }

        if crossCheck { try compareWithPoppler(&job, geometries: geometries, labels: labels) }
    }

    private func compareWithPoppler(_ job: inout Job, geometries: [PageGeometry], labels: [String]?) throws {
        let poppler: PopplerFile
        do {
            poppler = try job.poppler()
        } catch {
            // Read by qpdf or pdfpipe's reader (as by MuPDF and PDFium), refused by poppler: viewers
            // built on poppler fail on it, which is said; the document is not unreadable.
            guard error.rule == .pdfUnreadable else { throw error }
            job.report(
                Finding(
                    rule: .pdfDamaged,
                    message:
                        "\(job.stripPath(error.message)); viewers built on poppler (Evince, Okular) cannot show it, though it was read here as MuPDF and PDFium read it"
                ))
            return
        }
        defer { job.reportMessages(of: poppler) }
        guard poppler.pageCount == geometries.count else {
            job.report(
                Finding(
                    rule: .pdfPageMismatch,
                    message: "qpdf counts \(geometries.count) pages, poppler \(poppler.pageCount)"))
            return
        }
        var reported = 0
        for (i, g) in geometries.enumerated() where reported < 20 {
            guard let page = poppler.page(i) else { continue }
            let found = differences(g, label: labels?[i] ?? String(i + 1), poppler: page)
            for message in found { job.report(Finding(rule: .pdfPageMismatch, page: i + 1, message: message)) }
            reported += found.count
        }
    }

    /// Where poppler reads a page otherwise than qpdf: its displayed size, its label (poppler gives
    /// the page number as the label when there are none).
    func differences(_ g: PageGeometry, label ours: String, poppler page: PopplerFilePage) -> [String] {
        var out: [String] = []
        let (w, h) = page.size
        let expected = g.displaySize
        if abs(w - expected.width) > 0.5 || abs(h - expected.height) > 0.5 {
            out.append(
                "qpdf sizes the page \(fmt(expected.width)) x \(fmt(expected.height)), poppler \(fmt(w)) x \(fmt(h))")
        }
        let popplerLabel = page.label ?? ""
        if popplerLabel != ours { out.append("page label is '\(ours)' by qpdf, '\(popplerLabel)' by poppler") }
        return out
    }

    /// `pdf.password-required` or `pdf.encrypted` for an encrypted document qpdf opened.
    private func reportEncryption(_ job: inout Job, _ file: QPDFFile) {
        // qpdf tries the empty password as the owner password too; viewers try it as the user
        // password only. A document whose owner password is empty but whose user password is
        // not (R5/R6 from some tools) opens in qpdf and asks every viewer for the password.
        var asksForPassword = !file.recoveredUserPassword.isEmpty
        if !asksForPassword {
            // qpdf says which password the empty string matched (`--show-encryption`).
            let (_, log) = QPDFJob.run(
                json: JSONWriter.compact(["inputFile": .string(job.source), "showEncryption": ""]))
            asksForPassword =
                log.info.contains("Supplied password is owner password")
                && !log.info.contains("Supplied password is user password")
        }
        if asksForPassword {
            job.report(
                Finding(
                    rule: .pdfPasswordRequired,
                    message:
                        "the document has a user password: PDFium and MuPDF ask for it (qpdf and poppler open it because its owner password is empty, so pdfpipe could still check it)"
                ))
        } else {
            job.report(
                Finding(
                    rule: .pdfEncrypted,
                    message:
                        "the document is encrypted; it opens without a password, but an owner password restricts it"
                ))
        }
    }

    /// `pages.mixed-sizes` when the pages differ in displayed size or rotation.
    private func reportMixedPages(_ job: inout Job, _ geometries: [PageGeometry]) {
        var sizes: [String: Int] = [:]
        var order: [String] = []
        var rotations = Set<Int>()
        for g in geometries {
            let key = "\(fmt(round(g.displaySize.width))) x \(fmt(round(g.displaySize.height))) pt"
            if sizes[key] == nil { order.append(key) }
            sizes[key, default: 0] += 1
            rotations.insert(g.rotate)
        }
        guard sizes.count > 1 || rotations.count > 1 else { return }
        let list = order.map { "\($0) (\(sizes[$0]!) page\(sizes[$0]! == 1 ? "" : "s"))" }.joined(separator: ", ")
        job.report(
            Finding(
                rule: .pagesMixedSizes,
                message:
                    "the pages come in \(sizes.count) size\(sizes.count == 1 ? "" : "s") (\(list)) and \(rotations.count) rotation\(rotations.count == 1 ? "" : "s") (\(rotations.sorted().map(String.init).joined(separator: ", ")))"
            ))
    }

    /// The top of every page in a continuous vertical layout `layoutWidth` pixels wide.
    private func layout(_ geometries: [PageGeometry]) -> JSONValue {
        var offsets: [JSONValue] = []
        var y = 0.0
        for (i, g) in geometries.enumerated() {
            if i > 0 { y += layoutGap }
            offsets.append(.double(round(y)))
            let (w, h) = g.displaySize
            y += w > 0 ? h * layoutWidth / w : 0
        }
        return [
            "width": .double(layoutWidth), "gap": .double(layoutGap), "offsets": .array(offsets),
            "height": .double(round(y)),
        ]
    }

    private func inventory(_ job: inout Job, _ inv: DocumentInventory) throws {
        let all = inv.annotations()
        if annotations != .off {
            var counts: [String: JSONValue] = [:]
            for a in all { counts[a.subtype] = .int((counts[a.subtype]?.intValue ?? 0) + 1) }
            var section: [String: JSONValue] = ["counts": .object(counts), "total": .int(all.count)]
            if annotations == .list {
                section["items"] = .array(
                    all.map { a in
                        var o: [String: JSONValue] = ["page": .int(a.page), "subtype": .string(a.subtype)]
                        if let r = a.rect { o["rect"] = json(r) }
                        if let ref = a.object { o["object"] = .string(ref) }
                        return .object(o)
                    })
            }
            job[.annotations] = section
        }
        if forms {
            let fields = inv.fields()
            job[.forms] = fields.map { f in
                [
                    "name": .string(f.name), "type": .string(f.type), "flags": .array(f.flags.map { .string($0) }),
                    "value": f.value, "pages": .array(f.pages.map { .int($0) }),
                ]
            }
            if !fields.isEmpty {
                job.report(
                    Finding(
                        rule: .formsPresent,
                        message: "the document has \(fields.count) form field\(fields.count == 1 ? "" : "s")"))
            }
            for f in fields where f.hasJavaScript {
                job.report(
                    Finding(
                        rule: .annotationsJavascriptInWidget, page: f.pages.first,
                        message: "form field '\(f.name)' runs JavaScript"))
            }
        }
        if attachments { try attachmentInventory(&job, inv, annotations: all) }
    }

    /// The embedded files (written out with `extractAttachments`, under names that are never
    /// paths) and the media annotations.
    private func attachmentInventory(
        _ job: inout Job, _ inv: DocumentInventory, annotations all: [DocumentInventory.Annotation]
    ) throws {
        let files = inv.attachments()
        var list: [JSONValue] = []
        var used = Set<String>()
        for a in files {
            var o: [String: JSONValue] = ["name": .string(a.name), "origin": .string(a.origin)]
            if let p = a.page { o["page"] = .int(p) }
            if let d = a.description { o["description"] = .string(d) }
            if let m = a.mimeType { o["mimeType"] = .string(m) }
            if let data = a.data {
                o["size"] = .int(data.count)
                let md5 = Checksum.md5(data)
                o["md5"] = .string(md5)
                if let declared = a.declaredChecksum, declared != md5 { o["checksumMismatch"] = true }
            } else if let s = a.declaredSize {
                o["size"] = .int(s)
            }
            if extractAttachments, let data = a.data {
                let candidate = Self.attachmentName(a.name, besides: &used)
                let stem = OutputNames.file(for: job, folder: attachmentFolder, extension: "pdf").dropLast(4)
                let relative = "\(stem)/\(candidate)"
                try job.writeArtifact(
                    data, kind: "attachment", path: relative, what: "the attachment '\(candidate)'")
                o["file"] = .string(relative)
            }
            list.append(.object(o))
        }
        job[.attachments] = list
        if !files.isEmpty {
            job.report(
                Finding(
                    rule: .attachmentsPresent,
                    message: "the document embeds \(files.count) file\(files.count == 1 ? "" : "s")"))
        }
        let media = all.filter { ["Screen", "Movie", "RichMedia", "Sound", "3D"].contains($0.subtype) }
        job[.media] = media.map { a in
            var o: [String: JSONValue] = ["page": .int(a.page), "subtype": .string(a.subtype)]
            if let t = DocumentInventory.mediaTarget(a.dictionary) { o["target"] = .string(t) }
            return .object(o)
        }
    }

    /// An attachment's file name: the PDF's name sanitized (a file name only, never a path) and
    /// numbered when another attachment of the document took it (`2-notes.txt`).
    static func attachmentName(_ name: String, besides used: inout Set<String>) -> String {
        var safe = name.split(separator: "/").last.map(String.init) ?? "attachment"
        safe = safe.replacingOccurrences(of: "\\", with: "_")
        if safe.isEmpty || safe == "." || safe == ".." { safe = "attachment" }
        var candidate = safe
        var n = 2
        while used.contains(candidate) {
            candidate = "\(n)-\(safe)"
            n += 1
        }
        used.insert(candidate)
        return candidate
    }

    private func json(_ r: PDFRect) -> JSONValue { .array(r.array.map { .double(round($0)) }) }
    private func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
    /// Sizes in messages, to the point.
    private func fmt(_ v: Double) -> String { PDFNumber.text(v.rounded()) }
}

// The sections inspect writes: open-ended JSON (a document's /Info keys, the annotations' kinds),
// typed as such.
extension SectionKey where Value == [String: JSONValue] {
    /// The document's facts: version, pages, /Info, encryption, tagging, fonts… (and `pages` with
    /// `pageDetails`).
    public static var info: Self { .init("info") }
    /// Annotations by subtype (`annotations: counts`), and each one (`annotations: list`).
    public static var annotations: Self { .init("annotations") }
}

extension SectionKey where Value == JSONValue {
    /// The pages drawn as text (`layoutWidth`).
    public static var layout: Self { .init("layout") }
}

extension SectionKey where Value == [JSONValue] {
    /// The form fields (`forms: true`): name, type, flags, value, pages.
    public static var forms: Self { .init("forms") }
    /// The embedded files (`attachments: true`), and where each was written.
    public static var attachments: Self { .init("attachments") }
    /// Screen, Movie, RichMedia, Sound and 3D annotations (with `annotations`), and their targets.
    public static var media: Self { .init("media") }
}
