// libFuzzer target for the pipeline loader and the JSON parser/writer. Compiled together with
// Sources/PDFPipeCore as one module by scripts/fuzz-pipeline.sh (not a SwiftPM target: libFuzzer
// brings its own main). Properties checked on every input:
// - parsing never crashes (errors are values);
// - what parses round-trips: writing it compactly and parsing again gives the same value;
// - a pipeline that loads has stages from the catalog with every option of a declared kind.

enum FuzzMode: String, Sendable, CaseIterable, OptionChoice {
    case a, b
}

struct FuzzSearch: OptionGroup {
    @Option("") var term = ""
    @Option("") var severity = FuzzMode.a
}

/// Every option kind a stage can declare.
struct FuzzOptions: OptionGroup {
    @Option("") var flag = false
    @Option(in: 0...100, "") var count = 1
    @Option(in: 0...1, "") var ratio = 0.5
    @Option("") var name = "x"
    @Option("") var mode = FuzzMode.a
    @Option("") var pages = PageRanges.one
    @Option("") var search: [FuzzSearch] = []
    @Option("") var limit: Int? = nil
}

struct FuzzStage: Stage {
    static let descriptor = StageDescriptor(FuzzStage.self, id: "fuzz", summary: "every option kind")
    init(_ options: FuzzOptions) {}
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
