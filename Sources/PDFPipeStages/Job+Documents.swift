import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// The documents a job opens, shared by its stages (each opened once per working file).
extension Job {
    /// The working file read through qpdf, opened on first use. qpdf's warnings while opening become
    /// `pdf.damaged` findings; a file that cannot be opened ends the document (`pdf.unreadable`,
    /// `pdf.password-required`).
    package mutating func qpdf() throws(DocumentFailure) -> QPDFFile {
        if let f = resources.existing(QPDFFile.self) { return f }
        do {
            let f = try QPDFFile(path: workingFile)
            resources.store(f)
            let before = findings.count
            reportWarnings(of: f)
            resources.store(QPDFOpenWarnings(findings.count - before))
            return f
        } catch {
            throw failure(error, library: "qpdf")
        }
    }

    /// Why a file that a library refused is not a PDF at all, when that is the reason: empty, or
    /// no `%PDF-` header in the first kilobyte (where readers look for it).
    func notAPDF() -> String? {
        guard let handle = FileHandle(forReadingAtPath: workingFile) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        if head.isEmpty { return "the file is empty (0 bytes)" }
        if head.range(of: Data("%PDF-".utf8)) == nil {
            return "not a PDF file: no '%PDF-' header in the first 1024 bytes"
        }
        return nil
    }

    /// The working file's objects: pdfpipe's own reader, or qpdf when the reader refuses the file
    /// (damaged, encrypted, unusual filters). Opened on first use.
    ///
    /// The reader may decline, never guess: a file whose cross-reference table it cannot take as
    /// written goes to qpdf whole, and an object it cannot read exactly as written (an offset that
    /// is not where the object is, nesting past its limit, a number out of range) is read through
    /// qpdf alone. Either is a `pdf.damaged` finding, unless qpdf's own warnings already say it.
    /// `PDFPIPE_READER=qpdf` in the environment makes qpdf read every file (to compare the two).
    package mutating func objects() throws(DocumentFailure) -> any ObjectSource {
        if let box = resources.existing(ObjectSourceBox.self) { return box.source }
        if let qpdf = resources.existing(QPDFFile.self) {
            // qpdf is open already (inspect ran): no need to read the file twice.
            let box = ObjectSourceBox(QPDFSource(qpdf))
            resources.store(box)
            return box.source
        }
        if Environment["PDFPIPE_READER"] == "qpdf" {
            let box = ObjectSourceBox(QPDFSource(try qpdf()))
            resources.store(box)
            return box.source
        }
        let reader: PDFReader
        do {
            reader = try PDFReader(path: workingFile)
        } catch {
            if error.isLimit {
                // A decompression bomb in the cross-reference streams: qpdf would inflate it whole.
                throw DocumentFailure(
                    rule: .pdfLimitExceeded,
                    message:
                        "\(error.description): past the bounds for a file of this size; the document was not read and its links were not checked"
                )
            }
            let file = try qpdf()
            let box = ObjectSourceBox(QPDFSource(file))
            // Said after the stage, and only if qpdf's warnings (some come as objects are read)
            // did not say it already.
            if error.isDamage { box.refusal = error.description }
            resources.store(box)
            return box.source
        }
        let box = ObjectSourceBox(reader)
        let path = workingFile
        reader.fallback = { [unowned box] in
            guard let file = try? QPDFFile(path: path) else { return nil }
            box.fallbackFile = file
            return QPDFSource(file)
        }
        resources.store(box)
        return reader
    }

    /// The working file read through poppler, opened on first use.
    package mutating func poppler() throws(DocumentFailure) -> PopplerFile {
        if let f = resources.existing(PopplerFile.self) { return f }
        do {
            let f = try PopplerFile(path: workingFile)
            resources.store(f)
            reportMessages(of: f)
            return f
        } catch {
            throw failure(error, library: "poppler")
        }
    }

    private func failure(_ error: BridgeError, library: String) -> DocumentFailure {
        switch error {
        case .passwordRequired(_, let message):
            return DocumentFailure(
                rule: .pdfPasswordRequired,
                message: "the document needs a user password to open (\(library): \(message))")
        default:
            let reason = "\(library) cannot open the file: \(stripPath(error.description))"
            if let why = notAPDF() {
                return DocumentFailure(
                    rule: .pdfUnreadable, message: why.hasPrefix("the file is empty") ? why : "\(why) (\(reason))")
            }
            return DocumentFailure(
                rule: .pdfUnreadable, message: reason + (library == "qpdf" ? popplerSecondOpinion() : ""))
        }
    }

