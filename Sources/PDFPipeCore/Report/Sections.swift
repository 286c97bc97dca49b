/// A section of a document's report entry that Core itself reads (the HTML and JUnit reports, the
/// results file's reporter view): declared once as a type, so that the stage or runner writing it
/// and the reporter reading it share the field names, and a renamed field is a compile error.
/// Its fields are its `Codable` properties (through `JSONValueEncoder`): the JSON is report.json's,
/// byte for byte.
public protocol ReportSection: Codable, Sendable {
    /// The section's key in the document's entry.
    static var key: String { get }
}

/// A section of the run's report (report.json's run-level `sections`): written by a stage's run
/// service (`RunService.runSections`), declared in the stage's descriptor (`runSections`), and
/// merged across shards' reports by its type (`merge`), not as JSON.
public protocol RunSection: ReportSection {
    /// The sections of several shards' reports as one run's; nil when there are none.
    static func merged(_ sections: [Self]) -> Self?
}

extension RunSection {
    /// The section as the run's `sections` hold it, under its key.
    public var runSection: [String: JSONValue] { [Self.key: JSONValue(encoding: self)] }

    /// The section in a run's `sections`, when it is there and reads as this type.
    public static func read(from sections: [String: JSONValue]) -> Self? {
        try? sections[key]?.decode(Self.self)
    }

    /// Merges this section of `reports`' run-level sections into `merged` (left alone when none has it).
    public static func merge(_ sections: [[String: JSONValue]], into merged: inout [String: JSONValue]) {
        guard let m = Self.merged(sections.compactMap(read(from:))) else { return }
        merged[key] = JSONValue(encoding: m)
    }
}

/// The key of a section of a document's report entry, typed by its value: stages write
/// `job[.destinations] = section` and readers get the value back as that type. The name is
/// report.json's key, spelled once where the key is declared (string keys only at the JSON edge:
/// `Job.sections`, `DocumentResult.sections`, as written and read back).
///
/// A `ReportSection` type is its own key (`S.sectionKey`); a stage declares the keys of the
/// sections it writes beside it, as `static var` in an extension constrained to the value type:
///
///     extension SectionKey where Value == TextSection {
///         static var text: Self { .init("text") }
///     }
public struct SectionKey<Value: Codable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// The section's key in the document's entry.
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

extension SectionKey {
    /// The value as report.json holds it (a `JSONValue` is itself: no round trip through the encoder).
    /// A list or object of `JSONValue` is wrapped as it is: a link inventory of thousands of
    /// entries does not go through the encoder.
    static func encode(_ value: Value) -> JSONValue {
        switch value {
        case let v as JSONValue: return v
        case let v as [JSONValue]: return .array(v)
        case let v as [String: JSONValue]: return .object(v)
        default: return JSONValue(encoding: value)
        }
    }

    /// The value of a section's JSON; nil when it is not one.
    static func decode(_ json: JSONValue) -> Value? {
        switch json {
        case let v as Value: return v
        case .array(let a) where Value.self == [JSONValue].self: return a as? Value
        case .object(let o) where Value.self == [String: JSONValue].self: return o as? Value
        default: return try? json.decode(Value.self)
        }
    }
}

extension Job {
    /// The section under `key`, typed: nil when the document has none (or it is not a `Value`).
    /// Setting nil removes it.
    public subscript<V>(_ key: SectionKey<V>) -> V? {
        get { sections[key.name].flatMap(SectionKey<V>.decode) }
        set { sections[key.name] = newValue.map(SectionKey<V>.encode) }
    }
}

extension DocumentResult {
    /// The section under `key`, typed: nil when the document has none (or it is not a `Value`).
    public subscript<V>(_ key: SectionKey<V>) -> V? {
        sections[key.name].flatMap(SectionKey<V>.decode)
    }
}

extension ReportSection {
    /// The section's typed key (its `key`).
    public static var sectionKey: SectionKey<Self> { SectionKey(key) }
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
        SkippedStagesSection.key, ThumbnailsSection.key, ReviewCopySection.key, FixesSection.key,
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

extension SectionKey where Value == LinkSummarySection {
    /// validate-links' counts (Core reads `checks` for the run's `summary.links`).
    public static var linkSummary: Self { LinkSummarySection.sectionKey }
}

/// `linkSummary`: validate-links' counts — links, bookmarks, which reader read the objects, the
/// kinds of action, the accessibility check's scope, and what became of each link (`checks`, the
/// source of report.json's `summary.links`; absent when the audit stopped at its limit).
public struct LinkSummarySection: ReportSection, Equatable {
    public static let key = "linkSummary"
    /// Link annotations.
    public var links: Int
    /// Outline items.
    public var bookmarks: Int
    /// `pdfpipe` (its own reader) or `qpdf` (damaged, encrypted, unusual files).
    public var reader: String
    /// What the link-accessibility check covered, or why it was skipped; absent when off.
    public var accessibility: String?
    /// Links by kind of action (`goto`, `uri`, …).
    public var kinds: [String: Int]
    public var checks: LinkTotals?

    public init(
        links: Int, bookmarks: Int, reader: String, accessibility: String? = nil, kinds: [String: Int],
        checks: LinkTotals? = nil
    ) {
        self.links = links
        self.bookmarks = bookmarks
        self.reader = reader
        self.accessibility = accessibility
        self.kinds = kinds
        self.checks = checks
    }
}

/// `fixes`: what `fix-links` changed in a document, and what it could not (the replacements
/// reporters read it).
public struct FixesSection: ReportSection, Equatable {
    public static let key = "fixes"

    public struct Change: Codable, Sendable, Equatable {
        public init(
            page: Int?, object: String, rule: String, field: String, from: String, to: String, why: String,
            update: String? = nil
        ) {
            (self.page, self.object, self.rule, self.field, self.from, self.to, self.why, self.update) = (
                page, object, rule, field, from, to, why, update
            )
        }

        public var page: Int?
        public var object: String
        public var rule: String
        public var field: String
        public var from: String
        public var to: String
        public var why: String
        /// This change alone as bytes to append to the original (base64): an incremental update
        /// of the one link, what SARIF's `fixes` propose. Each is made against the original, so
        /// they do not compose; the repaired copy (`file`) has them all.
        public var update: String?
    }

    public struct Unfixed: Codable, Sendable, Equatable {
        public init(page: Int?, object: String?, rule: String, reason: String) {
            (self.page, self.object, self.rule, self.reason) = (page, object, rule, reason)
        }

        public var page: Int?
        public var object: String?
        public var rule: String
        public var reason: String
    }

    /// The repaired copy (in the output folder), when something changed.
    public var file: String?
    /// The original's size in bytes, where each change's `update` goes, when something changed.
    public var size: Int?
    public var changed: [Change]
    public var unfixed: [Unfixed]

    public init(file: String?, size: Int? = nil, changed: [Change], unfixed: [Unfixed]) {
        self.file = file
        self.size = size
        self.changed = changed
        self.unfixed = unfixed
    }
}
