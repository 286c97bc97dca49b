internal import CQPDF
import PDFReader

/// One message qpdf attached to a document: a warning while reading or checking, or an error.
package struct QPDFMessage: Sendable, Equatable {
    /// qpdf's whole text (file, object, offset and message).
    package var text: String
    /// Just the message.
    package var detail: String
    package var kind: QPDFErrorKind
    /// The byte offset in the file qpdf was reading, when known.
    package var offset: UInt64
}

/// An open PDF read through qpdf's C API. Owns its `qpdf_data` and frees it in `deinit`.
///
/// Not Sendable: a qpdf handle stays on the thread that made it. Object handles (`QPDFObject`)
/// belong to this file and are valid until `releaseAll()`; qpdf never reuses handle numbers, so a
/// long walk should call `releaseAll()` now and then (per page, say) to bound memory.
package final class QPDFFile {
    let q: qpdf_data
    package let path: String
    /// pdfpipe's own warnings about the file, given with qpdf's (`takeWarnings`).
    private var ownWarnings: [QPDFMessage] = []

    /// Opens `path` (a file system path), decrypting with `password` when given.
    /// The corresponding C functions are `qpdf_init` and `qpdf_read`.
    package init(path: String, password: String? = nil) throws(BridgeError) {
        guard let q = qpdf_init() else { throw .qpdf(message: "qpdf_init failed", code: .system) }
        self.q = q
        self.path = path
        qpdf_silence_errors(q)
        // Warnings are still collected (qpdf_next_warning); they are just not printed.
        qpdf_set_suppress_warnings(q, QPDF_TRUE)
        // qpdf sizes buffers from a cross-reference stream's numbers as the file states them.
        if let why = XRefStreamCheck.hostile(path: path) {
            qpdf_set_ignore_xref_streams(q, QPDF_TRUE)
            ownWarnings.append(
                QPDFMessage(
                    text: "\(why); read without the file's cross-reference streams (objects found by scanning)",
                    detail: why, kind: .damaged, offset: 0))
        }
        let status = qpdf_read(q, path, password)
        if status & QPDF_ERRORS != 0 {
            let e = takeError() ?? QPDFMessage(text: "cannot read \(path)", detail: "", kind: .other, offset: 0)
            if e.kind == .password {
                throw .passwordRequired(library: "qpdf", message: e.detail.isEmpty ? e.text : e.detail)
            }
            throw .qpdf(message: e.text, code: e.kind)
        }
    }

    deinit {
        var handle: qpdf_data? = q
        qpdf_cleanup(&handle)
    }

    // MARK: - Errors and warnings

    private func message(_ e: qpdf_error) -> QPDFMessage {
        let kind: QPDFErrorKind =
            switch qpdf_get_error_code(q, e) {
            case qpdf_e_internal: .internalError
            case qpdf_e_system: .system
            case qpdf_e_unsupported: .unsupported
            case qpdf_e_password: .password
            case qpdf_e_damaged_pdf: .damaged
            case qpdf_e_pages: .pages
            case qpdf_e_object: .object
            case qpdf_e_json: .json
            case qpdf_e_linearization: .linearization
            default: .other
            }
        return QPDFMessage(
            text: String(cString: qpdf_get_error_full_text(q, e)),
            detail: String(cString: qpdf_get_error_message_detail(q, e)), kind: kind,
            offset: qpdf_get_error_file_position(q, e))
    }

    /// The pending error, if any, clearing it. The corresponding C function is `qpdf_get_error`.
    package func takeError() -> QPDFMessage? {
        guard qpdf_has_error(q) != 0, let e = qpdf_get_error(q) else { return nil }
        return message(e)
    }

    /// Warnings collected since the last call. The corresponding C function is `qpdf_next_warning`.
    package func takeWarnings() -> [QPDFMessage] {
        var out = ownWarnings
        ownWarnings = []
        while qpdf_more_warnings(q) != 0, let w = qpdf_next_warning(q) {
            out.append(message(w))
        }
        return out
    }

    /// Reads every object and stream, as `qpdf --check` does, and returns what it found.
    /// The corresponding C function is `qpdf_check_pdf`.
    package func check() -> (ok: Bool, messages: [QPDFMessage]) {
        let status = qpdf_check_pdf(q)
        var messages = takeWarnings()
        if let e = takeError() { messages.append(e) }
        return (status == QPDF_SUCCESS, messages)
    }

    // MARK: - Document facts

    package var pdfVersion: String { String(cString: qpdf_get_pdf_version(q)) }
    package var extensionLevel: Int { Int(qpdf_get_pdf_extension_level(q)) }
    package var isEncrypted: Bool { qpdf_is_encrypted(q) != 0 }
    package var isLinearized: Bool { qpdf_is_linearized(q) != 0 }
    /// The user password, when qpdf opened the file with the (empty) owner password and could
    /// recover it (R2–R4; R5 and R6 keep it unrecoverable: empty then).
    package var recoveredUserPassword: String { String(cString: qpdf_get_user_password(q)) }

    /// A text entry of the document information dictionary (`/Producer`, `/Title`, …), as UTF-8:
    /// decoded as a PDF text string (UTF-16BE with its BOM, as hyperref with `unicode` and every
    /// LibreOffice writes them; UTF-8 with its BOM; else PDFDocEncoding), which
    /// `qpdf_get_info_key` does not do (it gives the bytes).
    package func info(_ key: String) -> String? {
        let trailer = QPDFObject(file: self, handle: qpdf_get_trailer(q))
        guard let value = trailer["Info"]?[key], value.isString else { return nil }
        return value.text
    }

    /// The number of pages. The corresponding C function is `qpdf_get_num_pages`.
    package func pageCount() throws(BridgeError) -> Int {
        let n = qpdf_get_num_pages(q)
        if n < 0 || qpdf_has_error(q) != 0 {
            let e = takeError()
            throw .qpdf(message: e?.text ?? "cannot read the page tree", code: e?.kind ?? .pages)
        }
        return Int(n)
    }

    /// The page object at a 0-based index.
    package func page(_ index: Int) -> QPDFObject { QPDFObject(file: self, handle: qpdf_get_page_n(q, index)) }

    /// The 0-based index of a page object, or nil when the object is not a page of this document.
    /// The corresponding C function is `qpdf_find_page_by_oh`.
    package func pageIndex(of object: QPDFObject) -> Int? {
        let i = qpdf_find_page_by_oh(q, object.handle)
        _ = takeError()
        return i >= 0 ? Int(i) : nil
    }

    package var trailer: QPDFObject { QPDFObject(file: self, handle: qpdf_get_trailer(q)) }
    package var root: QPDFObject { QPDFObject(file: self, handle: qpdf_get_root(q)) }

    /// The object `id generation R`; null when there is none (an object number from a file that
    /// does not fit qpdf's 32-bit C interface names no object either).
    package func object(id: Int, generation: Int = 0) -> QPDFObject {
        guard let i = Int32(exactly: id), let g = Int32(exactly: generation) else {
            return QPDFObject(file: self, handle: qpdf_oh_new_null(q))
        }
        return QPDFObject(file: self, handle: qpdf_get_object_by_id(q, i, g))
    }

    /// Releases every object handle handed out so far (they become invalid).
    /// The corresponding C function is `qpdf_oh_release_all`.
    package func releaseAll() { qpdf_oh_release_all(q) }
}
