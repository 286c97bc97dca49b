/// How much text a page's content shows: the bytes of the strings its text operators (`Tj`, `TJ`,
/// `'`, `"`) show, in the page's content streams and the form XObjects they draw (PDF 32000-1
/// §9.4.3). An engine's text extraction that reads nothing from a page that shows text has lost
/// it; this is the second opinion, read without any engine.
///
/// Bounded for hostile files: at most `maxBytes` of content (all streams together), forms nested
/// `maxDepth` deep, each form drawn once per page. A syntax error skips a byte and goes on; what
/// the scan did not reach is not counted (it may say less than the page shows, never more).
package enum ShownText {
    package static let maxBytes = 32 << 20
    package static let maxDepth = 8

    /// The number of string bytes the page's text operators show (a character code is one to four
    /// of them), and whether the scan read all of the content.
    package static func bytes(onPage page: PDFObject) -> (count: Int, complete: Bool) {
        var scan = Scan()
        var resources = page["Resources"]
        var node = page
        for _ in 0..<32 where resources == nil {
            guard let parent = node["Parent"] else { break }
            resources = parent["Resources"]
            node = parent
        }
        scan.contents(page["Contents"], resources: resources, depth: 0)
        return (scan.count, scan.complete)
    }

    private struct Scan {
        var count = 0
        var read = 0
        var complete = true
        var forms = Set<ObjectRef>()

        mutating func contents(_ contents: PDFObject?, resources: PDFObject?, depth: Int) {
            guard let contents else { return }
            let streams = contents.isArray ? (0..<contents.count).map { contents[$0] } : [contents]
            // A page's streams are one content stream split anywhere (even inside an operator).
            var data: [UInt8] = []
            for s in streams {
                guard let ref = s.objectRef, s.isStream else { continue }
                guard let d = s.source.streamData(ref) else {
                    complete = false
                    continue
                }
                data += d
                data.append(0x0A)
            }
            run(data, resources: resources, depth: depth)
        }

        mutating func run(_ data: [UInt8], resources: PDFObject?, depth: Int) {
            guard read + data.count <= ShownText.maxBytes else {
                complete = false
                return
            }
            read += data.count
            var last: PDFValue?
            data.withUnsafeBufferPointer { b in
                var p = PDFParser(b)
                while true {
                    p.skipWhitespace()
                    guard p.pos < b.count else { return }
                    let c = b[p.pos]
                    if c == UInt8(ascii: "/") || c == UInt8(ascii: "(") || c == UInt8(ascii: "<")
                        || c == UInt8(ascii: "[") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                        || c == UInt8(ascii: ".") || (0x30...0x39).contains(c)
                    {
                        let start = p.pos
                        if let v = try? p.object() {
                            last = v
                        } else {
                            p.pos = max(p.pos, start + 1)
                            last = nil
                        }
                        continue
                    }
                    let w = p.word()
                    if w.isEmpty {
                        p.pos += 1
                        continue
                    }
                    if p.equals(w, "Tj") || p.equals(w, "'") || p.equals(w, "\"") {
                        if case .string(let s)? = last { count += s.count }
                    } else if p.equals(w, "TJ") {
                        if case .array(let items)? = last {
                            for case .string(let s) in items { count += s.count }
                        }
                    } else if p.equals(w, "BI") {
                        skipInlineImage(&p, b)
                    } else if p.equals(w, "Do"), case .name(let name)? = last {
                        form(name, resources: resources, depth: depth)
                    }
                    last = nil
                }
            }
        }

        /// Past an inline image's data: to the `EI` after `ID` that white space surrounds.
        func skipInlineImage(_ p: inout PDFParser, _ b: UnsafeBufferPointer<UInt8>) {
            var i = p.pos
            while i + 1 < b.count, !(b[i] == UInt8(ascii: "I") && b[i + 1] == UInt8(ascii: "D")) { i += 1 }
            i += 2
            while i + 2 < b.count {
                if b[i] == UInt8(ascii: "E"), b[i + 1] == UInt8(ascii: "I"), PDFParser.isWhite(b[i - 1]),
                    i + 2 == b.count || PDFParser.isWhite(b[i + 2]) || PDFParser.isDelimiter(b[i + 2])
                {
                    break
                }
                i += 1
            }
            p.pos = min(b.count, i + 2)
        }

        mutating func form(_ name: String, resources: PDFObject?, depth: Int) {
            guard let x = resources?["XObject"]?[name], let ref = x.objectRef, x["Subtype"]?.name == "Form" else {
                return
            }
            guard depth < ShownText.maxDepth, forms.insert(ref).inserted else { return }
            guard let data = x.source.streamData(ref) else {
                complete = false
                return
            }
            run(data, resources: x["Resources"] ?? resources, depth: depth + 1)
        }
    }
}
