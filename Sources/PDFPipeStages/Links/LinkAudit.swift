import Foundation
import PDFPipeCore
import PDFPipeWeb
import PDFReader
import SystemIO

/// Reads every link annotation, bookmark and the open action of a document from its raw objects,
/// resolves their targets and reports what is broken. Viewers and libraries silently drop the
/// very links an audit must report, so nothing here goes through a renderer's link list.
package struct LinkAudit {
    /// validate-links' options as the pipeline file wrote them (`ValidateLinksOptions`), read
    /// through `options.outlines`, `options.maxLinks`… rather than copied field by field; what is
    /// compiled from them, once, beside.
    @dynamicMemberLookup
    package struct Options: Sendable {
        package var values: ValidateLinksOptions
        /// Schemes the pipeline says its readers handle (`customSchemes`, lowercased, no colon).
        package let customSchemes: Set<String>

        package init(_ values: ValidateLinksOptions = ValidateLinksOptions()) {
            self.values = values
            customSchemes = Set(
                values.customSchemes.map { $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":")) })
        }

        package subscript<T>(dynamicMember path: KeyPath<ValidateLinksOptions, T>) -> T { values[keyPath: path] }
    }

    let root: PDFObject
    let pageObjects: [PDFObject]
    let pages: PageIndex
    let geometries: [PageGeometry]
    let table: DestinationTable
    let options: Options
    /// The document's absolute path (for GoToR files).
    let sourcePath: String
    let inputRoot: String
    let remote: RemoteDocuments?
    let uriBase: String?

    package internal(set) var links: [LinkRecord] = []
    package internal(set) var outline: [OutlineRecord] = []
    package internal(set) var openAction: LinkRecord?
    /// The bookmarks with a target, as read (the accessibility check's structure destinations).
    var outlineItems: [PDFObject] = []
    package internal(set) var findings: [Finding] = []
    /// Findings of rules that report a document's repeated defect once (with a count and the first
    /// pages): a generator that writes 4,000 page numbers for page references made one mistake.
    private var groups: [String: Group] = [:]
    private var groupOrder: [String] = []
    /// The document's destination names, read once when a missing name needs suggestions; how
    /// many suggestions are left (a document with thousands of broken names gets the first few
    /// hundred: the rest cost a scan each).
    private var destinationNames: [String]?
    private var suggestionsLeft = 200
    struct Group {
        /// Where the first occurrence stands in `findings`: the group keeps its place in link order.
        var index: Int
        var count = 0
        var pages: [Int] = []
        /// Each occurrence's fix, with its object and page (at most `maxGroupFixes`).
        var fixes: [JSONValue] = []
        var fixesLeft = 0
    }
    /// Fixes a grouped finding lists (`fixes`); past them, `fixesOmitted` says how many more.
    static let maxGroupFixes = 10_000
    /// Grouped per document (and per `groupBy`: the host of http links, the name of a Named
    /// action): a generator's or an author's habit, not thousands of separate problems.
    /// The same repaired URI on several links is one problem; so are a document's bookmarks without
    /// a target (veraPDF's test files use a bookmark tree as a list of facts).
    static let groupedRules: Set<Rule> = [
        .destIntegerPage, .destMissingParameter, .destViewerDependent, .uriInsecureScheme, .uriRelative,
        .actionNamedUnknown, .uriBrowserRepaired, .outlineNoTarget, .destNameEncoding, .uriUnknownScheme,
    ]

    package init(
        source: any ObjectSource, pages pageObjects: [PDFObject], table: DestinationTable, options: Options,
        sourcePath: String,
        inputRoot: String, remote: RemoteDocuments?
    ) {
        root = PDFObject.root(of: source)
        self.pageObjects = pageObjects
        pages = PageIndex(pageObjects)
        self.table = table
        self.options = options
        self.sourcePath = sourcePath
        self.inputRoot = inputRoot
        self.remote = remote
        geometries = pageObjects.map { PageGeometry(page: $0) }
        uriBase = root["URI"]?["Base"]?.bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Where a link sits, for findings.
    struct Place {
        var page: Int?
        var rect: PDFRect?
        var object: String?
        /// The link annotation's position in the page's /Annots.
        var annotationIndex: Int?
        /// Prefix for messages ("bookmark 'A / B': ").
        var prefix = ""
    }

    /// `target`: what the link points at and does not find (a destination name, a file), for the
    /// report's list of broken targets.
    mutating func report(
        _ rule: Rule, _ message: String, at place: Place, target: String? = nil, groupBy: String = "",
        hint: String? = nil, fix: LinkFix? = nil
    ) {
        var f = Finding(
            rule: rule, page: place.page, object: place.object, rect: place.rect?.array, message: place.prefix + message
        )
        if let hint { f.hint = hint }
        if let fix { f.details["fix"] = fix.json }
        f.annotationIndex = place.annotationIndex
        if let target { f.details["target"] = .string(target) }
        if Self.groupedRules.contains(rule) {
            let key = rule.id + "\u{0}" + groupBy
            if groups[key] == nil {
                groups[key] = Group(index: findings.count)
                groupOrder.append(key)
                findings.append(f)
            }
            groups[key]!.count += 1
            if let fix, let object = place.object {
                if groups[key]!.fixes.count < Self.maxGroupFixes, case .object(var o) = fix.json {
                    o["object"] = .string(object)
                    o["page"] = place.page.map { .int($0) } ?? .null
                    groups[key]!.fixes.append(.object(o))
                } else {
                    groups[key]!.fixesLeft += 1
                }
            }
            if let p = place.page, groups[key]!.pages.last != p, groups[key]!.pages.count < 20 {
                groups[key]!.pages.append(p)
            }
            return
        }
        findings.append(f)
    }

    /// One finding per grouped rule: the first occurrence, with how many there are and where.
    mutating func flushGroups() {
        for key in groupOrder {
            guard let g = groups[key] else { continue }
            var f = findings[g.index]
            if g.count > 1 {
                let what = f.rule.hasPrefix("outline.") ? "bookmarks" : "links, bookmarks or actions"
                f.message += " (\(g.count) \(what) in all\(g.pages.isEmpty ? "" : ", on " + Pages.list(g.pages)))"
            }
            f.details["count"] = .int(g.count)
            f.details["pages"] = .array(g.pages.map { .int($0) })
            if !g.fixes.isEmpty {
                // Each link's own fix (the first one's `fix` is among them).
                f.details["fix"] = nil
                f.details["fixes"] = .array(g.fixes)
                if g.fixesLeft > 0 { f.details["fixesOmitted"] = .int(g.fixesLeft) }
            }
            findings[g.index] = f
        }
        groups = [:]
        groupOrder = []
    }

    // MARK: - Running

    package mutating func run() {
        for i in 0..<pages.count where !limitReached { scanPage(i) }
        if options.outlines { scanOutline() }
        if options.openAction { scanOpenAction() }
        flushGroups()
    }

    /// Set once `maxLinks` link annotations have been checked.
    private(set) var limitReached = false

    mutating func scanPage(_ index: Int) {
        let page = pageObjects[index]
        guard let annots = page["Annots"], annots.isArray else { return }
        let visible = geometries[index].visibleBox
        for (k, annot) in annots.items.enumerated() {
            guard annot.isDictionary, annot["Subtype"]?.name == "Link" else { continue }
            if options.maxLinks > 0 && links.count >= options.maxLinks {
                limitReached = true
                report(
                    .pdfLimitExceeded,
                    "more than \(options.maxLinks) link annotations; the ones from here on were not checked (maxLinks)",
                    at: Place(page: index + 1, object: annot.reference))
                return
            }
            var record = LinkRecord(page: index + 1, object: annot.reference)
            record.annotationIndex = k
            var place = Place(page: index + 1, object: record.object, annotationIndex: k)
            if let rect = annot["Rect"]?.rectangle {
                record.rect = rect
                place.rect = rect
                if rect.width < 0.01 || rect.height < 0.01 {
                    report(
                        .linkZeroArea, "the link area \(rect) has no width or no height; nobody can click it",
                        at: place)
                } else if rect.intersection(visible) == nil
                    || rect.intersection(visible).map({ $0.width < 0.01 || $0.height < 0.01 }) == true
                {
                    report(.linkOffPage, "the link area \(rect) lies outside the visible page \(visible)", at: place)
                }
            } else {
                report(.linkMalformed, "the link annotation has no valid /Rect", at: place)
            }
            // Like viewers, /A wins over /Dest.
            if let a = annot["A"] {
                evaluateActions(a, record: &record, place: place)
            } else if let d = annot["Dest"] {
                record.kind = .goto
                evaluate(.goTo(DestinationReference(d, pages: pages)), record: &record, place: place)
            } else {
                report(.linkNoTarget, "the link has neither /Dest nor /A; clicking it does nothing", at: place)
            }
            links.append(record)
        }
    }

    mutating func evaluateActions(_ a: PDFObject, record: inout LinkRecord, place: Place) {
        guard a.isDictionary else {
            report(.actionMalformed, "the action is \(Destination.typeName(a)), not a dictionary", at: place)
            return
        }
        let chain = PDFAction.chain(a, pages: pages)
        for (n, action) in chain.actions.enumerated() {
            if n == 0 {
                record.kind = action.kind
                evaluate(action, record: &record, place: place)
            } else {
                var scratch = LinkRecord()
                var p = place
                p.prefix += "/Next \(action.typeName) action: "
                evaluate(action, record: &scratch, place: p)
            }
        }
        if chain.looped {
            report(
                .actionCycle,
                "the /Next chain of actions loops back on itself (PDFium and poppler stop at the loop; MuPDF and pdf.js run the first action only)",
                at: place)
        }
        if chain.stoppedAtLimit {
            report(
                .pdfWalkLimit,
                "the /Next chain has more than \(chain.actions.count) actions; the walk stopped there and the rest was not checked",
                at: place)
        }
    }

    // MARK: - One action

    mutating func evaluate(_ action: PDFAction, record: inout LinkRecord, place: Place) {
        switch action {
        case .goTo(let ref):
            guard let ref else {
                report(.actionMalformed, "the GoTo action has no /D destination", at: place)
                return
            }
            (record.destination, record.targetPage) = resolveLocal(ref, place: place)
        case .goToRemote(let spec, let dest):
            record.file = spec.path
            record.targetPage = checkRemote(spec, dest, place: place, record: &record)
        case .uri(let text):
            record.uriWritten = text
            (record.uri, record.uriState) = checkURI(text, place: place)
        case .launch(let spec):
            record.file = spec.path
            report(
                .actionLaunch,
                "the link launches '\(spec.path ?? "(no file)")'; viewers block or warn about Launch actions", at: place
            )
            checkLaunchTarget(spec, place: place)
        case .named(let name):
            record.action = name
            if let name, !["NextPage", "PrevPage", "FirstPage", "LastPage"].contains(name) {
                report(
                    .actionNamedUnknown,
                    "the named action '\(name)' is not one of NextPage, PrevPage, FirstPage, LastPage; few viewers support it",
                    at: place, groupBy: name)
            } else if name == nil {
                report(.actionMalformed, "the Named action has no /N", at: place)
            }
        case .javaScript:
            report(
                .actionJavascript, "the link runs JavaScript; many viewers block it and it cannot be checked",
                at: place)
        case .submitForm, .resetForm, .hide:
            record.action = action.typeName
        case .other(let type):
            record.action = type
            if let type {
                report(.actionUnsupported, "the action type '\(type)' is not checked", at: place)
            } else {
                report(.actionMalformed, "the action has no /S type", at: place)
            }
        }
    }

    /// A Launch action's file is checked like a GoToR file: it must exist (inside the input root:
    /// files outside are not looked at); a `#fragment` of a local HTML page must name one of its
    /// anchors, as a browser would look it up (htmldoc writes hundreds of these per manual).
    mutating func checkLaunchTarget(_ spec: FileSpecification, place: Place) {
        guard options.gotor, !spec.isURL, var path = spec.path, !path.isEmpty else { return }
        if URIReference.parse(path).scheme.map({ $0.count > 1 }) == true { return }  // a URL, not a file
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[path.index(after: hash)...])
            path = String(path[..<hash])
        }
        guard !path.isEmpty else {
            // Only a fragment (htmldoc writes `#anchor` for an anchor it could not place): there is
            // no file to launch; the viewer can only look for that name in this document.
            if let fragment, !fragment.isEmpty, table.lookup(.string(Array(fragment.utf8))) == nil,
                table.lookup(.name(fragment)) == nil
            {
                report(
                    .actionLaunchTargetMissing,
                    "the Launch action names only '#\(fragment)', and this document has no destination of that name",
                    at: place, target: "#" + fragment)
            }
            return
        }
        let target = Paths.absolute(
            path.replacingOccurrences(of: "\\", with: "/"), relativeTo: Paths.parent(sourcePath))
        guard options.allowOutsideRoot || Paths.isReachable(target, root: inputRoot, from: sourcePath) else { return }
        guard let kind = LocalCopies.kind(target) else {
            report(
                .actionLaunchTargetMissing, "the Launch action's file '\(path)' does not exist", at: place,
                target: path, hint: suggestFile(for: target), fix: fileFix(for: target, written: path))
            return
        }
        let lower = target.lowercased()
        if let fragment, !fragment.isEmpty, kind != .directory,
            lower.hasSuffix(".html") || lower.hasSuffix(".htm") || lower.hasSuffix(".xhtml"),
            HTMLAnchors.isCheckable(fragment), let data = FileSystem.contents(target)
        {
            let anchors = HTMLAnchors.parse(Array(data)).sorted()
            if !HTMLAnchors.indicates(fragment, in: anchors) {
                report(
                    .actionLaunchTargetMissing,
                    "the Launch action's page '\(path)' has no element with the id '\(URIReference.percentDecoded(fragment))' (nor an <a> with that name)",
                    at: place, target: path + "#" + fragment)
            }
        }
    }

    // MARK: - Suggestions

    /// Names of this document close to a missing one (see `Suggestions.names`).
    mutating func suggestName(for missing: String) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        if destinationNames == nil {
            destinationNames = table.tree.keys.map { String(decoding: $0, as: UTF8.self) } + Array(table.catalog.keys)
        }
        return Suggestions.nameHint(missing, in: destinationNames!)
    }

    /// The one name of this document that differs from a missing one only in case, if exactly one
    /// does: the fix of the link (a name written in another case than its anchor's; PDFium, MuPDF
    /// and poppler compare names byte for byte).
    mutating func nameFix(for missing: String) -> LinkFix? {
        if destinationNames == nil {
            destinationNames = table.tree.keys.map { String(decoding: $0, as: UTF8.self) } + Array(table.catalog.keys)
        }
        let lower = missing.lowercased()
        let same = Set(destinationNames!.filter { $0 != missing && $0.lowercased() == lower })
        guard same.count == 1, let to = same.first else { return nil }
        return LinkFix(.dest, from: missing, to: to, why: "the document's only name that differs from it only in case")
    }

    /// The file on disk a missing one names but for case (inside the input root unless
    /// allowOutsideRoot), as the link should write it: the fix of a GoToR or Launch action made on
    /// a case-insensitive file system.
    func fileFix(for target: String, written: String) -> LinkFix? {
        guard let base = Suggestions.sameButForCase(target),
            options.allowOutsideRoot || Paths.isInside(base, root: inputRoot)
        else { return nil }
        return LinkFix(
            .file, from: written, to: Suggestions.linkPath(base, from: Paths.parent(sourcePath)),
            why: "the file on disk is named so: the names differ only in case")
    }

    /// The file a missing one most likely means, inside the input root (unless allowOutsideRoot).
    mutating func suggestFile(for target: String) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggestions.fileHint(
            target, from: Paths.parent(sourcePath), within: options.allowOutsideRoot ? nil : inputRoot)
    }
}
