import Foundation
import PDFBridge
import PDFPipeCore

/// The documents a job opens, shared by its stages (each opened once per working file).
extension Job {
    /// The working file read through qpdf, opened on first use. qpdf's warnings while opening become
    /// `pdf.damaged` findings; a file that cannot be opened ends the document (`pdf.unreadable`,
    /// `pdf.password-required`).
    public mutating func qpdf() throws(DocumentFailure) -> QPDFFile {
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
        if head.range(of: Data("%PDF-".utf8)) == nil { return "not a PDF file: no '%PDF-' header in the first 1024 bytes" }
        return nil
    }

    /// The working file's objects: pdfpipe's own reader, or qpdf when the reader refuses the file
    /// (damaged, encrypted, unusual filters). Opened on first use.
    public mutating func objects() throws(DocumentFailure) -> any ObjectSource {
        if let box = resources.existing(ObjectSourceBox.self) { return box.source }
        if let qpdf = resources.existing(QPDFFile.self) {
            // qpdf is open already (inspect ran): no need to read the file twice.
            let box = ObjectSourceBox(QPDFSource(qpdf))
            resources.store(box)
            return box.source
        }
        var failure: DocumentFailure?
        let path = workingFile
        var opened: QPDFFile?
        let result = try? ObjectSources.open(path: path) { () throws(BridgeError) -> QPDFFile in
            do throws(BridgeError) {
                let f = try QPDFFile(path: path)
                opened = f
                return f
            } catch {
                failure = self.failure(error, library: "qpdf")
                throw error
            }
        }
        if let opened {
            resources.store(opened)
            reportWarnings(of: opened)
        }
        guard let result else { throw failure ?? DocumentFailure(rule: "pdf.unreadable", message: "the file cannot be read") }
        let box = ObjectSourceBox(result.source)
        resources.store(box)
        return box.source
    }

    /// The working file read through poppler, opened on first use.
    public mutating func poppler() throws(DocumentFailure) -> PopplerFile {
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
                rule: "pdf.password-required", message: "the document needs a user password to open (\(library): \(message))")
        default:
            let reason = "\(library) cannot open the file: \(stripPath(error.description))"
            if let why = notAPDF() {
                return DocumentFailure(rule: "pdf.unreadable", message: why.hasPrefix("the file is empty") ? why : "\(why) (\(reason))")
            }
            return DocumentFailure(rule: "pdf.unreadable", message: reason)
        }
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

    /// Reports qpdf messages as `pdf.damaged` findings, at most 50 per document.
    public mutating func reportDamage(_ messages: [String]) {
        let limit = 50
        for m in messages {
            let already = findings.count { $0.rule == "pdf.damaged" }
            if already > limit { break }
            if already == limit {
                report(Finding(rule: "pdf.damaged", message: "more qpdf warnings not shown"))
                break
            }
            let (text, object) = qpdfMessage(m)
            report(Finding(rule: "pdf.damaged", object: object, message: "qpdf: \(text)"))
        }
    }

    /// Writes a file of the document's output (atomically) and lists it under `artifacts`; a
    /// failure ends the document with `stage.failed`, naming `what` could not be written.
    public mutating func writeArtifact(_ bytes: [UInt8], kind: String, path relative: String, what: String) throws {
        do {
            try AtomicFile.write(bytes, to: outputDirectory + "/" + relative)
        } catch {
            throw DocumentFailure(rule: "stage.failed", message: "cannot write \(what): \(error.reason)")
        }
        artifacts.append(Artifact(kind: kind, path: relative))
    }

    /// Turns qpdf's pending warnings into `pdf.damaged` findings.
    public mutating func reportWarnings(of file: QPDFFile) {
        reportDamage(file.takeWarnings().map(\.text))
    }

    /// A qpdf message for a report: "WARNING: FILE (object 5 0, offset 12): message" becomes
    /// "message (object 5 0, offset 12)", without the path, and the object as `5 0 R`.
    func qpdfMessage(_ line: String, paths: [String] = []) -> (text: String, object: String?) {
        var object: String?
        if let r = line.range(of: "(object "), let end = line[r.upperBound...].firstIndex(where: { $0 == "," || $0 == ")" }) {
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
    public mutating func reportMessages(of file: PopplerFile) {
        let (messages, dropped) = file.log.drain()
        reportPopplerMessages(messages, dropped: dropped)
    }

    /// Poppler's messages as findings, each once (a document read by several workers says some of
    /// them once per worker): the first 20, and how many more there were.
    mutating func reportPopplerMessages(_ all: [String], dropped: Int = 0) {
        var seen = Set<String>()
        let messages = all.filter { seen.insert($0).inserted }
        for m in messages.prefix(20) {
            report(Finding(rule: "pdf.parse-message", message: "poppler: \(m.trimmingCharacters(in: .whitespacesAndNewlines))"))
        }
        let more = max(0, messages.count - 20) + dropped
        if more > 0 { report(Finding(rule: "pdf.parse-message", message: "poppler: \(more) more messages not shown")) }
    }
}

/// Holds a job's object source in its resources.
final class ObjectSourceBox {
    let source: any ObjectSource
    init(_ source: any ObjectSource) { self.source = source }
}

/// How many warnings qpdf gave while opening the working file (the check stage counts them).
final class QPDFOpenWarnings {
    let count: Int
    init(_ count: Int) { self.count = count }
}
