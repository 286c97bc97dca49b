import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#30, 3) `.pre-commit-hooks.yaml`: Debian's pre-commit runs the `pdfpipe` hook from this
/// repository (`try-repo`, the working tree as it is) on a scratch repository's PDFs, with the build
/// under test on PATH: a commit of a sound PDF passes, one of a PDF with broken links fails and says
/// why. (The `pdfpipe-docker` hook runs the same command in the image, which ImageTests tests.)
final class PreCommitTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testTheHookPassesASoundPDFAndFailsABrokenOne() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pre-commit") else {
            throw Prerequisite.missing("pre-commit is not installed (scripts/setup.sh --test installs it)")
        }
        let bin = (try Repo.executable() as NSString).deletingLastPathComponent
        let repo = dir + "/docs"
        func sh(_ command: String) throws -> (status: Int32, output: String) {
            try ExternalTool.run(
                "/bin/bash", ["-c", "cd '\(repo)' && " + command],
                environment: [
                    "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                    "PRE_COMMIT_HOME": dir + "/cache", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                ])
        }
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        XCTAssertEqual(try sh("git init -q && pdfpipe init --for link-audit >/dev/null").status, 0)
        try FileManager.default.copyItem(atPath: Samples.path("links-internal.pdf"), toPath: repo + "/good.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("broken-links.pdf"), toPath: repo + "/bad.pdf")
        XCTAssertEqual(try sh("git add good.pdf bad.pdf pdfpipe.json").status, 0)
        let good = try sh("pre-commit try-repo '\(Repo.root)' pdfpipe --files good.pdf 2>&1")
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.output.contains("pdfpipe link audit") && good.output.contains("Passed"), good.output)
        let bad = try sh("pre-commit try-repo '\(Repo.root)' pdfpipe --files good.pdf bad.pdf 2>&1")
        XCTAssertEqual(bad.status, 1, bad.output)
        XCTAssertTrue(bad.output.contains("Failed"), bad.output)
        XCTAssertTrue(
            bad.output.contains("bad.pdf:1: error: named destination 'no.such.name' does not exist"), bad.output)
        // (#61, 9) The hook's outputs are not left for the next commit: git sees nothing new.
        XCTAssertTrue(FileManager.default.fileExists(atPath: repo + "/.pdfpipe/pre-commit/report.json"))
        let status = try sh("git status --porcelain --untracked-files=all").output
        XCTAssertFalse(status.contains(".pdfpipe"), status)
    }
}
