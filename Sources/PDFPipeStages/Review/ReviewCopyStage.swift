import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// `review-copy`'s options (`with`).
public struct ReviewCopyOptions: OptionGroup {
    @Option("mark findings of this severity and above") public var minimumSeverity = Severity.note
    @Option("insert a summary page in front (the page count grows by the summary's pages)") public var summaryPage =
        true
    @Option("colour of error marks (#RRGGBB)") public var errorColor = "#E00000"
    @Option("colour of warning marks") public var warningColor = "#FF8C00"
    @Option("colour of note marks") public var noteColor = "#1E64FF"
    @Option("folder in the output folder for the review copies") public var folder = "review"

    public init() {}
}

/// `review-copy`: a copy of the document with every finding marked in place — a coloured square
/// over the link with the rule, message and fix in its note — and a summary page in front listing
/// everything, each entry linked to its page. Written through qpdf; the original is never touched.
/// A document without findings to mark gets no review copy.
public struct ReviewCopyStage: Stage {
    public static let descriptor = StageDescriptor(
        ReviewCopyStage.self, id: "review-copy",
        summary: "write <document>.review.pdf: the findings marked on the pages, and a summary page in front",
        readsEarlierFindings: true)

    let minimum: Severity
    let summaryPage: Bool
    let colors: [Severity: [Double]]
    let folder: String

    public init(_ o: ReviewCopyOptions) throws(PipelineError) {
        minimum = o.minimumSeverity
        summaryPage = o.summaryPage
        var colors: [Severity: [Double]] = [:]
        for (severity, key, text) in [
            (Severity.error, "errorColor", o.errorColor), (.warning, "warningColor", o.warningColor),
            (.note, "noteColor", o.noteColor),
        ] {
            guard let c = Self.color(text) else {
                throw PipelineError(file: nil, path: key, message: "expected a colour like '#E00000', got '\(text)'")
            }
            colors[severity] = c
        }
        self.colors = colors
        folder = try OutputNames.folder(o.folder)
    }

