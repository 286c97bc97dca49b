import Foundation
import PDFPipeCore
import PDFReader

/// The machine-checkable link requirements of PDF/UA-1 (ISO 14289-1), PDF/UA-2 (ISO 14289-2) and
/// WCAG 2.2, read from the raw objects: the structure tree (each link annotation's `OBJR` and its
/// `Link` element, the `/ParentTree` back-reference), `/Contents`, the pages' `/Tabs`, structure
/// destinations. A screen reader is what fails on these: it cannot reach a link that is not in the
/// structure tree, cannot name one without alternate text, and moves through annotations in an
/// order unrelated to the text without `/Tabs /S`.
///
/// Severity follows what the document claims: a document that claims a PDF/UA part (or a run that
/// demands one, `pdf-ua-1`/`pdf-ua-2`) and fails a rule of that part gets an error; a tagged
/// document that claims nothing gets warnings (it is on its way). The WCAG purpose rule is a
/// warning whatever the claim (it is not part of PDF/UA).
struct LinkAccessibility {
    enum Part: Int, Sendable {
        case ua1 = 1
        case ua2 = 2
        var name: String { "PDF/UA-\(rawValue)" }
    }

    /// The structure nodes read per document; past it the check declines (`pdf.limit-exceeded`).
    static let maxStructureNodes = 1_000_000
    /// Bytes of XMP metadata read for the claim.
    static let maxMetadataBytes = 4 << 20

    let root: PDFObject
    let source: any ObjectSource
    let pageObjects: [PDFObject]
    let geometries: [PageGeometry]
    let part: Part
    let severity: Severity
    /// What the document claims, for messages ("the document claims PDF/UA-1").
    let claim: String

    private(set) var findings: [Finding] = []
    private var tabPages: [Int] = []
    /// Of those, the pages whose /Tabs is a string ((S): LibreOffice 7.4's PDF/UA export), not a name.
    private var tabStrings = 0
    private var unstructuredDestinations: [(page: Int?, object: String?, what: String)] = []
    /// Links without alternate text judged by the text under them at most, per document (each
    /// page they are on is read once). It was the labels' 500, which left the links of large
    /// Chromium files past the 500th unjudged, silently (#63, 5).
    static let maxJudgedByText = 100_000
    /// Links without alternate text past `maxJudgedByText`: not judged, said as a limit.
    private var unjudged = 0
    /// Links with no alternate text: their purpose is the text under them.
    private var textless: [(place: LinkAudit.Place, uri: String?)] = []
    /// Findings said once per document (`reportGrouped`): the first's index, and every link's
    /// location.
    private var grouped: [String: (index: Int, locations: [JSONValue], count: Int)] = [:]
    private var groupOrder: [String] = []
    /// The text under each link read for its purpose, by [page, annotationIndex] (`judgePurpose`).
    private var linkTexts: [LinkID: String] = [:]
    /// Locations kept per grouped finding at most (`locationsTruncated` past it; `count` is all).
    static let maxLocations = 10_000

    /// What `mode` makes of the document: the check to run, and what `linkSummary.accessibility`
    /// says (`PDF/UA-1 (claimed)`, `PDF/UA-1 (tagged, no claim)`, `not tagged: not checked`…).
    static func plan(
        _ mode: AccessibilityMode, root: PDFObject, source: any ObjectSource, pages: [PDFObject],
        geometries: [PageGeometry]
    ) -> (check: LinkAccessibility?, summary: String?) {
        guard mode != .off else { return (nil, nil) }
        let claimed = claimedPart(root: root, source: source)
        let tagged = root["MarkInfo"]?["Marked"]?.bool == true && root["StructTreeRoot"]?.isDictionary == true
        let part: Part
        let severity: Severity
        let claim: String
        switch mode {
        case .pdfUA1, .pdfUA2:
            part = mode == .pdfUA1 ? .ua1 : .ua2
            severity = .error
            claim = "the run holds it to \(part.name) (accessibility: '\(mode.rawValue)')"
        default:
            if let c = claimed {
                part = c
                severity = .error
                claim = "the document claims \(c.name) (pdfuaid:part \(c.rawValue))"
            } else if tagged {
                part = .ua1
                severity = .warning
                claim = "the document is tagged and claims no PDF/UA part"
            } else {
                return (nil, "not tagged: not checked")
            }
        }
        let check = LinkAccessibility(
            root: root, source: source, pageObjects: pages, geometries: geometries, part: part, severity: severity,
            claim: claim)
        let how = claimed != nil ? "claimed" : mode == .auto ? "tagged, no claim" : "required"
        return (check, "\(part.name) (\(how))")
    }

