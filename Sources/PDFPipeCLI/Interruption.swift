import Dispatch
import Foundation
import PDFPipeCore

/// SIGINT and SIGTERM: the first stops new documents from starting (the running ones finish and a
/// report marked incomplete is written); a second one ends the process at once.
package final class Interruption: Sendable {
    package static let shared = Interruption()

    private let received = Locked<Int32?>(nil)

    /// The first signal received, if any.
    package var signal: Int32? { received.withLock { $0 } }

    /// Installs the handlers (the executable does; tests running the CLI in-process do not).
    package func install(console: Console) {
        let queue = DispatchQueue(label: "pdfpipe.signals")
        for sig in [SIGINT, SIGTERM] {
            Foundation.signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [self] in
                let first = received.withLock { r -> Bool in
                    if r != nil { return false }
                    r = sig
                    return true
                }
                if first {
                    console.status("\n")
                    console.error(
                        "pdfpipe: stopping: finishing the documents in progress (signal again to stop at once)")
                } else {
                    _exit(128 + sig)
                }
            }
            source.resume()
            // A signal source works as long as it lives, and these serve the whole process:
            // retained once, never released (no global state to share between threads).
            _ = Unmanaged.passRetained(source as AnyObject)
        }
    }
}
