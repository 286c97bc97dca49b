import Foundation
import PDFPipeCore
import PDFPipeWeb
import PDFReader
import SystemIO

extension LinkAudit {
    // MARK: - Outline and open action

    /// Bookmarks read at most (hostile files); past it the walk stops and says so.
    static let maxOutlineItems = 100_000
    /// Titles kept in a bookmark's path: deeper ones keep the first and the last (a deep outline
    /// must not cost the square of its depth).
    static let maxPathTitles = 64

    /// Walks the outline depth first, iteratively: nesting of any depth needs no limit, and a
    /// cycle is only an item reached again. Past `maxOutlineItems` the walk stops with a note.
    mutating func scanOutline() {
        guard let first = root["Outlines"]?["First"] else { return }
        var visited = Set<Int>()
        // Each frame: the next item to read, its parents' titles, and the previous sibling's title.
        var stack: [(item: PDFObject, titles: [String], previous: String?)] = [(first, [], nil)]
        var count = 0
        while let (current, titles, previousTitle) = stack.popLast() {
            guard current.isDictionary else { continue }
            let title = current["Title"]?.text ?? "(untitled)"
            if let id = current.objectID?.number, !visited.insert(id).inserted {
                let place = Place(object: current.reference, prefix: "")
                report(
                    .outlineCycle,
                    "the outline loops: after '\((titles + [previousTitle ?? ""]).filter { !$0.isEmpty }.joined(separator: " / "))' comes '\(title)' (\(current.reference ?? "?")) again",
                    at: place)
                continue
            }
            count += 1
            if count > Self.maxOutlineItems {
                report(
                    .pdfWalkLimit,
                    "the outline has more than \(Self.maxOutlineItems) bookmarks; the walk stopped at '\(title)' and the rest was not checked",
                    at: Place(object: current.reference))
                return
            }
            var path = titles + [title]
            if path.count > Self.maxPathTitles {
                path = [path[0], "…"] + path.suffix(Self.maxPathTitles - 2)
            }
            var record = LinkRecord(object: current.reference)
            if current["A"] != nil || current["Dest"] != nil { outlineItems.append(current) }
            let place = Place(object: current.reference, prefix: "bookmark '\(path.joined(separator: " / "))': ")
            if let a = current["A"] {
                evaluateActions(a, record: &record, place: place)
            } else if let d = current["Dest"] {
                record.kind = .goto
                evaluate(.goTo(DestinationReference(d, pages: pages)), record: &record, place: place)
            }
            if current["A"] == nil && current["Dest"] == nil && current["First"] == nil {
                report(
                    .outlineNoTarget, "no target (no /Dest, no /A) and no children: clicking it does nothing",
                    at: place)
            }
            outline.append(OutlineRecord(titles: path, link: record))
            // Children before the next sibling: depth first, in the order viewers list them.
            if let next = current["Next"] { stack.append((next, titles, title)) }
            if let child = current["First"] { stack.append((child, path, nil)) }
        }
    }

    mutating func scanOpenAction() {
        guard let open = root["OpenAction"] else { return }
        var record = LinkRecord()
        let place = Place(prefix: "open action: ")
        if open.isArray {
            record.kind = .goto
            evaluate(.goTo(DestinationReference(open, pages: pages)), record: &record, place: place)
        } else {
            evaluateActions(open, record: &record, place: place)
        }
        openAction = record
    }
}