    /// The PDF/UA part the document's XMP metadata claims (`part` in the pdfuaid namespace, as an
    /// attribute or an element, whatever its prefix); nil when it claims none.
    static func claimedPart(root: PDFObject, source: any ObjectSource) -> Part? {
        guard let meta = root["Metadata"], let ref = meta.objectRef, meta.isStream,
            let data = source.streamData(ref)
        else { return nil }
        // Read as XML with namespaces (XMP): any prefix bound to the pdfuaid namespace, as an
        // attribute or an element (with rdf:datatype or not).
        guard let value = XMP.property(XMP.pdfuaNamespace, "part", in: Array(data.prefix(maxMetadataBytes))) else {
            return nil
        }
        return Int(value).flatMap(Part.init(rawValue:))
    }

    // MARK: - Running

    /// Checks every page's link annotations (and, for PDF/UA-2, the outline and open action);
    /// `path`: the file, whose text under the links without alternate text is their purpose.
    mutating func run(outlineItems: [PDFObject], openAction: PDFObject?, path: String) {
        guard let structure = StructureIndex(root: root, limit: Self.maxStructureNodes) else {
            findings.append(
                Finding(
                    rule: .pdfLimitExceeded,
                    message:
                        "the structure tree has more than \(Self.maxStructureNodes) nodes (or a /ParentTree that deep): the links' accessibility was not checked"
                ))
            return
        }
        var targetsByElement: [Int: [(target: String, place: LinkAudit.Place)]] = [:]
        // A document without a structure tree (held to a part by the run): one finding, not one a link.
        let untagged = root["StructTreeRoot"]?.isDictionary != true
        var untaggedLinks: [LinkAudit.Place] = []
        for (index, page) in pageObjects.enumerated() {
            guard let annots = page["Annots"], annots.isArray, annots.count > 0 else { continue }
            let tabs = page["Tabs"]?.name
            let allowed: Set<String> = part == .ua1 ? ["S"] : ["A", "W", "S"]
            if tabs.map({ !allowed.contains($0) }) ?? true {
                tabPages.append(index + 1)
                if page["Tabs"]?.isString == true { tabStrings += 1 }
            }
            for (k, annot) in annots.items.enumerated() where annot["Subtype"]?.name == "Link" {
                // Hidden annotations (flag 2) are not presented, nor read.
                if let flags = annot["F"]?.int, flags & 2 != 0 { continue }
                let place = LinkAudit.Place(
                    page: index + 1, rect: annot["Rect"]?.rectangle, object: annot.reference, annotationIndex: k)
                let holder = annot.objectRef.flatMap { structure.holders[$0] }
                checkText(annot, holder: holder, tagged: !untagged, at: place)
                if untagged {
                    untaggedLinks.append(place)
                    continue
                }
                checkTagging(annot, holder: holder, structure: structure, at: place)
                if part == .ua2 {
                    if let holder, let target = Self.target(annot) {
                        targetsByElement[holder.id, default: []].append((target, place))
                    }
                    checkStructureDestination(annot, what: "the link", page: index + 1, object: annot.reference)
                }
            }
        }
        if let first = untaggedLinks.first {
            report(
                .accessLinkNotTagged,
                "the document has no structure tree: none of its \(untaggedLinks.count) link\(untaggedLinks.count == 1 ? "" : "s") is tagged, and a screen reader reaches none (\(part == .ua1 ? Self.clause(.ua1, "7.18.5-1", matterhorn: "28-011") : Self.clause(.ua2, "8.2.5.20-1")))",
                at: first)
        }
        if part == .ua2 && !untagged {
            for (_, links) in targetsByElement.sorted(by: { $0.key < $1.key }) where Set(links.map(\.target)).count > 1
            {
                report(
                    .accessLinkTargetsMixed,
                    "one Link element encloses \(links.count) links with \(Set(links.map(\.target)).count) different targets: a screen reader announces one link (\(Self.clause(.ua2, "8.2.5.20-2")))",
                    at: links[0].place)
            }
            for item in outlineItems {
                checkStructureDestination(item, what: "a bookmark", page: nil, object: item.reference)
            }
            if let open = openAction {
                checkStructureDestination(open, what: "the open action", page: nil, object: nil, bare: true)
            }
        }
        judgePurpose(path: path)
        flushGrouped()
        flush()
    }

