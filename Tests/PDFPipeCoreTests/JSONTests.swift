import XCTest

@testable import PDFPipeCore

final class JSONTests: XCTestCase {
    func testParsesEveryKindOfValue() throws {
        let v = try JSONParser.parse(#"{"a": [1, -2.5, 3e2, true, false, null], "s": "x\"\u00e9\ud83d\ude00\n"}"#)
        XCTAssertEqual(v["a"], [1, -2.5, 300.0, true, false, nil])
        XCTAssertEqual(v["s"], "x\"é😀\n")
        XCTAssertEqual(v["a"]?.arrayValue?[0], .int(1), "integers stay integers")
    }

    func testErrorsCarryLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 8, "invalid literal"),
            ("{\"a\": 1,}", 1, 9, "trailing comma"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
            ("[1, 2", 1, 6, "unexpected end of file"),
            ("{\"a\": 01}", 1, 7, "leading zeros"),
            ("{\"é\": @}", 1, 7, "unexpected '@'"),
            ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key 'a'"),
            ("{} x", 1, 4, "after the end"),
            ("\"abc", 1, 5, "unterminated string"),
        ]
        for (text, line, column, fragment) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { e in
                let e = e as! JSONSyntaxError
                XCTAssertEqual(e.location, SourceLocation(line: line, column: column), text)
                XCTAssertTrue(e.message.contains(fragment), "\(text): \(e.message)")
            }
        }
    }

    func testRecordsWhereEachValueStarts() throws {
        var p = JSONParser(text: "{\n  \"stages\": [\n    {\"use\": \"x\", \"with\": {\"width\": -5}}\n  ]\n}")
        _ = try p.parseDocument()
        XCTAssertEqual(p.locations["stages[0].with.width"], SourceLocation(line: 3, column: 36))
        XCTAssertEqual(p.locations["stages[0]"], SourceLocation(line: 3, column: 5))
    }

    func testWriterSortsKeysAndRoundTrips() throws {
        let v: JSONValue = ["b": [1, 2.5, "x"], "a": ["z": nil, "y": true], "c": "quote\" slash\\ tab\t \u{1}"]
        let text = JSONWriter.pretty(v)
        XCTAssertTrue(text.range(of: "\"a\"")!.lowerBound < text.range(of: "\"b\"")!.lowerBound)
        XCTAssertEqual(try JSONParser.parse(text), v)
        XCTAssertEqual(
            JSONWriter.compact(v), #"{"a":{"y":true,"z":null},"b":[1,2.5,"x"],"c":"quote\" slash\\ tab\t \u0001"}"#)
        XCTAssertEqual(JSONWriter.compact("a\u{2028}b\u{2029}é"), #""a\u2028b\u2029é""#)
        XCTAssertEqual(JSONWriter.compact(.double(612)), "612")
        XCTAssertEqual(JSONWriter.compact(.double(0.1)), "0.1")
    }

    /// report.json is written from the results file by re-indenting each document's compact line:
    /// it must give exactly the bytes of pretty-printing the value, for every shape the writer
    /// treats apart (short scalar arrays on one line, empty containers, nesting, escapes, numbers),
    /// here on 2,000 random values; text the writer did not write is declined, not guessed.
    func testReindentingCompactTextGivesThePrettyBytes() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let strings = [
            "", "a", "é \"q\" \\ /", "line\nbreak\ttab", "\u{1F}", "[{,:}]", "日本", "ends\\", "\\\"",
            "long text {with} [brackets]",
        ]
        func value(_ depth: Int) -> JSONValue {
            switch next(depth > 3 ? 6 : 9) {
            case 0: return .null
            case 1: return .bool(next(2) == 0)
            case 2: return .int(next(2_000_000) - 1_000_000)
            case 3: return .double([0.5, -1.25e-7, 3.0, 1e300, 123456.789][next(5)])
            case 4, 5: return .string(strings[next(strings.count)])
            case 6: return .array((0..<next(4)).map { _ in value(depth + 1) })
            case 7:
                return .array(
                    (0..<next(12)).map { _ in next(2) == 0 ? .int(next(100)) : .string(strings[next(strings.count)]) })
            default:
                return .object(
                    Dictionary(
                        (0..<next(5)).map { (_: Int) in
                            ("k\(next(20))" + strings[next(strings.count)], value(depth + 1))
                        }, uniquingKeysWith: { a, _ in a }))
            }
        }
        for n in 0..<2_000 {
            let v = n == 0 ? .object([:]) : value(0)
            let compact = Array(JSONWriter.compact(v).utf8)
            let re = compact.withUnsafeBytes { JSONWriter.reindent($0, indent: 2) }
            XCTAssertEqual(
                re.map { String(decoding: $0, as: UTF8.self) }, JSONWriter.pretty(v, indent: 2), JSONWriter.compact(v))
            // And back: the merge's one pass over pretty text gives the compact bytes and, for an
            // object, where each member's value lies in them; the scanner skips it whole.
            let pretty = Array(JSONWriter.pretty(v, indent: 2).utf8)
            pretty.withUnsafeBytes { raw in
                let (back, members) = JSONScanner.compactObject(raw)
                XCTAssertEqual(String(decoding: back, as: UTF8.self), JSONWriter.compact(v))
                var s = JSONScanner.Scanner(bytes: raw)
                XCTAssertTrue(s.skipValue() && s.i == raw.count, JSONWriter.compact(v))
                guard case .object(let o) = v else { return XCTAssertNil(members, JSONWriter.compact(v)) }
                XCTAssertEqual(members?.count, o.count, JSONWriter.compact(v))
                for m in members ?? [] {
                    let key = try? JSONParser.parse("\"" + m.key + "\"").stringValue
                    XCTAssertEqual(
                        try? JSONParser.parse(String(decoding: back[m.value], as: UTF8.self)), key.flatMap { o[$0] })
                }
            }
        }
        for bad in ["{\"a\": 1}", "[1,2", "{\"a\":}", "\"open", "", "[1] "] {
            XCTAssertNil(Array(bad.utf8).withUnsafeBytes { JSONWriter.reindent($0, indent: 0) }, bad)
        }
    }
}

