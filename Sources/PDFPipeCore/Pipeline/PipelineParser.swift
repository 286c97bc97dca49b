import Foundation

/// Checks a parsed pipeline file and builds the `Pipeline`: the keys through their declarations
/// (`Pipeline.keys`), then the parts with code of their own (stages, rules, ignore). Every problem
/// is kept, so a file with nine mistakes takes one round, not nine; they are reported in the
/// file's order.
struct PipelineParser {
    let file: String
    /// Where each JSON path's value starts in the file.
    let locations: [String: SourceLocation]
    let catalog: [StageDescriptor]
    /// Core's rules and the catalog's stages': what `rules` and `ignore` may name.
    let ruleCatalog: RuleCatalog
    let environment: Pipeline.EnvironmentCheck
    var problems: [PipelineError] = []

    init(
        file: String, locations: [String: SourceLocation], catalog: [StageDescriptor],
        environment: Pipeline.EnvironmentCheck
    ) {
        self.file = file
        self.locations = locations
        self.catalog = catalog
        self.ruleCatalog = RuleCatalog(stages: catalog)
        self.environment = environment
    }

    /// The location of the value at `path`, or of the closest enclosing value that exists.
    func location(of path: String) -> SourceLocation? {
        var p = path
        var loc = locations[p]
        while loc == nil, let cut = p.lastIndex(where: { $0 == "." || $0 == "[" }) {
            p = String(p[..<cut])
            loc = locations[p]
        }
        return loc ?? locations[""]
    }

    func fail(_ path: String, _ message: String) -> PipelineError {
        PipelineError(file: file, location: location(of: path), path: path, message: message)
    }

    mutating func pipeline(_ root: JSONValue, formats knownFormats: [String]) throws(PipelineError) -> Pipeline {
        guard case .object(let top) = root else {
            throw fail("", "a pipeline is a JSON object, got \(root.shortDescription)")
        }
        // Every key through its declaration, each checked on its own.
        let keys = Pipeline.keys(catalog: catalog, formats: knownFormats)
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
            do throws(PipelineError) {
                checked[spec.key] = try spec.validated(top[spec.key], path: spec.key, noun: "key", fail: fail)
            } catch { problems += error.all }
        }
        let values = OptionValues(checked)
        let name = values["name"]?.stringValue ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent

