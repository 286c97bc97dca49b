import PDFBridge
import PDFPipeCore

/// The `engine` option of the stages that render pages or read their text (`thumbnails`,
/// `extract-text`): poppler, or MuPDF when this build has it (the `MuPDF` package trait).
enum EngineOption {
    static let summary =
        "the library that renders and reads text: poppler, or mupdf (faster; only in a build with the MuPDF trait)"
    /// `pdfpipe stages` lists it only where there is a choice; the schema always has it, so that
    /// one pipeline file validates against every build.
    static let listed = PageEngine.mupdf.isAvailable

    /// The engine the options ask for; a validation error naming how to build it when this build
    /// lacks it.
    static func check(_ engine: PageEngine) throws(PipelineError) -> PageEngine {
        guard engine.isAvailable else {
            throw PipelineError(
                file: nil, path: "engine",
                message: "the '\(engine.rawValue)' engine is not built into this pdfpipe; \(PageEngine.mupdfHowTo)")
        }
        return engine
    }
}

extension PageEngine: OptionChoice {}
