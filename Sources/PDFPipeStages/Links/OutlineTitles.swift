import PDFPipeCore
import PDFReader

/// The titles of the bookmarks that go to named destinations: what names an anchor for people
/// (`pdfpipe anchors`, `dest.removed`). hyperref, pandoc, Sphinx and DocBook's processors make a
/// bookmark per section that goes to the section's named destination.
enum OutlineTitles {
    /// Characters of a title kept (a hostile title may be megabytes).
    static let maxTitle = DocumentAnchors.maxTitle

    /// By destination name (as `DestinationKey.display` spells it): the first bookmark's title in
    /// reading order. Bounded as validate-links' outline walk is (`LinkAudit.maxOutlineItems`
    /// items, each object once).
    static func byName(root: PDFObject) -> [String: String] {
        guard let first = root["Outlines"]?["First"] else { return [:] }
        var titles: [String: String] = [:]
        var visited = Set<Int>()
        var stack = [first]
        var count = 0
        while let item = stack.popLast(), count < LinkAudit.maxOutlineItems {
            guard item.isDictionary else { continue }
            if let id = item.objectID?.number, !visited.insert(id).inserted { continue }
            count += 1
            let target = item["Dest"] ?? (item["A"]?["S"]?.name == "GoTo" ? item["A"]?["D"] : nil)
            if let target, let title = item["Title"]?.text, !title.isEmpty {
                let key: DestinationKey? = target.bytes.map { .string($0) } ?? target.name.map { .name($0) }
                if let key, titles[key.display] == nil {
                    titles[key.display] = ConsoleText.escape(String(title.prefix(maxTitle)))
                }
            }
            // Children before the next sibling: depth first, in the order viewers list them.
            if let next = item["Next"] { stack.append(next) }
            if let child = item["First"] { stack.append(child) }
        }
        return titles
    }
}

extension Destination {
    /// The top of the view the destination opens, when its view names one.
    var top: Double? { positions.first { $0.label == "top" }?.value }
}
