/// XMP metadata read as XML with namespaces (docs/security.md): a property is found by its
/// namespace URI and local name, whatever prefix the packet binds to it, as an attribute of an
/// element (`<rdf:Description ua:part="1">`) or as an element of its own
/// (`<ua:part rdf:datatype="…">1</ua:part>`). A small reader, bounded on purpose: the text is
/// capped by the caller, nesting at `maxDepth`, and no entity is ever defined or expanded (a
/// DOCTYPE is skipped; only the five predefined entities and character references are read).
enum XMP {
    static let maxDepth = 256

    /// The PDF/UA identification schema (ISO 14289-1, 5).
    static let pdfuaNamespace = "http://www.aiim.org/pdfua/ns/id/"

    /// The first value of property `local` in namespace `uri`, trimmed; nil when the packet has
    /// none, or is not well-formed enough to tell.
    static func property(_ uri: String, _ local: String, in bytes: [UInt8]) -> String? {
        var r = Reader(bytes: bytes)
        return r.find(uri, local)
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        /// Each open element's namespace bindings (prefix → URI; "" is the default namespace).
        var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        /// The open elements' resolved names.
        var open: [(uri: String?, local: String)] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func resolve(_ qname: String, isAttribute: Bool) -> (uri: String?, local: String) {
            guard let colon = qname.firstIndex(of: ":") else {
                return (isAttribute ? nil : lookup(""), qname)
            }
            return (lookup(String(qname[..<colon])), String(qname[qname.index(after: colon)...]))
        }

        func lookup(_ prefix: String) -> String? {
            for scope in scopes.reversed() { if let u = scope[prefix] { return u } }
            return nil
        }

        func starts(_ s: String, at k: Int) -> Bool {
            let u = Array(s.utf8)
            return k + u.count <= bytes.count && Array(bytes[k..<k + u.count]) == u
        }

        func index(of s: String, from k: Int) -> Int? {
            let u = Array(s.utf8)
            var j = k
            while j + u.count <= bytes.count {
                if bytes[j] == u[0] && Array(bytes[j..<j + u.count]) == u { return j }
                j += 1
            }
            return nil
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

        func name(from k: Int) -> (String, Int) {
            var j = k
            while j < bytes.count, !Self.isSpace(bytes[j]), !"/>=".utf8.contains(bytes[j]) { j += 1 }
            return (String(decoding: bytes[k..<j], as: UTF8.self), j)
        }

        /// Character data with the predefined entities and character references read; any other
        /// `&name;` is left as written (no entity is ever expanded).
        static func unescape(_ s: Substring) -> String {
            guard s.contains("&") else { return String(s) }
            var out = ""
            var rest = s
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].prefix(12).firstIndex(of: ";") else {
                    out += "&"
                    rest = rest[rest.index(after: amp)...]
                    continue
                }
                let name = rest[rest.index(after: amp)..<semi]
                let predefined = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
                if let p = predefined[String(name)] {
                    out += p
                } else if name.hasPrefix("#x"), let v = UInt32(name.dropFirst(2), radix: 16), let u = Unicode.Scalar(v)
                {
                    out.unicodeScalars.append(u)
                } else if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let u = Unicode.Scalar(v) {
                    out.unicodeScalars.append(u)
                } else {
                    out += rest[amp...semi]
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }

        /// Walks the packet to the first `uri`:`local` (attribute or element).
        mutating func find(_ uri: String, _ local: String) -> String? {
            var capture: (depth: Int, text: String)?
            while i < bytes.count {
                guard bytes[i] == UInt8(ascii: "<") else {
                    let end = index(of: "<", from: i) ?? bytes.count
                    if capture != nil {
                        capture!.text += Self.unescape(Substring(decoding: bytes[i..<end], as: UTF8.self))
                    }
                    i = end
                    continue
                }
                if starts("<?", at: i) {
                    guard let e = index(of: "?>", from: i + 2) else { return nil }
                    i = e + 2
                } else if starts("<!--", at: i) {
                    guard let e = index(of: "-->", from: i + 4) else { return nil }
                    i = e + 3
                } else if starts("<![CDATA[", at: i) {
                    guard let e = index(of: "]]>", from: i + 9) else { return nil }
                    if capture != nil { capture!.text += String(decoding: bytes[(i + 9)..<e], as: UTF8.self) }
                    i = e + 3
                } else if starts("<!", at: i) {
                    // A DOCTYPE (with an internal subset, perhaps): skipped, nothing it declares is used.
                    var depth = 0
                    var j = i + 2
                    while j < bytes.count, !(bytes[j] == UInt8(ascii: ">") && depth == 0) {
                        if bytes[j] == UInt8(ascii: "[") { depth += 1 }
                        if bytes[j] == UInt8(ascii: "]") { depth -= 1 }
                        j += 1
                    }
                    i = j + 1
                } else if starts("</", at: i) {
                    guard let e = index(of: ">", from: i), !open.isEmpty else { return nil }
                    i = e + 1
                    if let c = capture, c.depth == open.count {
                        return c.text.trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                    open.removeLast()
                    scopes.removeLast()
                } else {
                    switch startTag(uri, local, capturing: &capture) {
                    case .malformed: return nil
                    case .property(let value): return value
                    case .element: break
                    }
                }
            }
            return nil
        }

        enum Tag {
            /// The tag holds the property as an attribute.
            case property(String)
            case element
            /// Not a tag, or nesting past `maxDepth`.
            case malformed
        }

        /// Reads a tag's attributes from `j` to its end (`>` or `/>`, `j` left on `>`): namespace
        /// bindings apart. Whether the element is empty; nil when the tag is malformed.
        func readAttributes(
            from j: inout Int, into attributes: inout [(String, String)], bindings: inout [String: String]
        )
            -> Bool?
        {
            while true {
                while j < bytes.count, Self.isSpace(bytes[j]) { j += 1 }
                guard j < bytes.count else { return nil }
                if bytes[j] == UInt8(ascii: ">") { return false }
                if starts("/>", at: j) {
                    j += 1
                    return true
                }
                let (attr, afterAttr) = name(from: j)
                j = afterAttr
                while j < bytes.count, Self.isSpace(bytes[j]) { j += 1 }
                guard !attr.isEmpty, j < bytes.count, bytes[j] == UInt8(ascii: "=") else { return nil }
                j += 1
                while j < bytes.count, Self.isSpace(bytes[j]) { j += 1 }
                guard j < bytes.count, bytes[j] == 0x22 || bytes[j] == 0x27 else { return nil }
                let quote = bytes[j]
                var e = j + 1
                while e < bytes.count, bytes[e] != quote { e += 1 }
                guard e < bytes.count else { return nil }
                let value = Self.unescape(Substring(decoding: bytes[(j + 1)..<e], as: UTF8.self))
                j = e + 1
                if attr == "xmlns" {
                    bindings[""] = value
                } else if attr.hasPrefix("xmlns:") {
                    bindings[String(attr.dropFirst(6))] = value
                } else {
                    attributes.append((attr, value))
                }
            }
        }

        /// Reads a start tag at `i`.
        mutating func startTag(_ uri: String, _ local: String, capturing capture: inout (depth: Int, text: String)?)
            -> Tag
        {
            let (qname, afterName) = name(from: i + 1)
            guard !qname.isEmpty else { return .malformed }
            var j = afterName
            var attributes: [(String, String)] = []
            var bindings: [String: String] = [:]
            guard let empty = readAttributes(from: &j, into: &attributes, bindings: &bindings) else {
                return .malformed
            }
            i = j + 1
            scopes.append(bindings)
            let element = resolve(qname, isAttribute: false)
            for (attr, value) in attributes {
                let a = resolve(attr, isAttribute: true)
                if a.uri == uri && a.local == local {
                    return .property(value.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            if empty {
                scopes.removeLast()
                return .element
            }
            open.append(element)
            guard open.count <= XMP.maxDepth else { return .malformed }
            if capture == nil, element.uri == uri, element.local == local { capture = (open.count, "") }
            return .element
        }
    }
}
