/// A PDF object with the source it came from: follows references transparently and remembers the
/// reference it was reached through (`reference`), which is how destinations name pages.
package struct PDFObject {
    package let source: any ObjectSource
    package let value: PDFValue
    /// The indirect object this value is, when it was reached through a reference.
    package let objectRef: ObjectRef?

    /// Resolves `value` if it is a reference (following a short chain of references).
    package init(source: any ObjectSource, value: PDFValue, ref: ObjectRef? = nil) {
        self.source = source
        var v = value
        var r = ref
        var hops = 0
        while case .ref(let target) = v, hops < 8 {
            r = target
            v = source.resolve(target)
            hops += 1
        }
        if case .ref = v { v = .null }
        self.value = v
        self.objectRef = r
    }

    /// The document catalog.
    package static func root(of source: any ObjectSource) -> PDFObject {
        guard case .dictionary(let t) = source.trailer, let r = t["Root"] else {
            return PDFObject(source: source, value: .null)
        }
        return PDFObject(source: source, value: r)
    }

    package var dictionary: PDFDictionary? {
        switch value {
        case .dictionary(let d): d
        case .stream(let d, _): d
        default: nil
        }
    }

    package var isNull: Bool { value == .null }
    package var isDictionary: Bool { if case .dictionary = value { true } else { false } }
    package var isStream: Bool { if case .stream = value { true } else { false } }
    package var isArray: Bool { if case .array = value { true } else { false } }
    package var isName: Bool { if case .name = value { true } else { false } }
    package var isString: Bool { if case .string = value { true } else { false } }
    package var isIndirect: Bool { objectRef != nil }

    package var objectID: (number: Int, generation: Int)? { objectRef.map { ($0.number, $0.generation) } }
    package var reference: String? { objectRef?.description }

    /// A dictionary entry, references followed; nil when absent or null.
    package subscript(key: String) -> PDFObject? {
        guard let v = dictionary?[key] else { return nil }
        let o = PDFObject(source: source, value: v)
        return o.isNull ? nil : o
    }

    package var keys: [String] { dictionary.map { Array($0.keys) } ?? [] }

    package var count: Int { if case .array(let a) = value { a.count } else { 0 } }

    package subscript(index: Int) -> PDFObject {
        guard case .array(let a) = value, index >= 0, index < a.count else {
            return PDFObject(source: source, value: .null)
        }
        return PDFObject(source: source, value: a[index])
    }

    package var items: [PDFObject] {
        guard case .array(let a) = value else { return [] }
        return a.map { PDFObject(source: source, value: $0) }
    }

    package var int: Int? { if case .int(let i) = value { i } else { nil } }
    package var isInteger: Bool { int != nil }
    /// A finite number (qpdf hands over reals as written, which may be `inf`: not a number here).
    package var number: Double? {
        switch value {
        case .int(let i): Double(i)
        case .real(let d): d.isFinite ? d : nil
        default: nil
        }
    }
    package var isNumber: Bool { number != nil }
    package var bool: Bool? { if case .bool(let b) = value { b } else { nil } }
    package var name: String? { if case .name(let n) = value { n } else { nil } }
    package var bytes: [UInt8]? { if case .string(let b) = value { b } else { nil } }

    /// A text string decoded (UTF-16BE or UTF-8 with BOM, else PDFDocEncoding).
    package var text: String? { bytes.map(PDFTextDecoding.decode) }

    package var rectangle: PDFRect? {
        guard case .array(let a) = value, a.count == 4 else { return nil }
        let v = items.compactMap(\.number)
        guard v.count == 4 else { return nil }
        return PDFRect(v[0], v[1], v[2], v[3])
    }
}

/// PDF text strings: UTF-16BE with a byte order mark, UTF-8 with one (PDF 2.0), or PDFDocEncoding.
package enum PDFTextDecoding {
    package static func decode(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 2
            while i + 1 < bytes.count {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: bytes.dropFirst(3), as: UTF8.self)
        }
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        var s = ""
        s.unicodeScalars.reserveCapacity(bytes.count)
        for b in bytes { s.unicodeScalars.append(docEncoding(b)) }
        return s
    }

    /// PDFDocEncoding (PDF 32000-1, Annex D): Latin-1 but for 0x18–0x1F and 0x80–0x9F.
    static func docEncoding(_ b: UInt8) -> Unicode.Scalar {
        switch b {
        case 0x18...0x1F:
            let low: [UInt32] = [0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC]
            return Unicode.Scalar(low[Int(b - 0x18)])!
        case 0x80...0x9F:
            let high: [UInt32] = [
                0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, 0x2039, 0x203A, 0x2212, 0x2030, 0x201E,
                0x201C, 0x201D, 0x2018, 0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160, 0x0178, 0x017D,
                0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD,
            ]
            return Unicode.Scalar(high[Int(b - 0x80)])!
        case 0xAD: return Unicode.Scalar(0xFFFD)!
        default: return Unicode.Scalar(b)
        }
    }
}