    static func color(_ s: String) -> [Double]? {
        guard s.count == 7, s.hasPrefix("#"), let v = Int(s.dropFirst(), radix: 16) else { return nil }
        let channels: [Int] = [(v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF]
        return channels.map { (Double($0) / 255 * 1000).rounded() / 1000 }
    }

    public func run(_ job: inout Job) throws {
        let marked = job.effectiveFindings.filter { $0.severity >= minimum }
        guard !marked.isEmpty else { return }
        let file: QPDFFile
        do {
            file = try QPDFFile(path: job.source)
        } catch {
            job.report(
                Finding(
                    rule: .stageFailed, severity: .warning,
                    message: "no review copy: qpdf cannot open the original (\(job.stripPath(error.description)))"))
            return
        }
        let count = (try? file.pageCount()) ?? 0
        var pageRefs: [ObjectRef] = []
        for i in 0..<count {
            if let id = file.page(i).objectID { pageRefs.append(ObjectRef(id.number, id.generation)) }
        }
        let geometries = pageRefs.map { PageGeometry(page: PDFObject(source: QPDFSource(file), value: .ref($0))) }

        var listed: [Finding] = []
        var marks = 0
        for (n, f) in marked.enumerated() {
            guard let page = f.page, page >= 1, page <= pageRefs.count, let r = f.rect, r.count == 4 else {
                listed.append(f)
                continue
            }
            var rect = PDFRect(r[0], r[1], r[2], r[3])
            // Degenerate rects get a visible size; rects off the page go to the summary only.
            if rect.width < 4 { rect = PDFRect(rect.x1 - 2, rect.y1, rect.x1 + 2, rect.y2) }
            if rect.height < 4 { rect = PDFRect(rect.x1, rect.y1 - 2, rect.x2, rect.y1 + 2) }
            guard rect.intersection(geometries[page - 1].visibleBox) != nil else {
                listed.append(f)
                continue
            }
            listed.append(f)
            addMark(file, page: pageRefs[page - 1], rect: rect, finding: f, number: n + 1)
            marks += 1
        }
        // Findings name objects of the working file: the original's numbers only when they are the same file.
        let suggested = job.workingFile == job.source ? suggestContents(file, for: marked) : 0
        var summaryPages = 0
        if summaryPage {
            summaryPages = try addSummary(
                file, findings: listed, pageRefs: pageRefs, labels: job.pageLabels, document: job.relativePath)
        }

        let relative = OutputNames.file(for: job, folder: folder, extension: "review.pdf")
        let target = job.outputDirectory + "/" + relative
        do {
            try AtomicFile.makeDirectory(Paths.parent(target))
        } catch {
            throw DocumentFailure(rule: .stageFailed, message: "cannot write the review copy: \(error.reason)")
        }
        let temp = Paths.parent(target) + "/.pdfpipe-review-\(UUID().uuidString).pdf"
        var options = QPDFWriteOptions()
        options.deterministicID = true
        do throws(BridgeError) {
            try file.write(to: temp, options: options)
        } catch {
            FileSystem.unlink(temp)
            throw DocumentFailure(
                rule: .stageFailed, message: "cannot write the review copy: \(job.stripPath(error.description))")
        }
        guard FileSystem.rename(temp, target) == 0 else {
            let why = Errno.current  // before unlink sets errno again
            FileSystem.unlink(temp)
            throw DocumentFailure(rule: .stageFailed, message: "cannot write the review copy: \(why)")
        }
        job.artifacts.append(Artifact(kind: "review-copy", path: relative))
        job.setSection(
            ReviewCopySection(
                file: relative, marks: marks, summaryPages: summaryPages,
                suggestedContents: suggested > 0 ? suggested : nil))
    }

    /// (#47) A link without alternate text (`access.link-no-alt`) gets the text under it as its
    /// /Contents in the copy — a suggestion for the author to keep or rewrite; the mark's note
    /// says so. Returns how many links were given one.
    func suggestContents(_ file: QPDFFile, for findings: [Finding]) -> Int {
        var n = 0
        // Said once per document: every link is in `locations`, with the text under it.
        let links = findings.filter { $0.rule == Rule.accessLinkNoAlt.id }.flatMap { f -> [(String?, String?)] in
            guard let locations = f.details["locations"]?.arrayValue else {
                return [(f.object, f.details["linkText"]?.stringValue)]
            }
            return locations.map { ($0["object"]?.stringValue, $0["linkText"]?.stringValue) }
        }
        for (object, text) in links {
            guard let text, !text.isEmpty, let parts = object?.split(separator: " "), parts.count == 3,
                let id = Int(parts[0]), let generation = Int(parts[1])
            else { continue }
            let annot = file.object(id: id, generation: generation)
            guard annot.isDictionary, annot["Subtype"]?.name == "Link", annot["Contents"]?.text?.isEmpty ?? true
            else { continue }
            annot.set("Contents", file.makeText(text))
            n += 1
        }
        return n
    }

    /// A square annotation over the rect, with a popup holding the finding.
    func addMark(_ file: QPDFFile, page: ObjectRef, rect: PDFRect, finding f: Finding, number: Int) {
        let pageObject = file.object(id: page.number, generation: page.generation)
        let box = PDFValue.array(rect.array.map { .real($0) })
        var text = "\(f.rule) (\(f.severity.rawValue)): \(f.message)"
        if let hint = f.hint { text += "\nFix: \(hint)" }
        if let fix = f.suggestedFix {
            text += "\nReplace with: \(fix.to)" + (fix.why.isEmpty ? "" : " (\(fix.why))")
        }
        if f.rule == Rule.accessLinkNoAlt.id, let under = f.details["linkText"]?.stringValue, !under.isEmpty {
            text += "\nSuggested in this copy: /Contents (\(under)), the text under the link"
        }
        let square = file.makeIndirect(
            file.make(
                .dictionary([
                    "Type": .name("Annot"), "Subtype": .name("Square"), "Rect": box,
                    "C": .array((colors[f.severity] ?? [1, 0, 0]).map { .real($0) }),
                    "BS": .dictionary(["W": .int(2)]), "F": .int(4), "NM": .string(Array("pdfpipe-\(number)".utf8)),
                ])))
        square.set("T", file.makeText("pdfpipe"))
        square.set("Contents", file.makeText(text))
        square.set("P", file.make(.ref(page)))
        let popup = file.makeIndirect(
            file.make(
                .dictionary([
                    "Type": .name("Annot"), "Subtype": .name("Popup"), "Open": .bool(false),
                    "Rect": .array([.real(rect.x2), .real(rect.y2 - 120), .real(rect.x2 + 240), .real(rect.y2)]),
                ])))
        popup.set("Parent", square)
        square.set("Popup", popup)
        if let annots = pageObject["Annots"], annots.isArray {
            annots.append(square)
            annots.append(popup)
        } else {
            let annots = file.make(.array([]))
            annots.append(square)
            annots.append(popup)
            pageObject.set("Annots", annots)
        }
    }

    /// Summary pages in front: one line per finding, linked to its page. Returns how many pages.
    func addSummary(_ file: QPDFFile, findings: [Finding], pageRefs: [ObjectRef], labels: [String]?, document: String)
        throws -> Int
    {
        var lines: [(text: String, page: Int?, severity: Severity)] = []
        for f in findings {
            var place = "document"
            if let p = f.page {
                place = "page \(p)"
                if let labels, p <= labels.count, labels[p - 1] != String(p) { place += " (\(labels[p - 1]))" }
            }
            lines.append(("\(place): \(f.severity.rawValue) \(f.rule): \(f.message)", f.page, f.severity))
        }
        let perPage = 48
        let chunks = stride(from: 0, to: max(lines.count, 1), by: perPage).map {
            Array(lines[$0..<min(lines.count, $0 + perPage)])
        }
        let font = file.makeIndirect(
            file.make(
                .dictionary([
                    "Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Helvetica"),
                    "Encoding": .name("WinAnsiEncoding"),
                ])))
        var pages: [QPDFObject] = []
        for (k, chunk) in chunks.enumerated() {
            var content = "BT /F1 14 Tf 50 750 Td (\(Self.escape("pdfpipe review: \(document)"))) Tj ET\n"
            content +=
                "BT /F1 9 Tf 50 732 Td (\(Self.escape("\(findings.count) finding\(findings.count == 1 ? "" : "s"); summary page \(k + 1) of \(chunks.count). Pages are numbered as in the original; each entry links to its page."))) Tj ET\n"
            var annots: [PDFValue] = []
            var y = 708.0
            for line in chunk {
                let rgb = colors[line.severity] ?? [0, 0, 0]
                let text = line.text.count > 110 ? String(line.text.prefix(109)) + "…" : line.text
                content += "\(rgb.map { String($0) }.joined(separator: " ")) rg 50 \(y) 5 5 re f 0 g\n"
                content += "BT /F1 9 Tf 60 \(y) Td (\(Self.escape(text))) Tj ET\n"
                if let p = line.page, p >= 1, p <= pageRefs.count {
                    let link = file.makeIndirect(
                        file.make(
                            .dictionary([
                                "Type": .name("Annot"), "Subtype": .name("Link"),
                                "Border": .array([.int(0), .int(0), .int(0)]),
                                "Rect": .array([.real(48), .real(y - 3), .real(562), .real(y + 10)]),
                                "Dest": .array([.ref(pageRefs[p - 1]), .name("Fit")]),
                            ])))
                    if let id = link.objectID { annots.append(.ref(ObjectRef(id.number, id.generation))) }
                }
                y -= 14
            }
            let stream = file.makeStream(Array(content.utf8.map { $0 }))
            var page: PDFDictionary = [
                "Type": .name("Page"), "MediaBox": .array([.int(0), .int(0), .int(612), .int(792)]),
                "Resources": .dictionary([
                    "Font": .dictionary(["F1": font.objectID.map { .ref(ObjectRef($0.number, $0.generation)) } ?? .null]
                    )
                ]),
            ]
            if let id = stream.objectID { page["Contents"] = .ref(ObjectRef(id.number, id.generation)) }
            if !annots.isEmpty { page["Annots"] = .array(annots) }
            pages.append(file.makeIndirect(file.make(.dictionary(page))))
        }
        do {
            for p in pages.reversed() { try file.addPage(p, first: true) }
        } catch {
            throw DocumentFailure(rule: .stageFailed, message: "cannot add the summary page: \(error.description)")
        }
        return pages.count
    }

    /// A PDF literal string body in WinAnsi: Latin-1 as octal escapes, other characters as '?'.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c.value {
            case 0x28, 0x29, 0x5C: out += "\\" + String(c)
            case 0x20..<0x7F: out.unicodeScalars.append(c)
            case 0xA0...0xFF: out += "\\" + String(c.value, radix: 8)
            case 0x2026: out += "\\205"
            case 0x2014: out += "\\227"
            case 0x2013: out += "\\226"
            case 0x2018, 0x2019: out += "'"
            case 0x201C, 0x201D: out += "\""
            default: out += "?"
            }
        }
        return out
    }
}
