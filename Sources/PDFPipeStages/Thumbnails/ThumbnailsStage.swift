import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import Synchronization
import SystemIO

/// The image formats thumbnails are written in.
public enum ImageFormat: String, Sendable, CaseIterable, OptionChoice {
    case png, jpeg, webp
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// A thumbnail's background.
public enum ThumbnailBackground: String, Sendable, CaseIterable, OptionChoice {
    case white, transparent
}

/// What `thumbnails` draws over the page.
public enum ThumbnailOverlay: String, Sendable, CaseIterable, OptionChoice {
    case none, links
}

extension PageBox: OptionChoice {}

/// `thumbnails`' options (`with`).
public struct ThumbnailsOptions: OptionGroup {
    @Option(in: 0...20_000, "fit into this width in pixels (0: no limit)") public var width = 200
    @Option(in: 0...20_000, "fit into this height in pixels (0: no limit)") public var height = 0
    @Option(in: 0...2400, "render at this resolution instead of fitting (0: fit)") public var dpi = 0.0
    @Option("fit every page into the box, enlarging small ones (false: never larger than 1 px per point)")
    public var upscale = true
    @Option("pages to render ('1', '1-3', '2,5,last', 'all', 'last-2'…)") public var pages = PageRanges.one
    @Option("page background (transparent writes RGBA)") public var background = ThumbnailBackground.white
    @Option(in: 0...9, "PNG compression level: 1 is fast, 9 small") public var compression = 1
    @Option(
        "page box to render; poppler renders no farther than the crop box, so a larger box (media, often) is cut to it"
    )
    package var box = PageBox.crop
    @Option(
        "draw annotations (notes, stamps, form fields, link borders); false renders the page content only, as pdftoppm -hide-annotations"
    )
    public var annotations = true
    @Option(EngineOption.summary, listed: EngineOption.listed) package var engine = PageEngine.poppler
    @Option("draw link rectangles (needs validate-links earlier in the pipeline)") public var overlay =
        ThumbnailOverlay.none
    @Option("image format") public var format = ImageFormat.png
    @Option(in: 1...100, "JPEG and WebP quality") public var quality = 85
    @Option(
        "file names: {stem} (document path without .pdf), {name}, {page}, {page:03}, {ext}; {page} may be left out when pages names one page ('{stem}.png' with pages '1')"
    )
    public var template = "{stem}/{page}.{ext}"
    @Option("folder in the output folder") public var folder = "thumbnails"
    @Option(in: 0...64, "threads for the pages of one document; 0: automatic") public var pageWorkers = 0
    @Option("also write one image per document with its thumbnails in a grid") public var contactSheet = false
    @Option(in: 1...50, "columns of the contact sheet") public var contactSheetColumns = 6
    @Option("skip documents whose thumbnails are up to date (same content, same options); --force renders again")
    public var incremental = true
    @Option(
        in: 0...100_000,
        "seconds one page may take to render (0: no limit); past it the page and the rest of the document are not rendered (pdf.limit-exceeded)"
    )
    public var renderSeconds = 10.0
    @Option(
        in: 0...1_000_000_000,
        "pixels one page may have (0: cairo's limit only); a larger page is rendered at the resolution that fits, with a pdf.limit-exceeded warning"
    )
    public var maxPixels = 50_000_000
    @Option(
        in: 0...1_000_000_000_000,
        "pixels the thumbnails of one document may have in all (0: no limit); the pages past it, in page order, are not rendered (pdf.limit-exceeded)"
    )
    public var documentPixels = 1_000_000_000
    @Option(
        in: 0...1_000_000,
        "seconds the thumbnails of one document may take in all (0: no limit); pages not started by then are not rendered (pdf.limit-exceeded)"
    )
    public var documentSeconds = 120.0

