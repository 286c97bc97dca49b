import Dispatch
import Foundation
import Synchronization
import SystemIO

/// Progress of a run, for the console.
public struct RunProgress: Sendable {
    public var done: Int
    public var total: Int
    public var pages: Int
    public var elapsed: Double
    /// The document that just finished (relative to the input root).
    public var document = ""
    /// Links, bookmarks and open actions checked so far (validate-links' `linkSummary.checks`).
    public var links = 0

    public init(done: Int, total: Int, pages: Int, elapsed: Double, document: String = "") {
        self.done = done
        self.total = total
        self.pages = pages
        self.elapsed = elapsed
        self.document = document
    }
}

/// Runs a pipeline's stages over a batch, several documents at a time.
///
/// Each worker takes the next document, runs every stage on it in order, and stores the result at the
/// document's index, so results come out in input order whatever finished first. Stage values are
/// shared (they hold configuration only); everything opened for a document stays on its worker.
public struct Runner: Sendable {
    public var pipeline: Pipeline
    public var outputDirectory: String
    /// The folder report paths are relative to (GoToR targets must stay inside it).
    public var inputRoot: String
    /// Concurrent documents (at least 1).
    public var jobs: Int
    /// Runs one document elsewhere (a child process) instead of in this process.
    public var isolate: (@Sendable (InputDocument, Int) -> DocumentResult)?
    /// Applied to each document's result as it finishes (suppressions, baseline).
    public var policy: ResultPolicy?
    /// Places findings on the source lines that made them (`report.sources`); nil: not asked.
    public var sourceMapping: (any SourceMapping)?
    /// The `timings` key of the mapping's seconds per document.
    public static let sourceMappingTiming = "map-sources"
    /// Where idle workers find pages to help with (in-process runs); made per run when nil. Tests
    /// pass their own to see that helpers joined (`PageHelpers.helped`).
    public var pageHelpers: PageHelpers?
    /// The run's shared services (validate-links' URL checker): ended by `finish()`.
    public let context = RunContext()
    /// Called on the worker before document `index` is started (inputs in object storage: waits
    /// until its local copy is there).
    public var prepare: (@Sendable (_ index: Int, InputDocument) -> Void)?
    /// Called once document `index`'s result is stored, with the input's stamp (outputs in object
    /// storage: hands its result and outputs to the uploader, frees the local copy of its input).
    package var delivered: (@Sendable (_ index: Int, InputDocument, DocumentResult, ResultStore.InputStamp?) -> Void)?

    public init(pipeline: Pipeline, outputDirectory: String, inputRoot: String = "/", jobs: Int) {
        self.pipeline = pipeline
        self.outputDirectory = outputDirectory
        self.inputRoot = inputRoot
        self.jobs = max(1, jobs)
    }

    /// Ends the run: each service the stages started for it (the URL checker saves its cache and
    /// stops its threads). Call it once the last document is done, on every path; returns what
    /// failed, by whose service it was. The services' run findings (`runFindings()`) are read before.
    @discardableResult
    public func finish() -> [(key: ServiceName, error: any Error)] { context.shutdown() }

