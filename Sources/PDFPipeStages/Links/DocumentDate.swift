import PDFPipeWeb
import PDFReader
import SystemIO

/// The document's own date, to choose a dead link's archived capture by (the page as it was when
/// the document linked to it): the document information's `/ModDate`, else the XMP metadata's
/// `xmp:ModifyDate`, else `/CreationDate`, else `xmp:CreateDate`. A date that cannot be read, is
/// before 1991 or after today is passed over (a document says what it likes about itself).
struct DocumentDate: Sendable, Equatable {
    /// `YYYYMMDDhhmmss`, UTC.
    var timestamp: String
    /// Where it was read: `/ModDate`, `xmp:ModifyDate`, `/CreationDate` or `xmp:CreateDate`.
    var field: String

    static let xmpNamespace = "http://ns.adobe.com/xap/1.0/"

    /// The date of the document `source` reads; `now`: seconds since 1970 (dates after it are
    /// passed over).
    static func of(_ source: any ObjectSource, now: Int = Int(SystemClock.now.timeIntervalSince1970)) -> DocumentDate? {
        var info: PDFObject?
        if case .dictionary(let t) = source.trailer, let i = t["Info"] { info = PDFObject(source: source, value: i) }
        let root = PDFObject.root(of: source)
        var xmp: [UInt8]?
        if let meta = root["Metadata"], let ref = meta.objectRef, meta.isStream, let data = source.streamData(ref) {
            xmp = Array(data.prefix(LinkAccessibility.maxMetadataBytes))
        }
        let candidates: [(String, () -> Int?)] = [
            ("/ModDate", { info?["ModDate"]?.text.flatMap(pdfDate) }),
            ("xmp:ModifyDate", { xmp.flatMap { XMP.property(xmpNamespace, "ModifyDate", in: $0) }.flatMap(xmpDate) }),
            ("/CreationDate", { info?["CreationDate"]?.text.flatMap(pdfDate) }),
            ("xmp:CreateDate", { xmp.flatMap { XMP.property(xmpNamespace, "CreateDate", in: $0) }.flatMap(xmpDate) }),
        ]
        for (field, read) in candidates {
            if let seconds = read(), seconds <= now + 86400 {
                return DocumentDate(timestamp: Timestamp.text(seconds), field: field)
            }
        }
        return nil
    }

    /// A PDF date (ISO 32000-2, 7.9.4): `D:YYYYMMDDHHmmSSOHH'mm` with every part after the year
    /// optional, `O` one of `+`, `-`, `Z`; `D:` and the apostrophes are often left out and are
    /// read either way. Seconds since 1970, UTC.
    static func pdfDate(_ text: String) -> Int? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("D:") { s = s.dropFirst(2) }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, digits.count <= 14, digits.count % 2 == 0 else { return nil }
        let d = Array(digits.utf8).map { Int($0 - 0x30) }
        func part(_ at: Int, _ fallback: Int) -> Int { at + 1 < d.count ? d[at] * 10 + d[at + 1] : fallback }
        let year = d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3]
        guard
            let local = Timestamp.seconds(
                year: year, month: part(4, 1), day: part(6, 1), hour: part(8, 0), minute: part(10, 0),
                second: part(12, 0))
        else { return nil }
        return offset(s.dropFirst(digits.count)).map { local - $0 }
    }

    /// The offset from UTC in seconds of a PDF date's tail (`Z`, `+HH'mm'`, `-HH`, nothing: UTC,
    /// as readers take it); nil when it is not one.
    static func offset(_ tail: Substring) -> Int? {
        guard let sign = tail.first else { return 0 }
        if sign == "Z" || sign == "z" { return 0 }
        guard sign == "+" || sign == "-" else { return nil }
        let digits = tail.dropFirst().filter { $0.isASCII && $0.isNumber }
        guard digits.count == 2 || digits.count == 4, let n = Int(digits) else { return nil }
        let (h, m) = digits.count == 2 ? (n, 0) : (n / 100, n % 100)
        guard h <= 23, m <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    /// An XMP date (ISO 8601 as XMP writes it): `YYYY[-MM[-DD[THH:mm[:SS[.s]][TZD]]]]`.
    static func xmpDate(_ text: String) -> Int? {
        let s = Array(text.trimmingCharacters(in: .whitespaces))
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count, s[i..<i + count].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            defer { i += count }
            return Int(String(s[i..<i + count]))
        }
        func skip(_ c: Character) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4) else { return nil }
        var (month, day, hour, minute, second) = (1, 1, 0, 0, 0)
        if skip("-") {
            guard let m = number(2) else { return nil }
            month = m
            if skip("-") {
                guard let d = number(2) else { return nil }
                day = d
                if skip("T") {
                    guard let h = number(2), skip(":"), let mi = number(2) else { return nil }
                    (hour, minute) = (h, mi)
                    if skip(":") {
                        guard let se = number(2) else { return nil }
                        second = se
                        if skip(".") { while i < s.count, s[i].isASCII, s[i].isNumber { i += 1 } }
                    }
                }
            }
        }
        guard
            let local = Timestamp.seconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let tail = String(s[i...]).replacingOccurrences(of: ":", with: "")
        return offset(Substring(tail)).map { local - $0 }
    }
}