    private mutating func checkTagging(
        _ annot: PDFObject, holder: StructureIndex.Holder?, structure: StructureIndex, at place: LinkAudit.Place
    ) {
        let allowed: Set<String> = part == .ua1 ? ["Link"] : ["Link", "Reference"]
        let wanted = part == .ua1 ? "a Link element" : "a Link or Reference element"
        let clause =
            part == .ua1 ? Self.clause(.ua1, "7.18.5-1", matterhorn: "28-011") : Self.clause(.ua2, "8.2.5.20-1")
        guard let holder else {
            let why = annot.objectRef == nil ? "it is a direct object, which no OBJR can name" : "no OBJR names it"
            report(
                .accessLinkNotTagged,
                "the link is not in the structure tree (\(why)): a screen reader does not reach it; it belongs in \(wanted) (\(clause))",
                at: place)
            return
        }
        guard allowed.contains(holder.type) else {
            let raw =
                holder.rawType == holder.type
                ? "'\(holder.rawType)'" : "'\(holder.rawType)' (role-mapped to '\(holder.type)')"
            report(
                .accessLinkNotTagged,
                "the link's OBJR is in a \(raw) element, not in \(wanted): a screen reader does not announce it as a link (\(clause))",
                at: place)
            return
        }
        // The way back: /StructParent → /ParentTree → the element that holds the OBJR.
        guard let key = annot["StructParent"]?.int else {
            report(
                .accessLinkParentTree,
                "the link has no /StructParent: from the annotation (where a screen reader starts when the link gets focus) its Link element cannot be found",
                at: place)
            return
        }
        switch structure.parent(key) {
        case .none:
            report(
                .accessLinkParentTree,
                "the link's /StructParent \(key) is not in the /ParentTree: its Link element cannot be found from the annotation",
                at: place)
        case .some(let element) where element != holder.element:
            report(
                .accessLinkParentTree,
                "the link's /StructParent \(key) leads to \(element.map { "\($0)" } ?? "a direct object") in the /ParentTree, but its OBJR is in \(holder.element.map { "\($0)" } ?? "a direct element"): the two disagree",
                at: place)
        default: break
        }
    }

    /// 7.18.5-2: alternate text in `/Contents`; WCAG 2.4.4/2.4.9: a purpose that is not empty
    /// and not a bare address.
    /// `tagged`: the document has a structure tree (the purpose is judged for its links only).
    private mutating func checkText(
        _ annot: PDFObject, holder: StructureIndex.Holder?, tagged: Bool, at place: LinkAudit.Place
    ) {
        let contents = annot["Contents"]?.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let alt = holder?.alt ?? ""
        // PDF/UA-2 8.9.4.1 accepts the element's /Alt; PDF/UA-1 7.18.5-2 asks for /Contents.
        if contents.isEmpty && (part == .ua1 || alt.isEmpty) {
            let clause =
                part == .ua1 ? Self.clause(.ua1, "7.18.5-2", matterhorn: "28-012") : Self.clause(.ua2, "8.9.4.1")
            var message =
                "the link has no alternate text (/Contents \(annot["Contents"] == nil ? "absent" : "empty")\(part == .ua2 ? ", and no /Alt on its element" : "")): a screen reader cannot say where it leads (\(clause))"
            if !alt.isEmpty {
                message +=
                    "; its Link element has /Alt '\(alt)', which PAC 2024 accepts and veraPDF does not (ISO 14289 asks for /Contents): put the same text in /Contents"
            }
            reportGrouped(
                .accessLinkNoAlt, message, at: place, group: alt.isEmpty ? "" : "alt",
                details: alt.isEmpty ? [:] : ["elementAlt": .string(alt)])
        }
        let purpose = !contents.isEmpty ? contents : !alt.isEmpty ? alt : holder?.actualText ?? ""
        let uri = annot["A"].flatMap { $0["S"]?.name == "URI" ? $0["URI"]?.text : nil }
        if purpose.isEmpty {
            // Its purpose is the text under it, read afterwards (`judgePurpose`).
            if tagged {
                // Past the budget a link is not judged, and that is said (`judgePurpose`).
                if textless.count < Self.maxJudgedByText { textless.append((place, uri)) } else { unjudged += 1 }
            }
        } else if tagged {
            judge(purpose, from: "its alternate text", at: place, target: uri)
        }
    }

