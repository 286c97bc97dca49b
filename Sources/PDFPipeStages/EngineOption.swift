import PDFBridge
import PDFPipeCore

/// The `engine` option of the stages that render pages or read their text (`thumbnails`,
/// `extract-text`): poppler, or MuPDF when this build has it (the `MuPDF` package trait).
enum EngineOption {
    static let spec = OptionSpec(
        "engine", .choice(PageEngine.allCases.map(\.rawValue)), default: "poppler",
        "the library that renders and reads text: poppler, or mupdf (faster; only in a build with the MuPDF trait)",
        listed: PageEngine.mupdf.isAvailable)

    /// The engine the options ask for; a validation error naming how to build it when this build
    /// lacks it.
    static func parse(_ o: OptionValues) throws(PipelineError) -> PageEngine {
        let engine = PageEngine(rawValue: o.string("engine")) ?? .poppler
        guard engine.isAvailable else {
            throw PipelineError(
                file: nil, path: "engine",
                message: "the '\(engine.rawValue)' engine is not built into this pdfpipe; \(PageEngine.mupdfHowTo)")
        }
        return engine
    }
}
