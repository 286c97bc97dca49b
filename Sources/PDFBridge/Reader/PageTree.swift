/// The pages of a document in order, by walking `/Root /Pages /Kids` (loops and depth guarded).
public enum PageTree {
    public static func pages(_ source: any ObjectSource) -> [PDFObject] {
        var out: [PDFObject] = []
        guard let top = PDFObject.root(of: source)["Pages"] else { return out }
        var seen = Set<ObjectRef>()
        func walk(_ node: PDFObject, depth: Int) {
            guard depth < 64, node.isDictionary else { return }
            if let r = node.objectRef, !seen.insert(r).inserted { return }
            let type = node["Type"]?.name
            if let kids = node["Kids"], type != "Page" {
                for kid in kids.items { walk(kid, depth: depth + 1) }
            } else if type == "Page" || type == nil {
                out.append(node)
            }
        }
        walk(top, depth: 0)
        return out
    }
}
