import PDFBridge
import PDFPipeCore
import PDFReader

/// `textChecks`: what the page text says about the web links — a link whose visible text is
/// itself a web address other than where it leads (`uri.text-mismatch`: a copy-paste slip, and
/// the pattern of phishing), and web addresses in the text that no link covers (`uri.unlinked`,
/// one finding per document listing them). Read with poppler's text layer, every page (opt-in:
/// reading the text costs more than the link audit itself).
enum LinkTextChecks {
    /// Addresses an `uri.unlinked` finding lists (the count says them all).
    static let maxListed = 50
    /// Pages read; past them, `pdf.limit-exceeded` says how many were not.
    static let maxPages = 10_000

    /// The findings, and what was read on the way: the text under each link (by page and
    /// annotation index) and the pages read, so that the stage's labels (`linkText`) do not open
    /// the document again for these pages.
    struct Read {
        var findings: [Finding] = []
        var texts: [LinkID: String] = [:]
        var pages: Set<Int> = []
    }

    static func run(_ path: String, _ audit: LinkAudit) -> Read {
        run(path: path, links: audit.links, geometries: audit.geometries)
    }

    static func run(path: String, links: [LinkRecord], geometries: [PageGeometry]) -> Read {
        var read = Read()
        guard let poppler = try? PopplerFile(path: path) else { return read }
        var findings: [Finding] = []
        var unlinked: [(page: Int, address: String)] = []
        var byPage: [Int: [LinkRecord]] = [:]
        for l in links where l.rect != nil {
            if let p = l.page { byPage[p, default: []].append(l) }
        }
        let pages = min(geometries.count, poppler.pageCount)
        for p in 1...max(1, min(pages, maxPages)) where p <= pages {
            guard let page = poppler.page(p - 1) else { continue }
            let layout = page.textAndLayoutBothWays()
            let (text, boxes) = TextAssembler.respace(layout.text, layout.boxes)
            guard text.count == boxes.count else { continue }
            read.pages.insert(p)
            guard !text.isEmpty else { continue }
            let areas = (byPage[p] ?? []).map {
                (record: $0, area: LinkGeometry.pixelRect($0.rect!, on: geometries[p - 1], scale: 1))
            }
            for (record, area) in areas {
                let under = LinkText.under(area, text: text, boxes: boxes)
                if let k = record.annotationIndex, let under { read.texts[LinkID(page: p, annotationIndex: k)] = under }
                if record.kind == .uri, let f = mismatch(record, under: under) { findings.append(f) }
            }
            for (start, address) in addresses(in: text) {
                let b = boxes[start]
                let (cx, cy) = ((b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2)
                let covered = areas.contains { _, a in
                    cx >= a.x - 1 && cx <= a.x + a.width + 1 && cy >= a.y - 1 && cy <= a.y + a.height + 1
                }
                if !covered { unlinked.append((p, address)) }
            }
        }
        if pages > maxPages {
            findings.append(
                .budgetHit(
                    "validate-links.textChecks",
                    "the text of pages past \(maxPages) was not read for uri.text-mismatch and uri.unlinked (\(pages - maxPages) pages)"
                ))
        }
        if let f = unlinkedFinding(unlinked) { findings.append(f) }
        read.findings = findings
        return read
    }

    /// The document's `uri.unlinked` finding: the addresses no link covers, with their pages.
    static func unlinkedFinding(_ unlinked: [(page: Int, address: String)]) -> Finding? {
        guard let first = unlinked.first else { return nil }
        var f = Finding(
            rule: .uriUnlinked, page: first.page,
            message:
                "\(unlinked.count) web address\(unlinked.count == 1 ? "" : "es") in the text \(unlinked.count == 1 ? "has" : "have") no link: "
                + unlinked.prefix(5).map { "'\($0.address)' (page \($0.page))" }.joined(separator: ", ")
                + (unlinked.count > 5 ? ", …" : ""))
        f.details["addresses"] = .array(
            unlinked.prefix(maxListed).map { ["page": .int($0.page), "address": .string($0.address)] })
        f.details["count"] = .int(unlinked.count)
        return f
    }

    /// `uri.text-mismatch` for a web link whose text is a web address that is not its target (the
    /// same host and path, scheme, `www.`, case of the host and a trailing `/` aside; a text cut
    /// short — a line break, an ellipsis — that begins its target is its target).
    static func mismatch(_ l: LinkRecord, under text: String?) -> Finding? {
        guard let text, let target = l.uri, LinkAccessibility.isBareAddress(text),
            let shown = comparable(text), let goes = comparable(target), !shown.isEmpty,
            !goes.hasPrefix(shown), !shown.hasPrefix(goes)
        else { return nil }
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        var f = Finding(
            rule: .uriTextMismatch, page: l.page, object: l.object, rect: l.rect?.array,
            message: "the link reads '\(text)' but leads to '\(target)'")
        f.details["uri"] = .string(l.uriWritten ?? target)
        f.details["linkText"] = .string(text)
        f.annotationIndex = l.annotationIndex
        return f
    }

    /// An address as compared: without scheme, `www.`, a fragment and trailing `/`s, its host in
    /// lower case; a text that ends in an ellipsis ends there. Nil for what is no web address.
    static func comparable(_ s: String) -> String? {
        var t = Substring(s.trimmingCharacters(in: .whitespaces))
        for end in ["…", "..."] { if let r = t.range(of: end) { t = t[..<r.lowerBound] } }
        let lower = t.lowercased()
        if lower.hasPrefix("https://") {
            t = t.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            t = t.dropFirst(7)
        } else if !lower.hasPrefix("www.") {
            return nil
        }
        if t.lowercased().hasPrefix("www.") { t = t.dropFirst(4) }
        if let hash = t.firstIndex(of: "#") { t = t[..<hash] }
        while t.hasSuffix("/") { t = t.dropLast() }
        let slash = t.firstIndex(where: { "/?".contains($0) }) ?? t.endIndex
        return t[..<slash].lowercased() + t[slash...]
    }

    /// The web addresses written in a page's text (`http://`, `https://` or `www.` at a word's
    /// start, to the next space, trailing punctuation dropped), with their first character's index.
    static func addresses(in text: [Unicode.Scalar]) -> [(Int, String)] {
        var out: [(Int, String)] = []
        var i = 0
        let starts = ["http://", "https://", "www."].map { Array($0.unicodeScalars) }
        while i < text.count {
            let atWord = i == 0 || text[i - 1].properties.isWhitespace || "(<[\"'".unicodeScalars.contains(text[i - 1])
            guard atWord, let s = starts.first(where: { matches($0, text, at: i) }) else {
                i += 1
                continue
            }
            var j = i + s.count
            while j < text.count, !text[j].properties.isWhitespace { j += 1 }
            var word = String(String.UnicodeScalarView(text[i..<j]))
            while let last = word.last, ".,;:!?)]}>'\"".contains(last) { word.removeLast() }
            // More than a scheme or `www.` alone: a host with a dot.
            if let c = comparable(word), c.contains(".") { out.append((i, word)) }
            i = j
        }
        return out
    }

    static func matches(_ s: [Unicode.Scalar], _ text: [Unicode.Scalar], at i: Int) -> Bool {
        guard i + s.count <= text.count else { return false }
        for k in 0..<s.count where Character(text[i + k]).lowercased() != Character(s[k]).lowercased() { return false }
        return true
    }
}
