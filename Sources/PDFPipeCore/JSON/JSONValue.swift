import Foundation

/// A JSON value. Objects keep their keys in a dictionary: output is always written with sorted keys,
/// so reports are byte-identical whatever order they were built in.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A name for the value's type, as used in error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array (nil when out of range, or not an array).
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: return Int(d)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// A short rendering of the value for messages: `'-5'`, `'abc'`, `an array`.
    /// The value with its JSON type, for messages about a value of the wrong type: `the string
    /// '200'`, `the number 200`, `the boolean true`.
    package var typedDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .int, .double: return "the number \(JSONWriter.compact(self))"
        case .string: return "the string \(shortDescription)"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value for a message about it: with its JSON type when that is not the one expected
    /// (`the string '200'` where a number is), else as it is (`'-5'`).
    package func described(typeExpected: Bool) -> String { typeExpected ? shortDescription : typedDescription }

    /// For a string that holds a number or a boolean where that is expected: how to write it.
    package func unquotedHint(number: Bool) -> String {
        guard case .string(let s) = self else { return "" }
        let t = s.trimmingCharacters(in: .whitespaces)
        if number, Double(t) != nil { return " (write \(t) without quotes)" }
        if !number, t == "true" || t == "false" { return " (write \(t) without quotes)" }
        return ""
    }

    public var shortDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "'\(b)'"
        case .int, .double: return "'\(JSONWriter.compact(self))'"
        case .string(let s): return "'\(s.count > 60 ? String(s.prefix(57)) + "..." : s)'"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// JSON has one number type: `1` and `1.0` are equal.
extension JSONValue: Equatable {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.int, .double), (.double, .int), (.double, .double): a.doubleValue == b.doubleValue
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        default: false
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Converts Swift values to JSON values.
public protocol JSONRepresentable {
    var json: JSONValue { get }
}

extension String: JSONRepresentable { public var json: JSONValue { .string(self) } }
extension Int: JSONRepresentable { public var json: JSONValue { .int(self) } }
extension Bool: JSONRepresentable { public var json: JSONValue { .bool(self) } }
extension Double: JSONRepresentable { public var json: JSONValue { .double(self) } }
extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    public var json: JSONValue { self.map(\.json) ?? .null }
}
extension Array: JSONRepresentable where Element: JSONRepresentable {
    public var json: JSONValue { .array(map(\.json)) }
}
