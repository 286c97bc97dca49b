import PDFReader

/// Which pages draw vertical writing, from their fonts: a Type0 font whose CMap is vertical (a
/// predefined `-V` CMap such as `Identity-V` or `UniJIS-UCS2-V` or Adobe-Japan1's `V`, or an embedded one with `/WMode
/// 1`, directly or through `/UseCMap`), in the page's resources (inherited ones too) or in those
/// of a form it draws. poppler-glib's page text loses such columns when they come first or last
/// in its reading order, whatever else the page holds (`PopplerFilePage.textAndLayoutBothWays`):
/// the fonts, not the first read, decide that the page is read in the other directions too.
enum WritingModes {
    /// Objects looked at per page at most (forms within forms, fonts): a hostile page may nest
    /// thousands; past it the page counts as horizontal (read as before).
    static let budget = 2_000

    /// The pages (0-based, among `pages`, 1-based) that use a vertical font.
    static func verticalPages(_ source: any ObjectSource, among pages: [Int]) -> Set<Int> {
        let tree = PageTree.pages(source)
        var out = Set<Int>()
        for page in pages where page >= 1 && page <= tree.count {
            guard let resources = inherited("Resources", of: tree[page - 1]) else { continue }
            var visited = Set<Int>()
            var left = budget
            if usesVerticalFont(resources, depth: 0, visited: &visited, left: &left) { out.insert(page - 1) }
        }
        return out
    }

    /// A page attribute, inherited from the page tree when the page lacks it.
    static func inherited(_ key: String, of page: PDFObject) -> PDFObject? {
        var node: PDFObject? = page
        for _ in 0..<64 {
            guard let n = node else { return nil }
            if let v = n[key], v.isDictionary { return v }
            node = n["Parent"]
        }
        return nil
    }

    static func usesVerticalFont(_ resources: PDFObject, depth: Int, visited: inout Set<Int>, left: inout Int) -> Bool {
        guard depth < 16 else { return false }
        if let fonts = resources["Font"], fonts.isDictionary {
            for key in fonts.keys {
                left -= 1
                guard left > 0 else { return false }
                if let font = fonts[key], isVertical(font) { return true }
            }
        }
        guard let xobjects = resources["XObject"], xobjects.isDictionary else { return false }
        for key in xobjects.keys {
            left -= 1
            guard left > 0, let x = xobjects[key], x["Subtype"]?.name == "Form" else { continue }
            if let id = x.objectID?.number, !visited.insert(id).inserted { continue }
            if let r = x["Resources"], r.isDictionary,
                usesVerticalFont(r, depth: depth + 1, visited: &visited, left: &left)
            {
                return true
            }
        }
        return false
    }

    /// A Type0 font with a vertical CMap.
    static func isVertical(_ font: PDFObject) -> Bool {
        guard font["Subtype"]?.name == "Type0", var cmap = font["Encoding"] else { return false }
        for _ in 0..<8 {
            // The predefined vertical CMaps: `…-V`, and Adobe-Japan1's plain `V` (JIS X 0208,
            // pdfminer's simple3.pdf writes it).
            if let name = cmap.name { return name == "V" || name.hasSuffix("-V") }
            guard cmap.isStream || cmap.isDictionary else { return false }
            if let mode = cmap["WMode"]?.int { return mode == 1 }
            guard let next = cmap["UseCMap"] else { return false }
            cmap = next
        }
        return false
    }
}
