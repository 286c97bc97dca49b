/// A section of a document's report entry that Core itself reads (the HTML and JUnit reports, the
/// results file's reporter view): declared once as a type, so that the stage or runner writing it
/// and the reporter reading it share the field names, and a renamed field is a compile error.
/// Its fields are its `Codable` properties (through `JSONValueEncoder`): the JSON is report.json's,
/// byte for byte.
public protocol ReportSection: Codable, Sendable {
    /// The section's key in the document's entry.
    static var key: String { get }
}

extension ReportSection {
    public var json: JSONValue { JSONValue(encoding: self) }
    /// Nil when the value is not this section.
    public init?(json: JSONValue) {
        guard let s = try? json.decode(Self.self) else { return nil }
        self = s
    }
}

extension DocumentResult {
    /// The section of that type, when the document has it.
    public func section<S: ReportSection>(_ type: S.Type) -> S? { sections[S.key].flatMap(S.init(json:)) }

    /// Sets (or replaces) the section of that type.
    public mutating func setSection<S: ReportSection>(_ s: S) { sections[S.key] = s.json }

    /// The keys of the sections Core reads.
    static let sectionKeys: Set<String> = [
        SkippedStagesSection.key, ThumbnailsSection.key, ReviewCopySection.key,
    ]
}

extension Job {
    /// Sets (or replaces) the section of that type.
    public mutating func setSection<S: ReportSection>(_ s: S) { sections[S.key] = s.json }
}

/// `skippedStages`: the stages that did not run because an earlier one ended the document.
public struct SkippedStagesSection: ReportSection, Equatable {
    public static let key = "skippedStages"
    public var stages: [String]

    public init(_ stages: [String]) { self.stages = stages }
    /// A list of stage ids, not an object.
    public init(from decoder: any Decoder) throws { stages = try [String](from: decoder) }
    public func encode(to encoder: any Encoder) throws { try stages.encode(to: encoder) }
}

/// `thumbnails`: how many pages were rendered or skipped (up to date), and where each link with
/// findings lies on its thumbnail, for the HTML report's numbered boxes.
public struct ThumbnailsSection: ReportSection, Equatable {
    public static let key = "thumbnails"

    /// A link with findings on a rendered page: its place in the page's /Annots, and its box as
    /// fractions of the image (x, y from the top left, width, height).
    public struct Label: Codable, Sendable, Equatable {
        public var page: Int
        public var annotationIndex: Int
        public var box: [Double]

        public init(page: Int, annotationIndex: Int, box: [Double]) {
            self.page = page
            self.annotationIndex = annotationIndex
            self.box = box
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            page = try c.decode(Int.self, forKey: .page)
            annotationIndex = try c.decode(Int.self, forKey: .annotationIndex)
            box = try c.decode([Double].self, forKey: .box)
            guard box.count == 4 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .box, in: c, debugDescription: "expected 4 numbers, found \(box.count)")
            }
        }
    }

    public var rendered: Int
    public var skipped: Int
    @OmittedWhenEmpty public var labels: [Label]

    public init(rendered: Int, skipped: Int, labels: [Label]) {
        self.rendered = rendered
        self.skipped = skipped
        self.labels = labels
    }
}

/// `reviewCopy`: the review copy written, its marks, and the summary pages put in front (the HTML
/// report's page links into the copy are offset by them).
public struct ReviewCopySection: ReportSection, Equatable {
    public static let key = "reviewCopy"
    public var file: String
    public var marks: Int
    public var summaryPages: Int
    /// Link annotations given a suggested /Contents (the text under them) for `access.link-no-alt`;
    /// absent when none.
    public var suggestedContents: Int?

    public init(file: String, marks: Int, summaryPages: Int, suggestedContents: Int? = nil) {
        self.file = file
        self.marks = marks
        self.summaryPages = summaryPages
        self.suggestedContents = suggestedContents
    }
}