/// `JSONValueEncoder` and `JSONValueDecoder` (#33, 5): the number forms, left-out optionals and
/// empty lists, and errors that name the field.
final class JSONValueCodingTests: XCTestCase {
    struct Sample: Codable, Equatable {
        var count: Int
        var ratio: Double
        var name: String?
        var flags: [Bool]
        var extra: JSONValue
        @OmittedWhenEmpty var notes: [String] = []
    }

    func testEncodesTheFormsReportsUse() throws {
        let s = Sample(count: 3, ratio: 2, name: nil, flags: [true], extra: ["k": [1, "x", nil]], notes: [])
        let v = JSONValue(encoding: s)
        XCTAssertEqual(JSONWriter.compact(v), #"{"count":3,"extra":{"k":[1,"x",null]},"flags":[true],"ratio":2}"#)
        guard case .int = v["count"], case .double = v["ratio"] else { return XCTFail("\(v)") }
        XCTAssertEqual(try v.decode(Sample.self), s)
        var named = s
        named.name = "a"
        named.notes = ["n"]
        let w = JSONValue(encoding: named)
        XCTAssertEqual(w["name"], "a")
        XCTAssertEqual(w["notes"], ["n"])
        XCTAssertEqual(try w.decode(Sample.self), named)
    }

    func testErrorsNameTheField() {
        let cases: [(JSONValue, String)] = [
            (
                ["count": 1, "ratio": 1, "flags": [true, "no"], "extra": nil],
                "flags[1]: expected a boolean, found string"
            ),
            (["count": 1.5, "ratio": 1, "flags": [], "extra": nil], "count: expected an integer"),
            (["ratio": 1, "flags": [], "extra": nil], "count: missing"),
            ([1, 2], "(top level): expected an object, found array"),
        ]
        for (value, message) in cases {
            XCTAssertThrowsError(try value.decode(Sample.self)) { error in
                let text = JSONValueDecoder.describe(error)
                XCTAssertTrue(text.hasPrefix(message), "\(text) — expected \(message)")
            }
        }
    }
}
