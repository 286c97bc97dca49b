/// A stage's options, declared once: each is a property with `@Option`, which gives its type,
/// range or choices, default (the property's initial value) and help; the key is the property's
/// name. The loader validates `with` against `specs` (made from the declarations), the schema,
/// `pdfpipe stages` and the reference's tables come from them too, and `read` gives the stage its
/// options typed — as swift-argument-parser's `@Option` and SwiftLint's `@ConfigurationElement` do.
///
/// ```swift
/// struct ToyOptions: OptionGroup {
///     @Option("pages to read") var pages = PageRanges.all
///     @Option(in: 1...64, "threads") var workers = 4
/// }
/// ```
///
/// A group nests: an `@Option` whose value is another group is an object under its key (`cache`
/// of validate-links' `external`), and one whose value is an array of a group is a list of objects
/// (`search` of extract-text).
public protocol OptionGroup: OptionValue, Decodable {
    /// Every option at its default.
    init()
}

extension OptionGroup {
    /// The declarations, in the order written: the keys are the properties' names.
    public static var specs: [OptionSpec] {
        Mirror(reflecting: Self()).children.compactMap { child in
            guard let label = child.label, label.hasPrefix("_"), let option = child.value as? any OptionDeclaration
            else { return nil }
            return option.spec(key: String(label.dropFirst()))
        }
    }

    /// The options as the pipeline file writes them, every one (defaults included).
    public var values: [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, label.hasPrefix("_"), let option = child.value as? any OptionDeclaration
            else { continue }
            out[String(label.dropFirst())] = option.valueJSON
        }
        return out
    }

    /// The options of validated values (defaults filled in: `OptionSpec.validate`), typed.
    public static func read(_ values: OptionValues) throws(PipelineError) -> Self {
        do {
            return try Self(from: OptionDecoder(value: .object(values.values), codingPath: []))
        } catch {
            // Validation has checked every value against the same declarations: a bug if reached.
            throw PipelineError(file: nil, message: "internal error: options that validated cannot be read: \(error)")
        }
    }

    public static var optionKind: OptionKind { .object(specs) }
    public init?(option json: JSONValue) { self.init(option: json, at: []) }
    public init?(option json: JSONValue, at path: [any CodingKey]) {
        guard let s = try? Self(from: OptionDecoder(value: json, codingPath: path)) else { return nil }
        self = s
    }
    /// A group's default in the schema is its members' own.
    public var optionJSON: JSONValue { .null }
}

/// A value an option can hold: its kind (without a range) and how it reads from validated JSON.
public protocol OptionValue: Sendable {
    static var optionKind: OptionKind { get }
    init?(option json: JSONValue)
    /// Read where it sits in the options (`external.cache`, `search[]`), for the read log.
    init?(option json: JSONValue, at path: [any CodingKey])
    /// The value as the pipeline file writes it (the default in the schema and the reference).
    var optionJSON: JSONValue { get }
}

extension OptionValue {
    public init?(option json: JSONValue, at path: [any CodingKey]) { self.init(option: json) }
}

/// A choice among names: an enum of strings (`TextFormat`, `Severity`), compared as the enum.
public protocol OptionChoice: OptionValue, CaseIterable, RawRepresentable where RawValue == String {}

extension OptionChoice {
    public static var optionKind: OptionKind { .choice(allCases.map(\.rawValue)) }
    public init?(option json: JSONValue) {
        guard let s = json.stringValue, let v = Self(rawValue: s) else { return nil }
        self = v
    }
    public var optionJSON: JSONValue { .string(rawValue) }
}

extension Bool: OptionValue {
    public static var optionKind: OptionKind { .bool }
    public init?(option json: JSONValue) {
        guard let b = json.boolValue else { return nil }
        self = b
    }
    public var optionJSON: JSONValue { .bool(self) }
}

extension String: OptionValue {
    public static var optionKind: OptionKind { .string }
    public init?(option json: JSONValue) {
        guard let s = json.stringValue else { return nil }
        self = s
    }
    public var optionJSON: JSONValue { .string(self) }
}

extension Int: OptionValue {
    public static var optionKind: OptionKind { .integer(min: .min, max: .max) }
    public init?(option json: JSONValue) {
        guard let i = json.intValue else { return nil }
        self = i
    }
    public var optionJSON: JSONValue { .int(self) }
}

extension Double: OptionValue {
    public static var optionKind: OptionKind { .number(min: -.infinity, max: .infinity) }
    public init?(option json: JSONValue) {
        guard let d = json.doubleValue else { return nil }
        self = d
    }
    public var optionJSON: JSONValue { .double(self) }
}

extension PageRanges: OptionValue {
    public static var optionKind: OptionKind { .pages }
    public init?(option json: JSONValue) {
        guard let s = json.stringValue, let p = try? PageRanges(s) else { return nil }
        self = p
    }
    public var optionJSON: JSONValue { .string(text) }
}

extension Severity: OptionChoice {
    public static var optionKind: OptionKind { .choice(mostSevereFirst.map(\.rawValue)) }
}

/// Absent (null) or a value: an option whose default is "not set".
extension Optional: OptionValue where Wrapped: OptionValue {
    public static var optionKind: OptionKind { Wrapped.optionKind }
    public init?(option json: JSONValue) {
        if json == .null {
            self = .none
        } else {
            guard let w = Wrapped(option: json) else { return nil }
            self = .some(w)
        }
    }
    public var optionJSON: JSONValue { self?.optionJSON ?? .null }
}

