import Foundation
import SystemIO

/// A stage as the pipeline configures it.
public struct ConfiguredStage: Sendable {
    public var id: String
    /// The key of this stage in `timings`: the id, with `#2`, `#3` for repeats.
    public var label: String
    public var options: OptionValues
    public var stage: any Stage
}

/// Where documents run: in the pdfpipe process, or each in a worker process of its own.
public enum Isolation: String, Sendable, CaseIterable {
    /// `process` when a stage runs a page engine over the document (`StageDescriptor.runsPageEngine`:
    /// thumbnails, extract-text; a crash inside poppler, cairo or MuPDF costs that document only),
    /// else `none` (link audits: pdfpipe's reader in-process, web checks shared across documents).
    case auto
    case none, process
}

/// A validated pipeline file, defaults filled in.
public struct Pipeline: Sendable {
    public static let currentVersion = 1
    /// The file as the user named it (used in messages).
    public var file: String
    public var version: Int
    public var name: String
    public var inputs: [String]
    public var output: String
    /// Concurrent documents; 0 means one per processor.
    public var jobs: Int
    public var stages: [ConfiguredStage]
    public var rules: [String: RuleLevel]
    /// The rules this run knows (Core's and its catalog's stages'), with their default levels.
    public var ruleCatalog = RuleCatalog(stages: [])
    public var formats: [String]
    public var failOn: FailOn
    /// `ignore`: findings taken out of the counts, with a reason.
    public var suppressions: [Suppression] = []
    /// `report.baseline` (relative to the working folder) or `--baseline`: findings already in it
    /// do not fail the run.
    public var baselineFile: String?
    /// `report.ratchet` or `--ratchet`: fail when findings of the baseline are gone.
    public var ratchet = false
    /// `report.sources` or `--sources`: the folders the PDFs' sources are in (relative to the
    /// working folder); findings about links get the source line that made them.
    public var sourceRoots: [String] = []
    /// `report.ledger` or `--ledger`: the folder (or `s3://` prefix) that keeps one record of each run (`LedgerRecord`).
    public var ledger: String?
    /// Redo work that incremental stages would skip (`--force`).
    public var force = false
    /// No network (`--offline`): the external link check skips http(s) links.
    public var offline = false
    /// `process`: each document runs in a child process (crashes, hangs and memory blow-ups stay
    /// there); `auto` (the default): `process` when a stage runs a page engine (`resolvedIsolation`).
    public var isolation = Isolation.auto

    /// `isolation` with `auto` decided: `process` when a stage renders pages or reads their text
    /// with a page engine, else `none`.
    public var resolvedIsolation: Isolation {
        guard isolation == .auto else { return isolation }
        return stages.contains { type(of: $0.stage).descriptor.runsPageEngine } ? .process : .none
    }
    /// With process isolation: seconds a document may take (0: no limit).
    public var timeoutSeconds = 0.0
    /// With process isolation: address-space limit of a document's process in MB (0: none).
    public var memoryLimitMB = 0
    /// The stages as the file lists them (`stages` lacks those set aside for their environment).
    public var stageIDs: [String] = []
    /// With `environment: .unchecked`: what the environment lacks (the stages concerned are not built).
    public var environmentProblems: [PipelineError] = []

    /// How parsing treats a variable the pipeline names but the environment does not set.
    public enum EnvironmentCheck: Sendable {
        /// An error: the pipeline cannot run (`pdfpipe run`).
        case required
        /// Noted in `environmentProblems` (`pdfpipe validate`).
        case unchecked
        /// Read as empty: nothing that would use it is sent (`pdfpipe run --offline`, where header
        /// secrets are not needed: a fork's pull request has none).
        case offline
    }

    /// While a stage is built from a pipeline parsed with `environment: .offline`: variables the
    /// environment does not set read as empty (see `ExternalOptions.expand`).
    @TaskLocal public static var unsetVariablesAreEmpty = false

    /// Reads and validates a pipeline file.
    /// - Parameter directory: where a relative `file` is found (messages still name it as given).
    public static func load(
        file: String, relativeTo directory: String, catalog: [StageDescriptor], formats: [String],
        environment: EnvironmentCheck = .required
    ) throws(PipelineError) -> Pipeline {
        let text: String
        let path = Paths.absolute(file, relativeTo: directory)
        if FileSystem.isFolder(path) {
            throw PipelineError(
                file: file,
                message:
                    "is a folder, not a pipeline file: the first argument of run is the pipeline (pdfpipe run PIPELINE [INPUT...]; pdfpipe init writes one)"
            )
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if data.starts(with: Array("%PDF-".utf8)) {
                throw PipelineError(
                    file: file,
                    message:
                        "is a PDF, not a pipeline file: the first argument of run is the pipeline (pdfpipe run PIPELINE \(file); pdfpipe init writes one)"
                )
            }
            guard let t = String(data: data, encoding: .utf8) else {
                throw PipelineError(
                    file: file, message: "the file is not UTF-8 text: a pipeline file is JSON (pdfpipe init writes one)"
                )
            }
            text = t
        } catch let e as PipelineError {
            throw e
        } catch {
            throw PipelineError(file: file, message: "cannot read the pipeline file: \(Self.describe(error))")
        }
        return try parse(text, file: file, catalog: catalog, formats: formats, environment: environment)
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Errno(rawValue: Int32(underlying.code)).description.lowercased()
        }
        if ns.domain == NSCocoaErrorDomain && (ns.code == NSFileReadNoSuchFileError || ns.code == 260) {
            return "no such file"
        }
        return ns.localizedDescription
    }

    /// Validates pipeline text; `file` names it in messages.
    public static func parse(
        _ text: String, file: String, catalog: [StageDescriptor], formats knownFormats: [String],
        environment: EnvironmentCheck = .required
    ) throws(PipelineError) -> Pipeline {
        var parser = JSONParser(text: text)
        let root: JSONValue
        do {
            root = try parser.parseDocument()
        } catch {
            throw PipelineError(file: file, location: error.location, message: "malformed JSON: \(error.message)")
        }
        var p = PipelineParser(file: file, locations: parser.locations, catalog: catalog, environment: environment)
        return try p.pipeline(root, formats: knownFormats)
    }

    /// The level of every rule the pipeline sets (`rules`), and `off` for the rules that are off
    /// unless it does (`Rule.offByDefault`).
    public var ruleLevels: [String: RuleLevel] {
        var levels = rules
        for r in ruleCatalog.all where r.offByDefault && levels[r.id] == nil { levels[r.id] = .off }
        return levels
    }

    /// The severity a rule has in this pipeline, or nil when it is off.
    public func level(of rule: String, default severity: Severity) -> Severity? {
        switch rules[rule] {
        case nil: severity
        case .off?: nil
        case .severity(let s)?: s
        }
    }
}
