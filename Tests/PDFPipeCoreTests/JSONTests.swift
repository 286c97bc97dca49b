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
        XCTAssertEqual(JSONWriter.compact(v), #"{"a":{"y":true,"z":null},"b":[1,2.5,"x"],"c":"quote\" slash\\ tab\t \u0001"}"#)
        XCTAssertEqual(JSONWriter.compact("a\u{2028}b\u{2029}é"), #""a\u2028b\u2029é""#)
        XCTAssertEqual(JSONWriter.compact(.double(612)), "612")
        XCTAssertEqual(JSONWriter.compact(.double(0.1)), "0.1")
    }
}
