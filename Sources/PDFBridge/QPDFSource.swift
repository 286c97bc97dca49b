internal import CQPDF
import Foundation
import PDFReader
import SystemIO

/// Objects read through qpdf, as `PDFValue`s: the fallback for files pdfpipe's own reader refuses
/// (qpdf repairs damaged files and decrypts encrypted ones). Each resolved object is converted and
/// its qpdf handles released at once.
package final class QPDFSource: ObjectSource {
    package let file: QPDFFile

    package init(_ file: QPDFFile) { self.file = file }

    package var trailer: PDFValue {
        defer { file.releaseAll() }
        return convert(file.trailer, top: true)
    }

    package func resolve(_ ref: ObjectRef) -> PDFValue {
        defer { file.releaseAll() }
        return convert(file.object(id: ref.number, generation: ref.generation), top: true)
    }

    package func streamData(_ ref: ObjectRef) -> [UInt8]? {
        defer { file.releaseAll() }
        return file.object(id: ref.number, generation: ref.generation).streamData
    }

    /// qpdf's page list (nil when it has none, or a page without an object number).
    package func pageList() -> [ObjectRef]? {
        defer { file.releaseAll() }
        guard let n = try? file.pageCount(), n > 0 else { return nil }
        var refs: [ObjectRef] = []
        for i in 0..<n {
            guard let id = file.page(i).objectID else { return nil }
            refs.append(ObjectRef(id.number, id.generation))
        }
        return refs
    }

    private func convert(_ o: QPDFObject, top: Bool, depth: Int = 0) -> PDFValue {
        if !top, let id = o.objectID { return .ref(ObjectRef(id.number, id.generation)) }
        guard depth < 256 else { return .null }
        switch o.type {
        case .null, .other: return .null
        case .boolean: return .bool(o.bool ?? false)
        case .integer: return .int(o.int ?? 0)
        case .real: return .real(o.number ?? 0)
        case .string: return .string(o.bytes ?? [])
        case .name: return .name(o.name ?? "")
        case .array: return .array(o.items.map { convert($0, top: false, depth: depth + 1) })
        case .dictionary, .stream:
            var d = PDFDictionary()
            for k in o.keys {
                if let v = o[k] { d[k] = convert(v, top: false, depth: depth + 1) }
            }
            return o.type == .stream ? .stream(d, dataOffset: -1) : .dictionary(d)
        }
    }
}

/// Opens a document's objects: pdfpipe's own reader when it accepts the file, qpdf otherwise.
package enum ObjectSources {
    /// The file's objects through pdfpipe's reader, or through qpdf (`qpdf` opens it) when the
    /// reader declines the file. `PDFPIPE_READER=qpdf` in the environment makes qpdf read every
    /// file (to compare the two). Used for GoToR targets, whose damage is the target's business:
    /// the linking document's findings say only whether the target has the destination.
    package static func open(path: String, qpdf: () throws(BridgeError) -> QPDFFile) throws(BridgeError)
        -> any ObjectSource
    {
        if Environment["PDFPIPE_READER"] == "qpdf" { return QPDFSource(try qpdf()) }
        do {
            return try PDFReader(path: path)
        } catch {
            return QPDFSource(try qpdf())
        }
    }
}
