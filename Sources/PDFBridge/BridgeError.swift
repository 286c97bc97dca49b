/// A failure reported by qpdf or poppler, with the library's own message.
package enum BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is encrypted and the password given (or none) does not open it.
    case passwordRequired(library: String, message: String)
    /// qpdf could not read the file or an object.
    case qpdf(message: String, code: QPDFErrorKind)
    /// poppler (or glib) failed.
    case poppler(message: String)
    /// cairo failed to make or write an image.
    case cairo(message: String)
    /// libcurl could not be set up.
    case curl(message: String)
    /// MuPDF failed (the engine built in with the MuPDF trait).
    case mupdf(message: String)
    /// An image could not be encoded (libjpeg, libwebp, zlib).
    case encoding(message: String)

    package var description: String {
        switch self {
        case .passwordRequired(_, let m), .qpdf(let m, _), .poppler(let m), .cairo(let m), .curl(let m), .mupdf(let m),
            .encoding(let m):
            m
        }
    }
}

/// qpdf's error categories (`qpdf_error_code_e`).
package enum QPDFErrorKind: String, Sendable {
    case internalError = "internal"
    case system, unsupported, password, damaged, pages, object, json, linearization, other
}
