/// The pages of a document in order, by walking `/Root /Pages /Kids` (loops and depth guarded).
package enum PageTree {
    package static func pages(_ source: any ObjectSource) -> [PDFObject] {
        // Read through qpdf (a damaged or encrypted file): qpdf's own page list, which its repair
        // of the page tree produced — the pages every other qpdf-based fact counts.
        if let refs = source.pageList() { return refs.map { PDFObject(source: source, value: .ref($0)) } }
        var out: [PDFObject] = []
        guard let top = PDFObject.root(of: source)["Pages"] else { return out }
        var seen = Set<ObjectRef>()
        func walk(_ node: PDFObject, depth: Int) {
            guard depth < 64, node.isDictionary else { return }
            if let r = node.objectRef, !seen.insert(r).inserted { return }
            let type = node["Type"]?.name
            if let kids = node["Kids"], type != "Page" {
                for kid in kids.items { walk(kid, depth: depth + 1) }
            } else if type == "Page" || type == nil || depth > 0 {
                // A leaf of the tree is a page whatever its /Type says (a misspelt /Type /Rage): so
                // qpdf, poppler and the viewers count it; skipping it would leave its links unchecked.
                out.append(node)
            }
        }
        walk(top, depth: 0)
        return out
    }
}
