import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#21, 8) Every command of the README runs. The `sh` blocks of "Using it in CI" are run by
/// `ReadmeRecipeTests` (as a CI system would); every other `sh` block is run here, from the README's
/// own text, block after block with `bash -e`, in one scratch folder that holds the samples and the
/// pipelines, with the build under test first on `PATH`. A block must exit 0 (the README writes
/// `|| true` where findings are expected) and pdfpipe must not have refused anything. The few
/// commands that cannot run inside the test suite are named below with the test that runs them
/// instead; a README command that is neither run here nor named there fails this test.
final class ReadmeCommandTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Commands run elsewhere, and where.
    static let runElsewhere: [String: String] = [
        "bash scripts/test.sh": ".ci/run (it is the test suite itself; checked below)",
        "bash scripts/build-deb.sh": "DebPackageTests.testThePackageInstallsIntoACleanRootAndRunsTheDemo",
        "sudo apt-get install ./out/deb/pdfpipe_\(PDFPipeVersion.string)_amd64.deb":
            "DebPackageTests (dpkg --root into a fresh root)",
        "bash scripts/setup.sh --mupdf": "scripts/test.sh (setup.sh --test --mupdf)",
        "bash scripts/build-image.sh": "ImageTests.testTheImageIsBuiltLoadedAndGivesTheHostsReport",
        "array=$(sbatch --parsable contrib/slurm/pdfpipe-array.sbatch link-audit samples --offline)":
            "SlurmTests (scripts/slurm-e2e.sh submits the same files on a real Slurm)",
        "sbatch --dependency=afterany:$array contrib/slurm/pdfpipe-merge.sbatch": "SlurmTests",
        #"podman run --rm --user "$(id -u):$(id -g)" -v "$PWD":/github/workspace localhost/pdfpipe:0.1.0 run link-audit samples --offline --out out/image || true"#:
            "ImageTests (the samples through a bind mount, and --user)",
        "swift build -c release --traits MuPDF --scratch-path .build/mupdf":
            "scripts/test.sh (the same trait and folder, a debug build) and bench/engines.sh (this release build)",
        ".build/mupdf/release/pdfpipe stages | grep engine":
            "EngineTests.testTheEngineOptionIsListedOnlyWhereItIsBuiltIn, in both builds",
        "pdfpipe run link-audit s3://docs/pdf --shard auto --out s3://docs/audit":
            "ObjectStorageTests, KubernetesTests and AWSBatchTests (the same commands against moto's S3 on loopback, as tasks of an array)",
        "pdfpipe merge s3://docs/audit --out s3://docs/audit/merged":
            "ObjectStorageTests.testShardsInTheStoreMergeIntoTheLocalRunsReport and the engines' tests",
    ]

    /// The `sh` blocks of the README outside the CI section, each as its lines.
    static func blocks() throws -> [[String]] {
        // The README and the reference it links to (docs/reference.md, with its own sh blocks).
        let text =
            try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8) + "\n"
            + String(contentsOfFile: Repo.root + "/docs/reference.md", encoding: .utf8)
        var blocks: [[String]] = []
        var section = ""
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("## ") { section = line }
            if line == "```sh" {
                current = []
            } else if line.hasPrefix("```"), let c = current {
                if section != "## Using it in CI" { blocks.append(c) }
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The README's example outputs (`text` blocks), each with the `sh` block before it (by its
    /// index among `blocks()`).
    static func examples() throws -> [Int: [String]] {
        let text = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        var examples: [Int: [String]] = [:]
        var shBlocks = -1
        var section = ""
        var current: [String]?
        var isText = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("## ") { section = line }
            if current == nil, line == "```sh" || line == "```text" {
                isText = line == "```text"
                if !isText, section != "## Using it in CI" { shBlocks += 1 }
                current = []
            } else if line.hasPrefix("```"), let c = current {
                if isText, shBlocks >= 0 { examples[shBlocks] = c }
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return examples
    }

    /// An example's lines are what the command printed: a line without "…" is a line of the
    /// output; a line with one is a line that starts with what comes before it ("…" alone, or
    /// first, stands for lines left out).
    static func assertExample(_ example: [String], output: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = output.split(separator: "\n").map(String.init)
        for e in example {
            if let cut = e.range(of: "…") {
                let head = String(e[..<cut.lowerBound])
                if head.isEmpty {
                    let tail = e.dropFirst().trimmingCharacters(in: .whitespaces)
                    guard !tail.isEmpty else { continue }
                    XCTAssertTrue(
                        lines.contains { $0.hasPrefix("…") && $0.contains(tail) },
                        "README example line '\(e)' not in:\n\(output)",
                        file: file, line: line)
                } else {
                    XCTAssertTrue(
                        lines.contains { $0.hasPrefix(head) }, "README example line '\(e)' not in:\n\(output)",
                        file: file,
                        line: line)
                }
            } else {
                XCTAssertTrue(
                    lines.contains(e), "README example line '\(e)' not in:\n\(output)", file: file, line: line)
            }
        }
    }

    /// A command line without its comment.
    static func command(_ line: String) -> String {
        var s = line
        if let r = s.range(of: "  #") ?? s.range(of: " # ") { s = String(s[..<r.lowerBound]) }
        return s.trimmingCharacters(in: .whitespaces)
    }

    func testEveryCommandOfTheReadmeRuns() throws {
        let fm = FileManager.default
        try fm.copyItem(atPath: Repo.root + "/samples", toPath: dir + "/samples")
        try fm.copyItem(atPath: Repo.root + "/pipelines", toPath: dir + "/pipelines")
        try fm.createSymbolicLink(atPath: dir + "/scripts", withDestinationPath: Repo.root + "/scripts")
        try fm.createDirectory(atPath: dir + "/.build", withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: dir + "/.build/report-schemas", withDestinationPath: Repo.root + "/.build/report-schemas")
        let exe = try Repo.executable()
        let bin = (exe as NSString).deletingLastPathComponent
        let blocks = try Self.blocks()
        let examples = try Self.examples()
        XCTAssertGreaterThanOrEqual(blocks.count, 8, "the README's sh blocks were found")
        XCTAssertFalse(examples.isEmpty, "the README's example outputs were found")
        var ran: [String] = []
        for (index, block) in blocks.enumerated() {
            var script = ["set -e", "cd '\(dir)'"]
            for line in block {
                let c = Self.command(line)
                guard !c.isEmpty else { continue }
                if let elsewhere = Self.runElsewhere[c] {
                    script.append("# \(c): run by \(elsewhere)")
                    continue
                }
                XCTAssertFalse(c.hasPrefix("sudo "), "\(c): a README command that needs root and is run by no test")
                script.append(line)
                ran.append(c)
            }
            let r = try ExternalTool.run(
                "/bin/bash", ["-c", script.joined(separator: "\n")],
                environment: [
                    "PATH": "\(bin):" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                    "PDFPIPE_BIN": exe, "NO_COLOR": "1",
                ])
            XCTAssertEqual(
                r.status, 0, "README block failed:\n\(block.joined(separator: "\n"))\n\(r.output.suffix(3000))")
            XCTAssertFalse(
                r.output.contains("pdfpipe: error:"),
                "pdfpipe refused a README command:\n\(block.joined(separator: "\n"))\n\(r.output.suffix(3000))")
            if let example = examples[index] { Self.assertExample(example, output: r.output) }
        }
        // What the commands leave behind, as the README says.
        for file in [
            "out/demo/report.json", "out/demo/report.html", "pdfpipe.json", "pipeline.schema.json",
            "out/tutorial/report.html",
            "out/broken-link-report/report.html", "out/broken-link-report/thumbnails/broken-links/1.png",
            "out/thumbs/images/broken-links/1.png",
            "out/text/report.json", "out/audit/junit.xml", "out/isolated/report.json",
        ] {
            XCTAssertTrue(fm.fileExists(atPath: dir + "/" + file), "\(file) is missing after the README's commands")
        }
        XCTAssertTrue(ran.contains("bash scripts/demo.sh"))
        XCTAssertTrue(ran.contains { $0.hasPrefix("pdfpipe init --for link-audit") })
        // The commands run elsewhere are in the README, and .ci/run is the README's test command.
        let all = blocks.flatMap { $0 }.map(Self.command)
        for c in Self.runElsewhere.keys {
            XCTAssertTrue(all.contains(c), "\(c) is no longer in the README: update runElsewhere")
        }
        let ci = try String(contentsOfFile: Repo.root + "/.ci/run", encoding: .utf8)
        XCTAssertTrue(
            ci.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "bash scripts/test.sh" }, ci
        )
    }
}