    public init() {}
}

/// `thumbnails`: pages rendered with poppler and cairo to PNG, fitted into a box, upright, with the
/// link rectangles drawn over them on request (working links yellow, broken ones red).
public struct ThumbnailsStage: Stage {
    public static let descriptor = StageDescriptor(
        ThumbnailsStage.self, id: "thumbnails",
        summary:
            "render pages to PNG thumbnails (fit into width/height, upright), optionally with link rectangles drawn over",
        rules: [.pageRenderIncomplete],
        // The overlay draws the links an earlier validate-links read (`LinkPlacements`, whether or
        // not it lists them in the report): without it, it would draw nothing and say nothing.
        needs: { options in options.overlay == .links ? [.init(LinkPlacements.self, why: "overlay 'links'")] : [] },
        readsEarlierFindings: true,  // broken links are drawn red
        runsPageEngine: true)

    /// The options as the pipeline gave them; the values checked or made from them are below.
    let options: ThumbnailsOptions
    /// `options.engine`, checked to be built in.
    let engine: PageEngine
    /// `options.template` with its extension, checked to name a file per page.
    let template: String
    /// `options.folder`, checked to stay inside the output folder.
    let folder: String
    var transparent: Bool { options.background == .transparent }
    var overlay: Bool { options.overlay == .links }
    /// The options as text, part of the manifest key.
    let fingerprint: String

    public init(_ o: ThumbnailsOptions) throws(PipelineError) {
        options = o
        guard o.dpi > 0 || o.width > 0 || o.height > 0 else {
            throw PipelineError(file: nil, path: "width", message: "give a width, a height or a dpi")
        }
        engine = try EngineOption.check(o.engine)
        let ext = o.format.fileExtension
        template = o.template.replacingOccurrences(of: "{ext}", with: ext)
        // A flat layout (`{stem}.png`) is fine when one page per document is rendered.
        guard template.contains("{page") || o.pages.isSinglePage else {
            throw PipelineError(
                file: nil, path: "template",
                message:
                    "the template must contain {page} (or {page:03}), or pages would overwrite each other (without it, render one page: pages \"1\")"
            )
        }
        guard template.hasSuffix("." + ext) || (ext == "jpg" && template.hasSuffix(".jpeg")) else {
            throw PipelineError(
                file: nil, path: "template",
                message: "the template must end in .\(ext) (or .{ext}) for \(o.format.rawValue) images")
        }
        if o.format != .png && o.background == .transparent {
            throw PipelineError(
                file: nil, path: "background",
                message: "transparent backgrounds need png (\(o.format.rawValue) is written without alpha here)")
        }
        folder = try OutputNames.folder(o.folder)
        fingerprint = JSONWriter.compact(.object(o.values.filter { !["pageWorkers", "incremental"].contains($0.key) }))
    }

