import Foundation

/// The type of a stage option, with its allowed range.
public indirect enum OptionKind: Sendable {
    case bool
    case integer(min: Int, max: Int)
    case number(min: Double, max: Double)
    case string
    case choice([String])
    /// Page ranges such as `1-3,7,10-` (`-` alone or `all` for every page).
    case pages
    case object([OptionSpec])
    /// A list of objects; a plain string stands for an object with only its first option set
    /// (`"search": ["DRAFT", {"term": "TODO", "severity": "note"}]`).
    case list([OptionSpec])

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
        case .choice(let names): return names.map { "'\($0)'" }.joined(separator: " | ")
        case .pages: return "page list like '1-3,7,10-' or 'all'"
        case .object: return "object"
        case .list: return "list"
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
        case .choice(let names): return ["enum": .array(names.map { .string($0) })]
        case .pages: return ["type": "string", "pattern": .string(PageRanges.pattern)]
        case .object(let specs): return OptionSpec.objectSchema(specs)
        case .list(let specs):
            return ["type": "array", "items": ["anyOf": [["type": "string"], OptionSpec.objectSchema(specs)]]]
        }
    }
}

/// One option a stage accepts under `with`.
public struct OptionSpec: Sendable {
    public var key: String
    public var kind: OptionKind
    public var defaultValue: JSONValue
    public var summary: String
    /// Whether `pdfpipe stages` lists it (an option for a part this build lacks is not listed; the
    /// schema has it, so that one pipeline file validates against every build).
    public var listed = true

    public init(
        _ key: String, _ kind: OptionKind, default defaultValue: JSONValue, _ summary: String, listed: Bool = true
    ) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.listed = listed
    }

    static func objectSchema(_ specs: [OptionSpec]) -> JSONValue {
        var props: [String: JSONValue] = [:]
        for s in specs {
            var p = s.kind.schema.objectValue ?? [:]
            p["description"] = .string(s.summary)
            switch s.kind {
            case .object: break
            default: p["default"] = s.defaultValue
            }
            props[s.key] = .object(p)
        }
        return ["type": "object", "additionalProperties": false, "properties": .object(props)]
    }

    /// Checks `value` (nil: absent) against the specs; returns the options with defaults filled in.
    /// - Parameter path: the JSON path of the object holding the options (`stages[1].with`).
    static func validate(
        _ value: JSONValue?, specs: [OptionSpec], path: String, fail: (String, String) -> PipelineError
    ) throws(PipelineError) -> [String: JSONValue] {
        let given: [String: JSONValue]
        switch value {
        case nil, .null?: given = [:]
        case .object(let o)?: given = o
        case let other?: throw fail(path, "expected an object, got \(other.shortDescription)")
        }
        let known = specs.map(\.key)
        for key in given.keys.sorted() where !known.contains(key) {
            let list = known.isEmpty ? "this stage takes no options" : "known options: \(known.joined(separator: ", "))"
            throw fail("\(path).\(key)", "unknown option '\(key)'\(Suggest.didYouMean(key, known)) (\(list))")
        }
        var out: [String: JSONValue] = [:]
        for spec in specs {
            let p = "\(path).\(spec.key)"
            let v = given[spec.key]
            if case .object(let sub) = spec.kind {
                out[spec.key] = .object(try validate(v, specs: sub, path: p, fail: fail))
                continue
            }
            if case .list(let sub) = spec.kind {
                guard let v, v != .null else {
                    out[spec.key] = .array([])
                    continue
                }
                guard case .array(let items) = v else { throw fail(p, "expected a list, got \(v.shortDescription)") }
                var list: [JSONValue] = []
                for (i, item) in items.enumerated() {
                    var item = item
                    if case .string = item, let first = sub.first { item = .object([first.key: item]) }
                    list.append(.object(try validate(item, specs: sub, path: "\(p)[\(i)]", fail: fail)))
                }
                out[spec.key] = .array(list)
                continue
            }
            guard let v, v != .null else {
                out[spec.key] = spec.defaultValue
                continue
            }
            out[spec.key] = try check(v, kind: spec.kind, path: p, fail: fail)
        }
        return out
    }

    private static func check(
        _ v: JSONValue, kind: OptionKind, path: String, fail: (String, String) -> PipelineError
    ) throws(PipelineError) -> JSONValue {
        let d = kind.description
        let article = d.hasPrefix("'") ? "one of " : ("aeiou".contains(d.first ?? "x") ? "an " : "a ")
        let expected = "expected \(article)\(d)"
        switch kind {
        case .bool:
            guard case .bool = v else { throw fail(path, "\(expected), got \(v.shortDescription)") }
            return v
        case .integer(let lo, let hi):
            guard let i = v.intValue, i >= lo, i <= hi else {
                throw fail(path, "\(expected), got \(v.shortDescription)")
            }
            return .int(i)
        case .number(let lo, let hi):
            guard let d = v.doubleValue, d >= lo, d <= hi else {
                throw fail(path, "\(expected), got \(v.shortDescription)")
            }
            return v
        case .string:
            guard case .string = v else { throw fail(path, "\(expected), got \(v.shortDescription)") }
            return v
        case .choice(let names):
            guard let s = v.stringValue, names.contains(s) else {
                let hint = v.stringValue.map { Suggest.didYouMean($0, names) } ?? ""
                throw fail(path, "\(expected), got \(v.shortDescription)\(hint)")
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
        case .object, .list:
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
