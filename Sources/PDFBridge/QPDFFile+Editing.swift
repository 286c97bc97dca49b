internal import CQPDF
import PDFReader

/// Building objects and pages in a `QPDFFile` (for copies pdfpipe writes, such as review copies).
extension QPDFFile {
    /// A new qpdf object for a value; `.ref` values point at this file's objects.
    /// The corresponding C functions are `qpdf_oh_new_*`.
    package func make(_ value: PDFValue) -> QPDFObject {
        let h: qpdf_oh
        switch value {
        case .null: h = qpdf_oh_new_null(q)
        case .bool(let b): h = qpdf_oh_new_bool(q, b ? QPDF_TRUE : QPDF_FALSE)
        case .int(let i): h = qpdf_oh_new_integer(q, Int64(i))
        case .real(let d): h = qpdf_oh_new_real_from_double(q, d, 3)
        case .string(let bytes):
            h = bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { qpdf_oh_new_binary_string(q, $0.baseAddress, bytes.count) }
            }
        case .name(let n): h = qpdf_oh_new_name(q, "/" + n)
        case .array(let items):
            h = qpdf_oh_new_array(q)
            for item in items { qpdf_oh_append_item(q, h, make(item).handle) }
        case .dictionary(let d), .stream(let d, _):
            h = qpdf_oh_new_dictionary(q)
            for e in d.entries { qpdf_oh_replace_key(q, h, "/" + e.key, make(e.value).handle) }
        case .ref(let r): h = object(id: r.number, generation: r.generation).handle
        }
        return QPDFObject(file: self, handle: h)
    }

    /// A text string (UTF-8 in, PDF text string out). The corresponding C function is
    /// `qpdf_oh_new_unicode_string`.
    package func makeText(_ s: String) -> QPDFObject {
        QPDFObject(file: self, handle: qpdf_oh_new_unicode_string(q, s))
    }

    /// Makes an object indirect; returns the indirect object. The corresponding C function is
    /// `qpdf_make_indirect_object`.
    package func makeIndirect(_ o: QPDFObject) -> QPDFObject {
        QPDFObject(file: self, handle: qpdf_make_indirect_object(q, o.handle))
    }

    /// A new stream with `data` (unfiltered) and the given dictionary entries, made indirect.
    /// The corresponding C functions are `qpdf_oh_new_stream` and `qpdf_oh_replace_stream_data`.
    package func makeStream(_ data: [UInt8], dictionary: PDFDictionary = PDFDictionary()) -> QPDFObject {
        let s = qpdf_oh_new_stream(q)
        data.withUnsafeBufferPointer { b in
            qpdf_oh_replace_stream_data(q, s, b.baseAddress, data.count, qpdf_oh_new_null(q), qpdf_oh_new_null(q))
        }
        let dict = qpdf_oh_get_dict(q, s)
        for e in dictionary.entries { qpdf_oh_replace_key(q, dict, "/" + e.key, make(e.value).handle) }
        return makeIndirect(QPDFObject(file: self, handle: s))
    }

    /// Takes a page out of the page tree (its objects stay, unreferenced, and are not written).
    /// The corresponding C function is `qpdf_remove_page`.
    package func removePage(_ page: QPDFObject) throws(BridgeError) {
        if qpdf_remove_page(q, page.handle) & QPDF_ERRORS != 0 {
            let e = takeError()
            throw .qpdf(message: e?.text ?? "cannot remove a page", code: e?.kind ?? .pages)
        }
    }

    /// Adds a page (a page dictionary of this file) first or last.
    /// The corresponding C function is `qpdf_add_page`.
    package func addPage(_ page: QPDFObject, first: Bool) throws(BridgeError) {
        if qpdf_add_page(q, q, page.handle, first ? QPDF_TRUE : QPDF_FALSE) & QPDF_ERRORS != 0 {
            let e = takeError()
            throw .qpdf(message: e?.text ?? "cannot add a page", code: e?.kind ?? .pages)
        }
    }
}

extension QPDFObject {
    /// Sets a dictionary entry. The corresponding C function is `qpdf_oh_replace_key`.
    package func set(_ key: String, _ value: QPDFObject) { qpdf_oh_replace_key(q, handle, "/" + key, value.handle) }

    /// Removes a dictionary entry. The corresponding C function is `qpdf_oh_remove_key`.
    package func remove(_ key: String) { qpdf_oh_remove_key(q, handle, "/" + key) }

    /// Appends to an array. The corresponding C function is `qpdf_oh_append_item`.
    package func append(_ item: QPDFObject) { qpdf_oh_append_item(q, handle, item.handle) }
}
