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
    public var formats: [String]
    public var failOn: FailOn
    /// `ignore`: findings taken out of the counts, with a reason.
    public var suppressions: [Suppression] = []
    /// `report.baseline` (relative to the working folder) or `--baseline`: findings already in it
    /// do not fail the run.
    public var baselineFile: String?
    /// `report.ratchet` or `--ratchet`: fail when findings of the baseline are gone.
    public var ratchet = false
    /// Redo work that incremental stages would skip (`--force`).
    public var force = false
    /// No network (`--offline`): the external link check skips http(s) links.
    public var offline = false
    /// `process`: each document runs in a child process (crashes, hangs and memory blow-ups stay there).
    public var isolation = Isolation.none
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
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: Paths.absolute(file, relativeTo: directory)))
            guard let t = String(data: data, encoding: .utf8) else {
                throw PipelineError(file: file, message: "the file is not UTF-8 text")
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
            return SystemIO.errnoText(Int32(underlying.code)).lowercased()
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
        let locations = parser.locations
        func fail(_ path: String, _ message: String) -> PipelineError {
            // Point at the value, or at the closest enclosing value that exists.
            var p = path
            var loc = locations[p]
            while loc == nil, let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) {
                p = String(p[..<cut])
                loc = locations[p]
            }
            return PipelineError(file: file, location: loc ?? locations[""], path: path, message: message)
        }

        guard case .object(let top) = root else {
            throw fail("", "a pipeline is a JSON object, got \(root.shortDescription)")
        }
        // Every problem in one pass: each part is checked on its own and what it finds is kept,
        // so a file with nine mistakes takes one round, not nine.
        var problems: [PipelineError] = []
        func attempt(_ body: () throws(PipelineError) -> Void) {
            do throws(PipelineError) { try body() } catch { problems.append(error) }
        }
        // Every key through its declaration (`Pipeline.keys`), each checked on its own.
        let keys = Self.keys(catalog: catalog, formats: knownFormats)
        let keyNames = keys.map(\.key)
        for key in top.keys.sorted() where !keyNames.contains(key) {
            problems.append(
                fail(
                    key,
                    "unknown key '\(key)'\(Suggest.didYouMean(key, keyNames)) (known keys: \(keyNames.filter { !$0.hasPrefix("$") }.joined(separator: ", ")))"
                ))
        }
        var checked: [String: JSONValue] = [:]
        for spec in keys {
            attempt { () throws(PipelineError) in
                checked[spec.key] = try spec.validated(top[spec.key], path: spec.key, noun: "key", fail: fail)
            }
        }
        let values = OptionValues(checked)
        let version = values["version"]?.intValue ?? currentVersion
        let name = values["name"]?.stringValue ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let inputs = values.strings("inputs")
        let output = values["output"]?.stringValue ?? "out/\(name)"
        let jobs = values.int("jobs")
        let isolation = values.choice("isolation", Isolation.none)
        let timeout = values.double("timeoutSeconds")
        let memory = values.int("memoryLimitMB")

        // stages
        var stageItems: [JSONValue] = []
        if let stagesValue = values["stages"], stagesValue != .null {
            if case .array(let items) = stagesValue, !items.isEmpty {
                stageItems = items
            } else {
                problems.append(
                    fail("stages", "expected a non-empty array of stages, got \(stagesValue.shortDescription)"))
            }
        } else if !top.keys.contains(where: {
            !keyNames.contains($0) && !Suggest.didYouMean($0, ["stages"]).isEmpty
        }) {
            // (A misspelt 'stages' is said once, above, as an unknown key with its suggestion.)
            problems.append(fail("", "missing key 'stages' (a list of stages to run)"))
        }
        let known = catalog.map(\.id)
        var stages: [ConfiguredStage] = []
        var stageIDs: [String] = []
        var environmentProblems: [PipelineError] = []
        var seen: [String: Int] = [:]
        for (i, item) in stageItems.enumerated() {
            attempt { () throws(PipelineError) in
                let p = "stages[\(i)]"
                guard case .object(let s) = item else {
                    throw fail(p, "expected an object like {\"use\": \"inspect\"}, got \(item.shortDescription)")
                }
                for key in s.keys.sorted() where !["use", "with"].contains(key) {
                    throw fail(
                        "\(p).\(key)",
                        "unknown key '\(key)'\(Suggest.didYouMean(key, ["use", "with"])) (a stage has 'use' and 'with')"
                    )
                }
                guard let use = s["use"] else { throw fail(p, "missing key 'use' (the stage to run)") }
                guard let id = use.stringValue else {
                    throw fail("\(p).use", "expected a stage name, got \(use.shortDescription)")
                }
                guard let descriptor = catalog.first(where: { $0.id == id }) else {
                    throw fail(
                        "\(p).use",
                        "unknown stage '\(id)'\(Suggest.didYouMean(id, known)) (known stages: \(known.joined(separator: ", ")))"
                    )
                }
                let values = try OptionSpec.validate(
                    s["with"], specs: descriptor.options, path: "\(p).with", fail: fail)
                let options = OptionValues(values)
                if let problem = descriptor.requirement?(options, stages.map { ($0.id, $0.options) }) {
                    throw fail("\(p).with", problem)
                }
                stageIDs.append(id)
                let stage: any Stage
                let made = Pipeline.$unsetVariablesAreEmpty.withValue(environment == .offline) {
                    () -> Result<any Stage, PipelineError> in
                    do throws(PipelineError) { return .success(try descriptor.make(options)) } catch {
                        return .failure(error)
                    }
                }
                switch made {
                case .success(let s): stage = s
                case .failure(let error):
                    // A stage names the option relative to its `with` (`search[2].term`).
                    var e = error
                    if e.file == nil { e.file = file }
                    e.path = e.path.map { "\(p).with.\($0)" } ?? "\(p).with"
                    if e.location == nil {
                        var key = e.path!
                        while locations[key] == nil, let cut = key.lastIndex(where: { $0 == "." || $0 == "[" }) {
                            key = String(key[..<cut])
                        }
                        e.location = locations[key] ?? locations[p]
                    }
                    if e.needsEnvironment && environment == .unchecked {
                        environmentProblems.append(e)
                        return
                    }
                    throw e
                }
                seen[id, default: 0] += 1
                let label = seen[id]! == 1 ? id : "\(id)#\(seen[id]!)"
                stages.append(ConfiguredStage(id: id, label: label, options: options, stage: stage))
            }
        }

        // rules
        var rules: [String: RuleLevel] = [:]
        attempt { () throws(PipelineError) in
            if let v = values["rules"], v != .null {
                guard case .object(let r) = v else {
                    throw fail("rules", "expected an object of rule ids to levels, got \(v.shortDescription)")
                }
                let ids = Rules.all.map(\.id)
                for key in r.keys.sorted() {
                    guard ids.contains(key) else {
                        throw fail(
                            "rules.\(key)",
                            "unknown rule '\(key)'\(Suggest.didYouMean(key, ids)) (`pdfpipe rules` lists them)")
                    }
                    guard let s = r[key]!.stringValue, let level = RuleLevel(s) else {
                        throw fail(
                            "rules.\(key)",
                            "expected one of 'error' | 'warning' | 'note' | 'off', got \(r[key]!.shortDescription)")
                    }
                    rules[key] = level
                }
            }
        }

        // ignore
        var suppressions: [Suppression] = []
        attempt { () throws(PipelineError) in
            if let v = values["ignore"] {
                guard case .array(let items) = v else {
                    throw fail(
                        "ignore",
                        "expected an array of {\"rule\", \"path\", \"uri\", \"page\", \"reason\", \"expires\"}, got \(v.shortDescription)"
                    )
                }
                for (i, item) in items.enumerated() {
                    attempt { () throws(PipelineError) in
                        do throws(PipelineError) {
                            suppressions.append(try Suppression(json: item, index: i))
                        } catch {
                            throw fail(error.path ?? "ignore[\(i)]", error.message)
                        }
                    }
                }
            }
        }

        // report
        let report = values.object("report")
        var formats: [String] = []
        for f in report.strings("formats") where !formats.contains(f) { formats.append(f) }
        if formats.isEmpty { formats = ["json"] }
        let failOn = report.choice("failOn", FailOn.error)
        let baselineFile = report["baseline"]?.stringValue
        let ratchet = report.bool("ratchet")

        if let first = problems.first {
            // In the order of the file.
            let sorted = problems.enumerated().sorted { x, y in
                let a = x.element.location.map { ($0.line, $0.column) } ?? (0, 0)
                let b = y.element.location.map { ($0.line, $0.column) } ?? (0, 0)
                return a != b ? a < b : x.offset < y.offset
            }.map(\.element)
            var error = sorted.first ?? first
            error.others = Array(sorted.dropFirst())
            throw error
        }
        var pipeline = Pipeline(
            file: file, version: version, name: name, inputs: inputs, output: output, jobs: jobs, stages: stages,
            rules: rules, formats: formats, failOn: failOn)
        pipeline.suppressions = suppressions
        pipeline.baselineFile = baselineFile
        pipeline.ratchet = ratchet
        pipeline.isolation = isolation
        pipeline.timeoutSeconds = timeout
        pipeline.memoryLimitMB = memory
        pipeline.stageIDs = stageIDs
        pipeline.environmentProblems = environmentProblems
        return pipeline
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
