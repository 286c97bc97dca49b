import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// `text`: the pages extracted, how many have text, their characters, the search's matches (when
/// it searched) and the text file written.
public struct TextSection: ReportSection, Equatable {
    public static let key = "text"
    public var pages: Int
    public var pagesWithText: Int
    public var characters: Int
    /// Each match of `search` (page, term, text, box…); absent when nothing was searched.
    public var matches: [JSONValue]?
    /// The text file, relative to the output folder (absent with `format: none`).
    public var file: String?

    public init(pages: Int, pagesWithText: Int, characters: Int, matches: [JSONValue]? = nil, file: String? = nil) {
        self.pages = pages
        self.pagesWithText = pagesWithText
        self.characters = characters
        self.matches = matches
        self.file = file
    }
}

extension SectionKey where Value == TextSection {
    public static var text: Self { TextSection.sectionKey }
}
