import PDFBridge
import PDFReader

/// Which pages may have text drawn by annotations (form-field values, signature appearances,
/// FreeText notes, stamps), found cheaply from the page objects so that a document without any
/// costs nothing: the engines then read those pages' annotation text (`EnginePage.
/// annotationTextAndLayout` for MuPDF, `AnnotationLayer` for poppler).
enum AnnotationText {
    /// The pages (0-based, among `pages`) with an annotation the engine may draw text for: one
    /// with an appearance stream; a form field's widget (whose missing appearance viewers make);
    /// for MuPDF, which makes other annotations' missing appearances too, any but a link or a popup.
    static func candidatePages(_ source: any ObjectSource, among pages: [Int], engine: PageEngine) -> Set<Int> {
        let tree = PageTree.pages(source)
        var out = Set<Int>()
        for page in pages where page >= 1 && page <= tree.count {
            guard let annots = tree[page - 1]["Annots"], annots.isArray else { continue }
            // A hostile page may list millions: the first ones decide (the engine reads them all).
            let drawn = annots.items.prefix(20_000).contains { a in
                guard a.isDictionary else { return false }
                let subtype = a["Subtype"]?.name
                if subtype == "Popup" { return false }
                if a["AP"] != nil { return true }
                return engine == .mupdf ? subtype != "Link" : subtype == "Widget"
            }
            if drawn { out.insert(page - 1) }
        }
        return out
    }
}
