/// A documented rule: a stable id, its default severity, and what it means. Each is declared once,
/// as a static value beside the code that reports it (`Rule.destNameNotFound` in the links stages,
/// `Rule.pdfUnreadable` here in Core), and a finding is made from that value (`Finding(rule:)`):
/// no rule id is spelt as a string where findings are made. A stage lists the rules it reports in
/// its descriptor (`StageDescriptor.rules`); a run's rules are Core's and its stages'
/// (`RuleCatalog`). Ids are a contract: add, never rename.
public struct Rule: Sendable, Hashable, CustomStringConvertible {
    public let id: String
    public let severity: Severity
    /// What it means, in a line (SARIF's short description, `pdfpipe rules`).
    public let summary: String
    /// How to fix it (a finding's default `hint`).
    public let hint: String
    /// Off unless a pipeline turns it on under `rules` (inventory facts some audits want).
    public let offByDefault: Bool
    /// When it is reported, case by case, and what viewers do (Markdown): the "when" column of the
    /// rules table in docs/reference.md and the body of the rule's page.
    public let details: String
    /// The smallest PDF construct that gives it, for its page (nil: none shows it well).
    public let example: String?
    /// The mainstream viewers that fail on what it reports (an error means a viewer fails); empty
    /// where what fails is not a viewer (a dead web link, a stage, pdfpipe's own limits).
    public let failsIn: [Viewer]
    /// Rules whose findings people-facing reports leave out when a run finding of this rule says
    /// what they all mean (`uri.network-down`: each link's `uri.unreachable`); report.json keeps them.
    public let collapses: [Rule]
    /// A committed PDF (its path from the repository's root) on which the stage that declares the
    /// rule, with its default options, reports it: `RuleSampleTests` runs each rule's sample and a
    /// clean file, and the rule's page names it (nil: no sample yet; `scripts/shape.py` counts them).
    public let sample: Sample?

    /// A rule's sample: the file, and the options its stage needs to report it (a JSON object, the
    /// stage's `with`; nil: the defaults). A string literal is a file with the defaults. A rule
    /// that another stage's options bring out (a limit set by resolve-destinations, seen by
    /// validate-links), or that no stage declares (Core's), names its `stages` instead: the
    /// pipeline's `stages` list, as JSON. A web rule's sample needs the test web server.
    public struct Sample: Sendable, Equatable, ExpressibleByStringLiteral {
        public let file: String
        public let options: String?
        /// The stages to run, as the pipeline file's `stages` array (JSON); nil: the stages that
        /// declare the rule, the last with `options`.
        public let stages: String?
        /// The sample's web links are answered by `scripts/http-fixture.py` on loopback: `PORT` in
        /// `stages` is the port it prints. The fast tier's `RuleSampleTests` (offline) leaves such
        /// samples to `ExternalLinkTests` (the integration tier).
        public let webServer: Bool

        public init(_ file: String, with options: String? = nil) {
            self.file = file
            self.options = options
            self.stages = nil
            self.webServer = false
        }

        public init(_ file: String, stages: String, webServer: Bool = false) {
            self.file = file
            self.options = nil
            self.stages = stages
            self.webServer = webServer
        }

        public init(stringLiteral file: String) { self.init(file) }
    }

    public init(
        _ id: String, severity: Severity, summary: String, hint: String, offByDefault: Bool = false,
        details: String? = nil, example: String? = nil, failsIn: [Viewer] = [],
        collapses: [Rule] = [], sample: Sample? = nil
    ) {
        self.sample = sample
        self.id = id
        self.severity = severity
        self.summary = summary
        self.hint = hint
        self.offByDefault = offByDefault
        self.details = details ?? summary
        self.example = example
        self.failsIn = failsIn
        self.collapses = collapses
    }

    /// A rule is its id: two declarations of one id are one rule (`RuleCatalog` checks they agree).
    public static func == (a: Rule, b: Rule) -> Bool { a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }
    public var description: String { id }
}

/// The mainstream PDF viewers a rule's severity is measured against.
public enum Viewer: String, Sendable, CaseIterable {
    case pdfium = "PDFium"
    case mupdf = "MuPDF"
    case poppler
    case pdfjs = "pdf.js"

    /// All four: what no viewer can follow.
    public static let mainstream: [Viewer] = allCases
}

/// The rules a run knows: Core's own (reading the file, how the run went) and those of every stage
/// it was given, in that order, each once. What reports list (SARIF's rule descriptors, the rule
/// pages) and what a pipeline's `rules` and `ignore` entries may name.
public struct RuleCatalog: Sendable, Equatable {
    public let all: [Rule]
    private let byID: [String: Rule]

    public init(_ rules: [Rule]) {
        var seen: [String: Rule] = [:]
        var all: [Rule] = []
        for r in rules {
            if let first = seen[r.id] {
                precondition(
                    first.severity == r.severity && first.summary == r.summary,
                    "rule '\(r.id)' is declared twice, differently")
                continue
            }
            seen[r.id] = r
            all.append(r)
        }
        self.all = all
        self.byID = seen
    }

    /// Core's rules and those of `stages`: the document rules first, each stage's in the order of
    /// `stages`, then the rules about the run itself.
    public init(stages: [StageDescriptor]) {
        self.init(CoreRules.document + stages.flatMap(\.rules) + CoreRules.process)
    }

    public func rule(_ id: String) -> Rule? { byID[id] }
    public var ids: [String] { all.map(\.id) }
}
