/// A named destination as a place other documents link to (`manual.pdf#nameddest=install`, a
/// GoToR's `/D`): what `pdfpipe anchors` lists and a baseline records, read from a document's
/// `destinations.names` (resolve-destinations `list: true`).
public struct Anchor: Codable, Sendable, Equatable {
    /// The name as viewers match it (`#nameddest=`): a name tree key decoded as text, a `/Dests` key as written.
    public var name: String
    /// 1-based; nil when the destination leads to no page of the document.
    public var page: Int?
    /// The title of the bookmark that goes to it, when one does (hyperref's bookmarks go to the
    /// section's anchor).
    public var title: String?
    /// The top of the view it opens (`/XYZ`, `/FitH`, `/FitBH`, `/FitR`), in PDF user space.
    public var top: Double?

    public init(name: String, page: Int?, title: String? = nil, top: Double? = nil) {
        self.name = name
        self.page = page
        self.title = title
        self.top = top
    }
}

/// A document's anchors and page count, as a baseline records them.
public struct DocumentAnchors: Codable, Sendable, Equatable {
    public var pages: Int?
    /// Sorted by name, each name once.
    public var names: [Anchor]

    /// Anchors kept per document, and the characters of a title: a recorded list is data a pull
    /// request can write (docs/security.md), bounded like the names a document may define.
    public static let maxAnchors = 1_000_000
    public static let maxTitle = 200

    public init(pages: Int?, names: [Anchor]) {
        self.pages = pages
        var seen = Set<String>()
        self.names = names.prefix(Self.maxAnchors).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .filter { seen.insert($0.name).inserted }.map { a in
                var a = a
                if let t = a.title, t.count > Self.maxTitle { a.title = String(t.prefix(Self.maxTitle)) }
                return a
            }
    }

    /// A report's document, when it lists its named destinations (resolve-destinations `list: true`).
    public init?(_ d: DocumentResult) {
        guard case .array(let entries)? = d.sections[Self.sectionKey]?["names"] else { return nil }
        let names = entries.compactMap { e -> Anchor? in
            guard let name = e["name"]?.stringValue else { return nil }
            return Anchor(
                name: name, page: e["page"]?.intValue, title: e["title"]?.stringValue, top: e["top"]?.doubleValue)
        }
        self.init(pages: d.pageCount, names: names)
    }

    /// The section a document's anchors are read from (resolve-destinations' `destinations`).
    public static let sectionKey = "destinations"
}

/// What a rebuild did to the anchors a baseline recorded: the named destinations it removed or
/// gave to another section, and a page count that moves `#page=` targets. Pure: the same two
/// lists give the same findings.
public enum AnchorDiff {
    /// The rules of its findings.
    static let rules: Set<String> = [Rule.destRemoved.id, Rule.destChanged.id, Rule.destPageCountChanged.id]
    /// Findings of one rule per document at most; past it one more finding counts the rest.
    public static let findingLimit = 100
    /// Removed names compared by spelling at most (each against the added names on its page).
    static let spellingComparisons = 1_000_000
    /// Characters of a name compared by spelling at most.
    static let maxSpelled = 256

    public static func findings(old: DocumentAnchors, new: DocumentAnchors) -> [Finding] {
        var byName: [String: Anchor] = [:]
        for a in new.names { byName[a.name] = a }
        let oldNames = Set(old.names.map(\.name))
        let added = new.names.filter { !oldNames.contains($0.name) }
        let shifts = PageShifts(old: old.names, new: byName)
        var removed: [Finding] = []
        var changed: [Finding] = []
        var budget = spellingComparisons
        for a in old.names {
            if let now = byName[a.name] {
                if let was = a.title, let title = now.title, was != title {
                    changed.append(retargeted(a, now: now, new: new.names))
                }
                continue
            }
            let closest = Self.closest(to: a, among: added, shift: shifts.shift(at: a), budget: &budget)
            removed.append(gone(a, closest: closest))
        }
        var out = capped(removed, rule: .destRemoved, what: "named destinations of the baseline are gone")
        out += capped(changed, rule: .destChanged, what: "named destinations now open another section")
        if let f = pageCountChange(old: old, new: new, shifts: shifts) { out.append(f) }
        return out
    }

    /// The new anchor that most likely took a removed one's place, and why; nil rather than a guess.
    static func closest(to a: Anchor, among added: [Anchor], shift: Int, budget: inout Int) -> (Anchor, String)? {
        if let t = a.title {
            let same = added.filter { $0.title == t }
            if same.count == 1 { return (same[0], "same title") }
        }
        guard let page = a.page else { return nil }
        let onPage = added.filter { $0.page == page + shift }
        if let top = a.top {
            let here = onPage.filter { $0.top.map { abs($0 - top) <= 2 } ?? false }
            if here.count == 1 { return (here[0], "same place") }
        }
        // The same page and a similar spelling (at most half its letters changed), one best. Names
        // past `maxSpelled` characters are not compared (the distance costs the product of the
        // lengths; a baseline is a file a pull request writes).
        guard budget >= onPage.count, a.name.count <= Self.maxSpelled else { return nil }
        budget -= onPage.count
        let scored = onPage.filter { $0.name.count <= Self.maxSpelled }.map { ($0, Suggest.distance(a.name, $0.name)) }
            .filter { $0.1 * 2 <= max(a.name.count, $0.0.name.count) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), scored.filter({ $0.1 == best.1 }).count == 1 else {
            return nil
        }
        return (best.0, "similar name on the same page")
    }