    /// Processes every document. `progress` is called after each document (from any thread).
    /// When `shouldStop` turns true no new document is started; the ones running finish, and only
    /// the finished documents are returned (in input order).
    ///
    /// With a `store`, each result is appended to it as its document finishes and dropped from
    /// memory (nothing is returned), and documents the store already has (`--resume`) are skipped.
    package func run(
        _ documents: [InputDocument], progress: (@Sendable (RunProgress) -> Void)? = nil,
        shouldStop: (@Sendable () -> Bool)? = nil, store: ResultStore? = nil
    ) -> [DocumentResult] {
        // Output names unique however the documents were listed (InputSet does it already).
        var unique = documents
        OutputStems.assign(&unique)
        let documents = unique
        let count = documents.count
        // Kept here only without a store (a store takes each result as it comes).
        let results = Locked<[DocumentResult?]>(store == nil ? Array(repeating: nil, count: count) : [])
        let next = Atomic<Int>(0)
        let start = SystemClock.uptimeNanoseconds
        let workers = min(jobs, max(count, 1))
        let pageWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
        // Resumed documents count as done from the start.
        let stats = Locked<(done: Int, pages: Int, links: Int)>(
            (store?.count ?? 0, store?.summary.pages ?? 0, store?.summary.links?.total ?? 0))
        // Documents whose stages ran but whose deferred work (web verdicts) is not answered yet.
        let lot = ParkingLot(limit: Self.parkedDocuments)
        // Runs document `i` (unless the store has it): its result, or the document parked.
        let startOne = { @Sendable (i: Int, helpers: PageHelpers?) -> Begun? in
            let d = documents[i]
            if let store, store.has(i) { return nil }
            prepare?(i, d)
            if d.undecodableName || d.missing { return .done(process(d)) }
            if let isolate { return .done(isolate(d, pageWorkers)) }
            return self.begin(d, pageWorkers: pageWorkers, helpers: helpers, park: true)
        }
        // Hands a finished document's result on (to the store, or back), counts it and says so.
        let deliver = { @Sendable (i: Int, raw: DocumentResult) in
            let d = documents[i]
            let stamp = store == nil ? nil : ResultStore.InputStamp.of(file: d.path, relativePath: d.relativePath)
            let result = completed(d, raw)
            store?.append(result, at: i, input: stamp)
            delivered?(i, d, result, stamp)
            if store == nil { results.withLock { $0[i] = result } }
            let (done, pages, links) = stats.withLock { s in
                s.done += 1
                s.pages += result.pageCount ?? 0
                s.links += result[LinkSummarySection.sectionKey]?.checks?.total ?? 0
                return (s.done, s.pages, s.links)
            }
            var p = RunProgress(
                done: done, total: count, pages: pages,
                elapsed: SystemClock.seconds(since: start),
                document: d.relativePath)
            p.links = links
            progress?(p)
        }
        let work = { @Sendable (helpers: PageHelpers?) in
            workerLoop(
                lot: lot,
                next: { () -> Int? in
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    return i < count ? i : nil
                }, shouldStop: shouldStop, helpers: helpers, start: startOne, deliver: deliver)
        }
        if workers == 1 {
            // One worker: the calling thread does the work (simpler to debug, and glibc's main
            // malloc arena serves qpdf's many small allocations faster than a thread's arena).
            work(nil)
        } else {
            // In-process documents lend idle workers to each other's pages (see PageHelpers).
            let helpers = isolate == nil ? (pageHelpers ?? PageHelpers()) : nil
            let group = DispatchGroup()
            let queue = DispatchQueue(label: "pdfpipe.workers", attributes: .concurrent)
            for _ in 0..<workers { queue.async(group: group) { work(helpers) } }
            group.wait()
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// One worker's loop: finish parked documents that are ready, else start the next document
    /// (unless too many are parked: then wait for one); at the end, finish every parked one and
    /// help other documents' pages.
    private func workerLoop(
        lot: ParkingLot, next: () -> Int?, shouldStop: (@Sendable () -> Bool)?, helpers: PageHelpers?,
        start: (Int, PageHelpers?) -> Begun?, deliver: (Int, DocumentResult) -> Void
    ) {
        func drain() { while let (j, parked) = lot.take(wait: true) { deliver(j, conclude(parked)) } }
        while true {
            if let (j, parked) = lot.take(wait: false) {
                deliver(j, conclude(parked))
                continue
            }
            if shouldStop?() == true { return drain() }
            if lot.isFull {
                if let (j, parked) = lot.take(wait: true) { deliver(j, conclude(parked)) }
                continue
            }
            guard let i = next() else {
                drain()
                helpers?.help()
                return
            }
            switch start(i, helpers) {
            case nil: continue
            case .done(let result)?: deliver(i, result)
            case .parked(let parked)?: lot.park(i, parked)
            }
        }
    }

    /// Documents that may wait for their deferred work at once (a parked document keeps its link
    /// records, not its file); past it a worker waits for one to finish before starting another.
    public static let parkedDocuments = 256

    /// A finished document's result, as reports show it: its working-folder path and the policy applied.
    func completed(_ document: InputDocument, _ result: DocumentResult) -> DocumentResult {
        var r = result
        r.workingPath = document.workingPath
        if let sourceMapping, r.status == .ok || !r.findings.isEmpty {
            let t0 = SystemClock.uptimeNanoseconds
            sourceMapping.map(&r, file: document.path)
            r.timings[Self.sourceMappingTiming] = SystemClock.seconds(since: t0)
        }
        r.pageBoxes.value = []
        if let policy { policy.apply(&r) } else { r.assignFingerprints() }
        return r
    }

    /// Runs every stage on one document; never throws: failures become findings.
    public func process(_ document: InputDocument, pageWorkers: Int = 1, helpers: PageHelpers? = nil) -> DocumentResult
    {
        switch begin(document, pageWorkers: pageWorkers, helpers: helpers, park: false) {
        case .done(let result): return result
        case .parked(let parked): return conclude(parked)
        }
    }

    /// A document after its stages: its result, or (`park`) the document with deferred work left.
    enum Begun: Sendable {
        case done(DocumentResult)
        case parked(ParkedDocument)
    }

    /// Runs every stage on one document. With `park`, stages may defer work (`Job.defer`): the
    /// document is then returned parked, its opened files closed, to be finished by `conclude`.
    /// Deferred work is finished before a stage that reads the findings so far.
    func begin(_ document: InputDocument, pageWorkers: Int, helpers: PageHelpers?, park: Bool) -> Begun {
        if let refused = refusal(document) { return .done(refused) }
        var job = Job(
            source: document.path, relativePath: document.relativePath, outputDirectory: outputDirectory,
            inputRoot: inputRoot)
        job.outputStem = document.outputStem
        job.context = context
        job.allowsDeferral = park
        let parked = ParkedDocument(job: job, relativePath: document.relativePath)
        parked.stamp = ResultStore.InputStamp.of(file: document.path, relativePath: document.relativePath)
        // A file that ends in a hole (gigabytes that were never written: a sparse file, a copy
        // cut short) sends qpdf's and poppler's recovery through every byte of it, for minutes.
        // Nothing in a hole is PDF: the document is read from a copy of what was written.
        if let hole = SparseFiles.trailingHole(document.path), hole.size >= SparseFiles.minimumHole {
            let copy = NSTemporaryDirectory() + "pdfpipe-trimmed-\(UUID().uuidString).pdf"
            if SparseFiles.copyPrefix(of: document.path, bytes: hole.dataEnd, to: copy) {
                parked.trimmedCopy = copy
                job.workingFile = copy
                job.report(
                    Finding(
                        rule: .pdfDamaged,
                        message:
                            "the file ends with \(SparseFiles.size(hole.size)) never written (a sparse hole after its data: a copy cut short or a damaged file system); it was read without the hole"
                    ))
            }
        }
        job.pageWorkers = pageWorkers
        job.pageHelpers = helpers
        job.ruleLevels = pipeline.ruleLevels
        job.force = pipeline.force
        job.offline = pipeline.offline
        runStages(&job, into: parked)
        job.finishPendingFindings()
        job.pageHelpers = nil
        parked.job = job
        guard park, !job.deferred.isEmpty else { return .done(conclude(parked)) }
        // Parked: what the stages opened on the file is closed (a parked document must not hold
        // a document's memory); what the deferred work needs it keeps itself.
        job.resources.removeAll()
        return .parked(parked)
    }

    /// The pipeline's stages over `job`, in order, each timed; after a failure the rest are skipped.
    private func runStages(_ job: inout Job, into state: ParkedDocument) {
        for configured in pipeline.stages {
            if state.status == .failed {
                state.skipped.append(configured.label)
                continue
            }
            if type(of: configured.stage).descriptor.readsEarlierFindings { job.joinDeferred() }
            // The stage instance: a stage listed twice reports as `id` and `id#2`.
            job.stage = configured.label
            job.stageRules = Set(
                (CoreRules.document + type(of: configured.stage).descriptor.rules + CoreRules.process).map(\.id))
            let t0 = SystemClock.uptimeNanoseconds
            defer { state.timings[configured.label] = SystemClock.seconds(since: t0) }
            do {
                try configured.stage.run(&job)
                job.flushPendingFindings()
            } catch let failure as DocumentFailure {
                job.flushPendingFindings()
                job.report(Finding(rule: failure.rule, object: failure.object, message: failure.message))
                state.status = .failed
            } catch {
                job.flushPendingFindings()
                job.report(Finding(rule: .stageFailed, message: "stage '\(configured.id)' failed: \(error)"))
                state.status = .failed
            }
        }
    }

    /// A document's result once its deferred work is done (waiting for what is not ready yet).
    func conclude(_ parked: ParkedDocument) -> DocumentResult {
        var job = parked.job
        job.joinDeferred()
        if let copy = parked.trimmedCopy { FileSystem.unlink(copy) }
        // Stages that did not run because an earlier one ended the document, named in the report.
        if !parked.skipped.isEmpty { job.setSection(SkippedStagesSection(parked.skipped)) }
        if let changed = Self.change(of: job.source, since: parked.stamp) {
            return DocumentResult(
                path: parked.relativePath, status: .failed, pageCount: nil,
                findings: [
                    Finding(
                        rule: .pdfChangedDuringRun,
                        message: "the file changed while it was read (\(changed)); its results are not kept")
                ],
                artifacts: [], timings: parked.timings, sections: [:])
        }
        var result = DocumentResult(
            path: parked.relativePath, status: parked.status, pageCount: job.pageCount,
            findings: finish(job), artifacts: job.artifacts, timings: parked.timings,
            sections: job.sections)
        if sourceMapping != nil, let boxes = job.products[PageBoxes.self] { result.pageBoxes.value = boxes.flat }
        return result
    }

    /// How the file at `path` differs from `stamp` (size, modification time), or nil when it does not.
    static func change(of path: String, since stamp: ResultStore.InputStamp?) -> String? {
        guard let stamp else { return nil }
        guard let now = ResultStore.InputStamp.of(file: path, relativePath: stamp.path) else {
            return "it is gone"
        }
        if now.size != stamp.size { return "\(stamp.size) bytes when its turn came, \(now.size) bytes at the end" }
        if now.mtime != stamp.mtime { return "modified while it was read, same size" }
        return nil
    }

    /// A document that is never opened (its name is not UTF-8, it is missing, it is not a regular
    /// file): its result, every stage skipped; nil for a document to process.
    func refusal(_ document: InputDocument) -> DocumentResult? {
        let why: String
        if document.undecodableName {
            why =
                "the file name is not valid UTF-8 (shown with \\xNN for its bytes); pdfpipe cannot open it by that name: rename it"
        } else if document.missing {
            why = "the input does not exist"
        } else if let kind = FileKinds.notRegular(document.path) {
            // A FIFO, a device or a link to one (`/dev/zero`) would be read forever; never opened.
            why = "the input is \(kind), not a regular file; pdfpipe does not open it"
        } else {
            return nil
        }
        return DocumentResult(
            path: document.relativePath, status: .failed, findings: [Finding(rule: .pdfUnreadable, message: why)],
            artifacts: [], timings: [:],
            sections: [SkippedStagesSection.key: SkippedStagesSection(pipeline.stages.map(\.label)).json])
    }

    /// Applies the pipeline's rule levels and fills in page labels.
    func finish(_ job: Job) -> [Finding] {
        job.effectiveFindings.map { f in
            var f = f
            if f.pageLabel == nil, let page = f.page, let labels = job.pageLabels, page >= 1, page <= labels.count {
                f.pageLabel = labels[page - 1]
            }
            return f
        }
    }
}

/// Sparse files (`SystemIO` finds the hole): the copy without it, and sizes for messages.
extension SparseFiles {
    /// Copies the first `bytes` bytes of `path` to `copy`; false when it cannot.
    package static func copyPrefix(of path: String, bytes: Int, to copy: String) -> Bool {
        guard let input = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? input.close() }
        guard FileSystem.write([], to: copy),
            let output = FileHandle(forWritingAtPath: copy)
        else { return false }
        defer { try? output.close() }
        var left = bytes
        var written = 0
        var end = 0  // after the last byte that is not NUL: the hole's block is padded with them
        while left > 0 {
            guard let chunk = try? input.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty else { break }
            guard (try? output.write(contentsOf: chunk)) != nil else { return false }
            if let last = chunk.lastIndex(where: { $0 != 0 }) { end = written + (last - chunk.startIndex) + 1 }
            written += chunk.count
            left -= chunk.count
        }
        return (try? output.truncate(atOffset: UInt64(end))) != nil
    }

    /// `2 GiB`, `12 MiB`.
    package static func size(_ n: Int) -> String {
        let (unit, scale) = n >= 1 << 30 ? ("GiB", Double(1 << 30)) : ("MiB", Double(1 << 20))
        return "\(JSONWriter.format((Double(n) / scale * 10).rounded() / 10)) \(unit)"
    }
}