        if values["stages"] == nil || values["stages"] == .null,
            !top.keys.contains(where: { !keyNames.contains($0) && !Suggest.didYouMean($0, ["stages"]).isEmpty })
        {
            // (A misspelt 'stages' is said once, above, as an unknown key with its suggestion.)
            problems.append(fail("", "missing key 'stages' (a list of stages to run)"))
        }
        let stages = self.stages(values["stages"])
        var rules: [String: RuleLevel] = [:]
        do throws(PipelineError) { rules = try self.rules(values["rules"]) } catch { problems += error.all }
        let suppressions = self.suppressions(values["ignore"])
        let report = values.object("report")
        var formats: [String] = []
        for f in report.strings("formats") where !formats.contains(f) { formats.append(f) }

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
            file: file, version: values["version"]?.intValue ?? Pipeline.currentVersion, name: name,
            inputs: values.strings("inputs"), output: values["output"]?.stringValue ?? "out/\(name)",
            jobs: values.int("jobs"), stages: stages.configured, rules: rules,
            formats: formats.isEmpty ? ["json"] : formats, failOn: report.choice("failOn", FailOn.error))
        pipeline.suppressions = suppressions
        pipeline.ruleCatalog = ruleCatalog
        pipeline.baselineFile = report["baseline"]?.stringValue
        pipeline.ratchet = report.bool("ratchet")
        pipeline.sourceRoots = report.strings("sources")
        pipeline.ledger = report["ledger"]?.stringValue
        pipeline.isolation = values.choice("isolation", Isolation.auto)
        pipeline.timeoutSeconds = values.double("timeoutSeconds")
        pipeline.memoryLimitMB = values.int("memoryLimitMB")
        pipeline.stageIDs = stages.ids
        pipeline.environmentProblems = stages.environmentProblems
        return pipeline
    }

    /// `stages`: each stage's name and options checked, its requirements on the stages before it,
    /// and the stage built.
    mutating func stages(_ value: JSONValue?) -> (
        configured: [ConfiguredStage], ids: [String], environmentProblems: [PipelineError]
    ) {
        var items: [JSONValue] = []
        if let value, value != .null {
            if case .array(let a) = value, !a.isEmpty {
                items = a
            } else {
                problems.append(fail("stages", "expected a non-empty array of stages, got \(value.shortDescription)"))
            }
        }
        var stages: [ConfiguredStage] = []
        var ids: [String] = []
        var environmentProblems: [PipelineError] = []
        var seen: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            let descriptor: StageDescriptor
            let options: OptionValues
            do throws(PipelineError) {
                (descriptor, options) = try stageOptions(item, path: "stages[\(i)]", before: stages)
            } catch {
                problems += error.all
                continue
            }
            ids.append(descriptor.id)
            do throws(PipelineError) {
                let stage = try make(descriptor, options, path: "stages[\(i)]")
                seen[descriptor.id, default: 0] += 1
                let n = seen[descriptor.id]!
                stages.append(
                    ConfiguredStage(
                        id: descriptor.id, label: n == 1 ? descriptor.id : "\(descriptor.id)#\(n)",
                        options: options, stage: stage))
            } catch {
                // A variable a lint job need not have (`pdfpipe validate`): noted, not refused.
                if error.needsEnvironment && environment == .unchecked {
                    environmentProblems.append(error)
                } else {
                    problems += error.all
                }
            }
        }
        return (stages, ids, environmentProblems)
    }

    /// One stage's `use` and `with`, checked.
    func stageOptions(_ item: JSONValue, path p: String, before: [ConfiguredStage]) throws(PipelineError) -> (
        StageDescriptor, OptionValues
    ) {
        guard case .object(let s) = item else {
            throw fail(p, "expected an object like {\"use\": \"inspect\"}, got \(item.shortDescription)")
        }
        // Unknown keys are said with whatever else is wrong in the stage (its name, its options).
        var problems: [PipelineError] = []
        for key in s.keys.sorted() where !["use", "with"].contains(key) {
            problems.append(
                fail(
                    "\(p).\(key)",
                    "unknown key '\(key)'\(Suggest.didYouMean(key, ["use", "with"])) (a stage has 'use' and 'with')"))
        }
        func failing(_ last: PipelineError) -> PipelineError { PipelineError.combined(problems + [last])! }
        guard let use = s["use"] else { throw failing(fail(p, "missing key 'use' (the stage to run)")) }
        guard let id = use.stringValue else {
            throw failing(fail("\(p).use", "expected a stage name, got \(use.shortDescription)"))
        }
        let known = catalog.map(\.id)
        guard let descriptor = catalog.first(where: { $0.id == id }) else {
            throw failing(
                fail(
                    "\(p).use",
                    "unknown stage '\(id)'\(Suggest.didYouMean(id, known)) (known stages: \(known.joined(separator: ", ")))"
                ))
        }
        let checked: [String: JSONValue]
        do throws(PipelineError) {
            checked = try OptionSpec.validate(s["with"], specs: descriptor.options, path: "\(p).with", fail: fail)
        } catch { throw failing(error) }
        if let error = PipelineError.combined(problems) { throw error }
        let options = OptionValues(checked)
        // What it needs from earlier stages, by product type (`StageDescriptor.needs`, `produces`).
        let made = Set(before.flatMap { b in catalog.first { $0.id == b.id }?.produces ?? [] })
        for need in descriptor.needs?(options) ?? [] where !made.contains(need.product) {
            let makers = catalog.filter { $0.produces.contains(need.product) }.map(\.id)
            let put = makers.isEmpty ? "" : ": put \(makers.joined(separator: " or ")) earlier in the pipeline"
            throw fail("\(p).with", "\(need.why) needs \(need.product), which no earlier stage makes\(put)")
        }
        return (descriptor, options)
    }

    /// Builds a stage; its errors name the option relative to its `with` (`search[2].term`) and
    /// are given the pipeline's file, path and location here.
    func make(_ descriptor: StageDescriptor, _ options: OptionValues, path p: String) throws(PipelineError)
        -> any Stage
    {
        let made = Pipeline.$unsetVariablesAreEmpty.withValue(environment == .offline) {
            () -> Result<any Stage, PipelineError> in
            do throws(PipelineError) { return .success(try descriptor.make(options)) } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let s): return s
        case .failure(var e):
            if e.file == nil { e.file = file }
            e.path = e.path.map { "\(p).with.\($0)" } ?? "\(p).with"
            if e.location == nil { e.location = location(of: e.path!) }
            throw e
        }
    }

    /// `rules`: rule ids to levels.
    func rules(_ value: JSONValue?) throws(PipelineError) -> [String: RuleLevel] {
        guard let value, value != .null else { return [:] }
        guard case .object(let r) = value else {
            throw fail("rules", "expected an object of rule ids to levels, got \(value.shortDescription)")
        }
        let ids = ruleCatalog.ids
        var rules: [String: RuleLevel] = [:]
        var problems: [PipelineError] = []
        for key in r.keys.sorted() {
            guard ids.contains(key) else {
                problems.append(
                    fail(
                        "rules.\(key)",
                        "unknown rule '\(key)'\(Suggest.didYouMean(key, ids)) (`pdfpipe rules` lists them)"))
                continue
            }
            guard let s = r[key]!.stringValue, let level = RuleLevel(s) else {
                problems.append(
                    fail(
                        "rules.\(key)",
                        "expected one of 'error' | 'warning' | 'note' | 'off', got \(r[key]!.described(typeExpected: r[key]!.stringValue != nil))\(r[key]!.stringValue.map { Suggest.didYouMean($0, ["error", "warning", "note", "off"]) } ?? "")"
                    ))
                continue
            }
            rules[key] = level
        }
        if let error = PipelineError.combined(problems) { throw error }
        return rules
    }

    /// `ignore`: the suppressions, each entry checked on its own.
    mutating func suppressions(_ value: JSONValue?) -> [Suppression] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else {
            problems.append(
                fail(
                    "ignore",
                    "expected an array of {\"rule\", \"path\", \"uri\", \"page\", \"reason\", \"expires\"}, got \(value.shortDescription)"
                ))
            return []
        }
        var out: [Suppression] = []
        for (i, item) in items.enumerated() {
            do throws(PipelineError) {
                out.append(try Suppression(json: item, index: i, rules: ruleCatalog))
            } catch {
                problems.append(fail(error.path ?? "ignore[\(i)]", error.message))
            }
        }
        return out
    }
}
