import Dispatch
import PDFPipeCore
import XCTest

@testable import PDFPipeCLI

/// Flags reach commands typed (#64): each `@Flag` property is its own declaration (name, help,
/// pipeline key) and, once parsed, its value — checked by its type and its pipeline key where it
/// is parsed, not where a command reads it.
final class FlagTests: XCTestCase {
    func testValuesArriveTyped() throws {
        let f = try RunFlags.parse([
            "p.json", "--jobs", "3", "in", "--timeout=2.5", "--fail-on", "warning", "--progress", "never", "--force",
            "--out", "o", "--", "--not-a-flag.pdf",
        ])
        XCTAssertEqual(f.operands, ["p.json", "in", "--not-a-flag.pdf"])
        XCTAssertEqual(f.jobs, 3)
        XCTAssertEqual(f.timeout, 2.5)
        XCTAssertEqual(f.failOn, .warning)
        XCTAssertEqual(f.progress, .never)
        XCTAssertEqual(f.out, "o")
        XCTAssertTrue(f.force)
        XCTAssertFalse(f.isolate)
        XCTAssertNil(f.memoryLimit)
        XCTAssertNil(f.baseline)
    }

    func testDefaultsWhenNotGiven() throws {
        let f = try RunFlags.parse(["p.json"])
        XCTAssertEqual(f.progress, .auto)
        XCTAssertNil(f.jobs)
        XCTAssertFalse(f.quiet)
        // Outside a parse, a set holds its defaults (the declarations, for --help).
        XCTAssertEqual(RunFlags().progress, .auto)
        XCTAssertEqual(RunFlags().operands, [])
    }

    /// A value that is not of the flag's type, or that its pipeline key refuses, is an error that
    /// names the flag, as the file's key would be; the first one found is said.
    func testBadValuesAreErrorsNamingTheFlag() {
        func message(_ args: [String]) -> String? {
            do throws(PipelineError) {
                _ = try RunFlags.parse(args)
                return nil
            } catch { return error.message }
        }
        XCTAssertEqual(
            message(["p.json", "--progress", "sometimes"]), "--progress: 'sometimes' is not one of auto, always, never")
        XCTAssertEqual(
            message(["p.json", "--progress", "alway"]),
            "--progress: 'alway' is not one of auto, always, never; did you mean 'always'?")
        // Checked by the pipeline key's declaration (jobs: an integer from 0 to 1024).
        let jobs = message(["p.json", "--jobs", "many"])
        XCTAssertTrue(jobs?.hasPrefix("--jobs: ") == true, jobs ?? "no error")
        let many = message(["p.json", "--jobs", "5000"])
        XCTAssertTrue(many?.hasPrefix("--jobs: ") == true, many ?? "no error")
        XCTAssertNil(message(["p.json", "--jobs", "0"]))
        let failOn = message(["p.json", "--fail-on", "fatal"])
        XCTAssertTrue(failOn?.hasPrefix("--fail-on: ") == true, failOn ?? "no error")
        XCTAssertEqual(message(["p.json", "--force=yes"]), "option '--force' takes no value")
        XCTAssertEqual(message(["p.json", "--out"]), "option '--out' needs a value")
        XCTAssertTrue(message(["p.json", "--quite"])?.contains("did you mean '--quiet'") == true)
        // A worker's numbers are typed too (they were read with `Int.init` and dropped when not one).
        XCTAssertThrowsError(try WorkerFlags.parse(["p.json", "--memory-limit", "lots"]))
        XCTAssertThrowsError(try WorkerFlags.parse(["p.json", "--timeout", "nan"]))
    }

    /// The declarations: in the order written, with their names and placeholders, and `$flag` for
    /// writing a command line back (the worker's).
    func testDeclarations() {
        XCTAssertEqual(
            RunFlags.all.map(\.usage).prefix(4), ["--out DIR", "--jobs N", "--format LIST", "--fail-on LEVEL"])
        XCTAssertEqual(RunFlags.all.first { $0.name == "--progress" }?.value, "auto|always|never")
        XCTAssertEqual(RunFlags.all.first { $0.name == "--jobs" }?.key, "jobs")
        XCTAssertEqual(WorkerFlags().$memoryLimit.name, "--memory-limit")
        XCTAssertEqual(Set(RunFlags.all.map(\.name)).count, RunFlags.all.count)
    }

    /// Parses on many threads at once each see their own command line (the values reach the
    /// `@Flag` initialisers through a task-local value, not a global).
    func testParsesOnManyThreadsDoNotMix() {
        let wrong = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            let n = i % 50 + 1
            guard let f = try? RunFlags.parse(["p\(i).json", "--jobs", "\(n)"]), f.jobs == n,
                f.operands == ["p\(i).json"]
            else { return wrong.withLock { $0 += 1 } }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
    }
}
