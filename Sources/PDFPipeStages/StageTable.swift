import PDFPipeCore

/// Every stage pdfpipe knows, in one table: the pipeline loader, `pdfpipe stages` and the JSON Schema
/// all read it.
public enum StageTable {
    public static let all: [StageDescriptor] = [
        NormalizeStage.descriptor,
        CheckStage.descriptor,
        InspectStage.descriptor,
        ResolveDestinationsStage.descriptor,
        ValidateLinksStage.descriptor,
        ThumbnailsStage.descriptor,
        ExtractTextStage.descriptor,
        ReviewCopyStage.descriptor,
        FixLinksStage.descriptor,
    ]

    /// Every rule pdfpipe reports: Core's and every stage's (`pdfpipe rules`, the rule pages).
    public static let rules = RuleCatalog(stages: all)
}
