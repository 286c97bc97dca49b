import Dispatch
import PDFBridge
import PDFPipeCore
import Synchronization

/// What one page worker holds: its own document, and its own file writer.
final class PageWorker {
    let document: any EngineDocument
    let files = FileReplacer()
    /// Work on `document` was left running past a time budget (`EngineDeadline`): the document is
    /// still in use on that thread, so this worker takes no more pages.
    var abandoned = false
    /// Where this worker's engine work with a time budget runs (`EngineDeadline`), made when first asked.
    private(set) lazy var engineThread = EngineThread()
    init(document: any EngineDocument) { self.document = document }
}

/// The pages of one document, on one thread or several.
enum PageWorkers {
    /// The next page index to hand out (a class: an `Atomic` cannot be captured by an escaping closure).
    private final class Counter: Sendable {
        let next = Atomic<Int>(0)
    }

    /// A worker with its own document (a C handle is never shared between threads); nil when the
    /// engine cannot open the file again, which `failed` keeps.
    static func openWorker(_ engine: PageEngine, _ path: String, failed: Locked<String?>) -> PageWorker? {
        do {
            let document = try engine.open(path)
            // What the engine says while opening, the job's own document said already.
            _ = document.drainMessages()
            return PageWorker(document: document)
        } catch {
            failed.withLock { $0 = "\(error)" }
            return nil
        }
    }

    /// Calls `body(worker, k)` for every `k` in `0..<count` and returns the engine's messages page
    /// by page.
    ///
    /// With one worker, the pages are done on this thread with `first` (the job's document); with
    /// more, each worker thread opens its own document of `path` with `engine` (one document used by two
    /// threads crashes in cairo). The indices are handed out one at a time from a shared counter, not
    /// in contiguous runs: the pages of real manuals differ tenfold in cost, and the two halves of
    /// hyperref.pdf render in 0.53 s and 0.98 s, so with runs one of two threads sat idle for a third
    /// of the time. A document of `offerFrom` pages or more also offers its pages to the run's idle
    /// workers (`helpers`, see `PageHelpers`). `body` stores its result at index `k`, so results do
    /// not depend on who did which page.
    static func run(
        first: any EngineDocument, engine: PageEngine = .poppler, path: String, count: Int, workers: Int,
        helpers: PageHelpers?,
        offerFrom: Int,
        _ body: @Sendable (PageWorker, Int) -> Void
    ) throws(DocumentFailure) -> [[String]] {
        let counter = Counter()
        let messages = Locked([[String]](repeating: [], count: count))
        let failed = Locked<String?>(nil)
        _ = first.drainMessages()  // what came before is the stages' that used it
        withoutActuallyEscaping(body) { body in
            @Sendable func work(_ worker: PageWorker, keepGoing: () -> Bool = { true }) {
                while keepGoing() {
                    let k = counter.next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < count else { return }
                    body(worker, k)
                    if worker.abandoned { return }
                    let m = worker.document.drainMessages()
                    if !m.isEmpty { messages.withLock { $0[k] = m } }
                }
            }
            @Sendable func open() -> PageWorker? { openWorker(engine, path, failed: failed) }
            @Sendable func left() -> Bool { counter.next.load(ordering: .relaxed) < count }
            let assist: @Sendable (@escaping @Sendable () -> Bool) -> Void = { more in
                if left(), more(), let w = open() { work(w, keepGoing: more) }
            }
            let offer = count >= offerFrom ? helpers?.offer(hasWork: left, assist: assist) : nil
            if workers <= 1 {
                work(PageWorker(document: first))
            } else {
                DispatchQueue.concurrentPerform(iterations: min(workers, count)) { _ in
                    if let w = open() { work(w) }
                }
            }
            if let offer { helpers?.withdraw(offer) }
        }
        // A helper that could not open the file left its pages to the others; only a document that
        // no worker could open is a failure.
        if let f = failed.withLock({ $0 }), counter.next.load(ordering: .relaxed) < count {
            throw DocumentFailure(
                rule: .pdfUnreadable,
                message: "\(engine == .mupdf ? "MuPDF" : "poppler") cannot open the file again: \(f)")
        }
        return messages.withLock { $0 }
    }
}
