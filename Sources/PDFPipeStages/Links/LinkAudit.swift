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

    package private(set) var links: [LinkRecord] = []
    package private(set) var outline: [OutlineRecord] = []
    package private(set) var openAction: LinkRecord?
    /// The bookmarks with a target, as read (the accessibility check's structure destinations).
    private(set) var outlineItems: [PDFObject] = []
    package private(set) var findings: [Finding] = []
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
    }
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
        hint: String? = nil
    ) {
        var f = Finding(
            rule: rule, page: place.page, object: place.object, rect: place.rect?.array, message: place.prefix + message
        )
        if let hint { f.hint = hint }
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
                target: path, hint: suggestFile(for: target))
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

    /// The file a missing one most likely means, inside the input root (unless allowOutsideRoot).
    mutating func suggestFile(for target: String) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggestions.fileHint(
            target, from: Paths.parent(sourcePath), within: options.allowOutsideRoot ? nil : inputRoot)
    }

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
                    hint: suggestName(for: name))
                return (name, nil)
            }
            if let asText {
                report(
                    .destNameEncoding, NameText.mismatch(key, definedAs: asText), at: place, target: "#" + name,
                    groupBy: key.encoding + "\u{0}" + asText.encoding)
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
    /// page is what breaks: the view lands on the next page. (On 573 real PDFs, 3,682 of 3,724
    /// positions outside the media box were LaTeX anchors a few points above the top, or `left`
    /// past the right edge; the rest were Chromium headings up to 295 pt below the bottom.)
    mutating func checkPosition(_ d: Destination, page: Int, label: String, place: Place) {
        let box = geometries[page].mediaBox
        let t = options.positionTolerance
        for p in d.positions where !p.isX && p.label == "top" && p.value < box.y1 - t {
            report(
                .destPositionOffPage,
                "\(label): /\(d.fit) top \(fmt(p.value)) lies below the bottom of page \(page + 1) (y from \(fmt(box.y1)) to \(fmt(box.y2))): viewers show the next page instead",
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
                hint: suggestFile(for: target))
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

    // MARK: - URIs

    /// Judges a URI by its scheme (`URISchemes.judge`); returns the link's state when that
    /// settles it, nil to go on with its syntax.
    mutating func checkScheme(_ text: String, place: Place) -> LinkRecord.URIState? {
        let (finding, state) = URISchemes.judge(text, custom: options.customSchemes)
        if let finding {
            report(finding.rule, finding.message, at: place, groupBy: finding.group, hint: finding.hint)
        }
        return state
    }

    /// The catalog's /URI /Base when it is an absolute URI to resolve relative ones against.
    var usableBase: String? {
        guard let base = uriBase, URIReference.problem(in: base) == nil, !URIReference.parse(base).isRelative else {
            return nil
        }
        return base
    }

    /// Reports a relative URI in a document without a usable /URI /Base: a path from the root of
    /// the author's disk is `uri.absolute-file` (viewers open that path on the reader's machine, a
    /// file URL's path resolved against the document's, where it is not: what the rule says of the
    /// same path as a file: URI), any other `uri.relative`.
    mutating func reportRelative(_ written: String, place: Place) -> LinkRecord.URIState {
        if let path = URIReference.absolutePath(written) {
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(written))' names a file by its absolute path (\(ConsoleText.escape(path))) without 'file:', and the document has no /URI /Base: viewers open that path on the reader's machine, so it works only on the machine the PDF was made on",
                at: place, target: written)
        } else {
            report(
                .uriRelative,
                "'\(ConsoleText.escape(written))' is relative and the document has no /URI /Base; viewers resolve it against the document's own location",
                at: place)
        }
        return .relative
    }

    /// Checks a URI's syntax; returns it resolved against the catalog's /URI /Base.
    mutating func checkURI(_ text: String?, place: Place) -> (String?, LinkRecord.URIState) {
        guard let text else {
            report(.uriMalformed, "the URI action has no /URI", at: place)
            return (nil, .malformed)
        }
        let lower = text.lowercased()
        if let scheme = ["https//", "http//"].first(where: lower.hasPrefix) {
            // The colon forgotten: every viewer reads it as a relative path.
            let fixed = String(scheme.dropLast(2)) + "://" + text.dropFirst(scheme.count)
            var f = Finding(
                rule: .uriMalformed, page: place.page, object: place.object, rect: place.rect?.array,
                message: place.prefix
                    + "'\(ConsoleText.escape(text))' lacks the ':' after '\(scheme.dropLast(2))': every viewer reads it as a path relative to the document",
                hint: "write '\(ConsoleText.escape(fixed))'")
            f.annotationIndex = place.annotationIndex
            findings.append(f)
            return (text, .malformed)
        }
        if let path = URIReference.windowsPath(text) {
            // What it is: a file on the author's disk, not a malformed URI.
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(text))' names a file by its absolute Windows path (\(ConsoleText.escape(path))) on the machine the PDF was made on; it works for no other reader",
                at: place, target: text)
            return (text, .absolute)
        }
        if let state = checkScheme(text, place: place) { return (text, state) }
        var written = text
        if let problem = URIReference.problem(in: text) {
            // What every browser repairs the same way is a warning that says how; the rest an error.
            if let (repaired, reason) = URIReference.browserForm(text), URIReference.problem(in: repaired) == nil {
                report(
                    .uriBrowserRepaired,
                    "'\(ConsoleText.escape(text))': \(reason); browsers read it as '\(repaired)', other tools and strict viewers may not",
                    at: place,
                    groupBy: text)
                written = repaired
            } else {
                report(.uriMalformed, "'\(ConsoleText.escape(text))': \(problem)", at: place)
                return (text, .malformed)
            }
        }
        var resolved = written
        if URIReference.parse(written).isRelative {
            guard let base = usableBase else { return (written, reportRelative(written, place: place)) }
            resolved = URIReference.resolve(written, against: base)
        }
        let parts = URIReference.parse(resolved)
        if parts.scheme?.lowercased() == "file", parts.path.hasPrefix("/"),
            parts.authority.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true
        {
            report(
                .uriAbsoluteFile,
                "'\(ConsoleText.escape(resolved))' names a file by its absolute path on the machine the PDF was made on; it works for no other reader",
                at: place, target: resolved)
        }
        if parts.scheme?.lowercased() == "http" {
            report(
                .uriInsecureScheme,
                "'\(ConsoleText.escape(resolved))' uses http; use https where the site supports it", at: place,
                groupBy: parts.authority?.lowercased() ?? "")
        }
        return (resolved, .absolute)
    }

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
