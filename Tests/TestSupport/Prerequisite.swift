import Foundation
import XCTest

/// A program or file a test needs (chromium, python3, the report schemas) that is missing: on a
/// developer's machine the test is skipped, saying what to install; under `CI=true` (which
/// `scripts/test.sh` sets, after installing everything) it fails instead, so that a suite cannot
/// pass in CI by skipping.
public struct MissingPrerequisite: Error, CustomStringConvertible {
    public let description: String
}

public enum Prerequisite {
    /// The error to throw for a missing prerequisite: an `XCTSkip`, or under `CI=true` a failure.
    public static func missing(_ what: String) -> any Error {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            return MissingPrerequisite(
                description: "\(what) — CI=true: a missing prerequisite fails the test instead of skipping it")
        }
        return XCTSkip(what)
    }
}
