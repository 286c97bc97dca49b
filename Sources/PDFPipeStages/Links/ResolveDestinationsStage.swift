import PDFBridge
import PDFPipeCore
import PDFReader

/// A job's destination table and page index, shared by the link stages of one document.
final class LinkTables {
    let source: any ObjectSource
    let pageObjects: [PDFObject]
    let pages: PageIndex
    let table: DestinationTable

    init(source: any ObjectSource, pageObjects: [PDFObject], table: DestinationTable) {
        self.source = source
        self.pageObjects = pageObjects
        pages = PageIndex(pageObjects)
        self.table = table
    }
}

extension Job {
    /// The document's destination table: built by `resolve-destinations`, or here on first use.
    mutating func linkTables(maxDestinations: Int = 1_000_000) throws -> LinkTables {
        if let t = resources.existing(LinkTables.self) { return t }
        let source: any ObjectSource
        do { source = try objects() } catch { throw afterPopplerCheck(error) }
        var pageObjects = PageTree.pages(source)
        if pageObjects.isEmpty, !(source is QPDFSource), let file = try? qpdf() {
            // The page tree as qpdf repairs it (a page object the own reader declined and qpdf
            // reads as null still is a page): the same pages as the careful path counts.
            pageObjects = PageTree.pages(QPDFSource(file)).compactMap {
                $0.objectRef.map { PDFObject(source: source, value: .ref($0)) }
            }
        }
        let root = PDFObject.root(of: source)
        // No catalog, or no page read from it: nothing could be checked, which is not a pass.
        guard root.isDictionary, !pageObjects.isEmpty else {
            throw afterPopplerCheck(
                DocumentFailure(
                    rule: .pdfUnreadable,
                    message: (root.isDictionary
                        ? "no page could be read from the page tree (/Root /Pages)"
                        : "the document has no catalog (/Root) that can be read")
                        + popplerSecondOpinion()))
        }
        // Read through qpdf (a file the own reader declined: damaged, encrypted, unusual): its repair
        // of a damaged file may find fewer or more pages
        // than a viewer does. Ask poppler, and say so when they disagree: the links of the pages
        // one of them misses were not checked.
        if source is QPDFSource, let other = try? PopplerFile(path: workingFile), other.pageCount != pageObjects.count {
            report(
                Finding(
                    rule: .pdfPageMismatch,
                    message:
                        "the file's page tree, as qpdf repairs it, has \(pageObjects.count) page\(pageObjects.count == 1 ? "" : "s"), poppler finds \(other.pageCount); links were checked on qpdf's pages only"
                ))
        }
        let table = DestinationTable(root: root, pages: PageIndex(pageObjects), maxEntries: maxDestinations)
        // Findings show page labels next to page numbers, whether or not inspect ran.
        if pageLabels == nil, let ranges = PageLabels.read(root: root) {
            pageLabels = PageLabels.labels(ranges, count: pageObjects.count)
        }
        let t = LinkTables(source: source, pageObjects: pageObjects, table: table)
        let pages = t.pages
        resources.store(t)
        pageCount = pageCount ?? pages.count
        for f in table.findings { report(f) }
        return t
    }
}

/// `resolve-destinations`' options (`with`).
public struct ResolveDestinationsOptions: OptionGroup {
    @Option("list every named destination with its page under destinations.names") public var list = false
    @Option(
        in: 0...100_000_000,
        "named destinations read per document; past it, pdf.limit-exceeded and the rest are not read (0: no limit)")
    public var maxDestinations = 1_000_000

    public init() {}
}

/// `resolve-destinations`: reads the catalog `/Dests` and the `/Names /Dests` tree into the table
/// that `validate-links` uses, reporting duplicate names and what is wrong with the tree.
public struct ResolveDestinationsStage: Stage {
    public static let descriptor = StageDescriptor(
        ResolveDestinationsStage.self, id: "resolve-destinations",
        summary: "read every named destination (catalog /Dests and the /Names /Dests tree) and resolve it to a page",
        rules: LinkRules.destinations)

    public var list: Bool
    public var maxDestinations = 1_000_000

    public init(list: Bool, maxDestinations: Int = 1_000_000) {
        self.list = list
        self.maxDestinations = maxDestinations
    }

    public init(_ o: ResolveDestinationsOptions) {
        self.init(list: o.list, maxDestinations: o.maxDestinations)
    }

    public func run(_ job: inout Job) throws {
        guard let tables = try job.linkTablesOrPoppler(maxDestinations: maxDestinations) else { return }
        let t = tables.table
        var section = DestinationsSection(nameTree: t.tree.count, catalog: t.catalog.count)
        var entries: [(String, JSONValue)] = []
        let titles = list ? OutlineTitles.byName(root: PDFObject.root(of: tables.source)) : [:]
        func add(_ name: String, _ store: String, _ n: NamedDestination) {
            var page: Int?
            switch n.destination?.target {
            case .page(let i)?: page = i + 1
            case .pageNumber(let i)? where i >= 0 && i < tables.pages.count: page = i + 1
            default: section.unresolved += 1
            }
            if list {
                var o: [String: JSONValue] = [
                    "name": .string(name), "store": .string(store), "page": page.map { .int($0) } ?? .null,
                ]
                if let fit = n.destination?.fit, !fit.isEmpty { o["fit"] = .string(fit) }
                if let top = n.destination?.top, top.isFinite { o["top"] = .double(top) }
                if let title = titles[name] { o["title"] = .string(title) }
                entries.append((store + name, .object(o)))
            }
        }
        for (k, v) in t.tree { add(PDFTextDecoding.decode(k), "names", v) }
        for (k, v) in t.catalog { add(k, "dests", v) }
        if list {
            section.names = entries.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1)
        }
        job[.destinations] = section
    }
}

/// `destinations`: the named destinations of the name tree (`/Names /Dests`) and the catalog's
/// `/Dests`, how many resolve to no page, and with `list: true` each one (name, store, page, fit).
public struct DestinationsSection: ReportSection, Equatable {
    public static let key = "destinations"
    /// Names in the name tree.
    public var nameTree: Int
    /// Names in the catalog's `/Dests`.
    public var catalog: Int
    /// Names whose destination is no page of the document.
    public var unresolved = 0
    /// Each name (`list: true`), sorted by store and name: `name`, `store`, `page` (null when
    /// unresolved), `fit`, `top`, `title`.
    public var names: [JSONValue]?

    public init(nameTree: Int, catalog: Int, unresolved: Int = 0, names: [JSONValue]? = nil) {
        self.nameTree = nameTree
        self.catalog = catalog
        self.unresolved = unresolved
        self.names = names
    }
}

extension SectionKey where Value == DestinationsSection {
    public static var destinations: Self { DestinationsSection.sectionKey }
}
