/// Files a document's links name that may not be on local disk yet: with a batch in object
/// storage (`s3://`), the run's inputs are fetched into a staging folder one document at a time,
/// so the file a GoToR or file link names (another object of the store) is fetched when a check
/// first asks for it, and kept for the rest of the run. Without a fetcher installed (a batch on
/// local disk), `ensure` does nothing.
import Foundation
import SystemIO

package enum LocalCopies {
    private static let fetcher = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Installs what fetches a path (the object storage run's), or nil to remove it.
    package static func install(_ fetch: (@Sendable (String) -> Void)?) { fetcher.withLock { $0 = fetch } }

    /// Makes `path` present locally if the run's inputs live elsewhere and have it; call before
    /// asking the file system whether a link's file exists.
    package static func ensure(_ path: String) {
        guard let fetch = fetcher.withLock({ $0 }) else { return }
        fetch(path)
    }

    /// `FileSystem.kind` after `ensure`: what a link's file is, if it is there (fetched if need
    /// be); symbolic links followed.
    package static func kind(_ path: String) -> FileStatus.Kind? {
        ensure(path)
        return FileSystem.kind(path)
    }
}
