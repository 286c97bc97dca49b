internal import CPoppler
import PDFReader

/// A link as poppler maps it on a page (`poppler_page_get_link_mapping`): a second opinion for
/// pdfpipe's own reading of the raw objects. Poppler drops links it cannot parse.
package struct PopplerLink: Sendable, Equatable {
    /// The link area as poppler gives it: relative to the crop box origin, turned by `/Rotate`.
    package var area: PDFRect
    /// `goto`, `gotor`, `uri`, `launch`, `named`, `javascript`, `other` (anything else), `none`.
    package var kind: LinkKind
    /// For `goto` and `gotor`: the destination (a named one is left unresolved, see `name`).
    package var destination: PopplerDestination?
    /// The raw bytes of a named destination.
    package var name: [UInt8]?
    package var uri: String?
    /// For `gotor` and `launch`.
    package var file: String?
    /// For `named` actions: `NextPage`, …
    package var namedAction: String?
}

extension PopplerFilePage {
    /// The page's links in `/Annots` order (poppler's list comes reversed).
    /// The corresponding C function is `poppler_page_get_link_mapping`.
    package var links: [PopplerLink] {
        document.log.capture {
            guard let list = poppler_page_get_link_mapping(page) else { return [] }
            defer { poppler_page_free_link_mapping(list) }
            return glistItems(list).map { Self.link($0.assumingMemoryBound(to: PopplerLinkMapping.self).pointee) }
                .reversed()
        }
    }

    private static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    private static func destination(_ d: UnsafeMutablePointer<PopplerDest>?) -> (PopplerDestination?, [UInt8]?) {
        guard let d else { return (nil, nil) }
        var name: [UInt8]?
        if d.pointee.type == POPPLER_DEST_NAMED, let n = d.pointee.named_dest {
            var length: gsize = 0
            if let bytes = poppler_named_dest_to_bytestring(n, &length) {
                name = Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
                g_free(bytes)
            }
        }
        return (PopplerDestination(d.pointee), name)
    }

    private static func link(_ m: PopplerLinkMapping) -> PopplerLink {
        var l = PopplerLink(area: PDFRect(m.area.x1, m.area.y1, m.area.x2, m.area.y2), kind: .none)
        guard let action = m.action else { return l }
        switch action.pointee.type {
        case POPPLER_ACTION_GOTO_DEST:
            l.kind = .goto
            (l.destination, l.name) = destination(action.pointee.goto_dest.dest)
        case POPPLER_ACTION_GOTO_REMOTE:
            l.kind = .gotor
            (l.destination, l.name) = destination(action.pointee.goto_remote.dest)
            l.file = string(action.pointee.goto_remote.file_name)
        case POPPLER_ACTION_URI:
            l.kind = .uri
            l.uri = string(action.pointee.uri.uri)
        case POPPLER_ACTION_LAUNCH:
            l.kind = .launch
            l.file = string(action.pointee.launch.file_name)
        case POPPLER_ACTION_NAMED:
            l.kind = .named
            l.namedAction = string(action.pointee.named.named_dest)
        case POPPLER_ACTION_JAVASCRIPT:
            l.kind = .javascript
        case POPPLER_ACTION_NONE:
            l.kind = .none
        default:
            l.kind = .other
        }
        return l
    }
}

extension PopplerFile {
    /// Looks up a named destination by its raw bytes (`poppler_named_dest_from_bytestring`, then
    /// `poppler_document_find_dest`).
    package func findDestination(bytes: [UInt8]) -> PopplerDestination? {
        guard
            let name = bytes.withUnsafeBufferPointer({
                poppler_named_dest_from_bytestring($0.baseAddress, gsize($0.count))
            })
        else {
            return nil
        }
        defer { g_free(name) }
        // The escaped name goes to poppler as it is: through a Swift String, bytes that are not
        // UTF-8 (a UTF-16 name's BOM, PDFDocEncoding past ASCII) would become U+FFFD.
        guard let d = log.capture({ poppler_document_find_dest(doc, name) }) else { return nil }
        defer { poppler_dest_free(d) }
        return PopplerDestination(d.pointee)
    }
}
