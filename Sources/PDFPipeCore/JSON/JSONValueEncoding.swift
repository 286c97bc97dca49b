/// A coding path kept as a chain, made into an array only when asked for (an error, a type that
/// reads it): building an array at every key made encoding several times slower.
final class CodingPath {
    let parent: CodingPath?
    let key: (any CodingKey)?
    init(parent: CodingPath? = nil, key: (any CodingKey)? = nil) {
        self.parent = parent
        self.key = key
    }
    static var root: CodingPath { CodingPath() }
    func appending(_ key: any CodingKey) -> CodingPath { CodingPath(parent: self, key: key) }
    var keys: [any CodingKey] {
        var out: [any CodingKey] = []
        var p: CodingPath? = self
        while let node = p {
            if let k = node.key { out.append(k) }
            p = node.parent
        }
        return out.reversed()
    }
}

// MARK: - Encoding

/// One value being built: a scalar, an object or a list of nodes, made into a `JSONValue` at the end.
final class EncodingNode {
    private var scalar: JSONValue?
    private var members: [String: EncodingNode]?
    private var items: [EncodingNode]?

    var value: JSONValue {
        if let members { return .object(members.mapValues(\.value)) }
        if let items { return .array(items.map(\.value)) }
        return scalar ?? .object([:])
    }

    func set(_ v: JSONValue) {
        scalar = v
        members = nil
        items = nil
    }

    func member(_ key: String) -> EncodingNode {
        if members == nil { set(.null) }
        let n = EncodingNode()
        members![key] = n
        scalar = nil
        return n
    }

    func append() -> EncodingNode {
        if items == nil {
            set(.null)
            items = []
        }
        let n = EncodingNode()
        items!.append(n)
        scalar = nil
        return n
    }

    func makeObject() {
        if members == nil {
            set(.null)
            members = [:]
            scalar = nil
        }
    }

    func makeList() {
        if items == nil {
            set(.null)
            items = []
            scalar = nil
        }
    }

    var count: Int { items?.count ?? 0 }

    func store<T: Encodable>(_ value: T, path: CodingPath) throws {
        switch value {
        case let v as JSONValue: set(v)
        case let v as Bool: set(.bool(v))
        case let v as String: set(.string(v))
        case let v as Int: set(.int(v))
        case let v as Double: set(.double(v))
        case let v as Float: set(.double(Double(v)))
        case let v as any BinaryInteger:
            guard let i = Int(exactly: v) else {
                throw EncodingError.invalidValue(
                    v, .init(codingPath: path.keys, debugDescription: "\(v) does not fit a JSON integer"))
            }
            set(.int(i))
        default: try value.encode(to: NodeEncoder(node: self, path: path))
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(Keyed(node: node, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeList()
        return Unkeyed(node: node, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, path: path) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: EncodingNode
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }

        mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.member(key.stringValue).store(value, path: path.appending(key))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            NodeEncoder(node: node.member(key.stringValue), path: path.appending(key)).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(node: node.member(key.stringValue), path: path.appending(key)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.member("super"), path: path.appending(AnyKey("super")))
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.member(key.stringValue), path: path.appending(key))
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: EncodingNode
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        var count: Int { node.count }

        mutating func encodeNil() throws { node.append().set(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let key = IndexKey(node.count)
            try node.append().store(value, path: path.appending(key))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let key = IndexKey(node.count)
            return NodeEncoder(node: node.append(), path: path.appending(key)).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let key = IndexKey(node.count)
            return NodeEncoder(node: node.append(), path: path.appending(key)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let key = IndexKey(node.count)
            return NodeEncoder(node: node.append(), path: path.appending(key))
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: EncodingNode
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        mutating func encodeNil() throws { node.set(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, path: path) }
    }
}

// MARK: - Decoding

struct ValueDecoder: Decoder {
    let value: JSONValue
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch<T>(_ type: T.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    /// Scalars straight from the value; anything else through its `init(from:)`.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if T.self == Bool.self {
            guard let b = value.boolValue else { throw mismatch(type, "a boolean") }
            return b as! T
        }
        if T.self == String.self {
            guard let s = value.stringValue else { throw mismatch(type, "a string") }
            return s as! T
        }
        if T.self == Double.self {
            guard let d = value.doubleValue else { throw mismatch(type, "a number") }
            return d as! T
        }
        if T.self == Float.self {
            guard let d = value.doubleValue else { throw mismatch(type, "a number") }
            return Float(d) as! T
        }
        if let integer = T.self as? any FixedWidthInteger.Type {
            guard let i = value.intValue, let v = integer.init(exactly: i) else {
                throw mismatch(type, "an integer that fits \(T.self)")
            }
            return v as! T
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else { throw mismatch([String: JSONValue].self, "an object") }
        return KeyedDecodingContainer(Keyed(object: o, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let a) = value else { throw mismatch([JSONValue].self, "an array") }
        return Unkeyed(items: a, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: JSONValue]
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        var allKeys: [Key] { object.keys.sorted().compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }

        func child(_ key: Key) throws -> ValueDecoder {
            guard let v = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return ValueDecoder(value: v, path: path.appending(key))
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).read(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { try child(key).container(keyedBy: type) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), path: path) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], path: CodingPath) {
            self.items = items
            self.path = path
        }

        mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    JSONValue.self, .init(codingPath: codingPath, debugDescription: "the list has no more items"))
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: items[currentIndex], path: path.appending(IndexKey(currentIndex)))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().read(type) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        { try next().container(keyedBy: type) }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: ValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        func decodeNil() -> Bool { decoder.value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.read(type) }
    }
}
