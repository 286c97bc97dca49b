import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import Synchronization
import SystemIO

extension ThumbnailsStage {
    /// Draws link rectangles over a rendered page: broken ones red, working ones yellow.
    static func draw(
        _ marks: [(PDFRect, Bool)], on image: CairoImage, page: PageGeometry, region: PixelRect?, scale s: Double
    ) {
        for (rect, isBroken) in marks {
            var px = LinkGeometry.pixelRect(rect, on: page, scale: s)
            px.x -= (region?.x ?? 0) * s
            px.y -= (region?.y ?? 0) * s
            image.strokeRect(
                x: px.x, y: px.y, width: px.width, height: px.height, red: 1, green: isBroken ? 0 : 0.8, blue: 0,
                lineWidth: max(1, s * 1.5))
        }
    }

    /// Where the links validate-links read lie (`LinkPlacements`), by page, each marked broken when a
    /// finding at warning or above names it; and the links with findings of any severity, for the
    /// report's numbered boxes.
    func overlayMarks(_ job: Job) -> (marks: [Int: [(PDFRect, Bool)]], labelled: [Label]) {
        var marks: [Int: [(PDFRect, Bool)]] = [:]
        var labelled: [Label] = []
        // A link has a finding when the finding names it: page and position in /Annots, its
        // identity (rectangles, rounded in the inventory, would mismatch).
        var withFindings: [LinkID: Severity] = [:]
        for f in job.effectiveFindings {
            guard let link = f.link else { continue }
            withFindings[link] = max(withFindings[link] ?? f.severity, f.severity)
        }
        for l in job.products[LinkPlacements.self]?.links ?? [] {
            let (p, k, rect) = (l.page, l.annotationIndex, l.rect)
            let severity = withFindings[LinkID(page: p, annotationIndex: k)]
            marks[p, default: []].append((rect, severity.map { $0 >= .warning } ?? false))
            if severity != nil { labelled.append(Label(page: p, index: k, rect: rect)) }
        }
        return (marks, labelled)
    }

    /// `thumbnails.labels`: each labelled link on a rendered page, its box as fractions of the image.
    static func labels(
        _ labelled: [Label], pages: Set<Int>, geometries geo: [PageGeometry], region: (Int) -> PixelRect?
    ) -> [ThumbnailsSection.Label] {
        labelled.compactMap { l in
            guard pages.contains(l.page), l.page - 1 < geo.count else { return nil }
            let g = geo[l.page - 1]
            let whole = LinkGeometry.pixelRect(g.visibleBox, on: g, scale: 1)
            let area = region(l.page) ?? PixelRect(x: 0, y: 0, width: whole.width, height: whole.height)
            let px = LinkGeometry.pixelRect(l.rect, on: g, scale: 1)
            guard area.width > 0, area.height > 0 else { return nil }
            // Hostile rectangles (huge, or far off the page) stay finite and near the image.
            func f(_ v: Double) -> Double { v.isFinite ? (min(max(v, -1), 2) * 10_000).rounded() / 10_000 : 0 }
            return ThumbnailsSection.Label(
                page: l.page, annotationIndex: l.index,
                box: [
                    f((px.x - area.x) / area.width), f((px.y - area.y) / area.height), f(px.width / area.width),
                    f(px.height / area.height),
                ])
        }
    }
}
