/// `Codable` to and from `JSONValue`, so that a report's layout is declared once, as the properties
/// (or `CodingKeys`) of a type, and written and read by the same declaration: a field renamed on one
/// side only is a compile error, not a report that reads back wrong. Foundation's `JSONEncoder`
/// is not used because the bytes are `JSONWriter`'s (sorted keys, the number forms reports have
/// always had): this only builds the value. Integers stay integers and `Double`s doubles; a nil
/// optional property is left out (as `encodeIfPresent` does), an explicit `encodeNil` is `null`.
public struct JSONValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = EncodingNode()
        try node.store(value, path: .root)
        return node.value
    }
}

/// Reads `Decodable` values from a `JSONValue`. Errors carry the coding path; `describe` turns one
/// into a message that names the field (`documents[2].findings[0].severity: …`).
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, path: .root).read(type)
    }

    /// A decoding error as people read it: where, then what.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let c):
            return "\(path(c.codingPath + [key])): missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return "\(path(c.codingPath)): \(c.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `documents[2].findings[0].severity`; `(top level)` for the empty path.
    public static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for k in keys {
            if let i = k.intValue, k is IndexKey {
                text += "[\(i)]"
            } else {
                text += (text.isEmpty ? "" : ".") + k.stringValue
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}

extension JSONValue {
    /// The value of an `Encodable`, through `JSONValueEncoder`. The encoder itself never fails:
    /// only a type's own `encode(to:)` can throw, and none of the report's do.
    public init(encoding value: some Encodable) {
        do {
            self = try JSONValueEncoder().encode(value)
        } catch {
            assertionFailure("\(error)")
            self = .null
        }
    }

    /// Decodes a `Decodable` from this value.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONValueDecoder().decode(type, from: self)
    }
}

/// Any JSON value can be a field of a `Codable` type (a finding's details, a document's sections).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let d = decoder as? ValueDecoder {
            self = d.value
            return
        }
        if let c = try? decoder.container(keyedBy: AnyKey.self) {
            var o: [String: JSONValue] = [:]
            for k in c.allKeys { o[k.stringValue] = try c.decode(JSONValue.self, forKey: k) }
            self = .object(o)
        } else if var c = try? decoder.unkeyedContainer() {
            var a: [JSONValue] = []
            while !c.isAtEnd { a.append(try c.decode(JSONValue.self)) }
            self = .array(a)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let i = try? c.decode(Int.self) {
                self = .int(i)
            } else if let d = try? c.decode(Double.self) {
                self = .double(d)
            } else {
                self = .string(try c.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in o { try c.encode(v, forKey: AnyKey(k)) }
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .null, .bool, .int, .double, .string:
            var c = encoder.singleValueContainer()
            switch self {
            case .bool(let b): try c.encode(b)
            case .int(let i): try c.encode(i)
            case .double(let d): try c.encode(d)
            case .string(let t): try c.encode(t)
            default: try c.encodeNil()
            }
        }
    }
}

extension Encoder {
    /// Writes the members of an object whose keys are data (a finding's details, a document's
    /// stage sections) beside the type's declared keys, which win: `Declared`'s keys are skipped.
    func encodeMembers<Declared: CodingKey>(_ members: [String: JSONValue], besides: Declared.Type) throws {
        var c = container(keyedBy: AnyKey.self)
        for (k, v) in members where Declared(stringValue: k) == nil { try c.encode(v, forKey: AnyKey(k)) }
    }
}

extension Decoder {
    /// The members of the object that are not `Declared`'s keys (see `Encoder.encodeMembers`).
    func members<Declared: CodingKey>(besides: Declared.Type) throws -> [String: JSONValue] {
        let c = try container(keyedBy: AnyKey.self)
        var out: [String: JSONValue] = [:]
        for k in c.allKeys where Declared(stringValue: k.stringValue) == nil {
            out[k.stringValue] = try c.decode(JSONValue.self, forKey: k)
        }
        return out
    }
}

/// A key spelt at run time: the members of a JSON object whose keys are data (details, sections).
package struct AnyKey: CodingKey, Hashable {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ s: String) { stringValue = s }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

/// A position in a list, in a coding path.
struct IndexKey: CodingKey {
    var stringValue: String { "\(index)" }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init(intValue: Int) { index = intValue }
}

/// Omits an empty collection from the encoded object, and reads a missing one as empty: what a
/// report does with its optional lists (`suppressed`, `labels`, …).
@propertyWrapper
public struct OmittedWhenEmpty<Value: Codable & RangeReplaceableCollection & Sendable & Equatable>: Codable,
    Sendable, Equatable
{
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}

extension KeyedEncodingContainer {
    public mutating func encode<V>(_ value: OmittedWhenEmpty<V>, forKey key: Key) throws {
        if !value.wrappedValue.isEmpty { try encode(value.wrappedValue, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    public func decode<V>(_ type: OmittedWhenEmpty<V>.Type, forKey key: Key) throws -> OmittedWhenEmpty<V> {
        OmittedWhenEmpty(wrappedValue: try decodeIfPresent(V.self, forKey: key) ?? V())
    }
}