    /// Before giving up on a file qpdf cannot read, the other reader: one that poppler reads (as
    /// MuPDF and PDFium often do) is damaged beyond qpdf's repair, not "not a PDF". Says which
    /// reader managed, and that pdfpipe could not check it. Empty when poppler fails too.
    func popplerSecondOpinion() -> String {
        guard let other = try? PopplerFile(path: workingFile) else { return "" }
        let n = other.pageCount
        if n == 0 { return "; poppler opens it but finds no page either" }
        return
            "; poppler reads it (\(n) page\(n == 1 ? "" : "s")), so viewers may show it, but it is damaged beyond qpdf's repair and pdfpipe could not check it"
    }

    /// qpdf's messages start with the file's path; reports carry no absolute paths.
    func stripPath(_ text: String, also paths: [String] = []) -> String {
        var t = text
        for p in [workingFile, source] + paths where t.hasPrefix(p) {
            t = String(t.dropFirst(p.count))
            if t.hasPrefix(": ") { t = String(t.dropFirst(2)) } else if t.hasPrefix(" ") { t = String(t.dropFirst()) }
            break
        }
        return t
    }

    /// Reports qpdf's repair messages as one `pdf.damaged` finding per document: the first message,
    /// how many there were, and the first ten under `messages` (one problem, one finding: a broken
    /// cross-reference table makes qpdf say dozens of things).
    public mutating func reportDamage(_ messages: [String]) {
        guard !messages.isEmpty else { return }
        let texts = messages.map { qpdfMessage($0) }
        if let i = findings.firstIndex(where: { $0.rule == Rule.pdfDamaged.id && $0.details["qpdfMessages"] != nil }) {
            var f = findings[i]
            let count = (f.details["count"]?.intValue ?? 1) + texts.count
            var kept = f.details["qpdfMessages"]?.arrayValue ?? []
            kept += texts.prefix(max(0, 10 - kept.count)).map { .string($0.text) }
            f.details["count"] = .int(count)
            f.details["qpdfMessages"] = .array(kept)
            f.message = Self.damageMessage(first: kept.first?.stringValue ?? "", count: count)
            findings[i] = f
            return
        }
        var f = Finding(
            rule: .pdfDamaged, object: texts[0].object,
            message: Self.damageMessage(first: texts[0].text, count: texts.count))
        f.details["count"] = .int(texts.count)
        f.details["qpdfMessages"] = .array(texts.prefix(10).map { .string($0.text) })
        report(f)
    }

    static func damageMessage(first: String, count: Int) -> String {
        "qpdf: \(first)"
            + (count > 1 ? " (and \(count - 1) more qpdf warning\(count == 2 ? "" : "s"): see qpdfMessages)" : "")
    }

    /// Writes a file of the document's output (atomically) and lists it under `artifacts`; a
    /// failure ends the document with `stage.failed`, naming `what` could not be written.
    public mutating func writeArtifact(_ bytes: [UInt8], kind: String, path relative: String, what: String) throws {
        do {
            try AtomicFile.write(bytes, to: outputDirectory + "/" + relative)
        } catch {
            throw DocumentFailure(rule: .stageFailed, message: "cannot write \(what): \(error.reason)")
        }
        artifacts.append(Artifact(kind: kind, path: relative))
    }

    /// Turns qpdf's pending warnings into `pdf.damaged` findings.
    package mutating func reportWarnings(of file: QPDFFile) {
        reportDamage(file.takeWarnings().map(\.text))
    }

    /// A qpdf message for a report: "WARNING: FILE (object 5 0, offset 12): message" becomes
    /// "message (object 5 0, offset 12)", without the path, and the object as `5 0 R`.
    func qpdfMessage(_ line: String, paths: [String] = []) -> (text: String, object: String?) {
        var object: String?
        if let r = line.range(of: "(object "),
            let end = line[r.upperBound...].firstIndex(where: { $0 == "," || $0 == ")" })
        {
            object = String(line[r.upperBound..<end]) + " R"
        }
        var t = line
        for prefix in ["WARNING: ", "qpdf: "] where t.hasPrefix(prefix) { t = String(t.dropFirst(prefix.count)) }
        t = stripPath(t, also: paths)
        if t.hasPrefix("("), let close = t.range(of: "): ") {
            t = String(t[close.upperBound...]) + " " + String(t[..<t.index(after: close.lowerBound)])
        }
        return (t, object)
    }

    /// Turns poppler's pending log messages into `pdf.parse-message` notes (at most 20 kept by stage).
    package mutating func reportMessages(of file: PopplerFile) {
        let (messages, dropped) = file.log.drain()
        reportPopplerMessages(messages, dropped: dropped)
    }

