import Foundation
import PDFPipeCore

// The contributor recipe's stage (docs/development.md, "Adding a stage", "Adding a rule", "Adding an
// option"), written as a stage of pdfpipe is: `scripts/recipe-check.sh` moves this file into
// Sources/PDFPipeStages/Toy/, adds the stage to `StageTable.all` and runs the fast tier, which
// must pass with it there. In this test target, `ContributorRecipeTests` hands it to the CLI as a
// program embedding pdfpipe would.

// Adding a rule: a static `Rule` beside the code that reports it, with a sample where it fires.
extension Rule {
    public static let toyLargeFile = Rule(
        "toy.large-file", severity: .warning, summary: "the file is larger than the toy stage's maxBytes",
        hint: "make the file smaller, or raise maxBytes",
        details: "the file has more bytes than `maxBytes` (the message says how many)",
        sample: .init("samples/actions.pdf", with: #"{"maxBytes": 4700}"#))
}

// Adding an option: a property of the stage's `OptionGroup`.
public struct ToyOptions: OptionGroup {
    public init() {}
    @Option(in: 0...1_000_000_000, "bytes a file may have before toy.large-file") public var maxBytes = 1_000_000
    @Option("the word the section says") public var label = "toy"
}

// Adding a stage: a `Stage` with its descriptor (id, summary, its rules, its options).
public struct ToyStage: Stage {
    public static let descriptor = StageDescriptor(
        ToyStage.self, id: "toy", summary: "says how large each file is", rules: [.toyLargeFile])

    let options: ToyOptions

    public init(_ options: ToyOptions) { self.options = options }

    public func run(_ job: inout Job) throws {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: job.workingFile)[.size] as? Int) ?? 0
        job[.toy] = ["bytes": .int(bytes), "label": .string(options.label)]
        if bytes > options.maxBytes {
            job.report(
                Finding(rule: .toyLargeFile, message: "the file has \(bytes) bytes, more than \(options.maxBytes)"))
        }
    }
}

// Adding a section: its key, typed by its value (here open-ended JSON; a `ReportSection` type when
// Core or other stages read it).
extension SectionKey where Value == [String: JSONValue] {
    public static var toy: Self { .init("toy") }
}
