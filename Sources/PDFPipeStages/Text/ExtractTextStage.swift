import Dispatch
import Foundation
import PDFBridge
import PDFPipeCore
import PDFReader
import SystemIO

/// `extract-text`: each page's text through poppler, written as `.txt` (a form feed after each page,
/// as `pdftotext` does) or JSON (with word boxes on request); search terms reported as `text.match`;
/// pages that draw images but have no text reported as `text.no-text-layer`.
@dynamicMemberLookup
public struct ExtractTextStage: Stage {
    public static let descriptor = StageDescriptor(
        ExtractTextStage.self, id: "extract-text",
        summary:
            "extract each page's text (txt or JSON with word boxes), search it, and find pages without a text layer",
        rules: [.textMatch, .textSearchIncomplete, .textExtractionIncomplete, .textNoTextLayer], runsPageEngine: true)

    /// The options as the pipeline gave them; the values checked or made from them are below.
    public var options: ExtractTextOptions
    /// `options.folder`, checked to stay inside the output folder.
    public var folder: String
    /// `options.search`, compiled.
    public var terms: [SearchTerm]
    /// `options.engine`, checked to be built in.
    package var engine: PageEngine

    public init(_ o: ExtractTextOptions) throws(PipelineError) {
        options = o
        engine = try EngineOption.check(o.engine)
        folder = try OutputNames.folder(o.folder)
        var terms: [SearchTerm] = []
        for (i, t) in o.search.enumerated() {
            guard !t.term.isEmpty else {
                throw PipelineError(
                    file: nil, path: "search[\(i)].term", message: "a search term needs a non-empty 'term'")
            }
            do {
                terms.append(
                    try SearchTerm(
                        term: t.term, isRegex: t.regex, caseSensitive: t.caseSensitive,
                        ignoreDiacritics: t.ignoreDiacritics, severity: t.severity))
            } catch {
                throw PipelineError(
                    file: nil, path: "search[\(i)].term", message: "invalid regular expression '\(t.term)'")
            }
        }
        self.terms = terms
    }

    /// An option as given (`stage.format`); the stage's own properties (`engine`, `folder`) are the checked values.
    public subscript<T>(dynamicMember key: KeyPath<ExtractTextOptions, T>) -> T { options[keyPath: key] }

    /// What a worker extracts from one page.
    struct PageText: Sendable {
        var text: [Unicode.Scalar] = []
        var layout: [PDFRect] = []
        var images = 0
        /// Per scalar, whether an annotation drew it (empty: none did).
        var fromAnnotation: [Bool] = []
        /// Characters the engine's other reading of the page finds that this text lacks.
        var unread = 0
        /// Why the engine read nothing of the page (nil: it was read, with or without text).
        var error: String?
        /// Why the text its annotations draw was not read (nil: read, or there is none).
        var annotationError: String?
    }

    /// The box around characters' boxes (top-left pixels at 72 dpi), in the page's PDF user space
    /// too (`geometry` nil: a page without a page object, US Letter).
    static func box(_ rects: ArraySlice<PDFRect>, on geometry: PageGeometry?) -> (user: PDFRect, pixel: PDFRect)? {
        guard let first = rects.first else { return nil }
        var u = first
        for r in rects.dropFirst() {
            u = PDFRect(min(u.x1, r.x1), min(u.y1, r.y1), max(u.x2, r.x2), max(u.y2, r.y2))
        }
        let g = geometry ?? PageGeometry(page: nil as PDFObject?)
        let user = LinkGeometry.userRect(PixelRect(x: u.x1, y: u.y1, width: u.width, height: u.height), on: g, scale: 1)
        return (user, u)
    }