    /// Poppler's messages as findings, each once (a document read by several workers says some of
    /// them once per worker): the first 20, and how many more there were.
    mutating func reportPopplerMessages(_ all: [String], dropped: Int = 0, library: String = "poppler") {
        var seen = Set<String>()
        // Once validate-links has checked the document, poppler's complaints about its links
        // ("Illegal annotation destination", "Circular next actions") only repeat the link
        // findings, which say more (the link, the page, what viewers do): left out.
        let linksChecked = sections[LinkSummarySection.key] != nil
        let messages = all.filter {
            seen.insert($0).inserted && !(linksChecked && Self.isAboutLinks($0))
        }
        // The hint names the library that said it (a MuPDF engine's notes are MuPDF's, #34, 6).
        let hint = "the message comes from \(library); it often points at damaged or unusual structure"
        for m in messages.prefix(20) {
            report(
                Finding(
                    rule: .pdfParseMessage,
                    message: "\(library): \(m.trimmingCharacters(in: .whitespacesAndNewlines))", hint: hint))
        }
        let more = max(0, messages.count - 20) + dropped
        if more > 0 {
            report(Finding(rule: .pdfParseMessage, message: "\(library): \(more) more messages not shown"))
        }
    }

    /// Whether a poppler message is about a link, a destination or an action (what validate-links
    /// reports in full).
    static func isAboutLinks(_ message: String) -> Bool {
        let m = message.lowercased()
        return ["destination", "parseaction", "next actions", "uri-type link", "link annotation", "goto", "launch"]
            .contains { m.contains($0) }
    }

    /// `engineDocument(engine)` for a stage that makes `what` of every page, which must never end
    /// with nothing made and nothing said: a document the engine cannot open, or in which it finds
    /// no page, ends the document with a finding that says why and what the other readers make of
    /// it. Where pdfpipe's reader (or qpdf) reads pages that the engine does not, the file is not
    /// unreadable (viewers may show it): `stage.failed`, naming both; where nobody finds a page,
    /// `pdf.unreadable`, as the link stages say.
    package mutating func engineDocumentWithPages(_ engine: PageEngine, making what: String) throws(DocumentFailure)
        -> any EngineDocument
    {
        let library = engine == .mupdf ? "MuPDF" : "poppler"
        var opened: (any EngineDocument)?
        var refused: DocumentFailure?
        do { opened = try engineDocument(engine) } catch { refused = error }
        if let document = opened, document.pageCount > 0 { return document }
        if let refused, refused.rule != .pdfUnreadable { throw refused }
        // How many pages the other readers find.
        var others = 0
        if let reader = try? PDFReader(path: workingFile) {
            others = PageTree.pages(reader).count
        } else if let q = try? QPDFFile(path: workingFile) {
            others = (try? q.pageCount()) ?? 0
        }
        let problem =
            refused.map { stripPath($0.message) } ?? "\(library) finds no page in the document"
        if others > 0 {
            throw DocumentFailure(
                rule: .stageFailed,
                message:
                    "\(problem), though its page tree has \(others) page\(others == 1 ? "" : "s") (pdfpipe's reader or qpdf): no \(what) made (viewers built on \(library) cannot show it either\(engine == .poppler ? "; the MuPDF engine may" : ""))"
            )
        }
        throw DocumentFailure(
            rule: .pdfUnreadable,
            message:
                "\(problem), and no page could be read from the page tree (/Root /Pages) by pdfpipe's reader or qpdf either: no \(what) made"
        )
    }

    /// The working file read through `engine` for rendering and text: poppler (the job's shared
    /// document) or MuPDF (opened on first use, kept for the document's other stages).
    package mutating func engineDocument(_ engine: PageEngine) throws(DocumentFailure) -> any EngineDocument {
        switch engine {
        case .poppler:
            return try poppler()
        case .mupdf:
            if let f = resources.existing(MuPDFFile.self) { return f }
            do {
                let f = try MuPDFFile(path: workingFile)
                resources.store(f)
                reportPopplerMessages(f.drainMessages(), library: "MuPDF")
                return f
            } catch {
                if case .passwordRequired(_, let m) = error {
                    throw DocumentFailure(
                        rule: .pdfPasswordRequired,
                        message: "the document needs a user password to open (MuPDF: \(m))")
                }
                throw DocumentFailure(
                    rule: .pdfUnreadable, message: "MuPDF cannot open the file: \(stripPath(error.description))")
            }
        }
    }
}
