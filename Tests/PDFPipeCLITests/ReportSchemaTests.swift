import Foundation
import PDFPipeCore
import TestSupport
import XCTest

/// The CI reports checked against the schemas CI servers use: `junit.xml` against Jenkins' xUnit
/// `junit-10.xsd` (with xmllint), `report.sarif` against the OASIS SARIF 2.1.0 JSON schema (with
/// Debian's python3-jsonschema). `scripts/setup.sh --test` installs both tools and fetches both
/// schemas into `.build/report-schemas/` (scripts/fetch-report-schemas.py, pinned by SHA-256).
final class ReportSchemaTests: XCTestCase {
    var out = ""
    let schemas = Repo.root + "/.build/report-schemas"

    override func setUpWithError() throws {
        for f in ["/usr/bin/xmllint", schemas + "/junit-10.xsd", schemas + "/sarif-schema-2.1.0.json"]
        where !FileManager.default.fileExists(atPath: f) {
            throw Prerequisite.missing(
                "\(f) is missing: scripts/setup.sh --test installs the validators and fetches the schemas")
        }
        out = Repo.temporaryFolder()
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    /// xmllint's verdict on a JUnit file: nil when valid, else its messages.
    func junitErrors(_ path: String) throws -> String? {
        let r = try ExternalTool.run("/usr/bin/xmllint", ["--noout", "--schema", schemas + "/junit-10.xsd", path])
        return r.status == 0 ? nil : r.output
    }

    /// The JSON-schema validator's verdict on a SARIF file: nil when valid, else one line per error.
    func sarifErrors(_ path: String) throws -> String? {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            errors = list(jsonschema.Draft7Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
            for e in errors: print("/".join(map(str, e.absolute_path)) + ": " + e.message[:300])
            sys.exit(1 if errors else 0)
            """
        let r = try ExternalTool.run("/usr/bin/python3", ["-c", script, schemas + "/sarif-schema-2.1.0.json", path])
        return r.status == 0 ? nil : r.output
    }

    /// `--format codequality` (issue 30): GitLab's Code Quality report over the samples, valid
    /// against the format as GitLab documents it (Schemas/gitlab-codequality.schema.json), with a
    /// unique fingerprint per issue (GitLab keeps one issue per fingerprint) that is the finding's
    /// own, and the gate's failures as `critical`.
    func testCodeQualityReportIsValidAndCarriesTheFindings() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "samples", "--offline", "--out", out + "/cq", "--format",
                "json,codequality", "--quiet",
            ]), .findings)
        let path = out + "/cq/gl-code-quality-report.json"
        let script = """
            import json, sys, jsonschema
            errors = list(jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
            for e in errors: print("/".join(map(str, e.absolute_path)) + ": " + e.message[:300])
            sys.exit(1 if errors else 0)
            """
        let schema = Repo.root + "/Tests/PDFPipeCLITests/Schemas/gitlab-codequality.schema.json"
        let r = try ExternalTool.run("/usr/bin/python3", ["-c", script, schema, path])
        XCTAssertEqual(r.status, 0, r.output)
        let issues = try XCTUnwrap(try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8)).arrayValue)
        let report = try JSONParser.parse(String(contentsOfFile: out + "/cq/report.json", encoding: .utf8))
        let findings = (report["documents"]?.arrayValue ?? []).flatMap { d in
            (d["findings"]?.arrayValue ?? []).map { (d["path"]?.stringValue ?? "", $0) }
        }.filter { $0.1["severity"] != "note" }
        XCTAssertEqual(issues.count, findings.count, "one issue per error and warning (notes: with failOn note)")
        XCTAssertEqual(Set(issues.compactMap { $0["fingerprint"]?.stringValue }).count, issues.count)
        XCTAssertEqual(
            Set(issues.compactMap { $0["fingerprint"]?.stringValue }),
            Set(findings.compactMap { $0.1["fingerprint"]?.stringValue }))
        let missing = try XCTUnwrap(issues.first { $0["check_name"] == "dest.name-not-found" })
        XCTAssertEqual(missing["severity"], "critical", "an error fails the gate (failOn error)")
        XCTAssertEqual(missing["location"]?["path"], "samples/broken-links.pdf")
        XCTAssertEqual(missing["location"]?["lines"]?["begin"], 1)
        XCTAssertNil(issues.first { $0["check_name"] == "uri.insecure-scheme" }, "a note")
        XCTAssertEqual(issues.first { $0["check_name"] == "action.launch" }?["severity"], "minor")
    }

    /// Every pipeline that ships, over every sample (damaged, encrypted and garbage files included, so
    /// skipped stages and error findings are in the reports), and a merge of shards: both formats valid.
    func testEveryShippedPipelinesReportsAreValid() throws {
        var runs: [String] = []
        for pipeline in ["default", "link-audit", "broken-link-report", "normalize", "text", "review"] {
            let dir = out + "/" + pipeline
            let code = CapturedCLI().run([
                "run", "pipelines/\(pipeline).json", "samples", "--offline", "--out", dir, "--format",
                "json,junit,sarif", "--quiet",
            ])
            XCTAssertTrue([.clean, .findings].contains(code), "\(pipeline): \(code)")
            runs.append(dir)
        }
        for k in 1...2 {
            XCTAssertTrue(
                CapturedCLI().run([
                    "run", "pipelines/link-audit.json", "--offline", "--shard", "\(k)/2", "--out", out + "/s\(k)",
                    "--quiet",
                ]).rawValue <= 1)
        }
        XCTAssertEqual(
            CapturedCLI().run([
                "merge", out + "/s1/report.json", out + "/s2/report.json", "--out", out + "/merged", "--format",
                "junit,sarif", "--quiet",
            ]), .findings)
        runs.append(out + "/merged")
        // A gate with a baseline and an ignore list (suppressed results, baseline states, a finding
        // about the pipeline file itself).
        try #"""
        {"version": 1, "stages": [{"use": "resolve-destinations"}, {"use": "validate-links"}],
         "ignore": [{"rule": "uri.*", "reason": "legacy"}, {"rule": "action.launch", "reason": "old", "expires": "2020-01-01"}]}
        """#.write(toFile: out + "/gate.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            CapturedCLI().run([
                "run", out + "/gate.json", "samples", "--offline", "--out", out + "/gate", "--format",
                "json,junit,sarif", "--quiet", "--baseline", out + "/link-audit/report.json",
            ]), .clean, "every error is in the baseline")
        runs.append(out + "/gate")

        var findings = 0
        for dir in runs {
            XCTAssertNil(try junitErrors(dir + "/junit.xml"), dir)
            XCTAssertNil(try sarifErrors(dir + "/report.sarif"), dir)
            let sarif = try String(contentsOfFile: dir + "/report.sarif", encoding: .utf8)
            findings += sarif.components(separatedBy: "\"ruleId\"").count - 1
        }
        XCTAssertGreaterThan(findings, 100, "the reports checked have results in them")
    }

    /// (#65) A result that fix-links fixed carries SARIF `fixes` (the change as bytes to append),
    /// valid against the schema, and the Markdown summary names it; offline, a misspelt scheme is
    /// such a fix.
    func testSARIFFixesAreValid() throws {
        try FileManager.default.createDirectory(atPath: out + "/in", withIntermediateDirectories: true)
        try TestPDF.write(
            out + "/in/scheme.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 0 50 8] /A << /S /URI /URI (htps://example.org/a) >> >>",
            ])
        try #"{"version": 1, "stages": [{"use": "validate-links"}, {"use": "fix-links"}]}"#.write(
            toFile: out + "/fix.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            CapturedCLI().run([
                "run", out + "/fix.json", out + "/in", "--offline", "--out", out + "/fixed", "--format",
                "sarif,markdown",
                "--quiet", "--fail-on", "never",
            ]), .clean)
        XCTAssertNil(try sarifErrors(out + "/fixed/report.sarif"))
        let sarif = try JSONParser.parse(try String(contentsOfFile: out + "/fixed/report.sarif", encoding: .utf8))
        let fixes = (sarif["runs"]?[0]?["results"]?.arrayValue ?? []).compactMap { $0["fixes"] }
        XCTAssertEqual(fixes.count, 1)
        XCTAssertEqual(
            fixes.first?[0]?["description"]?["text"]?.stringValue.map { $0.contains("to 'https://example.org/a'") },
            true)
        // The Markdown summary names the replacement in the finding's fix column.
        let markdown = try String(contentsOfFile: out + "/fixed/report.md", encoding: .utf8)
        XCTAssertTrue(markdown.contains("**Replace with** https://example.org/a (the scheme misspelt)"), markdown)
    }

    /// (#66) Findings mapped to their source lines: the SARIF (source line as the physical
    /// location, the PDF a related location) and the Code Quality report stay valid.
    func testSourceMappedReportsAreValid() throws {
        try #"{"version": 1, "stages": [{"use": "validate-links", "with": {"gotor": true}}]}"#.write(
            toFile: out + "/map.json", atomically: true, encoding: .utf8)
        let fixtures = "Tests/Fixtures/sources/latex"
        XCTAssertEqual(
            CapturedCLI().run([
                "run", out + "/map.json", fixtures + "/xelatex/manual.pdf", "--offline", "--sources", fixtures + "/src",
                "--out", out + "/mapped", "--format", "json,sarif,codequality", "--quiet",
            ]), .findings)
        XCTAssertNil(try sarifErrors(out + "/mapped/report.sarif"))
        let sarif = try JSONParser.parse(try String(contentsOfFile: out + "/mapped/report.sarif", encoding: .utf8))
        let results = sarif["runs"]?[0]?["results"]?.arrayValue ?? []
        XCTAssertEqual(results.count, 20)
        XCTAssertTrue(results.allSatisfy { $0["locations"]?[0]?["physicalLocation"]?["region"]?["startLine"] != nil })
        let script = """
            import json, sys, jsonschema
            errors = list(jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
            sys.exit(1 if errors else 0)
            """
        let schema = Repo.root + "/Tests/PDFPipeCLITests/Schemas/gitlab-codequality.schema.json"
        let r = try ExternalTool.run(
            "/usr/bin/python3", ["-c", script, schema, out + "/mapped/gl-code-quality-report.json"])
        XCTAssertEqual(r.status, 0, r.output)
    }

    /// The checks are live: a JUnit case without its name, and a SARIF result with a level SARIF does
    /// not have, are refused with the place named.
    func testTheValidatorsRefuseBrokenReports() throws {
        XCTAssertEqual(
            CapturedCLI().run([
                "run", "pipelines/link-audit.json", "--offline", "--out", out, "--format", "junit,sarif", "--quiet",
            ]), .findings)
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        try junit.replacingOccurrences(of: #" name="validate-links""#, with: "").write(
            toFile: out + "/bad.xml", atomically: true, encoding: .utf8)
        let xmlError = try XCTUnwrap(try junitErrors(out + "/bad.xml"))
        XCTAssertTrue(xmlError.contains("Element 'testcase': The attribute 'name' is required but missing."), xmlError)

        var sarif = try String(contentsOfFile: out + "/report.sarif", encoding: .utf8)
        let results = try XCTUnwrap(sarif.range(of: #""results""#))
        let level = try XCTUnwrap(
            sarif.range(
                of: #""level": "[a-z]+""#, options: .regularExpression, range: results.upperBound..<sarif.endIndex))
        sarif.replaceSubrange(level, with: #""level": "fatal""#)
        try sarif.write(toFile: out + "/bad.sarif", atomically: true, encoding: .utf8)
        let jsonError = try XCTUnwrap(try sarifErrors(out + "/bad.sarif"))
        XCTAssertTrue(
            jsonError.contains("runs/0/results/0/level: 'fatal' is not one of ['none', 'note', 'warning', 'error']"),
            jsonError)
    }
}
