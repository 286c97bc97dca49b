/// How a link names a destination: a string (name tree) or a name object (catalog `/Dests`).
package enum DestinationKey: Sendable, Equatable, Hashable {
    case string([UInt8])
    case name(String)

    /// The name as text: a string decoded as a PDF text string, a name as written.
    package var display: String {
        switch self {
        case .string(let b): PDFTextDecoding.decode(b)
        case .name(let n): n
        }
    }

    /// How the name is written, for messages: `a UTF-16BE string`, `a name object`.
    package var encoding: String {
        switch self {
        case .string(let b) where b.starts(with: [0xFE, 0xFF]): "a UTF-16BE string"
        case .string(let b) where b.starts(with: [0xEF, 0xBB, 0xBF]): "a UTF-8 string (with a BOM)"
        case .string(let b) where b.allSatisfy({ $0 < 0x80 }): "an ASCII string"
        case .string: "a PDFDocEncoding string"
        case .name: "a name object"
        }
    }
}

/// Destination names are text strings (PDF 32000-2, 7.9.2.2: UTF-16BE with a BOM, UTF-8 with a BOM
/// in PDF 2.0, else PDFDocEncoding), and viewers differ in how they compare them. Measured on the
/// same links (`<FEFF00630068…>`, `(chap2)`, `<EFBBBF…>`, `/chap2`, and `café` in each encoding,
/// against keys in one encoding and then the other): PDFium 7.x and MuPDF 1.26 (PyMuPDF) follow
/// every link whose text matches; poppler 22.12 (`Catalog::findDest`) and Debian 12's MuPDF 1.21
/// follow only those whose bytes match. So a match by text is followed, with a warning naming
/// the byte-comparing viewers (`dest.name-encoding`); no match at all is still an error.
package enum NameText {
    /// True when the text is printable ASCII: the same bytes in PDFDocEncoding, UTF-8 and a name.
    package static func isPlain(_ text: String) -> Bool { text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    package static func isPlain(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }

    /// The keys whose text differs from their bytes (UTF-16BE, UTF-8 with a BOM, PDFDocEncoding
    /// past ASCII), by that text: built once, so a name written in another encoding is found
    /// without a scan of the table.
    package static func index<V>(tree: [[UInt8]: V], catalog: [String: V]) -> [String: DestinationKey] {
        var byText: [String: DestinationKey] = [:]
        for key in tree.keys where !isPlain(key) {
            let k = DestinationKey.string(key)
            byText[k.display] = byText[k.display] ?? k
        }
        for name in catalog.keys where !isPlain(name) { byText[name] = byText[name] ?? .name(name) }
        return byText
    }

    /// Looks a key up by its bytes (strings in the name tree first, names in the catalog first,
    /// each then in the other store), else by its text; `asText` is the key it matched then.
    package static func find<V>(
        _ key: DestinationKey, tree: [[UInt8]: V], catalog: [String: V], byText: [String: DestinationKey]
    ) -> (value: V, asText: DestinationKey?)? {
        func exact(_ key: DestinationKey) -> V? {
            switch key {
            case .string(let bytes): tree[bytes] ?? catalog[String(decoding: bytes, as: UTF8.self)]
            case .name(let name): catalog[name] ?? tree[Array(name.utf8)]
            }
        }
        if let v = exact(key) { return (v, nil) }
        let text = key.display
        if isPlain(text) {
            if let v = tree[Array(text.utf8)] { return (v, .string(Array(text.utf8))) }
            if let v = catalog[text] { return (v, .name(text)) }
        }
        if let other = byText[text], other != key, let v = exact(other) { return (v, other) }
        return nil
    }

    /// The warning's text for a name written the same in the link and in its definition, in UTF-8
    /// without a byte-order mark (XeTeX's and LuaTeX's labels with letters past ASCII): not a
    /// text string as PDF gives them, and viewers part ways (measured with PyMuPDF 1.26 and
    /// pypdfium2 4.30 on such a link): poppler and PDFium compare bytes and follow the link;
    /// MuPDF reads the link's name as PDFDocEncoding and the name tree's key as UTF-8, and finds
    /// no page. Nil for any other name.
    package static func utf8WithoutBOM(_ key: DestinationKey) -> String? {
        guard case .string(let b) = key, b.contains(where: { $0 >= 0x80 }), !b.starts(with: [0xFE, 0xFF]),
            !b.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(validating: b, as: UTF8.self)
        else { return nil }
        let misread = PDFTextDecoding.decode(b)
        return
            "named destination '\(text)' is written in UTF-8 without a byte-order mark (in the link and in its definition): poppler and PDFium compare bytes and follow the link; MuPDF reads the link's name as PDFDocEncoding ('\(misread)') and finds no page"
    }

    /// The warning's text for a link whose name matches its destination's only as text.
    package static func mismatch(_ key: DestinationKey, definedAs defined: DestinationKey, in file: String? = nil)
        -> String
    {
        "named destination '\(key.display)' is written as \(key.encoding) and defined\(file.map { " in '\($0)'" } ?? "") as \(defined.encoding): PDFium, MuPDF and pdf.js compare names as text and follow the link; poppler (Evince, Okular) and older MuPDF (1.21) compare bytes and do not"
    }
}