    /// WCAG 2.4.4/2.4.9 on a link's purpose: not empty, not a bare address.
    /// A bare address that is the link's own target (`target`, its URI) is its purpose all the
    /// same: a person reads where the link goes (WCAG 2.4.4 judges the purpose in context).
    private mutating func judge(_ purpose: String, from source: String, at place: LinkAudit.Place, target: String?) {
        let problem: String
        if let target, Self.sameAddress(purpose, target) { return }
        if purpose.isEmpty {
            problem = "is empty (no /Contents, no /Alt, no text under it): a screen reader says only 'link'"
        } else if Self.isBareAddress(purpose) {
            problem =
                "is a bare address ('\(purpose)', \(source))\(target.map { " that is not where it leads ('\($0)')" } ?? ""): a screen reader spells it out"
        } else {
            return
        }
        var f = Finding(
            rule: .accessLinkPurpose, severity: .warning, page: place.page, object: place.object,
            rect: place.rect?.array,
            message: "the link's purpose \(problem); say where it leads (WCAG 2.2 2.4.4, 2.4.9)")
        f.annotationIndex = place.annotationIndex
        findings.append(f)
    }

    /// The links without alternate text, judged by the text under them (read with poppler for
    /// these links alone, `LinkText`); a link whose page could not be read is not judged.
    private mutating func judgePurpose(path: String) {
        guard !textless.isEmpty else { return }
        var probes = textless.map { place, _ in
            var f = Finding(rule: .accessLinkPurpose, page: place.page, rect: place.rect?.array, message: "")
            f.annotationIndex = place.annotationIndex
            return f
        }
        LinkText.annotate(&probes, path: path, geometries: geometries, markEmpty: true, limit: Self.maxJudgedByText)
        if unjudged > 0 {
            findings.append(
                .budgetHit(
                    "validate-links.accessibility",
                    "\(unjudged) links without alternate text past the first \(Self.maxJudgedByText) were not judged by the text under them (access.link-purpose)"
                ))
        }
        var texts: [LinkID: String] = [:]  // the text under each link
        for ((place, uri), probe) in zip(textless, probes) {
            guard let text = probe.details["linkText"]?.stringValue else { continue }
            if let p = place.page, let k = place.annotationIndex, !text.isEmpty {
                texts[LinkID(page: p, annotationIndex: k)] = text
            }
            judge(text, from: "the text under it", at: place, target: uri)
        }
        // The findings about these links carry the text already read: poppler is not opened
        // again for them when the stage labels its findings.
        for i in findings.indices {
            guard let link = findings[i].link, let text = texts[link] else { continue }
            findings[i].details["linkText"] = .string(text)
        }
        linkTexts = texts
        textless = []
    }

    /// 8.8 (PDF/UA-2): a destination inside the document is a structure destination (`/SD`).
    private mutating func checkStructureDestination(
        _ item: PDFObject, what: String, page: Int?, object: String?, bare: Bool = false
    ) {
        let action = bare ? item : item["A"]
        let hasDest: Bool
        let hasSD: Bool
        if let a = action, a.isDictionary {
            guard a["S"]?.name == "GoTo" else { return }
            hasDest = a["D"] != nil
            hasSD = a["SD"] != nil
        } else if bare {
            hasDest = item.isArray || item.isName || item.isString
            hasSD = false
        } else {
            hasDest = item["Dest"] != nil
            hasSD = false
        }
        // A PDF 2.0 structure destination names the element in the array itself.
        let dest = (action.flatMap { $0.isDictionary ? $0["D"] : nil }) ?? (bare ? item : item["Dest"])
        let namesElement = dest.map { d in d.isArray && d.count > 0 && d[0]["Type"]?.name == "StructElem" } ?? false
        if hasDest && !hasSD && !namesElement { unstructuredDestinations.append((page, object, what)) }
    }

