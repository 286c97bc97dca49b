/// An incremental update (ISO 32000-2 7.5.6): new versions of some objects appended to a file's
/// bytes, with a cross-reference section for them whose `/Prev` points at the file's newest one.
/// The original bytes stay a prefix of the result, so a signature over them stays valid and the
/// change can be audited (`qpdf --show-xref`, or reading the revisions apart).
///
/// The section is a table where the file's newest one is a table, and a cross-reference stream
/// where it is a stream (a reader of a file with streams may know nothing of tables). Encrypted
/// files are not updated: their strings would have to be encrypted too.
package enum IncrementalUpdate {
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// The bytes to append to `reader`'s file for `objects` (each replacing the object of its
    /// number and generation).
    package static func tail(for reader: PDFReader, replacing objects: [(ObjectRef, PDFValue)]) throws(Refusal)
        -> [UInt8]
    {
        guard case .dictionary(let trailer) = reader.trailer else {
            throw Refusal(description: "the file has no trailer")
        }
        guard trailer["Encrypt"] == nil else { throw Refusal(description: "the file is encrypted") }
        guard !objects.isEmpty else { return [] }
        let base = reader.byteCount
        var out: [UInt8] = []
        // After the file's last byte: a line break first, unless it ends with one.
        if let last = reader.lastByte, last != 0x0A, last != 0x0D { out.append(0x0A) }
        var offsets: [(ObjectRef, Int)] = []
        for (ref, value) in objects.sorted(by: { $0.0.number < $1.0.number }) {
            guard let body = value.written else {
                throw Refusal(description: "object \(ref) cannot be written as a new revision")
            }
            offsets.append((ref, base + out.count))
            out += Array("\(ref.number) \(ref.generation) obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        var size = 0
        if case .int(let s)? = trailer["Size"] { size = s }
        // A hostile /Size would overflow the next object number: past the numbers the reader
        // accepts, no update is written.
        guard size >= 0, size <= PDFReader.maxObjectNumber + 1 else {
            throw Refusal(description: "the trailer's /Size \(size) is out of range")
        }
        size = max(size, (offsets.map { $0.0.number }.max() ?? 0) + 1)
        var next = PDFDictionary()
        for key in ["Root", "Info", "ID"] { if let v = trailer[key] { next[key] = v } }
        next["Prev"] = .int(reader.newestSection.offset)
        let sectionOffset = base + out.count
        if reader.newestSection.isStream {
            try appendStream(offsets, own: ObjectRef(size, 0), at: sectionOffset, trailer: next, to: &out)
        } else {
            next["Size"] = .int(size)
            try appendTable(offsets, trailer: next, to: &out)
        }
        out += Array("startxref\n\(sectionOffset)\n%%EOF\n".utf8)
        return out
    }

    /// A cross-reference stream (object `own`, at `offset`) for the objects at `offsets`, itself
    /// included: type 1, offset, generation in each entry (`/W [1 4 2]`; 8 bytes for offsets
    /// past 4 GB).
    static func appendStream(
        _ offsets: [(ObjectRef, Int)], own: ObjectRef, at offset: Int, trailer: PDFDictionary, to out: inout [UInt8]
    ) throws(Refusal) {
        var next = trailer
        let entries = (offsets + [(own, offset)]).sorted { $0.0.number < $1.0.number }
        let width = offset > Int(UInt32.max) ? 8 : 4
        var data: [UInt8] = []
        for (ref, offset) in entries {
            data.append(1)
            for k in stride(from: width - 1, through: 0, by: -1) { data.append(UInt8((offset >> (8 * k)) & 0xFF)) }
            data.append(UInt8((ref.generation >> 8) & 0xFF))
            data.append(UInt8(ref.generation & 0xFF))
        }
        next["Type"] = .name("XRef")
        next["Size"] = .int(own.number + 1)
        next["W"] = .array([.int(1), .int(width), .int(2)])
        next["Index"] = .array(entries.flatMap { [PDFValue.int($0.0.number), .int(1)] })
        next["Length"] = .int(data.count)
        guard let dict = PDFValue.dictionary(next).written else { throw Refusal(description: "the trailer") }
        out += Array("\(own.number) 0 obj\n".utf8) + dict + Array("\nstream\n".utf8) + data
        out += Array("\nendstream\nendobj\n".utf8)
    }

    /// A cross-reference table for the objects at `offsets`, and its trailer.
    static func appendTable(_ offsets: [(ObjectRef, Int)], trailer: PDFDictionary, to out: inout [UInt8])
        throws(Refusal)
    {
        func padded(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        out += Array("xref\n".utf8)
        for (ref, offset) in offsets {
            out += Array("\(ref.number) 1\n\(padded(offset, 10)) \(padded(ref.generation, 5)) n\r\n".utf8)
        }
        guard let dict = PDFValue.dictionary(trailer).written else { throw Refusal(description: "the trailer") }
        out += Array("trailer\n".utf8) + dict + Array("\n".utf8)
    }
}
