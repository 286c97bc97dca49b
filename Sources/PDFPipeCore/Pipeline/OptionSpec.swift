import Foundation

/// The type of an option (of a stage, or a key of the pipeline file), with its allowed range.
public indirect enum OptionKind: Sendable {
    case bool
    case integer(min: Int, max: Int)
    case number(min: Double, max: Double)
    case string
    /// A string that must not be empty (a path, a name).
    case text
    case choice([String])
    /// Page ranges such as `1-3,7,10-` (`-` alone or `all` for every page).
    case pages
    case object([OptionSpec])
    /// A list of objects; a plain string stands for an object with only its first option set
    /// (`"search": ["DRAFT", {"term": "TODO", "severity": "note"}]`).
    case list([OptionSpec])
    /// A list of plain values of one kind (`"formats": ["json", "html"]`).
    case array(OptionKind, minItems: Int)
    /// Exactly this value (`"version": 1`).
    case constant(JSONValue)
    /// Checked by its own code (the pipeline's `stages`, `rules`, `ignore`); the model gives its
    /// schema and how it reads in `pdfpipe stages` and the README.
    case custom(schema: JSONValue, description: String)

    /// How the kind reads in messages and in `pdfpipe stages`.
    public var description: String {
        switch self {
        case .bool: return "boolean"
        case .integer(let lo, let hi):
            if hi == Int.max { return lo == 1 ? "positive integer" : "integer >= \(lo)" }
            return "integer \(lo)...\(hi)"
        case .number(let lo, let hi):
            if hi == .infinity { return lo > 0 ? "positive number" : "number >= \(JSONWriter.format(lo))" }
            return "number \(JSONWriter.format(lo))...\(JSONWriter.format(hi))"
        case .string: return "string"
        case .text: return "non-empty string"
        case .choice(let names): return names.map { "'\($0)'" }.joined(separator: " | ")
        case .pages: return "page list like '1-3,7,10-' or 'all'"
        case .object: return "object"
        case .list: return "list"
        case .array(let element, let minItems):
            let of: String
            if case .choice(let names) = element {
                of = names.joined(separator: ", ")
            } else {
                of = "\(element.description)s"
            }
            return "\(minItems > 0 ? "non-empty " : "")array of \(of)"
        case .constant(let v): return JSONWriter.compact(v)
        case .custom(_, let d): return d
        }
    }

    /// The JSON Schema of this kind.
    var schema: JSONValue {
        switch self {
        case .bool: return ["type": "boolean"]
        case .integer(let lo, let hi):
            var o: [String: JSONValue] = ["type": "integer", "minimum": .int(lo)]
            if hi != Int.max { o["maximum"] = .int(hi) }
            return .object(o)
        case .number(let lo, let hi):
            var o: [String: JSONValue] = ["type": "number", "minimum": .double(lo)]
            if hi != .infinity { o["maximum"] = .double(hi) }
            return .object(o)
        case .string: return ["type": "string"]
        case .text: return ["type": "string", "minLength": 1]
        case .choice(let names): return ["enum": .array(names.map { .string($0) })]
        case .pages: return ["type": "string", "pattern": .string(PageRanges.pattern)]
        case .object(let specs): return OptionSpec.objectSchema(specs)
        case .list(let specs):
            return ["type": "array", "items": ["anyOf": [["type": "string"], OptionSpec.objectSchema(specs)]]]
        case .array(let element, let minItems):
            var o: [String: JSONValue] = ["type": "array", "items": element.schema]
            if minItems > 0 { o["minItems"] = .int(minItems) }
            return .object(o)
        case .constant(let v): return ["const": v]
        case .custom(let schema, _): return schema
        }
    }
}

/// One option a stage accepts under `with`, or one key of the pipeline file.
public struct OptionSpec: Sendable {
    public var key: String
    public var kind: OptionKind
    public var defaultValue: JSONValue
    public var summary: String
    /// Whether `pdfpipe stages` lists it (an option for a part this build lacks is not listed; the
    /// schema has it, so that one pipeline file validates against every build).
    public var listed = true
    /// How a value is named in messages when the kind's description would say less ("an integer
    /// 0...1024 (0: one per processor)", "an array of paths or globs"); with its article.
    public var valueName: String?

