import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// (#30, 3) The release workflow cannot run here (it needs GitHub and its registry); what can be
/// held is held: it parses, runs on version tags, builds with the scripts and the Dockerfile that
/// the tests run (DebPackageTests, ImageTests), passes the Dockerfile the arguments it declares,
/// and publishes what the README says users pull.
final class ReleaseWorkflowTests: XCTestCase {
    func testTheReleaseWorkflowUsesWhatTheTestsBuild() throws {
        let script = """
            import json, sys, yaml
            w = yaml.safe_load(open(sys.argv[1]))
            on = w.get(True) or w.get("on")
            runs = [s.get("run", "") for j in w["jobs"].values() for s in j["steps"]]
            print(json.dumps({"tags": on["push"]["tags"], "jobs": list(w["jobs"]), "runs": "\\n".join(runs)}))
            """
        let r = try ExternalTool.run(
            "/usr/bin/python3", ["-c", script, Repo.root + "/.github/workflows/release.yml"], mergingErrors: false)
        XCTAssertEqual(r.status, 0, r.output)
        let w = try JSONParser.parse(r.output)
        // (#42, 2) Full versions start a release; the major tag (`@v0`) is moved after it is
        // published, and pushing it starts nothing (GitHub's filter: `+` is one or more).
        XCTAssertEqual(w["tags"], ["v[0-9]+.[0-9]+.[0-9]+"])
        let filter = try NSRegularExpression(pattern: "^v[0-9]+\\.[0-9]+\\.[0-9]+$")
        func starts(_ tag: String) -> Bool {
            filter.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)) != nil
        }
        XCTAssertTrue(starts("v\(PDFPipeVersion.string)"))
        XCTAssertFalse(starts("v0"))
        XCTAssertEqual(w["jobs"], ["package", "image", "publish", "major-tag"])
        let runs = w["runs"]?.stringValue ?? ""
        XCTAssertTrue(runs.contains("major=${GITHUB_REF_NAME%%.*}") && runs.contains("git push -f origin"), runs)
        XCTAssertTrue(runs.contains("bash scripts/build-deb.sh"))
        XCTAssertTrue(runs.contains("sha256sum"))
        XCTAssertTrue(runs.contains("docker build --build-arg VERSION="))
        let dockerfile = try String(contentsOfFile: Repo.root + "/Dockerfile", encoding: .utf8)
        for arg in ["VERSION", "REVISION", "SOURCE"] {
            XCTAssertTrue(dockerfile.contains("ARG \(arg)"), "the Dockerfile declares \(arg)")
            XCTAssertTrue(runs.contains("--build-arg \(arg)="), "the workflow passes \(arg)")
        }
        // What users pull: the image the action names and the README documents.
        let action = try String(contentsOfFile: Repo.root + "/action.yml", encoding: .utf8)
        XCTAssertTrue(action.contains("image: docker://ghcr.io/pdfpipe/pdfpipe:\(PDFPipeVersion.string)"), action)
        let readme = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("ghcr.io/pdfpipe/pdfpipe:\(PDFPipeVersion.string)"))
    }
}
