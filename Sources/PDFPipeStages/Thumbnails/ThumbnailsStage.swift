import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import Synchronization
import SystemIO

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

    /// A link with a finding: where its numbered box goes.
    struct Label {
        var page: Int
        var index: Int
        var rect: PDFRect
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
}
