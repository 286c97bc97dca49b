/// What a link does, as pdfpipe's inventory (`links[].kind` in report.json) and poppler's reading
/// both name it; the raw values are the report's.
package enum LinkKind: String, Sendable, CaseIterable {
    case goto, gotor, uri, launch, named, javascript
    /// Any other action type (the action's `/S` is in `action`).
    case other
    /// No target at all.
    case none
}