/// A list: of objects when the elements are a group (a plain string stands for an object with its
/// first option set), else of plain values.
extension Array: OptionValue where Element: OptionValue {
    public static var optionKind: OptionKind {
        if case .object(let specs) = Element.optionKind { return .list(specs) }
        return .array(Element.optionKind, minItems: 0)
    }
    public init?(option json: JSONValue) { self.init(option: json, at: []) }
    public init?(option json: JSONValue, at path: [any CodingKey]) {
        guard let items = json.arrayValue else { return nil }
        var out: [Element] = []
        for item in items {
            guard let e = Element(option: item, at: path + [OptionDecoder.ListItem()]) else { return nil }
            out.append(e)
        }
        self = out
    }
    public var optionJSON: JSONValue { .array(map(\.optionJSON)) }
}

/// A value an option may hold within a range (`in: 0...64`).
public protocol RangedOptionValue: OptionValue {
    associatedtype Bound: Comparable
    static func kind(in range: ClosedRange<Bound>) -> OptionKind
}

extension Int: RangedOptionValue {
    public static func kind(in range: ClosedRange<Int>) -> OptionKind {
        .integer(min: range.lowerBound, max: range.upperBound)
    }
}

extension Double: RangedOptionValue {
    public static func kind(in range: ClosedRange<Double>) -> OptionKind {
        .number(min: range.lowerBound, max: range.upperBound)
    }
}

extension Optional: RangedOptionValue where Wrapped: RangedOptionValue {
    public static func kind(in range: ClosedRange<Wrapped.Bound>) -> OptionKind { Wrapped.kind(in: range) }
}

/// What `OptionGroup.specs` reads from each `@Option` (through `Mirror`).
protocol OptionDeclaration {
    func spec(key: String) -> OptionSpec
    var valueJSON: JSONValue { get }
}

/// One option of an `OptionGroup`: the property's name is its key, its initial value the default.
@propertyWrapper
public struct Option<Value: OptionValue>: Sendable, Decodable, OptionDeclaration {
    public var wrappedValue: Value
    let kind: OptionKind
    let summary: String
    let listed: Bool
    let valueName: String?

    /// An option of `Value`'s own kind (a boolean, a string, a choice, pages, a group, a list).
    public init(wrappedValue: Value, _ summary: String, listed: Bool = true, valueName: String? = nil) {
        self.init(wrappedValue: wrappedValue, kind: Value.optionKind, summary, listed: listed, valueName: valueName)
    }

    /// An option whose kind is given (`.text`: a string that must not be empty).
    public init(
        wrappedValue: Value, kind: OptionKind, _ summary: String, listed: Bool = true, valueName: String? = nil
    ) {
        self.wrappedValue = wrappedValue
        self.kind = kind
        self.summary = summary
        self.listed = listed
        self.valueName = valueName
    }

    /// A value within `range`: an integer, a number (`0...Double.infinity`: any number from 0), or
    /// either of them not set (null).
    public init(
        wrappedValue: Value, in range: ClosedRange<Value.Bound>, _ summary: String, valueName: String? = nil
    ) where Value: RangedOptionValue {
        self.init(wrappedValue: wrappedValue, kind: Value.kind(in: range), summary, valueName: valueName)
    }

    var valueJSON: JSONValue { wrappedValue.optionJSON }

    func spec(key: String) -> OptionSpec {
        OptionSpec(key, kind, default: wrappedValue.optionJSON, summary, listed: listed, valueName: valueName)
    }

    /// Read from validated values (`OptionGroup.read`); only the value is kept.
    public init(from decoder: any Decoder) throws {
        guard let d = decoder as? OptionDecoder, let v = Value(option: d.value, at: d.codingPath) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a value of \(Value.self)"))
        }
        self.init(wrappedValue: v, kind: Value.optionKind, "")
    }
}

/// Reads an `OptionGroup` from validated JSON: the synthesized `init(from:)` of a group asks for
/// each property's `Option` by its name.
struct OptionDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else {
            throw DecodingError.typeMismatch(
                [String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "not an object"))
        }
        return KeyedDecodingContainer(Keyed(object: o, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [JSONValue].self, .init(codingPath: codingPath, debugDescription: "lists are read as option values"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            JSONValue.self, .init(codingPath: codingPath, debugDescription: "values are read as option values"))
    }

    /// An item of a list in a coding path (`search[]`).
    struct ListItem: CodingKey {
        var stringValue: String { "[]" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    /// Notes a read in `OptionValues.readLog` (while a test sets it), by its path: `external.cache.path`.
    static func record(_ path: [any CodingKey]) {
        guard let log = OptionValues.readLog else { return }
        var text = ""
        for k in path {
            if k is ListItem {
                text += "[]"
            } else {
                text += (text.isEmpty ? "" : ".") + k.stringValue
            }
        }
        log.record(text)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            OptionDecoder.record(codingPath + [key])
            return try T(from: OptionDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key]))
        }

        /// A property without `@Option` in a group (a plain `Bool`, `String`…).
        private func plain<T: OptionValue>(_ key: Key) throws -> T {
            OptionDecoder.record(codingPath + [key])
            guard let v = T(option: object[key.stringValue] ?? .null) else {
                throw DecodingError.typeMismatch(
                    T.self, .init(codingPath: codingPath + [key], debugDescription: "not a \(T.self)"))
            }
            return v
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try plain(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try plain(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try plain(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try plain(key) }
        private func unsupported<T>(_ key: Key) throws -> T {
            throw DecodingError.typeMismatch(
                T.self, .init(codingPath: codingPath + [key], debugDescription: "options hold Int and Double"))
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try unsupported(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try unsupported(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try unsupported(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try unsupported(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try unsupported(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try unsupported(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try unsupported(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try unsupported(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try unsupported(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try unsupported(key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try OptionDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
                .container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try OptionDecoder(value: .null, codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { OptionDecoder(value: .object(object), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            OptionDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }
}
