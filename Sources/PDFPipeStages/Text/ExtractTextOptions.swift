import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// What `extract-text` writes per document.
public enum TextFormat: String, Sendable, CaseIterable, OptionChoice {
    /// The pages' text, a form feed after each, as pdftotext writes it.
    case txt
    /// Pages with their text (and words with boxes on request).
    case json
    /// Nothing (search only).
    case none
}

/// `extract-text`'s options (`with`).
public struct ExtractTextOptions: OptionGroup {
    @Option("output per document: txt, json, or none (search only)") public var format = TextFormat.txt
    @Option("pages to extract") public var pages = PageRanges.all
    @Option("JSON only: add each word with its box (PDF user space and top-left pixel space)") public var words = false
    @Option("folder in the output folder for the text files") public var folder = "text"
    @Option(
        "add the text annotations draw (form-field values, signatures, FreeText notes, stamps) where it sits on the page; JSON words from them say \"annotation\": true"
    )
    public var annotations = true
    @Option("report pages that draw images but have no text (text.no-text-layer)") public var noTextLayer = true
    @Option("terms to find; each hit is a text.match finding") public var search: [SearchTermOptions] = []
    @Option(
        in: 0...100_000,
        "seconds the regular-expression terms may take on one document, all pages together (0: no limit; each page also stops after 2 s); past it the pages left are not searched (text.search-incomplete)"
    )
    public var searchSeconds = 10.0
    @Option(in: 0...64, "threads for the pages of one document; 0: the processors other documents leave idle")
    public var pageWorkers = 0
    @Option(EngineOption.summary, listed: EngineOption.listed) package var engine = PageEngine.poppler

    public init() {}
}

/// A term of `extract-text`'s `search` (a plain string is the term alone).
public struct SearchTermOptions: OptionGroup {
    @Option("the text to find (or a regular expression)") public var term = ""
    @Option("the term is a regular expression (ICU syntax)") public var regex = false
    @Option("match case (default: case-insensitive)") public var caseSensitive = false
    @Option("'cafe' also finds 'café'") public var ignoreDiacritics = false
    @Option("severity of its text.match findings") public var severity = Severity.error

    public init() {}
}
