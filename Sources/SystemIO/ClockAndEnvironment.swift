import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The clocks and the environment, one door each (#64), as the system calls on files are
// (`SystemCalls`): the program reads the time through `SystemClock` and its variables through
// `Environment`, never `Date()`, `DispatchTime.now()` or `ProcessInfo`'s environment, so that
// `scripts/shape.py` can count what reads them elsewhere (0) and a debug build's test can put a
// clock or a variable in place (`withWallClock`, `withVariables`), as swift-system's mocking does.
// Release builds read the C library directly: no lock on a clock read.

/// The clocks.
package enum SystemClock {
    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`, what `DispatchTime` reads on Linux):
    /// for durations and deadlines; it never goes back, and means nothing across processes.
    package static var uptimeNanoseconds: UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// Seconds on the monotonic clock.
    package static var uptime: Double { Double(uptimeNanoseconds) / 1e9 }

    /// Seconds since `start` (an `uptimeNanoseconds` value), on the monotonic clock.
    package static func seconds(since start: UInt64) -> Double {
        let now = uptimeNanoseconds
        return now > start ? Double(now - start) / 1e9 : 0
    }

    /// The wall clock: stamps in reports, a cache entry's age. It may jump (NTP, a user).
    package static var now: Date {
        #if DEBUG
            if let fixed = fixedWall.withLock({ $0 }) { return Date(timeIntervalSince1970: fixed) }
        #endif
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Date(timeIntervalSince1970: Double(t.tv_sec) + Double(t.tv_nsec) / 1e9)
    }

    #if DEBUG
        private static let fixedWall = Mutex<Double?>(nil)

        /// Runs `body` with the wall clock stopped at `seconds` since 1970 (debug builds only).
        package static func withWallClock<R>(_ seconds: Double, _ body: () throws -> R) rethrows -> R {
            let old = fixedWall.withLock { f in
                defer { f = seconds }
                return f
            }
            defer { fixedWall.withLock { $0 = old } }
            return try body()
        }
    #endif
}

/// The process's environment variables.
package enum Environment {
    /// The value of variable `name`, or nil when it is not set.
    package static subscript(_ name: String) -> String? {
        #if DEBUG
            if let replaced = replaced.withLock({ $0[name] }) { return replaced }
        #endif
        return getenv(name).map { String(cString: $0) }
    }

    /// Every variable, by name (for a child process's environment, or a parser given them all).
    package static var all: [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                out[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            p += 1
        }
        #if DEBUG
            for (name, value) in replaced.withLock({ $0 }) { out[name] = value }
        #endif
        return out
    }

    #if DEBUG
        private static let replaced = Mutex<[String: String?]>([:])

        /// Runs `body` with `variables` in place (a nil value: unset), debug builds only.
        package static func withVariables<R>(_ variables: [String: String?], _ body: () throws -> R) rethrows -> R {
            let old = replaced.withLock { r in
                defer { r.merge(variables) { _, new in new } }
                return r
            }
            defer { replaced.withLock { $0 = old } }
            return try body()
        }
    #endif
}
