import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#30, 1) The OCI image, built without a registry by `scripts/build-image.sh` (mmdebstrap and
/// podman, from Debian's packages): loadable from its archive, at most 250 MB, configured as GitHub
/// container actions need it, and giving the host binary's report on the samples through a bind
/// mount; with `--user`, the outputs belong to that user. The Dockerfile (for registries) is built
/// too, on a debian:bookworm-slim tagged locally from a Debian root file system.
final class ImageTests: XCTestCase {
    var dir = ""
    let conf = Repo.root + "/image/containers.conf"

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func sh(_ command: String) throws -> (status: Int32, output: String) {
        try ExternalTool.run(
            "/bin/bash", ["-c", command], environment: ["CONTAINERS_CONF": conf, "LD_LIBRARY_PATH": ""])
    }

    /// A scratch workspace at `path` with the samples and the pipelines, as a repository checkout
    /// would have them, owned by `owner` when given.
    func workspace(_ path: String, owner: String? = nil) throws -> String {
        let chown = owner.map { " && chown -R \($0) '\(path)'" } ?? ""
        let r = try sh("mkdir -p '\(path)' && cp -r '\(Repo.root)/samples' '\(Repo.root)/pipelines' '\(path)/'\(chown)")
        XCTAssertEqual(r.status, 0, r.output)
        return path
    }

    func findings(_ report: JSONValue) -> [String] {
        (report["documents"]?.arrayValue ?? []).flatMap { d in
            (d["findings"]?.arrayValue ?? []).map {
                "\(d["path"]?.stringValue ?? "") \($0["rule"]?.stringValue ?? "") \($0["page"]?.intValue ?? 0) \($0["message"]?.stringValue ?? "")"
            }
        }
    }

