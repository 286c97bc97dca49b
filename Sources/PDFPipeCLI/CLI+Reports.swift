import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// Reading report.json files of any size (a document at a time) and other JSON inputs.
extension CLI {
    /// A JSON file named on the command line, its problems as errors naming it.
    func readJSON(_ file: String, unreadable: String) throws(PipelineError) -> JSONValue {
        let path = Paths.absolute(file, relativeTo: directory)
        guard let data = FileSystem.contents(path) else {
            throw PipelineError(file: file, message: "\(unreadable): \(Self.whyUnreadable(path))")
        }
        do throws(JSONSyntaxError) {
            return try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw PipelineError(file: file, location: error.location, message: "malformed JSON: \(error.message)")
        }
    }

    func readReport(_ file: String) throws(PipelineError) -> RunReport { try readReport(file, documents: true) }

    /// A report.json; without `documents`, only its header (what is around the documents array,
    /// which is scanned over, not parsed: reports of any size).
    func readReport(_ file: String, documents: Bool) throws(PipelineError) -> RunReport {
        var elements: [Range<Int>]?
        return try readReport(file, documents: documents, elements: &elements).report
    }

    /// The same; without `documents`, also where each document lies (`elements`, when asked for
    /// with a non-nil value) and the mapped file, so that `merge` scans each report once.
    func readReport(_ file: String, documents: Bool, elements: inout [Range<Int>]?) throws(PipelineError) -> (
        report: RunReport, mapped: MappedFile?
    ) {
        let value: JSONValue
        var kept: MappedFile?
        if documents {
            value = try readJSON(file, unreadable: "cannot read the report")
        } else {
            let file0 = try mapped(file)
            let wanted = elements != nil
            var found: [Range<Int>] = []
            let header = file0.withBytes { raw in
                var dropped = 0
                let array = JSONScanner.forEachElement(of: "documents", in: raw) {
                    if wanted { found.append($0) }
                    // Scanned pages leave memory (1 MB at a time): a merge reads them again, one
                    // document at a time.
                    if $0.upperBound - dropped >= 1 << 20 {
                        file0.drop(dropped..<$0.upperBound)
                        dropped = $0.upperBound
                    }
                    return true
                }
                file0.drop(0..<raw.count)
                return array.map { Array(raw[..<$0.lowerBound]) + Array("[]".utf8) + Array(raw[$0.upperBound...]) }
            }
            guard let header else { return (try readReport(file, documents: true), nil) }
            if wanted {
                elements = found
                kept = file0
            }
            var parser = JSONParser(bytes: header, tracksLocations: false)
            do throws(JSONSyntaxError) {
                value = try parser.parseDocument()
            } catch {
                throw PipelineError(file: file, message: "malformed JSON: \(error.message)")
            }
        }
        do throws(ReportDecodingError) {
            return (try RunReport(json: value), kept)
        } catch {
            throw PipelineError(file: file, message: "\(error)")
        }
    }

    /// Whether a JSON file is a report (its top-level object has a `documents` member), from its
    /// first kilobytes: a baseline file has `format` and `findings` instead.
    static func looksLikeReport(_ raw: UnsafeRawBufferPointer) -> Bool {
        String(decoding: raw.prefix(1 << 16), as: UTF8.self).contains("\"documents\":")
    }

    /// Why a file cannot be read: missing, a folder, or not readable.
    static func whyUnreadable(_ path: String) -> String {
        guard let kind = FileSystem.kind(path) else { return "no such file" }
        if kind == .directory { return "it is a folder" }
        return FileSystem.isReadable(path) ? "it could not be read" : "permission denied"
    }

    /// The file mapped into memory, its pages handed back as they are read (see `MappedFile`).
    func mapped(_ file: String) throws(PipelineError) -> MappedFile {
        let path = Paths.absolute(file, relativeTo: directory)
        guard let m = try? MappedFile(path: path, sequential: true) else {
            throw PipelineError(file: file, message: "cannot read the report: \(Self.whyUnreadable(path))")
        }
        return m
    }

    /// Each document of a report.json, parsed one at a time, in the report's order.
    func eachDocument(of file: String, _ body: (DocumentResult) throws(PipelineError) -> Void) throws(PipelineError) {
        let mapped = try mapped(file)
        var failure: PipelineError?
        var i = 0
        let array = mapped.withBytes { raw in
            JSONScanner.forEachElement(of: "documents", in: raw) { range in
                defer { i += 1 }
                var parser = JSONParser(bytes: Array(raw[range]), tracksLocations: false)
                mapped.release(upTo: range.upperBound)
                let d: DocumentResult
                do {
                    d = try DocumentResult(json: try parser.parseDocument())
                } catch {
                    failure = PipelineError(file: file, message: "documents[\(i)]: \(error)")
                    return false
                }
                do throws(PipelineError) { try body(d) } catch {
                    failure = error
                    return false
                }
                return true
            }
        }
        if let failure { throw failure }
        if array == nil { throw PipelineError(file: file, message: "not a pdfpipe report (no documents array)") }
    }
}
