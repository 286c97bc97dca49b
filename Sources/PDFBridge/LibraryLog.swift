internal import CPoppler
import Foundation

/// Collects the messages poppler logs through `g_log` (domain "Poppler") while a piece of work runs
/// on the current thread, so that they can be attributed to the document being processed. Without
/// a handler glib would print them to stderr at random; with one that only drops them, they would
/// be lost.
package final class LogSink {
    /// Messages kept, in order (at most `limit`).
    package private(set) var messages: [String] = []
    /// Messages beyond `limit`, counted but not kept.
    package private(set) var dropped = 0
    package let limit: Int

    package init(limit: Int = 200) { self.limit = limit }

    func append(_ m: String) {
        if messages.count < limit { messages.append(m) } else { dropped += 1 }
    }

    /// Takes the messages collected so far.
    package func drain() -> (messages: [String], dropped: Int) {
        defer {
            messages = []
            dropped = 0
        }
        return (messages, dropped)
    }

    /// Runs `body` with this sink receiving the current thread's poppler messages.
    package func capture<T>(_ body: () throws -> T) rethrows -> T {
        LibraryLog.install()
        let previous = pthread_getspecific(LibraryLog.key)
        pthread_setspecific(LibraryLog.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(LibraryLog.key, previous) }
        return try body()
    }
}

enum LibraryLog {
    /// The thread's current sink (an unretained `LogSink`).
    static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    private static let installed: Bool = {
        let levels = GLogLevelFlags(
            rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue)
        g_log_set_handler(
            "Poppler", levels,
            { _, _, message, _ in
                guard let raw = pthread_getspecific(LibraryLog.key) else { return }  // outside any capture: dropped
                let sink = Unmanaged<LogSink>.fromOpaque(raw).takeUnretainedValue()
                // poppler says "at position -1" when it has no position to give.
                let text = (message.map { String(cString: $0) } ?? "").replacingOccurrences(
                    of: " at position -1", with: "")
                sink.append(text)
            }, nil)
        return true
    }()

    static func install() { _ = installed }
}
