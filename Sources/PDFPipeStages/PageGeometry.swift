import PDFReader

/// A page's boxes and rotation, with inherited attributes resolved (`/MediaBox`, `/CropBox`,
/// `/Rotate` may sit on any ancestor `/Pages` node).
/// The page boxes a page may declare (the `box` option of `thumbnails`).
package enum PageBox: String, Sendable, CaseIterable {
    case crop, media, trim, bleed, art
}

package struct PageGeometry: Sendable, Equatable {
    package var mediaBox: PDFRect
    /// As declared (or the media box when absent); `visibleBox` is what viewers show.
    package var cropBox: PDFRect
    /// 0, 90, 180 or 270 (negative and over-360 values normalized).
    package var rotate: Int
    /// The raw `/Rotate` value when it was not a multiple of 90 (viewers ignore it).
    package var invalidRotate: Int?
    package var mediaBoxMissing: Bool
    /// The trim box (the crop box when the page has none; not inherited).
    package var trimBox: PDFRect
    /// The bleed and art boxes (the crop box when absent; not inherited).
    package var bleedBox: PDFRect
    package var artBox: PDFRect
    /// `/UserUnit`: the size of a unit in points (PDF 1.6; 1 when absent or not a positive number,
    /// at most 75,000 as PDF 2.0 allows). MuPDF sizes pages by it; poppler does not, so the
    /// thumbnails of the poppler engine apply it themselves (#34, 3).
    package var userUnit: Double = 1

    /// A box by name: `crop`, `media`, `trim`, `bleed` or `art`.
    package func box(_ box: PageBox) -> PDFRect {
        switch box {
        case .media: mediaBox
        case .trim: trimBox
        case .bleed: bleedBox
        case .art: artBox
        case .crop: cropBox
        }
    }

    /// The crop box clipped to the media box, as viewers show it.
    package var visibleBox: PDFRect { cropBox.intersection(mediaBox) ?? mediaBox }

    /// Width and height as displayed (swapped for 90 and 270).
    package var displaySize: (width: Double, height: Double) {
        let b = visibleBox
        return rotate % 180 == 0 ? (b.width, b.height) : (b.height, b.width)
    }

    /// US Letter, what readers assume when a page has no media box.
    package static let defaultMediaBox = PDFRect(0, 0, 612, 792)

    /// A page's geometry; nil gives a US Letter page without rotation (for tests and defaults).
    package init(page: PDFObject?) {
        guard let page else {
            mediaBox = Self.defaultMediaBox
            cropBox = mediaBox
            rotate = 0
            mediaBoxMissing = true
            trimBox = mediaBox
            bleedBox = mediaBox
            artBox = mediaBox
            return
        }
        func inherited(_ key: String) -> PDFObject? {
            var node: PDFObject? = page
            var seen = Set<Int>()
            var depth = 0
            while let n = node, depth < 64 {
                if let v = n[key] { return v }
                if let id = n.objectID?.number, !seen.insert(id).inserted { return nil }
                node = n["Parent"]
                depth += 1
            }
            return nil
        }
        let media = inherited("MediaBox")?.rectangle
        mediaBoxMissing = media == nil
        mediaBox = media ?? Self.defaultMediaBox
        cropBox = inherited("CropBox")?.rectangle ?? mediaBox
        let raw = inherited("Rotate")?.int ?? 0
        rotate = Self.normalize(rotate: raw)
        invalidRotate = raw % 90 == 0 ? nil : raw
        trimBox = page["TrimBox"]?.rectangle ?? cropBox
        bleedBox = page["BleedBox"]?.rectangle ?? cropBox
        artBox = page["ArtBox"]?.rectangle ?? cropBox
        if let u = page["UserUnit"]?.number, u > 0, u <= 75_000 { userUnit = u }
    }

    package static func normalize(rotate: Int) -> Int {
        guard rotate % 90 == 0 else { return 0 }
        return ((rotate % 360) + 360) % 360
    }
}