    /// The findings grouped per document: tab order and structure destinations.
    private mutating func flush() {
        if let first = tabPages.first {
            let page0Tabs = pageObjects[first - 1]["Tabs"]?.text ?? "S"
            let allowed = part == .ua1 ? "/S" : "/A, /W or /S"
            let clause =
                part == .ua1 ? Self.clause(.ua1, "7.18.3", matterhorn: "28-008, 28-009") : Self.clause(.ua2, "8.9.3.3")
            var f = Finding(
                rule: .accessTabOrder, severity: severity, page: first,
                message:
                    "\(tabPages.count) page\(tabPages.count == 1 ? "" : "s") with annotations lack\(tabPages.count == 1 ? "s" : "") /Tabs \(allowed) (on \(Pages.list(Array(tabPages.prefix(20)))))\(tabStrings > 0 ? " (\(tabStrings == tabPages.count ? "all" : "\(tabStrings)") written as a string, (\(page0Tabs)), which is not the name the key takes)" : ""): the keyboard moves through the links in an order unrelated to the text (\(clause)); \(claim)"
            )
            f.details["count"] = .int(tabPages.count)
            f.details["pages"] = .array(tabPages.prefix(20).map { .int($0) })
            findings.append(f)
        }
        if let first = unstructuredDestinations.first {
            var f = Finding(
                rule: .accessDestNotStructure, severity: severity, page: first.page, object: first.object,
                message:
                    "\(first.what) goes to a destination in the document without a structure destination (/SD)\(unstructuredDestinations.count > 1 ? " (\(unstructuredDestinations.count) links, bookmarks or actions in all)" : ""): assistive technology cannot move to the element (\(Self.clause(.ua2, "8.8"))); \(claim)"
            )
            f.details["count"] = .int(unstructuredDestinations.count)
            findings.append(f)
        }
    }

    /// Reports a finding said once per document and `group` (a rule every link of a producer
    /// breaks: one warning per Chromium link was 39 % of a corpus's warnings): the first link's,
    /// with `count`, `pages` (the first 20) and `locations` (every link's page, object, rectangle
    /// and annotation index, up to `maxLocations`).
    private mutating func reportGrouped(
        _ rule: Rule, _ message: String, at place: LinkAudit.Place, group: String, details: [String: JSONValue] = [:]
    ) {
        let key = rule.id + "\u{0}" + group
        var location: [String: JSONValue] = [:]
        if let p = place.page { location["page"] = .int(p) }
        if let o = place.object { location["object"] = .string(o) }
        if let r = place.rect { location["rect"] = .array(r.array.map { .double($0) }) }
        if let k = place.annotationIndex { location["annotationIndex"] = .int(k) }
        if var g = grouped[key] {
            g.count += 1
            if g.locations.count < Self.maxLocations { g.locations.append(.object(location)) }
            grouped[key] = g
            return
        }
        report(rule, message, at: place, details: details)
        grouped[key] = (findings.count - 1, [.object(location)], 1)
        groupOrder.append(key)
    }

    /// The grouped findings' counts, pages and locations (`reportGrouped`).
    private mutating func flushGrouped() {
        for key in groupOrder {
            guard let g = grouped[key] else { continue }
            var f = findings[g.index]
            var pages: [Int] = []
            for case .object(let l) in g.locations {
                if let p = l["page"]?.intValue, pages.last != p, !pages.contains(p), pages.count < 20 {
                    pages.append(p)
                }
            }
            if g.count > 1 {
                let all = " (\(g.count) links in all, on \(Pages.list(pages)))"
                let tail = "; " + claim
                f.message =
                    f.message.hasSuffix(tail) ? String(f.message.dropLast(tail.count)) + all + tail : f.message + all
            }
            f.details["count"] = .int(g.count)
            f.details["pages"] = .array(pages.map { .int($0) })
            // Each link's text under it, where it was read for its purpose (`judgePurpose`).
            f.details["locations"] = .array(
                g.locations.map { l in
                    guard case .object(var o) = l, let p = o["page"]?.intValue, let k = o["annotationIndex"]?.intValue,
                        let text = linkTexts[LinkID(page: p, annotationIndex: k)]
                    else { return l }
                    o["linkText"] = .string(text)
                    return .object(o)
                })
            if g.count > g.locations.count { f.details["locationsTruncated"] = .bool(true) }
            findings[g.index] = f
        }
        grouped = [:]
        groupOrder = []
    }

    private mutating func report(
        _ rule: Rule, _ message: String, at place: LinkAudit.Place, details: [String: JSONValue] = [:]
    ) {
        var f = Finding(
            rule: rule, severity: severity, page: place.page, object: place.object, rect: place.rect?.array,
            message: message + "; " + claim)
        f.annotationIndex = place.annotationIndex
        for (k, v) in details { f.details[k] = v }
        findings.append(f)
    }
}