    func testTheImageIsBuiltLoadedAndGivesTheHostsReport() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/podman") else {
            throw Prerequisite.missing("podman is not installed (scripts/setup.sh --test installs it)")
        }
        let build = try sh(
            "cd '\(Repo.root)' && PDFPIPE_BUILD_OUT='\(dir)/context/out' bash scripts/build-image.sh 2>&1")
        XCTAssertEqual(build.status, 0, String(build.output.suffix(3000)))
        let version = PDFPipeVersion.string
        let archive = dir + "/context/out/image/pdfpipe-\(version).tar"
        let tag = "localhost/pdfpipe:\(version)"
        // Loadable from the archive alone.
        XCTAssertEqual(try sh("podman rmi -f \(tag) >/dev/null 2>&1; podman load -q -i '\(archive)'").status, 0)
        let size =
            Int(
                try sh("podman image inspect \(tag) --format '{{.Size}}'").output.trimmingCharacters(
                    in: .whitespacesAndNewlines)) ?? .max
        XCTAssertLessThanOrEqual(size, 250 << 20, "\(size >> 20) MB")
        // Configured as container actions need it.
        let config = try JSONParser.parse(try sh("podman image inspect \(tag) --format '{{json .Config}}'").output)
        XCTAssertEqual(config["Entrypoint"], ["pdfpipe"])
        XCTAssertEqual(config["WorkingDir"], "/github/workspace")
        XCTAssertTrue(config["Env"]?.arrayValue?.contains("LANG=C.UTF-8") == true, "\(config)")
        XCTAssertEqual(config["User"]?.stringValue ?? "", "", "root, as GitHub requires of container actions")
        let labels = config["Labels"]
        XCTAssertEqual(labels?["org.opencontainers.image.version"]?.stringValue, version)
        XCTAssertEqual(labels?["org.opencontainers.image.licenses"], "GPL-3.0-or-later")
        XCTAssertNotNil(labels?["org.opencontainers.image.revision"])
        XCTAssertNotNil(labels?["org.opencontainers.image.source"])

        // The samples through a bind mount: the host binary's exit code and findings.
        let ws = try workspace(dir + "/ws")
        let inImage = try sh(
            "podman run --rm --network none -v '\(ws)':/github/workspace \(tag) run pipelines/link-audit.json samples --offline --out out/image --quiet; echo \"exit=$?\""
        )
        XCTAssertTrue(inImage.output.contains("exit=1"), inImage.output)
        let host = try sh(
            "cd '\(ws)' && '\(try Repo.executable())' run pipelines/link-audit.json samples --offline --out out/host --quiet; echo \"exit=$?\""
        )
        XCTAssertTrue(host.output.contains("exit=1"), host.output)
        let a = try Repo.stableReport(ws + "/out/image/report.json")
        let b = try Repo.stableReport(ws + "/out/host/report.json")
        XCTAssertEqual(a["summary"], b["summary"])
        XCTAssertEqual(findings(a), findings(b))
        XCTAssertGreaterThan(findings(a).count, 40)

        // With --user, the outputs belong to that user (here nobody, owner of the workspace).
        let other = try workspace(dir + "/other", owner: "65534:65534")
        let asUser = try sh(
            "podman run --rm --network none --user 65534:65534 -v '\(other)':/github/workspace \(tag) run pipelines/link-audit.json samples --offline --out out/mine --quiet; stat -c '%u:%g' '\(other)/out/mine/report.json'"
        )
        XCTAssertTrue(asUser.output.hasSuffix("65534:65534\n"), asUser.output)

        // The action's entrypoint in the image, with the variables and mounts a GitHub runner gives a
        // container action (inputs as INPUT_<NAME>, hyphens kept): annotations, the step summary,
        // the outputs, and the gate's exit code.
        let gh = dir + "/gh"
        let docs = try workspace(gh + "/workspace/docs")
        let exe = try Repo.executable()
        XCTAssertEqual(
            try sh(
                "mkdir -p '\(gh)/file_commands' && : > '\(gh)/file_commands/summary' && : > '\(gh)/file_commands/output' && cd '\(docs)' && '\(exe)' run pipelines/link-audit.json samples --offline --out first --quiet >/dev/null; '\(exe)' baseline first/report.json --out baseline.json >/dev/null"
            ).status, 0)
        let action = try sh(
            """
            podman run --rm --network none --entrypoint /usr/share/pdfpipe/github-action.sh \\
              -v '\(gh)/workspace':/github/workspace -v '\(gh)/file_commands':/github/file_commands \\
              -e GITHUB_ACTIONS=true -e GITHUB_WORKSPACE=/github/workspace \\
              -e GITHUB_STEP_SUMMARY=/github/file_commands/summary -e GITHUB_OUTPUT=/github/file_commands/output \\
              -e INPUT_PIPELINE=pipelines/link-audit.json -e INPUT_INPUTS=samples -e INPUT_ARGS=--offline \\
              -e 'INPUT_FAIL-ON=warning' -e INPUT_FORMAT=codequality -e INPUT_BASELINE=baseline.json \\
              -e 'INPUT_WORKING-DIRECTORY=docs' \(tag); echo "exit=$?"
            """)
        XCTAssertTrue(
            action.output.hasSuffix("exit=0\n"), "nothing new since the baseline: \(action.output.suffix(2000))")
        let outputs = try GitHubActionTests.outputs(gh + "/file_commands/output")
        let report = try Repo.stableReport(gh + "/workspace/docs/out/pdfpipe/report.json")
        XCTAssertEqual(
            outputs.filter {
                ["exit-code", "errors", "warnings", "new", "report-json", "report-sarif", "report-html"].contains(
                    $0.key)
            },
            [
                "exit-code": "0", "errors": "\(report["summary"]?["errors"]?.intValue ?? -1)",
                "warnings": "\(report["summary"]?["warnings"]?.intValue ?? -1)", "new": "0",
                "report-json": "out/pdfpipe/report.json", "report-sarif": "out/pdfpipe/report.sarif",
                "report-html": "out/pdfpipe/report.html",
            ])
        let summary = try String(contentsOfFile: gh + "/file_commands/summary", encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("# pdfpipe: link-audit"), summary)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: gh + "/workspace/docs/out/pdfpipe/gl-code-quality-report.json"))
        // Without the baseline the same findings are new, and the gate fails the step.
        let gate = try sh(
            """
            podman run --rm --network none --entrypoint /usr/share/pdfpipe/github-action.sh \\
              -v '\(gh)/workspace':/github/workspace -e GITHUB_ACTIONS=true -e GITHUB_WORKSPACE=/github/workspace \\
              -e INPUT_INPUTS=samples -e INPUT_ARGS=--offline -e 'INPUT_WORKING-DIRECTORY=docs' \(tag); echo "exit=$?"
            """)
        XCTAssertTrue(gate.output.hasSuffix("exit=1\n"), String(gate.output.suffix(500)))
        XCTAssertTrue(gate.output.contains("::error file=samples/"), "annotations printed")

        // (#42) The first run on a repository with only PDFs, as a non-root user: no inputs at all,
        // the built-in link audit over the workspace, the gate red, annotations and outputs.
        let only = dir + "/pdf-only"
        let prepared = try sh(
            "mkdir -p '\(only)/ws/manual' '\(only)/files' && cp '\(Repo.root)'/samples/*.pdf '\(only)/ws/manual/' && : > '\(only)/files/output' && chown -R 65534:65534 '\(only)'"
        )
        XCTAssertEqual(prepared.status, 0, prepared.output)
        let first = try sh(
            """
            podman run --rm --network none --user 65534:65534 --entrypoint /usr/share/pdfpipe/github-action.sh \\
              -v '\(only)/ws':/github/workspace -v '\(only)/files':/github/file_commands \\
              -e GITHUB_ACTIONS=true -e GITHUB_WORKSPACE=/github/workspace -e GITHUB_OUTPUT=/github/file_commands/output \\
              -e INPUT_OUT=out/pdfpipe -e INPUT_ANNOTATIONS=true -e INPUT_FAIL-IF-EMPTY=true \(tag); echo "exit=$?"
            """)
        XCTAssertTrue(first.output.hasSuffix("exit=1\n"), String(first.output.suffix(1500)))
        XCTAssertTrue(first.output.contains("pdfpipe run link-audit --out out/pdfpipe"), first.output)
        XCTAssertTrue(first.output.contains("::error file=manual/broken-links.pdf"), String(first.output.suffix(1500)))
        XCTAssertTrue(first.output.contains("pdfpipe: links: "), String(first.output.suffix(1500)))
        let firstOutputs = try GitHubActionTests.outputs(only + "/files/output")
        XCTAssertEqual(firstOutputs["exit-code"], "1")
        XCTAssertEqual(firstOutputs["report-json"], "out/pdfpipe/report.json")

        // The Dockerfile, on a local debian:bookworm-slim (a Debian minbase root, as the slim image is).
        let base = try sh(
            """
            podman image exists docker.io/library/debian:bookworm-slim || {
              mmdebstrap --quiet --variant=minbase bookworm '\(dir)/base.tar' &&
              podman import -q '\(dir)/base.tar' docker.io/library/debian:bookworm-slim >/dev/null; } 2>&1
            """)
        XCTAssertEqual(base.status, 0, base.output)
        let docker = try sh(
            "podman build --network host -q --build-arg VERSION=\(version) -t localhost/pdfpipe-dockerfile:test -f '\(Repo.root)/Dockerfile' '\(dir)/context' 2>&1 && podman run --rm --network none localhost/pdfpipe-dockerfile:test --version"
        )
        XCTAssertEqual(docker.status, 0, String(docker.output.suffix(2000)))
        XCTAssertTrue(docker.output.contains("pdfpipe \(version)"), docker.output)
    }
}