    /// The file name of one thumbnail, relative to the output folder; never outside it.
    func fileName(for job: Job, page: Int) -> String {
        let stem = job.outputStem
        let name = stem.split(separator: "/").last.map(String.init) ?? stem
        // One pass over the template: a document named '{page}.pdf' keeps its name.
        var t = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            t += rest[..<open]
            let token = rest[rest.index(after: open)..<close]
            switch token {
            case "stem": t += stem
            case "name": t += name
            case "page": t += String(page)
            default:
                if token.hasPrefix("page:0"), let digits = Int(token.dropFirst(6)), (1...9).contains(digits) {
                    t += String(format: "%0\(digits)d", page)
                } else {
                    t += rest[open...close]
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        t += rest
        // Inside the folder whatever the template says ("../" cannot climb out).
        return folder + Paths.standardize("/" + t)
    }

    /// Pixels per point for a page of this displayed size.
    func scale(width w: Double, height h: Double) -> Double {
        if options.dpi > 0 { return options.dpi / 72 }
        var s = Double.infinity
        if options.width > 0 { s = min(s, Double(options.width) / w) }
        if options.height > 0 { s = min(s, Double(options.height) / h) }
        if !options.upscale { s = min(s, 1) }
        return s.isFinite && s > 0 ? s : 1
    }

    struct Rendered: Sendable {
        var path = ""
        var error: String?
        /// A budget the page hit (`maxPixels`: rendered smaller; `renderSeconds`: not rendered).
        var limit: String?
        /// Not rendered because an earlier page went past `renderSeconds` (that page's number).
        var stoppedAt: Int?
        /// This page went past `renderSeconds`.
        var overran = false
        /// Not rendered: the document's own budget (`documentPixels`, `documentSeconds`) was spent.
        var documentBudget: String?
    }

    /// What the incremental manifest keys on: the input's content, the options, the overlay.
    func manifestKey(_ job: Job, marks: [[(PDFRect, Bool)]]) -> String {
        let inputHash = Checksum.fileMD5(job.workingFile) ?? ""
        let overlayKey = marks.map { m in m.map { "\($0.0)\($0.1)" }.joined() }.joined(separator: "|")
        return Checksum.md5(Array((inputHash + fingerprint + overlayKey).utf8))
    }

    /// How many pages of the plan, in order, fit in `documentPixels` (each page's image as it
    /// will be rendered, at most `maxPixels`): decided before any page is rendered, so that the
    /// same pages are rendered whatever the workers' timing. Every page when the plan cannot reach
    /// the budget (the page tree is then not read).
    func pagesWithinPixelBudget(_ job: inout Job, pages: [Int], geometries given: [PageGeometry]) -> Int {
        let budget = Double(options.documentPixels)
        let perPage = options.maxPixels > 0 ? Double(options.maxPixels) : Double(32767 * 32767)
        guard options.documentPixels > 0, Double(pages.count) * perPage > budget else { return pages.count }
        let geometries =
            given.isEmpty
            ? ((try? job.objects()).map { PageTree.pages($0).map { PageGeometry(page: $0) } } ?? []) : given
        var spent = 0.0
        for (k, page) in pages.enumerated() {
            // A page the reader does not list (a page tree only the engine repairs) is not counted
            // here: counting it as the largest would cut a damaged manual short. documentSeconds
            // still bounds it.
            guard page - 1 < geometries.count else { continue }
            let g = geometries[page - 1]
            let (w, h) = (g.visibleBox.width * g.userUnit, g.visibleBox.height * g.userUnit)
            let s = scale(width: w, height: h)
            let pixels = min((w * s).rounded(.up) * (h * s).rounded(.up), perPage)
            spent += pixels.isFinite ? pixels : perPage
            if spent > budget { return k }
        }
        return pages.count
    }

    public func run(_ job: inout Job) throws {
        let first = try job.engineDocumentWithPages(engine, making: "thumbnails")
        let count = first.pageCount
        job.pageCount = job.pageCount ?? count
        let selected = options.pages.pages(count: count)
        guard !selected.isEmpty else { return }

        let (marks, labelled) = overlay ? overlayMarks(job) : ([:], [])
        var geometries: [PageGeometry] = []
        if overlay || options.box != .crop {
            geometries = PageTree.pages(try job.objects()).map { PageGeometry(page: $0) }
        }
        let geo = geometries
        let box = options.box
        // Each page's /UserUnit for the poppler engine (MuPDF applies it itself).
        let units = engine == .mupdf ? [] : geometries.isEmpty ? Self.userUnits(job) : geometries.map(\.userUnit)
        /// The part of the rendered (crop-box) page another page box covers, in pixels at scale 1.
        @Sendable func region(_ pageNumber: Int) -> PixelRect? {
            guard box != .crop, pageNumber - 1 < geo.count else { return nil }
            let g = geo[pageNumber - 1]
            let wanted = g.box(box).intersection(g.visibleBox) ?? g.visibleBox
            return wanted != g.visibleBox ? LinkGeometry.pixelRect(wanted, on: g, scale: 1) : nil
        }
        let labels = Self.labels(labelled, pages: Set(selected), geometries: geo, region: region)
        let plan = selected.map { page in (page, fileName(for: job, page: page), marks[page] ?? []) }

        // Incremental: the same content and options as last time, and every file still there.
        let manifestPath =
            job.outputDirectory + "/" + OutputNames.file(for: job, folder: folder + "/.manifest", extension: "json")
        // The file is hashed only for the manifest (it was 14% of a first-page run's CPU when done
        // always), streaming.
        let key = options.incremental ? manifestKey(job, marks: plan.map(\.2)) : ""
        if options.incremental && !job.force
            && skipUpToDate(&job, plan: plan.map { ($0.0, $0.1) }, key: key, manifestPath: manifestPath)
        {
            job.setSection(ThumbnailsSection(rendered: 0, skipped: plan.count, labels: labels))
            return
        }
        let outputDirectory = job.outputDirectory
        let results = Locked([Rendered](repeating: Rendered(), count: plan.count))
        // The first page that went past renderSeconds: the pages after it are not started.
        let overran = Locked<Int?>(nil)
        // The document's budgets: the pages within its pixels (decided now), and its time.
        let withinPixels = pagesWithinPixelBudget(&job, pages: selected, geometries: geometries)
        let deadline = options.documentSeconds > 0 ? SystemClock.uptime + options.documentSeconds : .infinity

        @Sendable func render(_ worker: PageWorker, _ k: Int) {
            let (pageNumber, relative, pageMarks) = plan[k]
            if let p = overran.withLock({ $0 }) {
                results.withLock { $0[k] = Rendered(path: relative, stoppedAt: p) }
                return
            }
            if k >= withinPixels || SystemClock.uptime > deadline {
                let budget = k >= withinPixels ? "documentPixels" : "documentSeconds"
                results.withLock { $0[k] = Rendered(path: relative, documentBudget: budget) }
                return
            }
            let r = renderPage(
                worker, page: pageNumber, file: relative, marks: pageMarks, region: region(pageNumber),
                geometry: pageNumber - 1 < geo.count ? geo[pageNumber - 1] : nil,
                unit: pageNumber - 1 < units.count ? units[pageNumber - 1] : 1, outputDirectory: outputDirectory)
            if r.overran { overran.withLock { $0 = $0 ?? pageNumber } }
            results.withLock { $0[k] = r }
        }

        let workers =
            options.pageWorkers > 0
            ? min(options.pageWorkers, plan.count) : min(job.pageWorkers, max(1, plan.count / 8))
        // Explicit pageWorkers are taken as they are; automatic ones also take idle workers' help.
        let messages = try PageWorkers.run(
            first: first, engine: engine, path: job.workingFile, count: plan.count, workers: workers,
            helpers: options.pageWorkers > 0 ? nil : job.pageHelpers,
            offerFrom: 16, render)
        finish(
            &job, plan: plan.map { ($0.0, $0.1) }, results: results.withLock { $0 }, messages: messages,
            key: key, manifestPath: manifestPath, labels: labels)
    }

    /// Renders one page with a worker's document and writes its file: `region` is the part of the
    /// rendered (crop-box) page another page box covers; `unit` the page's /UserUnit for the poppler
    /// engine (1 for MuPDF, which applies it itself).
    func renderPage(
        _ worker: PageWorker, page pageNumber: Int, file relative: String, marks pageMarks: [(PDFRect, Bool)],
        region: PixelRect?, geometry: PageGeometry?, unit: Double, outputDirectory: String
    ) -> Rendered {
        var r = Rendered(path: relative)
        guard let page = worker.document.enginePage(pageNumber - 1) else {
            r.error = "\(library) cannot load page \(pageNumber)"
            return r
        }
        let (w0, h0) = region.map { ($0.width, $0.height) } ?? page.size
        // Sizes in the page's own units as MuPDF gives them: poppler's times /UserUnit. A
        // point of the page's space is `pageUnit` such units (the overlay's scale).
        let pageUnit = geometry?.userUnit ?? 1
        var s = scale(width: w0 * unit, height: h0 * unit)
        // The pixel budget: one page's image (4 bytes a pixel) bounds a page worker's memory.
        let pixels = (w0 * unit * s).rounded(.up) * (h0 * unit * s).rounded(.up)
        if options.maxPixels > 0, pixels.isFinite, pixels > Double(options.maxPixels) {
            let fitted = s * (Double(options.maxPixels) / pixels).squareRoot() * 0.999
            r.limit =
                "page \(pageNumber): rendered at \(Self.dpi(fitted)) dpi instead of \(Self.dpi(s)): \(Self.size(w0 * unit * s)) x \(Self.size(h0 * unit * s)) pixels is more than the \(options.maxPixels) pixels a page may have (maxPixels)"
            s = fitted
        }
        let budget = options.renderSeconds
        let (width, height) = (w0, h0)
        do throws(BridgeError) {
            let transparent = transparent
            let annotations = options.annotations
            // MuPDF's render is stopped through its cookie; poppler's is left to finish on its thread.
            let canceller = page.cancellable ? RenderCancel() : nil
            let outcome = EngineDeadline.outcome(
                seconds: budget, on: worker.engineThread, cancel: canceller.map { c in { c.cancel() } }
            ) {
                () -> Result<CairoImage, BridgeError> in
                Result { () throws(BridgeError) in
                    try page.render(
                        scale: s * unit, transparent: transparent, annotations: annotations,
                        region: region.map { ($0.x, $0.y, $0.width, $0.height) }, cancel: canceller)
                }
            }
            guard case .finished(let rendered) = outcome else {
                if case .abandoned = outcome { worker.abandoned = true }
                r.overran = true
                r.limit =
                    "page \(pageNumber) (\(Self.size(width)) x \(Self.size(height)) pt) took more than \(JSONWriter.format(budget)) s to render (renderSeconds): not rendered, nor the pages after it"
                r.error = ""
                return r
            }
            let image = try rendered.get()
            if let geometry {
                Self.draw(pageMarks, on: image, page: geometry, region: region, scale: s * pageUnit)
            }
            let target = outputDirectory + "/" + relative
            let dir = Paths.parent(target)
            try? FileSystem.createFolder(dir)
            let bytes = try encode(image)
            do throws(FileReplacer.WriteError) {
                try worker.files.write(bytes, to: target)
            } catch {
                r.error = "cannot write \(relative): \(error.reason)"
            }
        } catch {
            r.error = "page \(pageNumber): \(error.description)"
        }
        return r
    }

    /// A resolution for a message: pixels per point as dots per inch, one decimal.
    static func dpi(_ scale: Double) -> String { JSONWriter.format((scale * 72 * 10).rounded() / 10) }
    /// A size for a message, whole.
    static func size(_ v: Double) -> String { v.isFinite && abs(v) < 1e15 ? String(Int(v.rounded(.up))) : "\(v)" }

    /// One warning per document budget that left pages unrendered, listing them.
    func reportUnrendered(_ job: inout Job, _ unrendered: [String: [Int]]) {
        for (budget, pages) in unrendered.sorted(by: { $0.key < $1.key }) {
            let limit =
                budget == "documentPixels"
                ? "the document's thumbnails would have more than \(options.documentPixels) pixels in all (documentPixels)"
                : "the document's thumbnails took more than \(JSONWriter.format(options.documentSeconds)) s in all (documentSeconds)"
            job.report(
                .budgetHit(
                    "thumbnails.\(budget)",
                    "\(pages.count) page\(pages.count == 1 ? "" : "s") not rendered (\(Finding.pageList(pages))): \(limit)"
                ))
        }
    }

    /// Reports the rendered pages (a failed page is a finding), the contact sheet and the section,
    /// and writes the manifest when every page was rendered.
    func finish(
        _ job: inout Job, plan: [(page: Int, file: String)], results: [Rendered], messages perPage: [[String]],
        key: String,
        manifestPath: String, labels: [ThumbnailsSection.Label]
    ) {
        // A page whose messages say an image or a stream could not be decoded was drawn with
        // parts missing: a warning on that page; the rest are the engine's parse notes.
        var said: [String] = []
        var incomplete: [(page: Int, messages: [String])] = []
        for (k, m) in perPage.enumerated() where !m.isEmpty {
            if k < plan.count, m.contains(where: Self.isMissingContent) {
                incomplete.append((plan[k].page, m))
            } else {
                said += m
            }
        }
        job.reportPopplerMessages(said, library: library)
        reportIncomplete(&job, incomplete)
        var failures = 0
        var stopped: (at: Int, pages: [Int])?
        var unrendered: [String: [Int]] = [:]
        for (k, r) in results.enumerated() {
            if let budget = r.documentBudget {
                failures += 1
                unrendered[budget, default: []].append(plan[k].page)
                continue
            }
            if let limit = r.limit {
                job.report(
                    .budgetHit(
                        r.error == nil ? "thumbnails.maxPixels" : "thumbnails.renderSeconds", page: plan[k].page, limit)
                )
            }
            if let at = r.stoppedAt {
                failures += 1
                stopped = (at, (stopped?.pages ?? []) + [plan[k].page])
                continue
            }
            if r.limit != nil, r.error == "" {
                failures += 1
                continue
            }
            if let e = r.error {
                failures += 1
                job.report(
                    Finding(rule: .stageFailed, severity: .warning, page: plan[k].page, message: "no thumbnail: \(e)")
                )
            } else {
                job.artifacts.append(Artifact(kind: "thumbnail", page: plan[k].page, path: r.path))
            }
        }
        if let stopped {
            job.report(
                .budgetHit(
                    "thumbnails.renderSeconds",
                    "\(stopped.pages.count) page\(stopped.pages.count == 1 ? "" : "s") not rendered (\(Finding.pageList(stopped.pages))): page \(stopped.at) went past the render budget (renderSeconds)"
                ))
        }
        reportUnrendered(&job, unrendered)
        var manifest: [String: JSONValue] = ["key": .string(key)]
        if !said.isEmpty { manifest["messages"] = .array(said.prefix(200).map { .string($0) }) }
        if !incomplete.isEmpty {
            manifest["incomplete"] = .array(
                incomplete.map {
                    ["page": .int($0.page), "messages": .array($0.messages.prefix(20).map { .string($0) })]
                })
        }
        if options.contactSheet, let sheet = writeContactSheet(job, files: plan.map(\.file)) {
            job.artifacts.append(Artifact(kind: "contact-sheet", path: sheet))
            manifest["contactSheet"] = .string(sheet)
        }
        job.setSection(ThumbnailsSection(rendered: plan.count - failures, skipped: 0, labels: labels))
        if options.incremental && failures == 0 {
            try? AtomicFile.write(JSONWriter.pretty(.object(manifest)), to: manifestPath)
        }
    }

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

    /// A link with a finding: where its numbered box goes.
    struct Label {
        var page: Int
        var index: Int
        var rect: PDFRect
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

    /// Incremental: when the manifest has the same key (content, options, overlay) and every file
    /// is still there, records the thumbnails as they are and returns true.
    func skipUpToDate(_ job: inout Job, plan: [(page: Int, file: String)], key: String, manifestPath: String) -> Bool {
        guard let data = FileSystem.contents(manifestPath),
            let manifest = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
            manifest["key"]?.stringValue == key,
            plan.allSatisfy({ FileSystem.exists(job.outputDirectory + "/" + $0.file) })
        else { return false }
        for p in plan { job.artifacts.append(Artifact(kind: "thumbnail", page: p.page, path: p.file)) }
        if options.contactSheet, let sheet = manifest["contactSheet"]?.stringValue {
            job.artifacts.append(Artifact(kind: "contact-sheet", path: sheet))
        }
        // What poppler said while rendering them, said again: a skip reports what a render would.
        job.reportPopplerMessages(manifest["messages"]?.arrayValue?.compactMap(\.stringValue) ?? [], library: library)
        reportIncomplete(
            &job,
            (manifest["incomplete"]?.arrayValue ?? []).compactMap { e in
                e["page"]?.intValue.map { ($0, e["messages"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
            })
        return true
    }

    /// Each page's /UserUnit, read without side effects (no finding, no qpdf): from the object
    /// source a stage before opened, else pdfpipe's reader on its own. When neither reads the
    /// file, none: poppler's own sizes, as pdftocairo gives them.
    static func userUnits(_ job: Job) -> [Double] {
        let source: (any ObjectSource)? =
            job.resources.existing(ObjectSourceBox.self)?.source ?? (try? PDFReader(path: job.workingFile))
        guard let source else { return [] }
        return PageTree.pages(source).map { PageGeometry(page: $0).userUnit }
    }

    /// Whether an engine's message says part of the page could not be drawn: an image or a stream
    /// it could not decode (poppler: "Did no succeed opening JPX Stream", "Bad DCT header"; MuPDF:
    /// "cannot decode jpx image").
    static func isMissingContent(_ message: String) -> Bool {
        let m = message.lowercased()
        return [
            "jpx", "jp2", "j2k", "jbig2", "dct", "jpeg", "ccitt", "image", "decoder", "decode", "unknown filter",
            "compression",
        ]
        .contains { m.contains($0) }
    }

    /// `page.render-incomplete` for each page drawn with parts missing (the first message, and how
    /// many more; the messages under `messages`).
    func reportIncomplete(_ job: inout Job, _ pages: [(page: Int, messages: [String])]) {
        for (page, messages) in pages {
            let first = messages.first { Self.isMissingContent($0) } ?? messages.first ?? ""
            var f = Finding(
                rule: .pageRenderIncomplete, page: page,
                message:
                    "the page was drawn with parts missing: \(library) could not decode an image or a stream (\(library): \(first.trimmingCharacters(in: .whitespacesAndNewlines))\(messages.count > 1 ? "; \(messages.count - 1) more messages under messages" : ""))"
            )
            f.details["messages"] = .array(messages.prefix(20).map { .string($0) })
            job.report(f)
        }
    }

    /// The engine's name in messages.
    var library: String { engine == .mupdf ? "MuPDF" : "poppler" }

    func encode(_ image: CairoImage) throws(BridgeError) -> [UInt8] {
        switch options.format {
        case .jpeg: try image.jpegData(quality: options.quality)
        case .webp: try image.webpData(quality: options.quality)
        case .png: try image.pngData(level: options.compression, alpha: transparent)
        }
    }

    /// One image with the document's thumbnails in a grid, from the files just written (PNG) or
    /// rendered again small (JPEG and WebP, which cairo cannot read back).
    func writeContactSheet(_ job: Job, files: [String]) -> String? {
        guard options.format == .png else { return nil }
        let images = files.compactMap { try? CairoImage(png: job.outputDirectory + "/" + $0) }
        guard !images.isEmpty else { return nil }
        let cellW = images.map(\.width).max()!
        let cellH = images.map(\.height).max()!
        let gap = 8
        let columns = min(options.contactSheetColumns, images.count)
        let rows = (images.count + columns - 1) / columns
        guard let sheet = try? CairoImage(width: columns * (cellW + gap) + gap, height: rows * (cellH + gap) + gap)
        else { return nil }
        sheet.fill(red: 1, green: 1, blue: 1)
        for (i, image) in images.enumerated() {
            let x = gap + (i % columns) * (cellW + gap) + (cellW - image.width) / 2
            let y = gap + (i / columns) * (cellH + gap)
            sheet.draw(image, x: x, y: y)
        }
        let relative = OutputNames.file(for: job, folder: folder, extension: "contact.png")
        do {
            try AtomicFile.write(
                try sheet.pngData(level: options.compression, alpha: false), to: job.outputDirectory + "/" + relative,
                binary: true)
        } catch {
            return nil
        }
        return relative
    }
}
