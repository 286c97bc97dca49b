/// A section of a document's report entry that Core itself reads (the HTML and JUnit reports, the
/// results file's reporter view): declared once as a type, so that the stage or runner writing it
/// and the reporter reading it share the field names, and a renamed field is a compile error.
/// The JSON is report.json's, byte for byte.
public protocol ReportSection: Sendable {
    /// The section's key in the document's entry.
    static var key: String { get }
    var json: JSONValue { get }
    init?(json: JSONValue)
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
    public var json: JSONValue { .array(stages.map { .string($0) }) }
    public init?(json: JSONValue) {
        guard let items = json.arrayValue else { return nil }
        stages = items.compactMap(\.stringValue)
    }
}

/// `thumbnails`: how many pages were rendered or skipped (up to date), and where each link with
/// findings lies on its thumbnail, for the HTML report's numbered boxes.
public struct ThumbnailsSection: ReportSection, Equatable {
    public static let key = "thumbnails"

    /// A link with findings on a rendered page: its place in the page's /Annots, and its box as
    /// fractions of the image (x, y from the top left, width, height).
    public struct Label: Sendable, Equatable {
        public var page: Int
        public var annotationIndex: Int
        public var box: [Double]

        public init(page: Int, annotationIndex: Int, box: [Double]) {
            self.page = page
            self.annotationIndex = annotationIndex
            self.box = box
        }
    }

    public var rendered: Int
    public var skipped: Int
    public var labels: [Label]

    public init(rendered: Int, skipped: Int, labels: [Label]) {
        self.rendered = rendered
        self.skipped = skipped
        self.labels = labels
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = ["rendered": .int(rendered), "skipped": .int(skipped)]
        if !labels.isEmpty {
            o["labels"] = .array(
                labels.map { l in
                    [
                        "page": .int(l.page), "annotationIndex": .int(l.annotationIndex),
                        "box": .array(l.box.map { .double($0) }),
                    ]
                })
        }
        return .object(o)
    }

    public init?(json: JSONValue) {
        guard json.objectValue != nil else { return nil }
        rendered = json["rendered"]?.intValue ?? 0
        skipped = json["skipped"]?.intValue ?? 0
        labels = (json["labels"]?.arrayValue ?? []).compactMap { l in
            guard let p = l["page"]?.intValue, let k = l["annotationIndex"]?.intValue,
                let b = l["box"]?.arrayValue?.compactMap(\.doubleValue), b.count == 4
            else { return nil }
            return Label(page: p, annotationIndex: k, box: b)
        }
    }
}

/// `reviewCopy`: the review copy written, its marks, and the summary pages put in front (the HTML
/// report's page links into the copy are offset by them).
public struct ReviewCopySection: ReportSection, Equatable {
    public static let key = "reviewCopy"
    public var file: String
    public var marks: Int
    public var summaryPages: Int

    public init(file: String, marks: Int, summaryPages: Int) {
        self.file = file
        self.marks = marks
        self.summaryPages = summaryPages
    }

    public var json: JSONValue {
        ["file": .string(file), "marks": .int(marks), "summaryPages": .int(summaryPages)]
    }

    public init?(json: JSONValue) {
        guard let file = json["file"]?.stringValue else { return nil }
        self.file = file
        marks = json["marks"]?.intValue ?? 0
        summaryPages = json["summaryPages"]?.intValue ?? 0
    }
}