    public init(
        _ key: String, _ kind: OptionKind, default defaultValue: JSONValue, _ summary: String, listed: Bool = true,
        valueName: String? = nil
    ) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.listed = listed
        self.valueName = valueName
    }

    static func objectSchema(_ specs: [OptionSpec]) -> JSONValue {
        var props: [String: JSONValue] = [:]
        for s in specs {
            var p = s.kind.schema.objectValue ?? [:]
            p["description"] = .string(s.summary)
            switch s.kind {
            case .object, .custom, .constant: break
            default: if s.defaultValue != .null { p["default"] = s.defaultValue }
            }
            props[s.key] = .object(p)
        }
        return ["type": "object", "additionalProperties": false, "properties": .object(props)]
    }

    /// Checks `value` (nil: absent) against the specs; returns the options with defaults filled in.
    /// - Parameters:
    ///   - path: the JSON path of the object holding the options (`stages[1].with`).
    ///   - noun: what its keys are called in messages ("option", "key").
    static func validate(
        _ value: JSONValue?, specs: [OptionSpec], path: String, noun: String = "option",
        fail: (String, String) -> PipelineError
    ) throws(PipelineError) -> [String: JSONValue] {
        let given: [String: JSONValue]
        switch value {
        case nil, .null?: given = [:]
        case .object(let o)?: given = o
        case let other?: throw fail(path, "expected an object, got \(other.shortDescription)")
        }
        // Every problem of the object, not the first: an unknown key does not hide a bad value
        // beside it (`"widht": 200, "format": "gif"` says both).
        var problems: [PipelineError] = []
        let known = specs.map(\.key)
        for key in given.keys.sorted() where !known.contains(key) {
            let list =
                known.isEmpty ? "this stage takes no options" : "known \(noun)s: \(known.joined(separator: ", "))"
            problems.append(
                fail("\(path).\(key)", "unknown \(noun) '\(key)'\(Suggest.didYouMean(key, known)) (\(list))"))
        }
        var out: [String: JSONValue] = [:]
        for spec in specs {
            do throws(PipelineError) {
                out[spec.key] = try spec.validated(
                    given[spec.key], path: "\(path).\(spec.key)", noun: noun, fail: fail)
            } catch { problems.append(error) }
        }
        if let error = PipelineError.combined(problems) { throw error }
        return out
    }

    /// Checks one value (nil: absent) and returns it, or the default when it is absent.
    /// - Parameter path: the value's JSON path (`stages[1].with.width`), or the flag (`--jobs`).
    public func validated(
        _ v: JSONValue?, path p: String, noun: String = "option", fail: (String, String) -> PipelineError
    ) throws(PipelineError) -> JSONValue {
        switch kind {
        case .object(let sub):
            return .object(try Self.validate(v, specs: sub, path: p, noun: noun, fail: fail))
        case .list(let sub):
            guard let v, v != .null else { return .array([]) }
            guard case .array(let items) = v else { throw fail(p, "expected a list, got \(v.shortDescription)") }
            var list: [JSONValue] = []
            var problems: [PipelineError] = []
            for (i, item) in items.enumerated() {
                var item = item
                if case .string = item, let first = sub.first { item = .object([first.key: item]) }
                do throws(PipelineError) {
                    list.append(.object(try Self.validate(item, specs: sub, path: "\(p)[\(i)]", fail: fail)))
                } catch { problems.append(error) }
            }
            if let error = PipelineError.combined(problems) { throw error }
            return .array(list)
        case .custom:
            return v ?? defaultValue  // checked by its own code
        default:
            guard let v, v != .null else { return defaultValue }
            return try check(v, kind: kind, path: p, fail: fail)
        }
    }

    private func check(
        _ v: JSONValue, kind: OptionKind, path: String, fail: (String, String) -> PipelineError
    ) throws(PipelineError) -> JSONValue {
        let expected: String
        if let valueName {
            expected = "expected \(valueName)"
        } else {
            let d = kind.description
            let article = d.hasPrefix("'") ? "one of " : ("aeiou".contains(d.first ?? "x") ? "an " : "a ")
            expected = "expected \(article)\(d)"
        }
        switch kind {
        case .bool:
            guard case .bool = v else {
                throw fail(path, "\(expected), got \(v.typedDescription)\(v.unquotedHint(number: false))")
            }
            return v
        case .integer(let lo, let hi):
            guard let i = v.intValue, i >= lo, i <= hi else {
                throw fail(
                    path,
                    "\(expected), got \(v.described(typeExpected: v.doubleValue != nil))\(v.unquotedHint(number: true))"
                )
            }
            return .int(i)
        case .number(let lo, let hi):
            guard let d = v.doubleValue, d >= lo, d <= hi else {
                throw fail(
                    path,
                    "\(expected), got \(v.described(typeExpected: v.doubleValue != nil))\(v.unquotedHint(number: true))"
                )
            }
            return v
        case .string:
            guard case .string = v else { throw fail(path, "\(expected), got \(v.typedDescription)") }
            return v
        case .text:
            guard let s = v.stringValue, !s.isEmpty else {
                throw fail(path, "\(expected), got \(v.described(typeExpected: v.stringValue != nil))")
            }
            return v
        case .choice(let names):
            guard let s = v.stringValue, names.contains(s) else {
                let hint = v.stringValue.map { Suggest.didYouMean($0, names) } ?? ""
                throw fail(path, "\(expected), got \(v.described(typeExpected: v.stringValue != nil))\(hint)")
            }
            return v
        case .pages:
            guard let s = v.stringValue else { throw fail(path, "\(expected), got \(v.shortDescription)") }
            do {
                _ = try PageRanges(s)
            } catch {
                throw fail(path, "\(error.message) in \(v.shortDescription); \(expected)")
            }
            return v
        case .array(let element, let minItems):
            guard case .array(let items) = v, items.count >= minItems else {
                throw fail(path, "\(expected), got \(v.shortDescription)")
            }
            let item = OptionSpec(key, element, default: .null, summary)
            var out: [JSONValue] = []
            for (i, x) in items.enumerated() {
                out.append(try item.check(x, kind: element, path: "\(path)[\(i)]", fail: fail))
            }
            return .array(out)
        case .constant(let c):
            guard v == c else {
                throw fail(
                    path,
                    "unsupported \(key) \(JSONWriter.compact(v)); this pdfpipe reads \(key) \(JSONWriter.compact(c))")
            }
            return v
        case .object, .list, .custom:
            return v  // handled by the caller
        }
    }
}

