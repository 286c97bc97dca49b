import PDFPipeCore

/// What a command-line flag is: its name, its value's placeholder, its help, and the pipeline key
/// it overrides. `--help`, the parser and the README's tests read it; the value is the `@Flag`
/// property's.
struct FlagInfo: Sendable {
    var name: String
    /// The value's placeholder (`DIR`); nil for a flag that takes none.
    var value: String?
    var help: String
    /// The pipeline key the flag overrides (`jobs`, `report.failOn`): its value is checked by that
    /// key's declaration in `Pipeline.keys`, so file and flag accept the same values.
    var key: String?

    /// `--out DIR`, `--force`.
    var usage: String { value.map { "\(name) \($0)" } ?? name }
}

/// A value a flag can take, read from its text.
protocol FlagValue: Sendable {
    /// Nil when the text is not such a value.
    init?(flagText: String)
    /// What was expected, for the error: `an integer`, `one of auto, always, never`.
    static var expected: String { get }
    /// The accepted values, when they are few (for "did you mean").
    static var choices: [String] { get }
}

extension FlagValue {
    static var choices: [String] { [] }
}

extension String: FlagValue {
    init?(flagText: String) { self = flagText }
    static var expected: String { "a text" }
}

extension Int: FlagValue {
    init?(flagText: String) { self.init(flagText) }
    static var expected: String { "an integer" }
}

extension Double: FlagValue {
    init?(flagText: String) {
        guard let v = Double(flagText), v.isFinite else { return nil }
        self = v
    }
    static var expected: String { "a number" }
}

extension FailOn: FlagChoice {}

/// A flag whose value is one of a few words: an enum of strings.
protocol FlagChoice: FlagValue, CaseIterable, RawRepresentable where RawValue == String {}

extension FlagChoice {
    init?(flagText: String) { self.init(rawValue: flagText) }
    static var choices: [String] { allCases.map(\.rawValue) }
    static var expected: String { "one of \(choices.joined(separator: ", "))" }
}

/// One flag of a `FlagSet`, and its value once parsed — declared as swift-argument-parser's
/// properties are: `@Flag("--force", "help") var force = false`, `@Flag("--out", "DIR", "help")
/// var out: String?`, `@Flag("--progress", "auto|always|never", "help") var progress =
/// ProgressMode.auto`. Commands read typed values (`flags.progress`); `$progress` is the
/// declaration (its name, for a command line written back).
@propertyWrapper
struct Flag<Value: Sendable>: Sendable, FlagDeclaration {
    let info: FlagInfo
    var wrappedValue: Value
    var projectedValue: FlagInfo { info }
}

extension Flag where Value == Bool {
    /// A flag that takes no value: true when given.
    init(wrappedValue: Bool, _ name: String, _ help: String) {
        info = FlagInfo(name: name, help: help)
        self.wrappedValue = FlagParsing.current?.given(name) ?? wrappedValue
    }
}

extension Flag {
    /// A flag that takes a value; nil when not given.
    init<V: FlagValue>(_ name: String, _ placeholder: String, _ help: String, key: String? = nil) where Value == V? {
        info = FlagInfo(name: name, value: placeholder, help: help, key: key)
        wrappedValue = FlagParsing.current?.value(V.self, of: info)
    }

    /// A flag that takes a value, with a default.
    init(wrappedValue: Value, _ name: String, _ placeholder: String, _ help: String, key: String? = nil)
    where Value: FlagValue {
        info = FlagInfo(name: name, value: placeholder, help: help, key: key)
        self.wrappedValue = FlagParsing.current?.value(Value.self, of: info) ?? wrappedValue
    }
}

/// What `FlagSet.all` finds among a set's properties.
protocol FlagDeclaration {
    var info: FlagInfo { get }
}

/// A command's flags, declared once as the `@Flag` properties of a type (#48, #64): the command
/// table lists them (`all`: parsing, `--help`, the reference's tests), and a command gets them
/// parsed and typed (`let f = try RunFlags.parse(args)`; `f.out`, `f.force`, `f.operands`), so a
/// flag read is a flag declared and its value's type is checked once, where it is parsed.
protocol FlagSet: Sendable {
    init()
    /// The arguments that are not flags (`PIPELINE INPUT...`), in order.
    var operands: [String] { get set }
}

extension FlagSet {
    /// The flags, in the order declared.
    static var all: [FlagInfo] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any FlagDeclaration)?.info }
    }

    /// Parses a command line by these flags: unknown flags, a missing value, a value that is not
    /// of the flag's type or that its pipeline key refuses are errors naming the flag.
    static func parse(_ args: [String]) throws(PipelineError) -> Self {
        let declared = all
        let arguments = try Arguments(
            args, valued: declared.filter { $0.value != nil }.map(\.name),
            flags: declared.filter { $0.value == nil }.map(\.name), listed: declared.map(\.name))
        let context = FlagParsing.Context(arguments)
        var parsed = FlagParsing.$current.withValue(context) { Self() }
        if let error = context.firstError { throw error }
        parsed.operands = arguments.positional
        return parsed
    }
}

/// The command line being parsed, for the `@Flag` initializers `FlagSet.parse` runs (a task-local
/// value: parses on other threads do not see it, and outside `parse` a set holds its defaults).
enum FlagParsing {
    @TaskLocal static var current: Context?

    final class Context: Sendable {
        let arguments: Arguments
        private let errors = Locked<[PipelineError]>([])

        init(_ arguments: Arguments) { self.arguments = arguments }

        var firstError: PipelineError? { errors.withLock { $0.first } }

        func given(_ name: String) -> Bool { arguments.flags.contains(name) }

        /// The flag's value as `V`, checked by its pipeline key's declaration when it has one;
        /// nil (and an error kept) when it is not one.
        func value<V: FlagValue>(_: V.Type, of info: FlagInfo) -> V? {
            guard let raw = arguments.values[info.name] else { return nil }
            do throws(PipelineError) {
                if let key = info.key { try CLI.checkFlagValue(raw, flag: info.name, key: key) }
            } catch {
                errors.withLock { $0.append(error) }
                return nil
            }
            if let v = V(flagText: raw) { return v }
            errors.withLock {
                $0.append(
                    PipelineError(
                        file: nil,
                        message:
                            "\(info.name): '\(raw)' is not \(V.expected)\(V.choices.isEmpty ? "" : Suggest.didYouMean(raw, V.choices))"
                    ))
            }
            return nil
        }
    }
}

/// A command with no flags.
struct NoFlags: FlagSet {
    var operands: [String] = []
}
