import Foundation
import PDFPipeCore
import PDFPipeWeb
import PDFReader
import SystemIO

extension LinkAudit {
    // MARK: - Local destinations

    /// Returns the destination's name (when named) and its 1-based page (when it resolves).
    mutating func resolveLocal(_ ref: DestinationReference, place: Place) -> (String?, Int?) {
        switch ref {
        case .invalid(let why):
            report(.destMalformed, why, at: place)
            return (nil, nil)
        case .explicit(let d):
            return (nil, check(d, label: "the destination", place: place).map { $0 + 1 })
        case .named(let key):
            let name = key.display
            guard let (entry, asText) = table.find(key) else {
                if let why = table.incomplete {
                    report(
                        .destNameUnverified,
                        "named destination '\(name)' is not among the names read (\(why)); it could not be checked",
                        at: place, target: "#" + name)
                    return (name, nil)
                }
                report(
                    .destNameNotFound, "named destination '\(name)' does not exist", at: place, target: "#" + name,
                    hint: suggestName(for: name), fix: nameFix(for: name))
                return (name, nil)
            }
            if let asText {
                report(
                    .destNameEncoding, NameText.mismatch(key, definedAs: asText), at: place, target: "#" + name,
                    groupBy: key.encoding + "\u{0}" + asText.encoding,
                    fix: LinkFix.encoding(of: key, definedAs: asText))
            } else if let utf8 = NameText.utf8WithoutBOM(key) {
                report(.destNameEncoding, utf8, at: place, target: "#" + name, groupBy: "UTF-8 without a BOM")
            }
            guard let d = entry.destination else {
                report(
                    .destMalformed, "named destination '\(name)' is \(entry.problem ?? "not a destination")",
                    at: place)
                return (name, nil)
            }
            return (name, check(d, label: "named destination '\(name)'", place: place).map { $0 + 1 })
        }
    }

    /// Checks an explicit local destination; returns its 0-based page when it has one.
    mutating func check(_ d: Destination, label: String, place: Place) -> Int? {
        var page: Int?
        switch d.target {
        case .page(let i):
            page = i
        case .pageNumber(let n):
            if n >= 0 && n < pages.count {
                report(
                    .destIntegerPage,
                    "\(label) gives page number \(n) (page \(n + 1)) instead of a page reference; PDFium, poppler and MuPDF go to that page",
                    at: place)
                page = n
            } else {
                report(
                    .destPageOutOfRange,
                    "\(label) gives page number \(n), past the last page (the document has \(pages.count) pages, numbered from 0)",
                    at: place)
            }
        case .notAPage(let ref):
            report(
                .destPageNotInDocument,
                "\(label) points at \(ref.map { "object \($0)" } ?? "a direct dictionary"), which is not a page of this document",
                at: place)
        case .invalid(let why):
            report(.destMalformed, "\(label): \(why)", at: place)
        }
        if let element = d.structureElement, let page {
            // Measured: PDFium finds no page for it (MuPDF goes to the element's page).
            let reason =
                "a PDF 2.0 structure destination (the structure element \(element), on page \(page + 1)): PDFium does not follow it"
            report(.destViewerDependent, "\(label) is \(reason)", at: place, groupBy: "PDF 2.0 structure destination")
        }
        if let tolerated = d.tolerated { report(.destMissingParameter, "\(label): \(tolerated)", at: place) }
        if let viewerDependent = d.viewerDependent {
            report(.destViewerDependent, "\(label): \(viewerDependent)", at: place, groupBy: viewerDependent)
        }
        if let problem = d.problem {
            report(.destMalformed, "\(label): \(problem)", at: place)
        } else if let page {
            checkPosition(d, page: page, label: label, place: place)
        }
        return page
    }

