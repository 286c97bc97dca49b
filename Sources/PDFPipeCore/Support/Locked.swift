#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a pthread mutex, for state shared by the run's threads. The value must be
/// Sendable: what `withLock` returns leaves the lock and may be held by another thread.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with futexes inside the prebuilt standard
/// library, which ThreadSanitizer cannot see, so every access it protects is reported as a race
/// and a TSan run of the concurrent code says nothing useful. `pthread_mutex_lock` is intercepted
/// by TSan; the cost is the same (an uncontended lock is one atomic operation either way).
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
