/// The pages of a document in order, by walking `/Root /Pages /Kids` (loops and depth guarded).
public enum PageTree {
    public static func pages(_ source: any ObjectSource) -> [PDFObject] {
        // Read through qpdf (a damaged or encrypted file): qpdf's own page list, which its repair
        // of the page tree produced — the pages every other qpdf-based fact counts.
        if let q = source as? QPDFSource, let n = try? q.file.pageCount() {
            var pages: [PDFObject] = []
            for i in 0..<n {
                if let id = q.file.page(i).objectID {
                    pages.append(PDFObject(source: source, value: .ref(ObjectRef(id.number, id.generation))))
                }
            }
            q.file.releaseAll()
            if n > 0, pages.count == n { return pages }
        }
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