    /// Viewers clamp a position above the top of the page or beyond its sides (the view starts at
    /// the page's edge, where the author meant), so those pass. A `top` below the bottom of the
    /// page is what viewers disagree on, measured (`bench/viewers.sh`): Chrome's PDF viewer, its
    /// pages in one scroll, goes on down into the next page (to the end of the document from the
    /// last); MuPDF, one page at a time, stops at the bottom of the page. (On 573 real PDFs, 3,682
    /// of 3,724 positions outside the media box were LaTeX anchors a few points above the top, or
    /// `left` past the right edge; the rest were Chromium headings up to 295 pt below the bottom:
    /// the heading is on the next page, where Chrome lands and MuPDF does not.)
    mutating func checkPosition(_ d: Destination, page: Int, label: String, place: Place) {
        let box = geometries[page].mediaBox
        let t = options.positionTolerance
        for p in d.positions where !p.isX && p.label == "top" && p.value < box.y1 - t {
            let below = fmt(box.y1 - p.value)
            let chrome =
                page + 1 < geometries.count
                ? "Chrome's PDF viewer (pages in one scroll) shows page \(page + 2), \(below) pt down it"
                : "Chrome's PDF viewer (pages in one scroll) goes to the end of the document"
            report(
                .destPositionOffPage,
                "\(label): /\(d.fit) top \(fmt(p.value)) lies \(below) pt below the bottom of page \(page + 1) (y from \(fmt(box.y1)) to \(fmt(box.y2))): viewers land apart: \(chrome); MuPDF (one page at a time) stays at the bottom of page \(page + 1)",
                at: place)
            return
        }
    }

    func fmt(_ v: Double) -> String { PDFNumber.text(v) }

    // MARK: - Remote destinations

    /// Checks a GoToR target; returns the 1-based page in the other file when it resolves.
    mutating func checkRemote(
        _ spec: FileSpecification, _ dest: DestinationReference?, place: Place, record: inout LinkRecord
    ) -> Int? {
        guard let path = spec.path, !path.isEmpty else {
            report(.actionMalformed, "the GoToR action has no file (/F)", at: place)
            return nil
        }
        if case .named(let key)? = dest { record.destination = key.display }
        guard options.gotor, !spec.isURL else { return nil }
        let folder = Paths.parent(sourcePath)
        let target = Paths.absolute(path.replacingOccurrences(of: "\\", with: "/"), relativeTo: folder)
        let shown = Paths.relative(target, to: inputRoot)
        if !options.allowOutsideRoot && !Paths.isReachable(target, root: inputRoot, from: sourcePath) {
            report(
                .gotorOutsideRoot,
                "the file '\(path)' lies outside the input root; it cannot be checked (set allowOutsideRoot to follow it)",
                at: place)
            return nil
        }
        guard let kind = LocalCopies.kind(target), kind != .directory else {
            let looked = shown == path ? "" : " (looked for '\(shown)')"
            report(
                .gotorFileMissing, "the file '\(path)' does not exist\(looked)", at: place, target: path,
                hint: suggestFile(for: target), fix: fileFix(for: target, written: path))
            return nil
        }
        guard let remote else { return nil }
        let doc = remote.document(at: target)
        if let error = doc.error {
            report(
                .gotorFileUnreadable,
                "the file '\(path)' cannot be read: \(error.replacingOccurrences(of: target, with: shown))", at: place)
            return nil
        }
        switch dest {
        case nil:
            return 1
        case .invalid(let why)?:
            report(.destMalformed, why, at: place)
        case .named(let key)?:
            guard let (found, asText) = doc.find(key) else {
                let names = doc.tree.keys.map { String(decoding: $0, as: UTF8.self) } + Array(doc.catalog.keys)
                report(
                    .gotorDestMissing, "named destination '\(key.display)' does not exist in '\(path)'", at: place,
                    target: path + "#" + key.display,
                    hint: Suggestions.nameHint(key.display, in: names, where: "'\(path)'"))
                return nil
            }
            if let asText {
                report(
                    .destNameEncoding, NameText.mismatch(key, definedAs: asText, in: path), at: place,
                    target: path + "#" + key.display, groupBy: path + "\u{0}" + key.encoding + "\u{0}" + asText.encoding
                )
            }
            return found.map { $0 + 1 }
        case .explicit(let d)?:
            switch d.target {
            case .pageNumber(let n):
                if n < 0 || n >= doc.pageCount {
                    report(
                        .gotorPageOutOfRange,
                        "page number \(n) is past the last page of '\(path)' (\(doc.pageCount) pages, numbered from 0)",
                        at: place)
                    return nil
                }
                if let problem = d.problem { report(.destMalformed, "the remote destination: \(problem)", at: place) }
                if let v = d.viewerDependent {
                    report(.destViewerDependent, "the remote destination: \(v)", at: place, groupBy: v)
                }
                return n + 1
            default:
                report(
                    .destMalformed,
                    "a remote destination must give a page number, not a page object of this document", at: place)
            }
        }
        return nil
    }
}
