internal import CQPDF

/// Encryption for `QPDFFile.write`.
package enum QPDFEncryption: Sendable {
    /// 128-bit AES (revision 4), restricting printing to low resolution and forbidding changes.
    case aes128(user: String, owner: String)
    /// 256-bit AES (revision 6), with the same restrictions.
    case aes256(user: String, owner: String)
}

/// What `QPDFFile.write` does to the copy it writes.
package struct QPDFWriteOptions: Sendable {
    package var encryption: QPDFEncryption?
    /// A fixed `/ID` and AES IV, for byte-identical test files only (qpdf's "static ID").
    package var forTestsStaticIDs = false
    /// Pack objects into object streams (and write a cross-reference stream).
    package var objectStreams = false
    /// An /ID computed from the content, so the same input gives the same bytes.
    package var deterministicID = false

    package init(encryption: QPDFEncryption? = nil, forTestsStaticIDs: Bool = false, objectStreams: Bool = false) {
        self.encryption = encryption
        self.forTestsStaticIDs = forTestsStaticIDs
        self.objectStreams = objectStreams
    }
}

extension QPDFFile {
    /// Writes the document to `path`. The corresponding C functions are `qpdf_init_write` and `qpdf_write`.
    package func write(to path: String, options: QPDFWriteOptions = QPDFWriteOptions()) throws(BridgeError) {
        if qpdf_init_write(q, path) & QPDF_ERRORS != 0 { throw failure("cannot write \(path)") }
        if options.forTestsStaticIDs {
            qpdf_set_static_ID(q, QPDF_TRUE)
            qpdf_set_static_aes_IV(q, QPDF_TRUE)
        }
        if options.objectStreams { qpdf_set_object_stream_mode(q, qpdf_o_generate) }
        if options.deterministicID && options.encryption == nil { qpdf_set_deterministic_ID(q, QPDF_TRUE) }
        switch options.encryption {
        case .aes128(let user, let owner)?:
            qpdf_set_r4_encryption_parameters_insecure(
                q, user, owner, QPDF_TRUE, QPDF_TRUE, QPDF_FALSE, QPDF_FALSE, QPDF_FALSE, QPDF_FALSE, qpdf_r3p_low,
                QPDF_TRUE, QPDF_TRUE)
        case .aes256(let user, let owner)?:
            qpdf_set_r6_encryption_parameters2(
                q, user, owner, QPDF_TRUE, QPDF_TRUE, QPDF_FALSE, QPDF_FALSE, QPDF_FALSE, QPDF_FALSE, qpdf_r3p_low,
                QPDF_TRUE)
        case nil: break
        }
        if qpdf_write(q) & QPDF_ERRORS != 0 { throw failure("cannot write \(path)") }
        _ = takeWarnings()
    }

    fileprivate func failure(_ fallback: String) -> BridgeError {
        let e = takeError()
        return .qpdf(message: e?.text ?? fallback, code: e?.kind ?? .system)
    }
}

extension QPDFFile {
    /// The document written to memory, decrypted (for a copy pdfpipe reads back at once, never
    /// stored). The corresponding C functions are `qpdf_init_write_memory`, `qpdf_write` and
    /// `qpdf_get_buffer`.
    package func writtenToMemory() throws(BridgeError) -> [UInt8] {
        if qpdf_init_write_memory(q) & QPDF_ERRORS != 0 { throw failure("cannot write the document to memory") }
        qpdf_set_preserve_encryption(q, QPDF_FALSE)
        if qpdf_write(q) & QPDF_ERRORS != 0 { throw failure("cannot write the document to memory") }
        _ = takeWarnings()
        let n = qpdf_get_buffer_length(q)
        guard n > 0, let p = qpdf_get_buffer(q) else { throw .qpdf(message: "qpdf wrote nothing", code: .system) }
        return Array(UnsafeBufferPointer(start: p, count: n))
    }
}
