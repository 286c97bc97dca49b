import PDFPipeCore

/// Captures of a dead link in a web archive, for `fix-links`: a CDX index (the Wayback Machine's,
/// or any pywb archive's, e.g. an institution's own) lists a URL's captures closest to the
/// document's own date; the closest ones that answered 200 are read through the archive's replay
/// (`id_`: the capture as archived, without the archive's banner) and one that is not itself an
/// error page is the fix. What the index says is a server's data: each row is checked (a
/// 14-digit timestamp of a real date, the same resource as the link), and a capture is only
/// offered once its replay has been read.
package enum WebArchive {
    /// Captures an index is asked for, closest to the date first (`limit`).
    package static let listed = 10
    /// Of those, the captures with status 200 read through the replay, closest first.
    package static let read = 3

    /// One row of the index.
    package struct Capture: Codable, Sendable, Equatable {
        /// `YYYYMMDDhhmmss`, UTC.
        package var timestamp: String
        /// The URL as it was captured.
        package var original: String
        package var status: Int?

        package init(timestamp: String, original: String, status: Int?) {
            (self.timestamp, self.original, self.status) = (timestamp, original, status)
        }
    }

    /// The index query for `url`'s captures closest to `closest` (a timestamp): both the
    /// Wayback Machine's CDX server and pywb's read `closest` with `sort=closest`. Statuses are
    /// filtered here, not by the server (the two name the field differently).
    package static func queryURL(index: String, url: String, closest: String) -> String {
        let separator = index.contains("?") ? "&" : "?"
        return index + separator
            + "url=\(queryEncoded(url))&output=json&closest=\(closest)&sort=closest&limit=\(listed)"
    }

    /// The address a reader follows to a capture (`raw`: the capture as archived, no banner).
    package static func replayURL(prefix: String, timestamp: String, url: String, raw: Bool = false) -> String {
        prefix + timestamp + (raw ? "id_/" : "/") + url
    }

    /// The rows of an index's answer, in its order: the Wayback Machine's JSON (an array of
    /// arrays, the first naming the fields, one row a line) and pywb's NDJSON (one object a
    /// line). Read line by line, so that an answer cut short (only its first bytes are kept)
    /// still gives its whole rows; rows without a valid timestamp are dropped.
    package static func captures(in text: String) -> [Capture] {
        var fields: [String] = []
        var out: [Capture] = []
        for row in rows(in: text) {
            var timestamp: String?
            var original: String?
            var status: String?
            if let cells = row.arrayValue {
                let strings = cells.map { $0.stringValue ?? $0.intValue.map(String.init) ?? "" }
                if fields.isEmpty, strings.contains("timestamp") {
                    fields = strings
                    continue
                }
                func cell(_ names: String...) -> String? {
                    names.lazy.compactMap { n in fields.firstIndex(of: n) }.first.flatMap {
                        $0 < strings.count ? strings[$0] : nil
                    }
                }
                (timestamp, original, status) = (
                    cell("timestamp"), cell("original", "url"), cell("statuscode", "status")
                )
            } else if let o = row.objectValue {
                func value(_ names: String...) -> String? {
                    names.lazy.compactMap { o[$0] }.first.flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
                }
                (timestamp, original, status) = (
                    value("timestamp"), value("url", "original"), value("status", "statuscode")
                )
            }
            guard let timestamp, Timestamp.seconds(timestamp) != nil, let original, !original.isEmpty else { continue }
            out.append(Capture(timestamp: timestamp, original: original, status: status.flatMap { Int($0) }))
            if out.count >= listed { break }
        }
        return out
    }

    /// The rows of an answer: the elements of a whole JSON array, else each line that is a JSON
    /// value once a row's brackets and comma around it are taken off.
    static func rows(in text: String) -> [JSONValue] {
        if let whole = try? JSONParser.parse(text) { return whole.arrayValue ?? [whole] }
        return text.split(whereSeparator: \.isNewline).compactMap { raw in
            var line = Substring(raw).trimmingCharacters(in: .whitespaces)[...]
            if line.hasSuffix(",") { line = line.dropLast() }
            if line.hasPrefix("[[") { line = line.dropFirst() }
            if line.hasSuffix("]]") { line = line.dropLast() }
            return try? JSONParser.parse(String(line))
        }
    }

    /// Whether a capture's URL is the link's: the same host (`www.` and case aside), port, path
    /// (an empty one is `/`) and query; the scheme may differ (an archive records either).
    package static func sameResource(_ a: String, _ b: String) -> Bool {
        func canonical(_ s: String) -> String? {
            let p = URIReference.parse(s)
            guard let scheme = p.scheme?.lowercased(), scheme == "http" || scheme == "https",
                var host = URIReference.host(of: s)
            else { return nil }
            if host.hasPrefix("www.") { host.removeFirst(4) }
            let path = p.path.isEmpty ? "/" : p.path
            // A port is compared when it is not its scheme's own (the scheme may differ).
            let port =
                self.port(of: p.authority ?? "").map { $0 == (scheme == "https" ? 443 : 80) ? "" : ":\($0)" } ?? ""
            return "\(host)\(port)\(path)?\(p.query ?? "")"
        }
        guard let x = canonical(a), let y = canonical(b) else { return false }
        return x == y
    }

    /// The port an authority writes (nil: none, its scheme's).
    static func port(of authority: String) -> Int? {
        var rest = Substring(authority)
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { rest = rest[rest.index(after: close)...] }
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        return Int(rest[rest.index(after: colon)...])
    }

    /// `s` as a query parameter's value: everything but the unreserved characters escaped.
    static func queryEncoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// Archive timestamps (`YYYYMMDDhhmmss`, UTC) and the seconds since 1970 they name.
package enum Timestamp {
    /// The seconds since 1970 of a 14-digit timestamp of a real date and time from 1991 on; nil
    /// for anything else.
    package static func seconds(_ t: String) -> Int? {
        let d = Array(t.utf8)
        guard d.count == 14, d.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func n(_ from: Int, _ count: Int) -> Int { d[from..<from + count].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        return seconds(year: n(0, 4), month: n(4, 2), day: n(6, 2), hour: n(8, 2), minute: n(10, 2), second: n(12, 2))
    }

    /// The seconds since 1970 of a UTC date and time, when each part is in range (years
    /// 1991–9999: the web began in 1991).
    package static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard (1991...9999).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// The timestamp of seconds since 1970.
    package static func text(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let (y, m, d) = civil(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(m) + two(d) + two(rest / 3600)
            + two(rest % 3600 / 60) + two(rest % 60)
    }

    /// `YYYY-MM-DD` of a timestamp.
    package static func day(_ t: String) -> String {
        let d = Array(t)
        guard d.count >= 8 else { return t }
        return String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
