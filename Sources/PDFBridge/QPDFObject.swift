internal import CQPDF
import Foundation
import PDFReader

/// The type of a PDF object.
package enum QPDFObjectType: Sendable {
    case null, boolean, integer, real, string, name, array, dictionary, stream, other
}

/// A handle to one PDF object of a `QPDFFile`. Indirect references are followed transparently; the
/// object number is kept (`reference`). Valid until the file's `releaseAll()`.
package struct QPDFObject {
    package let file: QPDFFile
    let handle: qpdf_oh

    var q: qpdf_data { file.q }

    package var type: QPDFObjectType {
        switch qpdf_oh_get_type_code(q, handle) {
        case ot_null, ot_uninitialized, ot_reserved, ot_destroyed: .null
        case ot_boolean: .boolean
        case ot_integer: .integer
        case ot_real: .real
        case ot_string: .string
        case ot_name: .name
        case ot_array: .array
        case ot_dictionary: .dictionary
        case ot_stream: .stream
        default: .other
        }
    }

    package var isNull: Bool { qpdf_oh_is_null(q, handle) != 0 }
    package var isDictionary: Bool { qpdf_oh_is_dictionary(q, handle) != 0 }
    package var isStream: Bool { qpdf_oh_is_stream(q, handle) != 0 }
    package var isArray: Bool { qpdf_oh_is_array(q, handle) != 0 }
    package var isNumber: Bool { qpdf_oh_is_number(q, handle) != 0 }
    package var isInteger: Bool { qpdf_oh_is_integer(q, handle) != 0 }
    package var isName: Bool { qpdf_oh_is_name(q, handle) != 0 }
    package var isString: Bool { qpdf_oh_is_string(q, handle) != 0 }
    package var isIndirect: Bool { qpdf_oh_is_indirect(q, handle) != 0 }

    /// The object number and generation, when the object is indirect.
    package var objectID: (number: Int, generation: Int)? {
        guard isIndirect else { return nil }
        return (Int(qpdf_oh_get_object_id(q, handle)), Int(qpdf_oh_get_generation(q, handle)))
    }

    /// `12 0 R` for an indirect object.
    package var reference: String? { objectID.map { "\($0.number) \($0.generation) R" } }

    /// A dictionary (or stream dictionary) entry; nil when absent or null.
    /// The corresponding C function is `qpdf_oh_get_key_if_dict`.
    package subscript(key: String) -> QPDFObject? {
        if isStream { return streamDictionary[key] }
        let h = qpdf_oh_get_key_if_dict(q, handle, "/" + key)
        let o = QPDFObject(file: file, handle: h)
        return o.isNull ? nil : o
    }

    /// The keys of a dictionary, without the leading slash.
    /// A stream's dictionary. The corresponding C function is `qpdf_oh_get_dict`.
    package var streamDictionary: QPDFObject { QPDFObject(file: file, handle: qpdf_oh_get_dict(q, handle)) }

    package var keys: [String] {
        if isStream { return streamDictionary.keys }
        guard isDictionary else { return [] }
        var out: [String] = []
        qpdf_oh_begin_dict_key_iter(q, handle)
        while qpdf_oh_dict_more_keys(q) != 0 {
            if let k = qpdf_oh_dict_next_key(q) { out.append(String(String(cString: k).dropFirst())) }
        }
        return out
    }

    package var count: Int { isArray ? Int(qpdf_oh_get_array_n_items(q, handle)) : 0 }

    package subscript(index: Int) -> QPDFObject {
        QPDFObject(file: file, handle: qpdf_oh_get_array_item(q, handle, Int32(index)))
    }

    package var items: [QPDFObject] { (0..<count).map { self[$0] } }

    package var int: Int? { isInteger ? Int(qpdf_oh_get_int_value(q, handle)) : nil }
    package var number: Double? { isNumber ? qpdf_oh_get_numeric_value(q, handle) : nil }
    package var bool: Bool? { qpdf_oh_is_bool(q, handle) != 0 ? qpdf_oh_get_bool_value(q, handle) != 0 : nil }

    /// A name without its slash.
    package var name: String? { isName ? String(String(cString: qpdf_oh_get_name(q, handle)).dropFirst()) : nil }

    /// A string's raw bytes (after decryption), as PDF stores them.
    package var bytes: [UInt8]? {
        guard isString else { return nil }
        var length = 0
        guard let p = qpdf_oh_get_binary_string_value(q, handle, &length) else { return [] }
        return p.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// A text string as UTF-8 (qpdf decodes UTF-16BE and PDFDocEncoding).
    package var text: String? { isString ? String(cString: qpdf_oh_get_utf8_value(q, handle)) : nil }

    /// An array of four numbers as a rectangle; nil when malformed.
    package var rectangle: PDFRect? {
        guard isArray, count == 4 else { return nil }
        let v = items.compactMap(\.number)
        guard v.count == 4 else { return nil }
        return PDFRect(v[0], v[1], v[2], v[3])
    }

    /// A stream's data with the filters qpdf can undo undone (nil when it cannot).
    /// The corresponding C function is `qpdf_oh_get_stream_data`.
    package var streamData: [UInt8]? {
        guard isStream else { return nil }
        var filtered: QPDF_BOOL = 0
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_stream_data(q, handle, qpdf_dl_all, &filtered, &buffer, &length) == QPDF_SUCCESS, let buffer
        else {
            _ = file.takeError()
            return nil
        }
        defer { free(buffer) }
        return filtered != 0 ? Array(UnsafeBufferPointer(start: buffer, count: length)) : nil
    }

}