    public func run(_ job: inout Job) throws {
        let first = try job.engineDocumentWithPages(engine, making: "text")
        let count = first.pageCount
        job.pageCount = job.pageCount ?? count
        let selected = options.pages.pages(count: count)
        let needLayout = options.words || !terms.isEmpty  // keep the boxes past extraction
        let texts = try read(&job, first: first, pages: selected, layout: needLayout)
        // Geometry, for boxes in PDF user space.
        var geometries: [PageGeometry] = []
        if needLayout {
            let source = try job.objects()
            geometries = PageTree.pages(source).map { PageGeometry(page: $0) }
        }
        func userBox(_ rects: ArraySlice<PDFRect>, page: Int) -> (user: PDFRect, pixel: PDFRect)? {
            Self.box(rects, on: page - 1 < geometries.count ? geometries[page - 1] : nil)
        }
        func rounded(_ r: PDFRect) -> JSONValue { .array(r.array.map { .double(($0 * 100).rounded() / 100) }) }

        // Search, and pages without text.
        var pagesWithText = 0
        var characters = 0
        var matches: [JSONValue] = []
        var budget = SearchBudget(seconds: options.searchSeconds)
        let shown = Self.shownButUnread(texts, pages: selected, job: job)
        for (k, page) in selected.enumerated() {
            let t = texts[k]
            guard report(t, page: page, shown: shown[page], into: &job) else { continue }
            if t.text.contains(where: { !TextAssembler.isSpace($0) }) { pagesWithText += 1 }
            characters += t.text.count
            matches += search(t, page: page, into: &job, budget: &budget, box: userBox, rounded: rounded)
        }
        if let first = budget.unsearched.first {
            job.report(
                .budgetHit(
                    "extract-text.searchSeconds",
                    "the regular-expression search ran out of the document's \(PDFNumber.text(options.searchSeconds)) s (searchSeconds) on page \(first): \(budget.unsearched.count) page\(budget.unsearched.count == 1 ? " was" : "s were") not (fully) searched for regular expressions (\(Finding.pageList(budget.unsearched)))"
                ))
        }

        // Output.
        var section = TextSection(pages: selected.count, pagesWithText: pagesWithText, characters: characters)
        if !terms.isEmpty { section.matches = matches }
        if options.format != .none {
            let relative = OutputNames.file(for: job, folder: folder, extension: options.format.rawValue)
            let data = output(texts, pages: selected, job: job, box: userBox, rounded: rounded)
            try job.writeArtifact(Array(data.utf8), kind: "text", path: relative, what: "the text")
            section.file = relative
        }
        job[.text] = section
    }

    /// The selected pages' text, read by the page workers, with the text their annotations draw.
    func read(_ job: inout Job, first: any EngineDocument, pages selected: [Int], layout: Bool) throws -> [PageText] {
        // Explicit pageWorkers are taken as they are; automatic ones only for documents big enough.
        let workers =
            options.pageWorkers > 0
            ? min(options.pageWorkers, max(1, selected.count)) : min(job.pageWorkers, max(1, selected.count / 16))
        // Pages whose annotations may draw text (none in most documents: nothing more is read).
        // MuPDF tells from the page it loaded (`mayDrawAnnotationText`): reading every page's
        // annotations through pdfpipe's own reader as well cost 17 % of the MuPDF engine's time
        // on the three manuals of bench/engines.sh.
        let annotated =
            options.annotations && engine == .poppler
            ? (try? job.objects()).map { AnnotationText.candidatePages($0, among: selected, engine: engine) } ?? []
            : []

        // Pages whose fonts write vertically: poppler reads them in every direction.
        let vertical =
            engine == .poppler ? (try? job.objects()).map { WritingModes.verticalPages($0, among: selected) } ?? [] : []

        // Explicit pageWorkers are taken as they are; automatic ones also take idle workers' help.
        let results = Locked([PageText](repeating: PageText(), count: selected.count))
        let messages = try PageWorkers.run(
            first: first, engine: engine, path: job.workingFile, count: selected.count, workers: workers,
            helpers: options.pageWorkers > 0 ? nil : job.pageHelpers, offerFrom: 32
        ) { worker, k in
            let t = extract(
                worker.document.enginePage(selected[k] - 1), layout: layout,
                annotations: options.annotations && engine == .mupdf ? nil : annotated.contains(selected[k] - 1),
                vertical: vertical.contains(selected[k] - 1))
            results.withLock { $0[k] = t }
        }
        var texts = results.withLock { $0 }
        job.reportPopplerMessages(messages.flatMap { $0 }, library: engine == .mupdf ? "MuPDF" : "poppler")
        for collection in Self.missingLanguagePacks(messages.flatMap { $0 }) {
            // Text in such a font is dropped without a word: never silence.
            job.report(
                Finding(
                    rule: .textExtractionIncomplete,
                    message:
                        "poppler lacks the '\(collection)' character collection (the Debian package poppler-data): text in the document's fonts that use it was not read"
                ))
        }
        if engine == .poppler && !annotated.isEmpty {
            addAnnotationText(to: &texts, pages: selected, annotated: annotated, path: job.workingFile, layout: layout)
        }
        return texts
    }