    static func describe(_ a: Anchor) -> String {
        "'\(a.name)'" + (a.page.map { " (page \($0)" + (a.title.map { ", '\($0)'" } ?? "") + ")" } ?? " (no page)")
    }

    static func gone(_ a: Anchor, closest: (Anchor, String)?) -> Finding {
        var f = Finding(
            rule: .destRemoved,
            message: "named destination \(describe(a)) is gone: links to it from other pages and documents fail"
                + (closest.map { "; the closest new one is \(describe($0.0)), \($0.1)" }
                    ?? "; no new one takes its place"))
        f.details["anchor"] = .string(a.name)
        f.details["baselinePage"] = a.page.map { .int($0) } ?? .null
        if let t = a.title { f.details["baselineTitle"] = .string(t) }
        if let (c, why) = closest {
            var o: [String: JSONValue] = ["name": .string(c.name), "why": .string(why)]
            if let p = c.page { o["page"] = .int(p) }
            if let t = c.title { o["title"] = .string(t) }
            f.details["closest"] = .object(o)
            f.hint =
                "keep '\(a.name)' as a second anchor beside '\(c.name)' (\\hypertarget, an id), or point every link at '\(c.name)'"
        }
        return f
    }

    static func retargeted(_ a: Anchor, now: Anchor, new: [Anchor]) -> Finding {
        let moved = new.filter { $0.title == a.title && $0.name != a.name }
        var f = Finding(
            rule: .destChanged, page: now.page,
            message:
                "named destination '\(a.name)' now opens '\(now.title ?? "")', not '\(a.title ?? "")'"
                + (moved.count == 1 ? ", which is now \(describe(moved[0]))" : ""))
        f.details["anchor"] = .string(a.name)
        f.details["baselineTitle"] = .string(a.title ?? "")
        if moved.count == 1 { f.details["closest"] = .object(["name": .string(moved[0].name)]) }
        return f
    }

    static func capped(_ fs: [Finding], rule: Rule, what: String) -> [Finding] {
        guard fs.count > findingLimit else { return fs }
        var more = Finding(
            rule: rule, message: "\(fs.count - findingLimit) more \(what) (\(findingLimit) are listed one by one)")
        more.details["count"] = .int(fs.count - findingLimit)
        return Array(fs.prefix(findingLimit)) + [more]
    }

    static func pageCountChange(old: DocumentAnchors, new: DocumentAnchors, shifts: PageShifts) -> Finding? {
        guard let was = old.pages, let now = new.pages, was != now else { return nil }
        var message = "the document has \(now) page\(now == 1 ? "" : "s"), \(was) in the baseline"
        var f = Finding(rule: .destPageCountChanged, message: message)
        if let (from, by, anchor) = shifts.firstMove {
            let landmark = (anchor.title.map { "'\($0)', " } ?? "") + "'\(anchor.name)'"
            message +=
                ": from page \(from) on (\(landmark)) pages moved by \(by > 0 ? "+" : "")\(by), so #page= links past page \(from - 1) open other pages"
            f.details["movedFrom"] = .int(from)
            f.details["movedBy"] = .int(by)
        } else {
            message += ": #page= links to the pages past \(min(was, now)) open other pages or none"
        }
        f.message = message
        f.details["pages"] = .int(now)
        f.details["baselinePages"] = .int(was)
        return f
    }
}

/// How far pages moved, read off the anchors both lists have: a removed anchor's page is expected
/// moved as the last kept anchor before it.
struct PageShifts {
    /// Kept anchors in the baseline's order (page, then top down): baseline page, top, and shift.
    var kept: [(page: Int, top: Double, shift: Int, anchor: Anchor)] = []

    init(old: [Anchor], new: [String: Anchor]) {
        for a in old {
            guard let p = a.page, let q = new[a.name]?.page else { continue }
            kept.append((p, a.top ?? 0, q - p, a))
        }
        kept.sort { ($0.page, -$0.top, $0.anchor.name) < ($1.page, -$1.top, $1.anchor.name) }
    }

    func shift(at a: Anchor) -> Int {
        guard let p = a.page else { return 0 }
        let top = a.top ?? 0
        return kept.last(where: { $0.page < p || ($0.page == p && $0.top >= top) })?.shift ?? 0
    }

    /// The first kept anchor whose page moved: its baseline page, the move, and the anchor.
    var firstMove: (Int, Int, Anchor)? {
        kept.first(where: { $0.shift != 0 }).map { ($0.page, $0.shift, $0.anchor) }
    }
}
