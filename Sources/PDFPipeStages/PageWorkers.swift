import Dispatch
import PDFBridge
import PDFPipeCore
import Synchronization

/// What one page worker holds: its own document, and its own file writer.
final class PageWorker {
    let document: PopplerFile
    let files = FileReplacer()
    init(document: PopplerFile) { self.document = document }
}

/// The pages of one document on several threads.
enum PageWorkers {
    /// Calls `body(document, k)` for every `k` in `0..<count` on `workers` threads, each with its own
    /// `PopplerFile` of `path` (one document used by two threads crashes in cairo).
    ///
    /// The indices are handed out one at a time from a shared counter, not in contiguous runs: the
    /// pages of real manuals differ tenfold in cost, and the two halves of hyperref.pdf render in
    /// 0.53 s and 0.98 s, so with runs one of two threads sat idle for a third of the time. Whatever
    /// order the pages are done in, `body` stores its result at index `k`, so results do not depend
    /// on the scheduling.
    static func run(path: String, count: Int, workers: Int, _ body: @Sendable (PageWorker, Int) -> Void) throws(DocumentFailure) {
        let next = Atomic<Int>(0)
        let failed = Mutex<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: min(workers, count)) { _ in
            let document: PopplerFile
            do {
                document = try PopplerFile(path: path)
            } catch {
                failed.withLock { $0 = "\(error)" }
                return
            }
            // What poppler said while opening is the job's own document's to report (the same file).
            _ = document.log.drain()
            let worker = PageWorker(document: document)
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                body(worker, k)
            }
        }
        if let f = failed.withLock({ $0 }) { throw DocumentFailure(rule: "pdf.unreadable", message: "poppler cannot open the file again: \(f)") }
    }
}
