/// Turns PDF text strings (name-tree keys, titles) into Swift strings: UTF-16BE with a byte order
/// mark, UTF-8 with a byte order mark (PDF 2.0), or PDFDocEncoding.
public enum PDFText {
    public static func decode(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            var units: [UInt16] = []
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
        var s = ""
        s.unicodeScalars.reserveCapacity(bytes.count)
        for b in bytes { s.unicodeScalars.append(docEncoding(b)) }
        return s
    }

    /// PDFDocEncoding (PDF 32000-1, Annex D): Latin-1 but for 0x18–0x1F and 0x80–0x9F.
    static func docEncoding(_ b: UInt8) -> Unicode.Scalar {
        let low: [UInt8: UInt32] = [
            0x18: 0x02D8, 0x19: 0x02C7, 0x1A: 0x02C6, 0x1B: 0x02D9, 0x1C: 0x02DD, 0x1D: 0x02DB, 0x1E: 0x02DA, 0x1F: 0x02DC,
        ]
        let high: [UInt32] = [
            0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, 0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C,
            0x201D, 0x2018, 0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160, 0x0178, 0x017D, 0x0131, 0x0142,
            0x0153, 0x0161, 0x017E, 0xFFFD,
        ]
        if let v = low[b] { return Unicode.Scalar(v)! }
        if b >= 0x80 && b <= 0x9F { return Unicode.Scalar(high[Int(b - 0x80)])! }
        if b == 0xAD { return Unicode.Scalar(0xFFFD)! }
        return Unicode.Scalar(b)
    }
}