    /// The character collections poppler said it has no tables for ("Missing language pack for
    /// 'Adobe-Japan1' mapping": poppler-data is not installed), each once.
    package static func missingLanguagePacks(_ messages: [String]) -> [String] {
        var out: [String] = []
        for m in messages {
            guard let r = m.range(of: "Missing language pack for '") else { continue }
            let name = String(m[r.upperBound...].prefix { $0 != "'" })
            if !name.isEmpty, !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// The pages whose extraction read no text while their content shows some (`ShownText`), with
    /// the bytes shown: the fidelity guard. Read without side effects (the object source a stage
    /// before opened, else pdfpipe's reader on its own); only pages read as empty are scanned.
    static func shownButUnread(_ texts: [PageText], pages: [Int], job: Job) -> [Int: Int] {
        let empty = pages.indices.filter { k in
            texts[k].error == nil && !texts[k].text.contains(where: { !TextAssembler.isSpace($0) })
        }
        guard !empty.isEmpty else { return [:] }
        let source: (any ObjectSource)? =
            job.resources.existing(ObjectSourceBox.self)?.source ?? (try? PDFReader(path: job.workingFile))
        guard let source else { return [:] }
        let objects = PageTree.pages(source)
        var out: [Int: Int] = [:]
        for k in empty where pages[k] - 1 < objects.count {
            let shown = ShownText.bytes(onPage: objects[pages[k] - 1]).count
            if shown > 0 { out[pages[k]] = shown }
        }
        return out
    }

    /// A page's findings about what was read: nothing (returns false: the page is not searched),
    /// its annotations' text unread, text shown but not read (`shown`: the bytes its content
    /// shows), or no text layer under images.
    func report(_ t: PageText, page: Int, shown: Int?, into job: inout Job) -> Bool {
        if let error = t.error {
            // Nothing was read: not the same as a page without text, and said.
            job.report(
                Finding(rule: .stageFailed, severity: .warning, page: page, message: "no text: \(error)"))
            return false
        }
        if let error = t.annotationError {
            // The content's text is there; what the annotations draw could not be read.
            job.report(
                Finding(
                    rule: .stageFailed, severity: .warning, page: page,
                    message: "the text its annotations draw (form fields, notes, stamps) was not read: \(error)"))
        }
        if t.unread > 0 {
            job.report(
                Finding(
                    rule: .textExtractionIncomplete, page: page,
                    message:
                        "poppler's readings of the page disagree: \(t.unread) character\(t.unread == 1 ? "" : "s") its selection by words finds \(t.unread == 1 ? "is" : "are") not in the text (a line of mixed directions), so the text file and search miss \(t.unread == 1 ? "it" : "them")"
                ))
        }
        if let shown {
            // Never silence: the page has text, the engine read none of it.
            job.report(
                Finding(
                    rule: .textExtractionIncomplete, page: page,
                    message:
                        "the page's content shows text (\(shown) bytes of strings) but \(engine == .mupdf ? "MuPDF" : "poppler") read none of it: the text file and search miss this page"
                ))
        } else if options.noTextLayer && t.images > 0 && !t.text.contains(where: { !TextAssembler.isSpace($0) }) {
            job.report(
                Finding(
                    rule: .textNoTextLayer, page: page,
                    message:
                        "the page draws \(t.images == 1 ? "an image" : "\(t.images) images") but has no text: a scan without OCR, or text drawn as pictures"
                ))
        }
        return true
    }

    /// The search terms on one page: a `text.match` finding per match (and `text.search-incomplete`
    /// when a pattern ran out of time), and the matches for the section.
    func search(
        _ t: PageText, page: Int, into job: inout Job, budget: inout SearchBudget,
        box userBox: (ArraySlice<PDFRect>, Int) -> (user: PDFRect, pixel: PDFRect)?,
        rounded: (PDFRect) -> JSONValue
    ) -> [JSONValue] {
        var matches: [JSONValue] = []
        var normalized: [TextNormalizer.Options: (scalars: [Unicode.Scalar], origin: [Int])] = [:]
        for term in terms {
            let n = normalized[term.options] ?? TextNormalizer.normalize(t.text, term.options)
            normalized[term.options] = n
            let pageBudget = term.isRegex ? budget.forPage(page) : TextNormalizer.regexBudget
            if pageBudget <= 0 { continue }
            let started = SystemClock.uptimeNanoseconds
            let (found, complete) = TextNormalizer.search(term, in: n, budget: pageBudget)
            if term.isRegex { budget.spend(SystemClock.seconds(since: started)) }
            if !complete && budget.isSpent {
                _ = budget.forPage(page)  // stopped by the document's budget: listed with the pages left
            } else if !complete {
                job.report(
                    Finding(
                        rule: .textSearchIncomplete, page: page,
                        message:
                            "the search for '\(term.term)' was stopped after \(PDFNumber.text(TextNormalizer.regexBudget)) s on this page (the pattern backtracks on its text); matches after that point are not reported"
                    ))
            }
            for m in found {
                matches.append(match(m, of: term, in: t, page: page, into: &job, box: userBox, rounded: rounded))
            }
        }
        return matches
    }

    /// A match of `term` on the page: its `text.match` finding, and its entry in the matches.
    func match(
        _ m: TextMatch, of term: SearchTerm, in t: PageText, page: Int, into job: inout Job,
        box userBox: (ArraySlice<PDFRect>, Int) -> (user: PDFRect, pixel: PDFRect)?,
        rounded: (PDFRect) -> JSONValue
    ) -> JSONValue {
        let snippet = TextNormalizer.snippet(t.text, m.range)
        let found = String(String.UnicodeScalarView(t.text[m.range])).replacingOccurrences(of: "\n", with: " ")
        let rects = m.range.filter { $0 < t.layout.count && !t.text[$0].properties.isWhitespace }.map { t.layout[$0] }
        let box = userBox(rects[...], page)
        var finding = Finding(
            rule: .textMatch, severity: term.severity, page: page,
            rect: box.map { rounded($0.user).arrayValue!.compactMap(\.doubleValue) },
            message: "found '\(found)' (search term '\(term.term)'): \(snippet)")
        // Part of the finding's identity (its fingerprint): a baselined match of one term never
        // stands for a match of another on the same page.
        finding.details["term"] = .string(term.term)
        job.report(finding)
        var o: [String: JSONValue] = [
            "term": .string(term.term), "page": .int(page), "text": .string(found), "snippet": .string(snippet),
        ]
        if let box { o["box"] = rounded(box.user) }
        return .object(o)
    }

    /// The file's text: as pdftotext writes it (txt), or JSON with labels and word boxes.
    func output(
        _ texts: [PageText], pages: [Int], job: Job,
        box userBox: (ArraySlice<PDFRect>, Int) -> (user: PDFRect, pixel: PDFRect)?,
        rounded: (PDFRect) -> JSONValue
    ) -> String {
        if options.format == .txt {
            // As pdftotext: each page's last line ends with a newline, and a form feed follows.
            return texts.map { t in
                let s = String(String.UnicodeScalarView(t.text))
                return (s.isEmpty || s.hasSuffix("\n") ? s : s + "\n") + "\u{0C}"
            }.joined()
        } else {
            var pageValues: [JSONValue] = []
            for (k, page) in pages.enumerated() {
                var p: [String: JSONValue] = [
                    "page": .int(page), "text": .string(String(String.UnicodeScalarView(texts[k].text))),
                ]
                if let labels = job.pageLabels, page <= labels.count { p["label"] = .string(labels[page - 1]) }
                if options.words {
                    p["words"] = .array(wordBoxes(texts[k], page: page, box: userBox, rounded: rounded))
                }
                pageValues.append(.object(p))
            }
            return JSONWriter.pretty(["path": .string(job.relativePath), "pages": .array(pageValues)])
        }
    }

    /// `annotations`: whether to read the text the page's annotations draw; nil: if the engine
    /// says they may draw some (`mayDrawAnnotationText`).
    func extract(_ page: (any EnginePage)?, layout: Bool, annotations: Bool?, vertical: Bool = false) -> PageText {
        var t = PageText()
        guard let page else {
            t.error = "\(engine == .mupdf ? "MuPDF" : "poppler") cannot load the page"
            return t
        }
        // The character boxes put back the breaks poppler's text leaves out (TextAssembler).
        let text: [Unicode.Scalar]
        let boxes: [PDFRect]
        do {
            (text, boxes) = try page.textAndLayout(vertical: vertical)
        } catch {
            t.error = error.description
            return t
        }
        (t.text, t.layout) = TextAssembler.respace(text, boxes, addSpaces: engine == .poppler)
        // Where the engine's reads can disagree (lines of both directions, CJK, vertical writing),
        // its other reading counts what this one may have lost: never silence.
        if vertical || text.contains(where: { TextAssembler.isRTL($0) || TextAssembler.isCJK($0) }),
            let other = page.charactersReadAnotherWay()
        {
            t.unread = TextAssembler.unread(other, comparedTo: text)
        }
        // A scan with a stamp on it is still a page without a text layer: the content decides.
        if options.noTextLayer && !t.text.contains(where: { !TextAssembler.isSpace($0) }) { t.images = page.imageCount }
        if annotations ?? page.mayDrawAnnotationText ?? true {
            do {
                if let (a, b) = try page.annotationTextAndLayout() {
                    merge(into: &t, TextAssembler.respace(a, b, addSpaces: engine == .poppler))
                }
            } catch {
                t.annotationError = error.description
            }
        }
        // poppler's annotation text is merged after all pages are read (one copy per document).
        if !layout && !(annotations == true && engine == .poppler) { t.layout = [] }
        return t
    }

    /// Puts an annotation layer's text into a page's.
    func merge(into t: inout PageText, _ annotation: ([Unicode.Scalar], [PDFRect])) {
        guard annotation.0.contains(where: { !TextAssembler.isSpace($0) }) else { return }
        (t.text, t.layout, t.fromAnnotation) = TextAssembler.merge(content: (t.text, t.layout), annotations: annotation)
    }

    /// poppler: the text of the annotated pages' annotations, from one copy of the document
    /// (`AnnotationLayer`), put into those pages' text.
    func addAnnotationText(to texts: inout [PageText], pages: [Int], annotated: Set<Int>, path: String, layout: Bool) {
        let indices = pages.indices.filter { annotated.contains(pages[$0] - 1) && texts[$0].error == nil }
        do {
            let read = try AnnotationLayer.text(path: path, pages: annotated)
            for k in indices {
                if let (a, b) = read[pages[k] - 1] { merge(into: &texts[k], TextAssembler.respace(a, b)) }
            }
        } catch {
            for k in indices { texts[k].annotationError = "qpdf: \(error.description)" }
        }
        if !layout { for k in indices { texts[k].layout = [] } }
    }

    /// Words: runs of non-space characters, with the union of their character boxes.
    func wordBoxes(
        _ t: PageText, page: Int, box: (ArraySlice<PDFRect>, Int) -> (user: PDFRect, pixel: PDFRect)?,
        rounded: (PDFRect) -> JSONValue
    ) -> [JSONValue] {
        var out: [JSONValue] = []
        var start: Int?
        func flush(_ end: Int) {
            guard let s = start else { return }
            start = nil
            guard end <= t.layout.count, let b = box(t.layout[s..<end], page) else { return }
            var word: [String: JSONValue] = [
                "text": .string(String(String.UnicodeScalarView(t.text[s..<end]))), "box": rounded(b.user),
                "pixelBox": rounded(b.pixel),
            ]
            if end <= t.fromAnnotation.count, t.fromAnnotation[s..<end].contains(true) { word["annotation"] = true }
            out.append(.object(word))
        }
        for (i, c) in t.text.enumerated() {
            if c.properties.isWhitespace { flush(i) } else if start == nil { start = i }
        }
        flush(t.text.count)
        return out
    }
}
