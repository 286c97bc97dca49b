import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader

/// What `inspect` lists beyond the basic facts: annotations, form fields, attachments and media.
struct DocumentInventory {
    let source: any ObjectSource
    let pages: [PDFObject]

    var root: PDFObject { PDFObject.root(of: source) }

    // MARK: - Annotations

    struct Annotation {
        var page: Int
        var subtype: String
        var rect: PDFRect?
        var object: String?
        var dictionary: PDFObject
    }

    func annotations() -> [Annotation] {
        var out: [Annotation] = []
        for (i, page) in pages.enumerated() {
            for a in page["Annots"]?.items ?? [] where a.isDictionary {
                out.append(
                    Annotation(
                        page: i + 1, subtype: a["Subtype"]?.name ?? "(none)", rect: a["Rect"]?.rectangle,
                        object: a.reference, dictionary: a))
            }
        }
        return out
    }

    // MARK: - Form fields

    struct Field {
        var name: String
        var type: String
        var flags: [String]
        var value: JSONValue
        var pages: [Int]
        var hasJavaScript: Bool
    }

    /// Terminal fields of the AcroForm, with their inherited type and flags and their widgets' pages.
    func fields() -> [Field] {
        guard let top = root["AcroForm"]?["Fields"] else { return [] }
        var pageOf: [ObjectRef: Int] = [:]
        for (i, p) in pages.enumerated() {
            for a in p["Annots"]?.items ?? [] { if let r = a.objectRef { pageOf[r] = i + 1 } }
        }
        var out: [Field] = []
        var seen = Set<ObjectRef>()
        func walk(
            _ node: PDFObject, parentName: String, inheritedType: String?, inheritedFlags: Int,
            inheritedValue: PDFValue?, depth: Int
        ) {
            guard depth < 32, node.isDictionary else { return }
            if let r = node.objectRef, !seen.insert(r).inserted { return }
            let partial = node["T"]?.text
            let name = [parentName, partial ?? ""].filter { !$0.isEmpty }.joined(separator: ".")
            let type = node["FT"]?.name ?? inheritedType
            let flags = node["Ff"]?.int ?? inheritedFlags
            let value = node.dictionary?["V"] ?? inheritedValue
            // Kids that have a /T are fields; kids without are this field's widgets.
            let kids = node["Kids"]?.items ?? []
            let fieldKids = kids.filter { $0["T"] != nil }
            if !fieldKids.isEmpty {
                for k in fieldKids {
                    walk(
                        k, parentName: name, inheritedType: type, inheritedFlags: flags, inheritedValue: value,
                        depth: depth + 1)
                }
                return
            }
            let widgets = kids.isEmpty ? [node] : kids
            let widgetPages = widgets.compactMap { w in w.objectRef.flatMap { pageOf[$0] } }
            let js =
                widgets.contains { Self.runsJavaScript($0, action: true) } || Self.runsJavaScript(node, action: false)
            out.append(
                Field(
                    name: name, type: Self.kind(type: type, flags: flags), flags: Self.flagNames(flags, type: type),
                    value: value.map { Self.json($0) } ?? .null, pages: Array(Set(widgetPages)).sorted(),
                    hasJavaScript: js))
        }
        for f in top.items {
            walk(f, parentName: "", inheritedType: nil, inheritedFlags: 0, inheritedValue: nil, depth: 0)
        }
        return out
    }

    /// Whether a field or widget runs JavaScript: its additional actions (/AA), or with `action`
    /// its action (/A) too.
    static func runsJavaScript(_ node: PDFObject, action: Bool) -> Bool {
        if action && node["A"]?["S"]?.name == "JavaScript" { return true }
        guard let aa = node["AA"] else { return false }
        return aa.keys.contains { aa[$0]?["S"]?.name == "JavaScript" }
    }

