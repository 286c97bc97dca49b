// libFuzzer target for the pipeline loader and the JSON parser/writer. Compiled together with
// Sources/PDFPipeCore as one module by scripts/fuzz-pipeline.sh (not a SwiftPM target: libFuzzer
// brings its own main). Properties checked on every input:
// - parsing never crashes (errors are values);
// - what parses round-trips: writing it compactly and parsing again gives the same value;
// - a pipeline that loads has stages from the catalog with every option of a declared kind.

struct FuzzStage: Stage {
    static let descriptor = StageDescriptor(
        id: "fuzz",
        summary: "every option kind",
        options: [
            OptionSpec("flag", .bool, default: false, ""),
            OptionSpec("count", .integer(min: 0, max: 100), default: 1, ""),
            OptionSpec("ratio", .number(min: 0, max: 1), default: 0.5, ""),
            OptionSpec("name", .string, default: "x", ""),
            OptionSpec("mode", .choice(["a", "b"]), default: "a", ""),
            OptionSpec("pages", .pages, default: "1", ""),
            OptionSpec(
                "search",
                .list([
                    OptionSpec("term", .string, default: "", ""),
                    OptionSpec("severity", .choice(["error", "note"]), default: "error", ""),
                ]), default: [], ""),
        ],
        make: { _ in FuzzStage() })
    func run(_ job: inout Job) throws {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var parser = JSONParser(bytes: bytes)
    if let value = try? parser.parseDocument() {
        _ = parser.locations
        let again = try? JSONParser.parse(JSONWriter.compact(value))
        if again != value { fatalError("JSON round trip changed the value") }
        _ = JSONWriter.pretty(value)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let p = try? Pipeline.parse(
        text, file: "fuzz.json", catalog: [FuzzStage.descriptor], formats: ["json", "junit"])
    {
        if p.stages.isEmpty { fatalError("a pipeline without stages loaded") }
    }
    return 0
}
