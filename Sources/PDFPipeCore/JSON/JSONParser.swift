/// A position in a text file, 1-based.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// A JSON syntax error with the line and column where it was found.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    public var description: String { "\(location.line):\(location.column): \(message)" }
}

/// A strict JSON parser (RFC 8259) that reports line and column on errors, keeps integers apart from
/// other numbers, rejects duplicate keys, and remembers where each value starts (by JSON path).
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The deepest nesting read (the scanner's too): deeper text is refused, never recursed into.
    package static let maxDepth = 512
    private var maxDepth: Int { Self.maxDepth }
    /// Whether to remember where each value starts (pipeline files want it; reports do not).
    private let tracksLocations: Bool
    /// Where each value starts: line, the offset where that line starts, and the value's offset.
    /// Columns are counted only when asked for: counting them for every value is quadratic on one-line JSON.
    private var marks: [String: Mark] = [:]

    private struct Mark {
        var line: Int
        var lineStart: Int
        var index: Int
    }

    /// Where each value starts, keyed by its JSON path (`stages[2].with.width`).
    public var locations: [String: SourceLocation] { marks.mapValues(location(of:)) }

    public init(text: String, tracksLocations: Bool = true) {
        self.bytes = Array(text.utf8)
        self.tracksLocations = tracksLocations
    }
    public init(bytes: [UInt8], tracksLocations: Bool = true) {
        self.bytes = bytes
        self.tracksLocations = tracksLocations
    }

    /// Parses one JSON document (without remembering value locations: errors still say where).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text: text, tracksLocations: false)
        return try parser.parseDocument()
    }

    public mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        let value = try parseValue(path: "", depth: 0)
        skipWhitespace()
        if index < bytes.count { throw error("unexpected '\(describe(bytes[index]))' after the end of the document") }
        return value
    }

    private var mark: Mark { Mark(line: line, lineStart: lineStart, index: index) }
    private var location: SourceLocation { location(of: mark) }

    private func location(of mark: Mark) -> SourceLocation {
        // Columns count characters, not bytes.
        var column = 1
        var i = mark.lineStart
        while i < mark.index {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: mark.line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location, message: message)
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        return String(format: "\\x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        if tracksLocations { marks[path] = mark }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(path: path, depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(path: path, depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let b: throw error("unexpected '\(describe(b))', expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("invalid literal, expected '\(word)'")
        }
        index += w.count
    }

    private mutating func parseObject(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key, found '\(describe(bytes[index]))'")
            }
            let keyMark = mark
            let key = try parseString()
            if members[key] != nil {
                throw JSONSyntaxError(location: location(of: keyMark), message: "duplicate key '\(key)'")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key '\(key)'")
            }
            index += 1
            skipWhitespace()
            let childPath = !tracksLocations ? "" : path.isEmpty ? key : "\(path).\(key)"
            members[key] = try parseValue(path: childPath, depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                    throw error("trailing comma before '}'")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}', found '\(describe(bytes[index]))'")
        }
    }

    private mutating func parseArray(path: String, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(path: tracksLocations ? "\(path)[\(items.count)]" : "", depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                    throw error("trailing comma before ']'")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("expected ',' or ']', found '\(describe(bytes[index]))'")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    out.append(contentsOf: Array(String(Character(try parseUnicodeEscape())).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(describe(e))'")
                }
            case 0x00..<0x20:
                throw error("control character in string (escape it)")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    /// The scalar of a `\\u` escape (after the `u`), a surrogate pair read as one.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> UnicodeScalar {
        var scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired surrogate in \\u escape")
        }
        return UnicodeScalar(scalar)!
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) {
                p.index += 1
                n += 1
            }
            return n
        }
        let intStart = index
        let intDigits = digits(&self)
        if intDigits == 0 { throw error("invalid number") }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") {
            index = intStart
            throw error("leading zeros are not allowed in numbers")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            if digits(&self) == 0 { throw error("expected digits after '.'") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            if digits(&self) == 0 { throw error("expected digits in exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw error("number out of range") }
        return .double(d)
    }
}
