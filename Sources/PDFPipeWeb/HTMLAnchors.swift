import PDFPipeCore

/// The places of an HTML page a URL fragment can point at (`htmlFragments`): the `id` of any
/// element, and the `name` of `<a>` elements, as HTML's "find a potential indicated element" looks
/// them up. A small tokenizer, not a full HTML parser: it reads start tags and their attributes
/// (quoted, single-quoted or bare values, character references decoded) and skips comments,
/// `<script>`, `<style>` and `<template>` contents, where no anchor a browser scrolls to can be.
/// Anchors made by scripts at load time are not seen, which is why the check is off by default.
package enum HTMLAnchors {
    package static func isHTML(_ contentType: String?) -> Bool {
        let t = (contentType ?? "").lowercased()
        return t.hasPrefix("text/html") || t.hasPrefix("application/xhtml+xml")
    }

    /// Fragments that name no element: text fragments (`#:~:text=…`) and the empty one.
    package static func isCheckable(_ fragment: String) -> Bool { !fragment.isEmpty && !fragment.hasPrefix(":~:") }

    /// Whether `fragment` (as written in the URL) indicates a part of a page with these anchors:
    /// the fragment itself, then percent-decoded, then `top` (any case), as the HTML standard's
    /// "scroll to the fragment" steps go.
    package static func indicates(_ fragment: String, in anchors: [String]) -> Bool {
        let set = Set(anchors)
        if !isCheckable(fragment) || set.contains(fragment) { return true }
        let decoded = URIReference.percentDecoded(fragment)
        return set.contains(decoded) || decoded.lowercased() == "top"
    }

    /// Long on purpose (one of the five functions of 80+ lines, docs/development.md): one scanner
    /// over bytes (comments, tags, attributes in their quoting styles) whose helpers share the
    /// cursor; split into functions, each would take and return it.
    package static func parse(_ html: [UInt8]) -> Set<String> {
        var anchors = Set<String>()
        var i = 0
        let n = html.count
        func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }
        func startsWith(_ s: String, at k: Int) -> Bool {
            var k = k
            for c in s.utf8 {
                guard k < n, lower(html[k]) == c else { return false }
                k += 1
            }
            return true
        }
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 12 || b == 13 }
        func isName(_ b: UInt8) -> Bool {
            !isSpace(b) && b != UInt8(ascii: "/") && b != UInt8(ascii: ">") && b != UInt8(ascii: "=")
        }

        while i < n {
            guard html[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if startsWith("<!--", at: i) {
                i += 4
                while i < n && !startsWith("-->", at: i) { i += 1 }
                i += 3
                continue
            }
            guard i + 1 < n, lower(html[i + 1]) >= 97 && lower(html[i + 1]) <= 122 else {
                i += 1
                continue
            }
            // A start tag: its name, then attributes up to '>'.
            var k = i + 1
            var tag: [UInt8] = []
            while k < n && isName(html[k]) {
                tag.append(lower(html[k]))
                k += 1
            }
            let tagName = String(decoding: tag, as: UTF8.self)
            while k < n && html[k] != UInt8(ascii: ">") {
                if isSpace(html[k]) || html[k] == UInt8(ascii: "/") {
                    k += 1
                    continue
                }
                var name: [UInt8] = []
                while k < n && isName(html[k]) {
                    name.append(lower(html[k]))
                    k += 1
                }
                if name.isEmpty {
                    k += 1
                    continue
                }
                while k < n && isSpace(html[k]) { k += 1 }
                var value: [UInt8]?
                if k < n && html[k] == UInt8(ascii: "=") {
                    k += 1
                    while k < n && isSpace(html[k]) { k += 1 }
                    var v: [UInt8] = []
                    if k < n && (html[k] == UInt8(ascii: "\"") || html[k] == UInt8(ascii: "'")) {
                        let quote = html[k]
                        k += 1
                        while k < n && html[k] != quote {
                            v.append(html[k])
                            k += 1
                        }
                        k += 1
                    } else {
                        while k < n && !isSpace(html[k]) && html[k] != UInt8(ascii: ">") {
                            v.append(html[k])
                            k += 1
                        }
                    }
                    value = v
                }
                let attribute = String(decoding: name, as: UTF8.self)
                if let value, attribute == "id" || (attribute == "name" && tagName == "a") {
                    let text = decodeReferences(String(decoding: value, as: UTF8.self))
                    if !text.isEmpty { anchors.insert(text) }
                }
            }
            i = k + 1
            // Raw text elements: nothing inside is markup.
            if ["script", "style", "template", "textarea", "title"].contains(tagName) {
                while i < n && !startsWith("</" + tagName, at: i) { i += 1 }
            }
        }
        return anchors
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;` and `&#xHH;` (the ones ids carry).
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let entity = String(after[..<semi])
            var scalar: Unicode.Scalar?
            switch entity {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.unicodeScalars.append(scalar)
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out
    }
}
