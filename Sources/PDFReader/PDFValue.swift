/// An object number and generation.
package struct ObjectRef: Sendable, Hashable, CustomStringConvertible {
    package var number: Int
    package var generation: Int

    package init(_ number: Int, _ generation: Int) {
        self.number = number
        self.generation = generation
    }

    package var description: String { "\(number) \(generation) R" }
}

/// A PDF object as plain Swift values. References stay references (`.ref`): they are resolved on
/// demand by an `ObjectSource`, so reading one object never reads the objects it points at.
package indirect enum PDFValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    /// Raw bytes, as the file stores them (after decryption).
    case string([UInt8])
    /// Without the slash, `#xx` escapes decoded.
    case name(String)
    case array([PDFValue])
    case dictionary(PDFDictionary)
    /// A stream: its dictionary, and where its data starts in the file.
    case stream(PDFDictionary, dataOffset: Int)
    case ref(ObjectRef)
}

extension PDFValue {
    /// The value's type with its article, for messages: `an integer`, `a string`, `null` (a
    /// reference reads as what it points at, and one that points nowhere is null).
    package var typeName: String {
        switch self {
        case .null, .ref: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .real: "a number"
        case .string: "a string"
        case .name: "a name"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .stream: "a stream"
        }
    }
}

/// Where objects come from: pdfpipe's own reader, or qpdf (for damaged and encrypted files).
package protocol ObjectSource: AnyObject {
    /// The trailer dictionary.
    var trailer: PDFValue { get }
    /// The object with that number and generation (`.null` when there is none).
    func resolve(_ ref: ObjectRef) -> PDFValue
    /// A stream object's data, decoded; nil when it cannot be decoded.
    func streamData(_ ref: ObjectRef) -> [UInt8]?
    /// The pages in order as the source itself lists them, when it has such a list (qpdf's, which
    /// its repair of the page tree produced); nil: walk the page tree.
    func pageList() -> [ObjectRef]?
}

extension ObjectSource {
    package func pageList() -> [ObjectRef]? { nil }
}