    static func kind(type: String?, flags: Int) -> String {
        switch type {
        case "Tx"?: return "text"
        case "Ch"?: return flags & (1 << 17) != 0 ? "combo" : "list"
        case "Sig"?: return "signature"
        case "Btn"?:
            if flags & (1 << 16) != 0 { return "pushbutton" }
            return flags & (1 << 15) != 0 ? "radio" : "checkbox"
        default: return "unknown"
        }
    }

    static func flagNames(_ flags: Int, type: String?) -> [String] {
        var out: [String] = []
        if flags & 1 != 0 { out.append("readOnly") }
        if flags & 2 != 0 { out.append("required") }
        if flags & 4 != 0 { out.append("noExport") }
        if type == "Tx" && flags & (1 << 12) != 0 { out.append("multiline") }
        if type == "Tx" && flags & (1 << 13) != 0 { out.append("password") }
        return out
    }

    static func json(_ v: PDFValue) -> JSONValue {
        switch v {
        case .string(let b): .string(PDFTextDecoding.decode(b))
        case .name(let n): .string(n)
        case .int(let i): .int(i)
        case .real(let d): .double(d)
        case .bool(let b): .bool(b)
        case .array(let a): .array(a.map(json))
        default: .null
        }
    }

    // MARK: - Attachments

    struct Attachment {
        var name: String
        var origin: String
        var page: Int?
        var description: String?
        var mimeType: String?
        var data: [UInt8]?
        var declaredSize: Int?
        var declaredChecksum: String?
    }

    func attachments() -> [Attachment] {
        var out: [Attachment] = []
        func read(_ spec: PDFObject, name fallback: String, origin: String, page: Int?) {
            guard spec.isDictionary else { return }
            let name = spec["UF"]?.text ?? spec["F"]?.text ?? fallback
            let file = spec["EF"]?["UF"] ?? spec["EF"]?["F"]
            var a = Attachment(name: name, origin: origin, page: page, description: spec["Desc"]?.text)
            if let file {
                a.mimeType = file["Subtype"]?.name
                a.declaredSize = file["Params"]?["Size"]?.int
                a.declaredChecksum = file["Params"]?["CheckSum"]?.bytes.map {
                    $0.map { String(format: "%02x", $0) }.joined()
                }
                if let r = file.objectRef { a.data = source.streamData(r) }
            }
            out.append(a)
        }
        // The /EmbeddedFiles name tree, loops and depth guarded.
        var seen = Set<ObjectRef>()
        func walk(_ node: PDFObject, depth: Int) {
            guard depth < 32, node.isDictionary else { return }
            if let r = node.objectRef, !seen.insert(r).inserted { return }
            let names = node["Names"]
            var i = 0
            while let names, i + 1 < names.count {
                read(names[i + 1], name: names[i].text ?? "", origin: "EmbeddedFiles", page: nil)
                i += 2
            }
            for k in node["Kids"]?.items ?? [] { walk(k, depth: depth + 1) }
        }
        if let tree = root["Names"]?["EmbeddedFiles"] { walk(tree, depth: 0) }
        for a in annotations() where a.subtype == "FileAttachment" {
            if let fs = a.dictionary["FS"] { read(fs, name: "", origin: "FileAttachment", page: a.page) }
        }
        return out
    }

    /// What a media annotation plays.
    static func mediaTarget(_ a: PDFObject) -> String? {
        if let f = a["Movie"]?["F"] { return f.text ?? FileSpecificationName.of(f) }
        if let c = a["A"]?["R"]?["C"]?["D"] { return c.text ?? FileSpecificationName.of(c) }
        if let assets = a["RichMediaContent"]?["Assets"]?["Names"] {
            return stride(from: 0, to: assets.count, by: 2).compactMap { assets[$0].text }.joined(separator: ", ")
        }
        return nil
    }
}

enum FileSpecificationName {
    static func of(_ o: PDFObject) -> String? { o["UF"]?.text ?? o["F"]?.text }
}
