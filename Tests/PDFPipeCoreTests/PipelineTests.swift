import XCTest

@testable import PDFPipeCore

final class PipelineTests: XCTestCase {
    func parse(_ text: String) throws -> Pipeline {
        try Pipeline.parse(text, file: "p.json", catalog: fakeCatalog, formats: ["json", "junit"])
    }

    func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: line) { e in
            XCTAssertEqual((e as? PipelineError)?.description, expected, file: file, line: line)
        }
    }

    func testDefaultsAreFilledIn() throws {
        let p = try parse(#"{"stages": [{"use": "note"}, {"use": "note", "with": {"width": 5}}]}"#)
        XCTAssertEqual(p.name, "p")
        XCTAssertEqual(p.output, "out/p")
        XCTAssertEqual(p.jobs, 0)
        XCTAssertEqual(p.formats, ["json"])
        XCTAssertEqual(p.failOn, .error)
        XCTAssertEqual(p.stages.map(\.label), ["note", "note#2"])
        XCTAssertEqual(p.stages[0].options["width"], 200)
        XCTAssertEqual(p.stages[0].options.object("external")["timeoutSeconds"], 20)
        XCTAssertEqual(p.stages[1].options["width"], 5)
    }

    func testUnknownStageListsTheKnownOnes() {
        assertError(
            #"{"stages": [{"use": "nite"}]}"#,
            "p.json:1:21: error: stages[0].use: unknown stage 'nite'; did you mean 'note'? (known stages: note, fail)")
    }

    func testUnknownOptionSuggestsTheClosest() {
        assertError(
            "{\"stages\": [\n {\"use\": \"note\", \"with\": {\"widht\": 3}}]}",
            "p.json:2:36: error: stages[0].with.widht: unknown option 'widht'; did you mean 'width'? (known options: width, mode, pages, ratio, external)"
        )
        assertError(
            #"{"stages": [{"use": "note", "with": {"external": {"enable": true}}}]}"#,
            "p.json:1:61: error: stages[0].with.external.enable: unknown option 'enable'; did you mean 'enabled'? (known options: enabled, timeoutSeconds)"
        )
    }

    func testWrongTypeOrRangeNamesTheJSONPath() {
        assertError(
            #"{"stages": [{"use": "note"}, {"use": "note", "with": {"width": -5}}]}"#,
            "p.json:1:64: error: stages[1].with.width: expected an integer 1...10000, got '-5'")
        assertError(
            #"{"stages": [{"use": "note", "with": {"width": "wide"}}]}"#,
            "p.json:1:47: error: stages[0].with.width: expected an integer 1...10000, got the string 'wide'")
        assertError(
            #"{"stages": [{"use": "note", "with": {"mode": "fsat"}}]}"#,
            "p.json:1:46: error: stages[0].with.mode: expected one of 'fast' | 'slow', got 'fsat'; did you mean 'fast'?"
        )
        assertError(
            #"{"stages": [{"use": "note", "with": {"pages": "3-1"}}]}"#,
            "p.json:1:47: error: stages[0].with.pages: range '3-1' runs backwards in '3-1'; expected a page list like '1-3,7,10-' or 'all'"
        )
        assertError(
            #"{"stages": [{"use": "note", "with": {"external": {"timeoutSeconds": 0}}}]}"#,
            "p.json:1:69: error: stages[0].with.external.timeoutSeconds: expected a number 0.1...600, got '0'")
        assertError(
            #"{"jobs": -1, "stages": [{"use": "note"}]}"#,
            "p.json:1:10: error: jobs: expected an integer 0...1024 (0: one per processor), got '-1'")
        assertError(
            #"{"version": 2, "stages": [{"use": "note"}]}"#,
            "p.json:1:13: error: version: unsupported version 2; this pdfpipe reads version 1")
        assertError(
            #"{"inputs": "docs", "stages": [{"use": "note"}]}"#,
            "p.json:1:12: error: inputs: expected an array of paths or globs, got 'docs'")
    }

    func testMalformedJSONGivesLineAndColumn() {
        assertError(
            "{\n  \"stages\": [\n    {\"use\": \"note\",}\n  ]\n}",
            "p.json:3:20: error: malformed JSON: trailing comma before '}'")
        assertError("", "p.json:1:1: error: malformed JSON: unexpected end of file, expected a value")
    }

    func testStructureErrors() {
        assertError("[]", "p.json:1:1: error: a pipeline is a JSON object, got an array")
        assertError("{}", "p.json:1:1: error: missing key 'stages' (a list of stages to run)")
        assertError(
            #"{"stages": []}"#, "p.json:1:12: error: stages: expected a non-empty array of stages, got an array")
        assertError(
            #"{"stage": []}"#,
            "p.json:1:11: error: stage: unknown key 'stage'; did you mean 'stages'? (known keys: version, name, inputs, output, jobs, stages, rules, report, isolation, timeoutSeconds, memoryLimitMB, ignore)"
        )
        assertError(
            #"{"stages": [{"with": {}}]}"#, "p.json:1:13: error: stages[0]: missing key 'use' (the stage to run)")
        assertError(
            #"{"stages": [{"use": "note", "width": 3}]}"#,
            "p.json:1:38: error: stages[0].width: unknown key 'width'; did you mean 'with'? (a stage has 'use' and 'with')"
        )
    }

    func testRulesAndReportSettings() throws {
        let p = try parse(
            #"{"stages": [{"use": "note"}], "rules": {"pdf.encrypted": "off", "pdf.damaged": "error"}, "report": {"formats": ["junit", "json"], "failOn": "warning"}}"#
        )
        XCTAssertEqual(p.rules["pdf.encrypted"], .off)
        XCTAssertEqual(p.rules["pdf.damaged"], .severity(.error))
        XCTAssertEqual(p.formats, ["junit", "json"])
        XCTAssertEqual(p.failOn, .warning)
        assertError(
            #"{"stages": [{"use": "note"}], "rules": {"pdf.encrypt": "off"}}"#,
            "p.json:1:56: error: rules.pdf.encrypt: unknown rule 'pdf.encrypt'; did you mean 'pdf.encrypted'? (`pdfpipe rules` lists them)"
        )
        assertError(
            #"{"stages": [{"use": "note"}], "rules": {"pdf.encrypted": "fatal"}}"#,
            "p.json:1:58: error: rules.pdf.encrypted: expected one of 'error' | 'warning' | 'note' | 'off', got 'fatal'"
        )
        assertError(
            #"{"stages": [{"use": "note"}], "report": {"formats": ["jsno"]}}"#,
            "p.json:1:54: error: report.formats[0]: expected one of 'json' | 'junit', got 'jsno'; did you mean 'json'?"
        )
        assertError(
            #"{"stages": [{"use": "note"}], "report": {"failOn": "errors"}}"#,
            "p.json:1:52: error: report.failOn: expected one of 'error' | 'warning' | 'note' | 'never', got 'errors'; did you mean 'error'?"
        )
    }

    func testPageRanges() throws {
        XCTAssertEqual(try PageRanges("1-3,7,10-").pages(count: 12), [1, 2, 3, 7, 10, 11, 12])
        XCTAssertEqual(try PageRanges("all").pages(count: 3), [1, 2, 3])
        XCTAssertEqual(try PageRanges("last").pages(count: 5), [5])
        XCTAssertEqual(try PageRanges("2-last, 1").pages(count: 3), [1, 2, 3])
        XCTAssertEqual(try PageRanges("5-9").pages(count: 3), [])
        XCTAssertEqual(try PageRanges("last-2").pages(count: 10), [8])
        XCTAssertEqual(try PageRanges("1,last-1,last").pages(count: 10), [1, 9, 10])
        XCTAssertEqual(try PageRanges("last-5").pages(count: 3), [])
        XCTAssertEqual(try PageRanges(" 1 , 3-4 ").pages(count: 5), [1, 3, 4])
        let bad = [
            "", "0", "3-1", "a-b", "1--2", ",", "1,,2", "01", "+1", "1 0", "1 -3", "last-+2", "all,1", "\u{663}",
        ]
        for text in bad {
            XCTAssertThrowsError(try PageRanges(text), text)
        }
    }

    /// (#22, 1) The parser and the schema's pattern are one grammar: an editor that checks a pipeline
    /// against the schema accepts exactly the page lists pdfpipe accepts (ranges that run backwards
    /// aside, which a regular expression cannot see).
    func testPageRangesParserAndSchemaAgree() throws {
        let regex = try NSRegularExpression(pattern: PageRanges.pattern)
        let alphabet = Array("0123456789-, last+al")
        let tokens = ["1", "12", "last", "last-3", "-", "all", "2-", "3-last", "0", "07", " "]
        var rng = SplitMix(seed: 22)
        func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        var accepted = 0
        for n in 0..<20_000 {
            var s = String((0..<(1 + Int(rng.next() % 9))).map { _ in pick(alphabet) })
            // Every third, real tokens glued together, so that valid lists are common.
            if n % 3 == 0 {
                let separator = pick([",", " , ", ", "])
                s = (0..<(1 + Int(rng.next() % 4))).map { _ in pick(tokens) }.joined(separator: separator)
            }
            let bySchema = regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
            var byParser = true
            do { _ = try PageRanges(s) } catch {
                byParser = false
                if error.message.contains("runs backwards") { continue }
            }
            XCTAssertEqual(byParser, bySchema, "'\(s)': parser \(byParser), schema \(bySchema)")
            if byParser { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 2_000, "the generator must produce valid lists too")
    }

    func testSuggestions() {
        XCTAssertEqual(Suggest.closest(to: "widht", in: ["width", "pages"]), "width")
        XCTAssertNil(Suggest.closest(to: "zzzzz", in: ["width", "pages"]))
    }
}

/// A small seeded generator, so the generated cases are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