/// Stage options after validation, defaults filled in.
public struct OptionValues: Sendable, Equatable {
    public var values: [String: JSONValue]
    /// Where these values sit under the stage's `with` (`external.cache`, `search[]`), for the read log.
    private var prefix = ""

    public init(_ values: [String: JSONValue]) { self.values = values }

    /// While set, every option read is recorded in it (by its path: `external.cache.path`), so that
    /// a test can hold the declared options and the options a stage reads together (#22, 1).
    @TaskLocal package static var readLog: OptionReadLog?

    private func read(_ key: String) -> JSONValue? {
        if let log = Self.readLog { log.record(prefix.isEmpty ? key : "\(prefix).\(key)") }
        return values[key]
    }

    public subscript(key: String) -> JSONValue? { read(key) }

    public func bool(_ key: String) -> Bool { read(key)?.boolValue ?? false }
    public func int(_ key: String) -> Int { read(key)?.intValue ?? 0 }
    public func double(_ key: String) -> Double { read(key)?.doubleValue ?? 0 }
    public func string(_ key: String) -> String { read(key)?.stringValue ?? "" }
    public func object(_ key: String) -> OptionValues { nested(read(key)?.objectValue ?? [:], key) }
    /// A `.list` option: its items, each an object with its defaults filled in.
    public func list(_ key: String) -> [OptionValues] {
        (read(key)?.arrayValue ?? []).map { nested($0.objectValue ?? [:], "\(key)[]") }
    }
    /// An `.array` of strings.
    public func strings(_ key: String) -> [String] { (read(key)?.arrayValue ?? []).compactMap(\.stringValue) }
    public func pages(_ key: String) -> PageRanges { (try? PageRanges(string(key))) ?? .all }
    /// A `.choice` option as its enum (validation has checked the value is one of the choices;
    /// `fallback` only for values built in code without validation).
    public func choice<T: RawRepresentable>(_ key: String, _ fallback: T) -> T where T.RawValue == String {
        T(rawValue: string(key)) ?? fallback
    }

    private func nested(_ values: [String: JSONValue], _ key: String) -> OptionValues {
        var o = OptionValues(values)
        o.prefix = prefix.isEmpty ? key : "\(prefix).\(key)"
        return o
    }

    public static func == (a: OptionValues, b: OptionValues) -> Bool { a.values == b.values }
}

/// The options read while `OptionValues.readLog` is set.
package final class OptionReadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: Set<String> = []

    package init() {}

    func record(_ key: String) {
        lock.lock()
        keys.insert(key)
        lock.unlock()
    }

    package var read: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return keys
    }
}
