import Foundation
import SystemIO

/// pdfpipe's own reader of PDF objects: the cross-reference table or streams, and objects parsed
/// on demand — one object at a time, nothing cached but the decompressed object streams.
///
/// qpdf parses and keeps every object of an object stream as soon as one of them is needed, and
/// never lets go of them, so an audit of a large manual holds the whole file's objects in memory.
/// Reading only what the audit asks for is several times faster and keeps memory flat. This reader
/// handles what conforming writers produce; anything else (damage, encryption, unusual filters)
/// makes it refuse (`PDFReaderError`), and the caller falls back to qpdf, which repairs and decrypts.
package final class PDFReader: ObjectSource {
    package let path: String
    let data: MappedFile
    package private(set) var trailer: PDFValue = .null
    /// Cross-reference entries by object number (nil: free or absent).
    private var xref: [Entry?] = []
    private var entryCount = 0
    /// Object numbers past this make the reader refuse the file (qpdf takes it).
    static let maxObjectNumber = 8_000_000

    private func entry(_ n: Int) -> Entry? { n > 0 && n < xref.count ? xref[n] : nil }

    /// Records an entry unless a newer section gave one already.
    private func setIfAbsent(_ n: Int, _ e: Entry) throws {
        guard n > 0, n <= Self.maxObjectNumber else {
            throw PDFReaderError(description: "object number \(n) is out of range", isDamage: false)
        }
        if n >= xref.count {
            xref.append(contentsOf: repeatElement(nil, count: max(n + 1 - xref.count, xref.count / 2)))
        }
        if xref[n] == nil {
            xref[n] = e
            entryCount += 1
        }
    }
    /// Decompressed object streams: their data and where each object starts.
    private var objectStreams: [Int: ObjectStream] = [:]
    private var objectStreamBytes = 0
    /// Objects being resolved (a /Length that refers to itself, say).
    private var resolving: Set<Int> = []

    enum Entry {
        case offset(Int, generation: Int)
        case compressed(stream: Int, index: Int)
    }

    struct ObjectStream {
        var data: [UInt8]
        var offsets: [Int: Int]
    }

    /// Refuses files it does not handle; the message says why (for the fallback's note).
    package struct PDFReaderError: Error, CustomStringConvertible {
        package var description: String
        /// The file is not as written (damage), rather than using something the reader leaves
        /// to qpdf (encryption, a filter it does not decode, a huge object number).
        package var isDamage: Bool
        /// A stream inflates past the reader's bounds (a decompression bomb): nothing in this
        /// process may decode it, so it is not handed to qpdf either.
        package var isLimit = false

        package init(description: String, isDamage: Bool = true, isLimit: Bool = false) {
            self.description = description
            self.isDamage = isDamage
            self.isLimit = isLimit
        }

        init(_ e: StreamDecoder.Unsupported, _ what: String) {
            self.init(description: "\(what): \(e)", isDamage: false, isLimit: e.isLimit)
        }
    }

    /// What one stream may inflate to: 100 times the file's size, at least 16 MB, at most 256 MB.
    package let streamLimit: Int
    /// What all the streams the reader decodes may inflate to together (re-decoding an evicted
    /// object stream counts again): 200 times the file's size, at least 64 MB, at most 1 GB. A
    /// decompression bomb (a few KB that inflate to gigabytes) stops at the first bound, is
    /// declined and said, and never reaches qpdf, which would decode it whole.
    package private(set) var inflateBudget: Int

    /// The bound for the next stream, and the bookkeeping after it.
    private var nextLimit: Int { max(0, min(streamLimit, inflateBudget)) }
    private func spend(_ n: Int) { inflateBudget -= n }

    /// An object the reader could not read exactly as written, and why.
    package struct Decline: Sendable, Equatable {
        package var object: ObjectRef
        package var reason: String
        /// False when the object uses something the reader leaves to qpdf (a filter, say).
        package var isDamage: Bool
    }

    /// Objects `resolve` could not read exactly as written (each was handed to `fallback`).
    package private(set) var declines: [Decline] = []
    /// Of those, the ones not read at all because a stream inflates past the bounds (not handed
    /// to `fallback`: qpdf would decode it whole): said as `pdf.limit-exceeded`.
    package private(set) var limitDeclines: [Decline] = []

    /// Objects read with a value repaired as poppler and MuPDF repair it (an integer past 64 bits,
    /// read as a real), and what was repaired: one bad value, not a bad object. Each is said in a
    /// `pdf.damaged` finding; the rest of the object is read as written.
    package private(set) var repairs: [Decline] = []
    private var repaired: Set<ObjectRef> = []

    private func noteRepairs(_ p: PDFParser, _ ref: ObjectRef, base: String = "") {
        guard p.overflowedIntegers > 0, repaired.insert(ref).inserted else { return }
        let location = p.firstOverflowOffset.map { " (\(base)offset \($0))" } ?? ""
        let what = p.overflowedIntegers == 1 ? "an integer" : "\(p.overflowedIntegers) integers"
        repairs.append(
            Decline(
                object: ref,
                reason: "object \(ref) has \(what) past 64 bits\(location), read as a real as poppler and MuPDF do",
                isDamage: true))
    }

    /// Where an object goes when this reader cannot read it exactly as written: qpdf, whose
    /// recovery repairs what it can. Made on first use; nil: such objects read as null (and are
    /// still listed in `declines`).
    package var fallback: (() -> (any ObjectSource)?)?
    private var fallbackSource: (any ObjectSource)??

    /// Bound on decompressed object streams kept at once.
    static let objectStreamBudget = 128 << 20

    /// Throws unless `path` is a regular file of at most `maxBytes` (opened without blocking).
    package static func checkRegularFile(_ path: String, maxBytes: Int) throws(PDFReaderError) {
        do {
            try MappedFile.checkRegular(path, maxBytes: maxBytes)
        } catch {
            throw PDFReaderError(description: error.description, isDamage: false)
        }
    }

    /// Reads the cross-reference sections of `path`, a regular file of at most `maxBytes`.
    package init(path: String, maxBytes: Int = .max) throws(PDFReaderError) {
        self.path = path
        do {
            data = try MappedFile(path: path, maxBytes: maxBytes)
        } catch {
            throw PDFReaderError(description: error.description, isDamage: false)
        }
        let size = data.count
        streamLimit = min(256 << 20, max(16 << 20, size.multipliedReportingOverflow(by: 100).partialValue))
        inflateBudget = min(1 << 30, max(64 << 20, size.multipliedReportingOverflow(by: 200).partialValue))
        do {
            try readCrossReferences()
        } catch let e as PDFReaderError {
            throw e
        } catch let e as StreamDecoder.Unsupported {
            throw PDFReaderError(description: "\(e)", isDamage: false, isLimit: e.isLimit)
        } catch {
            throw PDFReaderError(description: "\(error)")
        }
        guard case .dictionary(let t) = trailer else { throw PDFReaderError(description: "no trailer") }
        if let e = t["Encrypt"] {
            var value = e
            if case .ref(let r) = e { value = (try? object(r)) ?? .null }
            if case .dictionary = value {
                throw PDFReaderError(description: "the file is encrypted", isDamage: false)
            }
            // An /Encrypt that is not a dictionary encrypts nothing: MuPDF, PDFium and poppler
            // open such a file as it is (qpdf refuses it).
            if case .null = value {
            } else {
                repairs.append(
                    Decline(
                        object: ObjectRef(0, 0),
                        reason:
                            "the trailer's /Encrypt is \(value.typeName), not a dictionary; read as not encrypted, as MuPDF, PDFium and poppler do",
                        isDamage: true))
            }
        }
        guard case .ref(let root)? = t["Root"] else { throw PDFReaderError(description: "the trailer has no /Root") }
        try verifyOffsets()
        // A catalog that does not read would make an empty document of a broken one.
        guard case .dictionary = (try? object(root)) ?? .null else {
            throw PDFReaderError(description: "the catalog \(root) is not a dictionary in the cross-reference sections")
        }
    }

    /// Every offset of the cross-reference sections must land on its `N G obj`: one that does not
    /// means the table is wrong (shifted by an edit, say), and whatever the reader made of it would
    /// be a guess — an object read as null, a link that vanishes. qpdf reconstructs such tables.
    /// This costs a few microseconds an object: the words at each offset, nothing more.
    private func verifyOffsets() throws(PDFReaderError) {
        var bad: (Int, Int, Int)?
        var badCount = 0
        data.withUnsafeBufferPointer { b in
            for (n, e) in xref.enumerated() {
                guard case .offset(let offset, let generation)? = e else { continue }
                var p = PDFParser(b, at: offset)
                if offset >= b.count || p.integer() != n || p.integer() != generation || !p.keyword("obj") {
                    if bad == nil { bad = (n, generation, offset) }
                    badCount += 1
                }
            }
        }
        if let (n, g, offset) = bad {
            let more = badCount > 1 ? " (and \(badCount - 1) more objects)" : ""
            throw PDFReaderError(
                description:
                    "the cross-reference table gives offset \(offset) for object \(n) \(g), which is not where '\(n) \(g) obj' is\(more)"
            )
        }
    }

    // MARK: - Cross-reference sections

    /// Where the newest cross-reference section starts, and whether it is a stream: what an
    /// incremental update's `/Prev` points at, and the kind of section it writes
    /// (`IncrementalUpdate`).
    package private(set) var newestSection: (offset: Int, isStream: Bool) = (0, false)

    /// The number of bytes of the file.
    package var byteCount: Int { data.count }

    /// The file's bytes, for `body` to read (a copy the update is appended to).
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try data.withUnsafeBufferPointer(body)
    }

    /// The file's last byte (an incremental update begins on a line of its own).
    package var lastByte: UInt8? { data.count > 0 ? data[data.count - 1] : nil }

    private func readCrossReferences() throws {
        guard var start = findStartXref() else { throw PDFReaderError(description: "no startxref") }
        if let found = sectionNear(start) {
            repairs.append(
                Decline(
                    object: ObjectRef(0, 0),
                    reason:
                        "startxref gives offset \(start), but the cross-reference section starts at \(found) (\(found - start > 0 ? "+" : "")\(found - start) bytes); read from there, as MuPDF's repair does",
                    isDamage: true))
            start = found
        }
        var offset: Int? = start
        var seen = Set<Int>()
        var first = true
        while let o = offset {
            guard o >= 0, o < data.count, seen.insert(o).inserted, seen.count < 64 else {
                throw PDFReaderError(description: "bad or looping /Prev offset \(o)")
            }
            let dict = try readSection(at: o)
            if first {
                trailer = .dictionary(dict)
                newestSection = (o, dict["Type"] == .name("XRef"))
                first = false
            }
            // A hybrid file's /XRefStm holds entries the table leaves out.
            if case .int(let x)? = dict["XRefStm"], seen.insert(x).inserted {
                _ = try readSection(at: x)
            }
            if case .int(let p)? = dict["Prev"] { offset = p } else { offset = nil }
        }
    }

    /// How far from where `startxref` points a cross-reference section is looked for. Writers
    /// that edit a file in place leave the offset a few bytes off (4 to 6 in the files seen);
    /// qpdf's recovery cannot rebuild a file whose only sections are streams, and poppler's
    /// neither, but MuPDF and PDFium open them.
    static let startxrefSlack = 1024

    /// Nil when a section starts at `offset`; else the nearest offset within `startxrefSlack` where
    /// one does (an `xref` keyword, or an `N G obj` that is a cross-reference stream), or nil.
    private func sectionNear(_ offset: Int) -> Int? {
        func isSection(_ o: Int) -> Bool {
            guard o >= 0, o < data.count else { return false }
            return data.withUnsafeBufferPointer { b -> Bool in
                var p = PDFParser(b, at: o)
                if p.keyword("xref") { return true }
                p.pos = o
                guard p.integer() != nil, p.integer() != nil, p.keyword("obj"), let v = try? p.object(),
                    case .dictionary(let d) = v, case .name("XRef")? = d["Type"]
                else { return false }
                return true
            }
        }
        if isSection(offset) { return nil }
        let isStart = { (o: Int) -> Bool in
            guard o > 0, o < self.data.count else { return false }
            let before = self.data[o - 1]
            let c = self.data[o]
            return (before == 0x0A || before == 0x0D || before == 0x20)
                && (c == UInt8(ascii: "x") || (c >= 0x30 && c <= 0x39))
        }
        for distance in 1...Self.startxrefSlack {
            for o in [offset - distance, offset + distance] where isStart(o) && isSection(o) { return o }
        }
        return nil
    }

    private func findStartXref() -> Int? {
        let tail = max(0, data.count - 2048)
        let key = Array("startxref".utf8)
        var i = data.count - key.count
        while i >= tail {
            if data[i] == key[0] && data[i..<i + key.count] == key {
                return data.withUnsafeBufferPointer { b -> Int? in
                    var p = PDFParser(b, at: i + key.count)
                    return p.integer()
                }
            }
            i -= 1
        }
        return nil
    }

    /// Reads one xref table or stream; returns its trailer dictionary. Earlier sections read
    /// (newer ones) win over the entries of older ones.
    private func readSection(at offset: Int) throws -> PDFDictionary {
        try data.withUnsafeBufferPointer { b throws -> PDFDictionary in
            var p = PDFParser(b, at: offset)
            if p.keyword("xref") { return try readTable(&p) }
            // An xref stream: "N G obj << ... >> stream".
            guard p.integer() != nil, p.integer() != nil, p.keyword("obj") else {
                throw PDFReaderError(description: "no xref table or stream at offset \(offset)")
            }
            let value = try p.object()
            guard case .dictionary(let d) = value, case .name("XRef")? = d["Type"] else {
                throw PDFReaderError(description: "the object at offset \(offset) is not an xref stream")
            }
            let decoded = try streamData(dictionary: d, parser: &p, buffer: b)
            try readStreamEntries(decoded, d)
            return d
        }
    }

    private func readTable(_ p: inout PDFParser) throws -> PDFDictionary {
        while true {
            if p.keyword("trailer") {
                guard case .dictionary(let d) = try p.object() else { throw PDFReaderError(description: "bad trailer") }
                return d
            }
            guard let first = p.integer(), let count = p.integer(), first >= 0, count >= 0,
                let end = PDFNumber.add(first, count), end <= Self.maxObjectNumber + 1
            else {
                throw PDFReaderError(description: "bad xref subsection at offset \(p.pos)")
            }
            for n in first..<end {
                guard let o = p.integer(), let g = p.integer() else {
                    throw PDFReaderError(description: "bad xref entry at offset \(p.pos)")
                }
                p.skipWhitespace()
                guard p.pos < p.bytes.count else { throw PDFReaderError(description: "truncated xref") }
                let type = p.bytes[p.pos]
                p.pos += 1
                if type == UInt8(ascii: "n") {
                    if n > 0 { try setIfAbsent(n, .offset(o, generation: g)) }
                } else if type != UInt8(ascii: "f") {
                    throw PDFReaderError(description: "bad xref entry type at offset \(p.pos - 1)")
                }
            }
        }
    }

    private func readStreamEntries(_ bytes: [UInt8], _ d: PDFDictionary) throws {
        guard case .array(let w)? = d["W"], w.count == 3 else {
            throw PDFReaderError(description: "xref stream without /W")
        }
        let widths = w.map { v -> Int in if case .int(let i) = v { i } else { -1 } }
        guard widths.allSatisfy({ $0 >= 0 && $0 <= 8 }) else { throw PDFReaderError(description: "bad /W") }
        var index: [Int] = []
        if case .array(let a)? = d["Index"] {
            index = a.compactMap { if case .int(let i) = $0 { i } else { nil } }
        } else if case .int(let size)? = d["Size"] {
            index = [0, size]
        }
        let rowSize = widths.reduce(0, +)
        guard rowSize > 0 else { throw PDFReaderError(description: "bad /W") }
        var row = 0
        var k = 0
        while k + 1 < index.count {
            let first = index[k]
            let count = index[k + 1]
            k += 2
            guard first >= 0, count >= 0, let end = PDFNumber.add(first, count), end <= Self.maxObjectNumber + 1 else {
                throw PDFReaderError(description: "bad xref stream /Index [\(first) \(count)]")
            }
            for n in first..<end {
                // row < bytes.count / rowSize + 1, rowSize <= 24: no overflow.
                let at = row * rowSize
                row += 1
                guard rowSize <= bytes.count - at else { return }
                func field(_ i: Int, _ start: Int) -> Int {
                    var v = 0
                    for j in 0..<widths[i] { v = v << 8 | Int(bytes[start + j]) }
                    return v
                }
                let type = widths[0] == 0 ? 1 : field(0, at)
                let f2 = field(1, at + widths[0])
                let f3 = field(2, at + widths[0] + widths[1])
                guard n > 0 else { continue }
                switch type {
                case 1: try setIfAbsent(n, .offset(f2, generation: f3))
                case 2: try setIfAbsent(n, .compressed(stream: f2, index: f3))
                default: break
                }
            }
        }
    }

    /// A stream's `/Length`, direct or through a reference; nil when it is missing, not an
    /// integer or negative (the callers check it against the file's size).
    private func streamLength(_ d: PDFDictionary) -> Int? {
        switch d["Length"] {
        case .int(let l)? where l >= 0: return l
        case .ref(let r)?:
            if case .int(let l) = resolve(r), l >= 0 { return l }
            return nil
        default: return nil
        }
    }

    /// The decoded data of the stream whose dictionary the parser has just read.
    private func streamData(
        dictionary d: PDFDictionary, parser p: inout PDFParser, buffer b: UnsafeBufferPointer<UInt8>
    ) throws -> [UInt8] {
        guard p.keyword("stream") else { throw PDFReaderError(description: "expected 'stream' at offset \(p.pos)") }
        var start = p.pos
        if start < b.count && b[start] == 0x0D { start += 1 }
        if start < b.count && b[start] == 0x0A { start += 1 }
        guard let length = streamLength(d), start <= b.count, length <= b.count - start else {
            throw PDFReaderError(description: "bad stream /Length at offset \(start)")
        }
        let out = try StreamDecoder.decode(
            UnsafeBufferPointer(rebasing: b[start..<start + length]), dictionary: d, limit: nextLimit)
        spend(out.count)
        return out
    }

    // MARK: - Objects

    /// The version in the file's `%PDF-x.y` header (within its first kilobyte), or nil.
    package var headerVersion: String? {
        let head = data[0..<min(1024, data.count)]
        let key = Array("%PDF-".utf8)
        guard head.count >= key.count + 3 else { return nil }
        for i in 0...(head.count - key.count - 3) where head[i..<i + key.count].elementsEqual(key) {
            let v = head[(i + key.count)...].prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
            return v.isEmpty ? nil : String(decoding: v, as: UTF8.self)
        }
        return nil
    }

    /// The number of entries in the cross-reference sections.
    package var objectCount: Int { entryCount }

    /// The object; one the reader cannot read exactly as written is declined (listed in
    /// `declines`) and read through `fallback` instead.
    /// Once the file has been cut short under the reader (its mapping faulted past the new end and
    /// reads zeros), nothing more is read: every object is null, said once in `declines`, and no
    /// object goes to the fallback (whose recovery would scan the zeros again for each one: 3,000
    /// pages took 62 s, 4.3 s intact). The runner reports the document `pdf.changed-during-run`.
    package func resolve(_ ref: ObjectRef) -> PDFValue {
        if data.truncatedWhileRead { return truncated(ref) }
        do {
            return try object(ref)
        } catch {
            if data.truncatedWhileRead { return truncated(ref) }
            declines.append(Decline(object: ref, reason: error.description, isDamage: error.isDamage))
            if error.isLimit {
                limitDeclines.append(declines.last!)
                return .null
            }
            return fallbackObjects()?.resolve(ref) ?? .null
        }
    }

    /// Whether the file was cut short while it was read.
    package var truncatedWhileRead: Bool { data.truncatedWhileRead }
    private var saidTruncated = false

    private func truncated(_ ref: ObjectRef) -> PDFValue {
        if !saidTruncated {
            saidTruncated = true
            declines.append(
                Decline(
                    object: ref, reason: "the file was cut short while it was read: nothing more is read",
                    isDamage: false))
        }
        return .null
    }

    private func fallbackObjects() -> (any ObjectSource)? {
        if let made = fallbackSource { return made }
        let made = fallback?()
        fallbackSource = .some(made)
        return made
    }

    /// An object, or an error saying why it cannot be read (the fallback's reason).
    package func object(_ ref: ObjectRef) throws(PDFReaderError) -> PDFValue {
        guard let entry = entry(ref.number) else { return .null }
        guard resolving.insert(ref.number).inserted else {
            throw PDFReaderError(description: "object \(ref) refers to itself")
        }
        defer { resolving.remove(ref.number) }
        switch entry {
        case .offset(let offset, let generation):
            guard generation == ref.generation else { return .null }
            return try objectAt(offset, ref: ref)
        case .compressed(let stream, let index):
            guard ref.generation == 0 else { return .null }
            return try compressedObject(ref.number, stream: stream, index: index)
        }
    }

    private func objectAt(_ offset: Int, ref: ObjectRef) throws(PDFReaderError) -> PDFValue {
        guard offset >= 0, offset < data.count else {
            throw PDFReaderError(description: "object \(ref) is past the end of the file")
        }
        do {
            return try data.withUnsafeBufferPointer { b throws -> PDFValue in
                var p = PDFParser(b, at: offset)
                guard p.integer() == ref.number, p.integer() == ref.generation, p.keyword("obj") else {
                    throw PDFReaderError(description: "object \(ref) is not at offset \(offset)")
                }
                let v = try p.object()
                noteRepairs(p, ref)
                if case .dictionary(let d) = v {
                    let save = p.pos
                    if p.keyword("stream") {
                        var start = p.pos
                        if start < b.count && b[start] == 0x0D { start += 1 }
                        if start < b.count && b[start] == 0x0A { start += 1 }
                        return .stream(d, dataOffset: start)
                    }
                    p.pos = save
                }
                return v
            }
        } catch let e as PDFReaderError {
            throw e
        } catch {
            throw PDFReaderError(description: "object \(ref): \(error)")
        }
    }

    package func streamData(_ ref: ObjectRef) -> [UInt8]? {
        let declined = declines.count
        let value = resolve(ref)
        if data.truncatedWhileRead { return nil }
        if declines.count > declined {
            return limitDeclines.last?.object == ref ? nil : fallbackObjects()?.streamData(ref)
        }
        guard case .stream(let d, let offset) = value else { return nil }
        guard let length = streamLength(d), offset >= 0, offset <= data.count, length <= data.count - offset else {
            return nil
        }
        let limit = nextLimit
        let out = data.withUnsafeBufferPointer { b in
            try? StreamDecoder.decode(
                UnsafeBufferPointer(rebasing: b[offset..<offset + length]), dictionary: d, limit: limit)
        }
        spend(out?.count ?? 0)
        return out
    }

    private func compressedObject(_ number: Int, stream: Int, index: Int) throws(PDFReaderError) -> PDFValue {
        let os = try objectStream(stream)
        guard let start = os.offsets[number] else {
            throw PDFReaderError(
                description:
                    "object \(number) is not in object stream \(stream), where the cross-reference stream puts it")
        }
        do {
            return try os.data.withUnsafeBufferPointer { b throws(PDFSyntaxError) -> PDFValue in
                var p = PDFParser(b, at: start)
                let v = try p.object()
                noteRepairs(p, ObjectRef(number, 0), base: "object stream \(stream), ")
                return v
            }
        } catch {
            throw PDFReaderError(description: "object \(number) in object stream \(stream): \(error)")
        }
    }

    private func objectStream(_ number: Int) throws(PDFReaderError) -> ObjectStream {
        if let os = objectStreams[number] { return os }
        guard case .offset(let offset, let generation)? = entry(number) else {
            throw PDFReaderError(description: "object stream \(number) is missing")
        }
        let v = try objectAt(offset, ref: ObjectRef(number, generation))
        guard case .stream(let d, let dataOffset) = v, case .int(let n)? = d["N"], case .int(let first)? = d["First"]
        else {
            throw PDFReaderError(description: "object \(number) is not an object stream")
        }
        guard let length = streamLength(d), dataOffset <= data.count, length <= data.count - dataOffset else {
            throw PDFReaderError(description: "object stream \(number) has a bad /Length")
        }
        let decoded: [UInt8]
        let limit = nextLimit
        do {
            decoded = try data.withUnsafeBufferPointer { b throws(StreamDecoder.Unsupported) -> [UInt8] in
                try StreamDecoder.decode(
                    UnsafeBufferPointer(rebasing: b[dataOffset..<dataOffset + length]), dictionary: d, limit: limit)
            }
        } catch {
            throw PDFReaderError(error, "object stream \(number)")
        }
        spend(decoded.count)
        guard first >= 0, first <= decoded.count else {
            throw PDFReaderError(description: "object stream \(number) has a bad /First \(first)")
        }
        var offsets: [Int: Int] = [:]
        decoded.withUnsafeBufferPointer { b in
            var p = PDFParser(b)
            for _ in 0..<max(0, min(n, decoded.count)) {
                guard let obj = p.integer(), let off = p.integer() else { break }
                if off >= 0, off < decoded.count - first { offsets[obj] = first + off }
            }
        }
        let os = ObjectStream(data: decoded, offsets: offsets)
        if objectStreamBytes + decoded.count > Self.objectStreamBudget {
            objectStreams.removeAll()
            objectStreamBytes = 0
        }
        objectStreams[number] = os
        objectStreamBytes += decoded.count
        return os
    }
}
