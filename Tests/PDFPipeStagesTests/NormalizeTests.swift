import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

final class NormalizeTests: XCTestCase {
    var out = ""

    override func setUp() { out = NSTemporaryDirectory() + "pdfpipe-normalize-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: out) }

    func run(_ name: String, _ stages: String, in folder: String = Samples.folder) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": \#(stages)}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: out, inputRoot: folder, jobs: 1).process(
            InputDocument(path: folder + "/" + name, relativePath: name))
    }

    func links(_ r: DocumentResult) -> [JSONValue] {
        (r.sections["links"]?.arrayValue ?? []).map { l in
            guard case .object(var o) = l else { return l }
            o["object"] = nil  // object numbers change when qpdf rewrites the file
            return .object(o)
        }
    }

    func qpdfCheck(_ path: String) throws -> (status: Int32, output: String) {
        try ExternalTool.run("/usr/bin/qpdf", ["--check", path])
    }

    /// Every readable sample, normalized with object streams: the copy passes `qpdf --check` without
    /// warnings and has the same pages and the same links as the original.
    func testRoundTrip() throws {
        for name in Samples.readable {
            let original = try run(name, #"[{"use": "validate-links"}]"#)
            let r = try run(
                name,
                #"[{"use": "normalize", "with": {"keep": true, "objectStreams": "generate"}}, {"use": "validate-links"}]"#
            )
            XCTAssertEqual(r.status, .ok, name)
            let copy = out + "/normalized/" + name
            XCTAssertEqual(r.artifacts, [Artifact(kind: "normalized", path: "normalized/" + name)], name)
            let (status, text) = try qpdfCheck(copy)
            XCTAssertEqual(status, 0, "\(name): \(text)")
            XCTAssertFalse(text.contains("WARNING"), "\(name): \(text)")
            XCTAssertEqual(r.pageCount, original.pageCount, name)
            XCTAssertEqual(links(r), links(original), name)
            XCTAssertEqual(
                r.sections["linkSummary"]?["reader"], "pdfpipe", "\(name): the repaired, decrypted copy is plain PDF")
        }
    }

    func testDamagedFileIsRepairedForTheLaterStages() throws {
        let r = try run("damaged-xref.pdf", #"[{"use": "normalize"}, {"use": "check"}, {"use": "validate-links"}]"#)
        XCTAssertEqual(r.status, .ok)
        XCTAssertEqual(
            r.findings.map(\.message), ["qpdf: file is damaged (and 2 more qpdf warnings: see qpdfMessages)"])
        XCTAssertEqual(Set(r.findings.map(\.rule)), ["pdf.damaged"])
        XCTAssertEqual(r.findings.map(\.stage), ["normalize"], "check finds nothing in the repaired copy")
        XCTAssertEqual(r.sections["check"], ["ok": true, "warnings": 0])
        XCTAssertEqual(r.sections["normalize"], ["pages": 2, "pagesDeclared": 2, "warnings": 3])
        XCTAssertEqual(r.sections["links"]?.arrayValue?.first?["targetPage"], 2)
        XCTAssertTrue(r.artifacts.isEmpty, "without keep, the copy is temporary")
    }

    func testEncryptedDocuments() throws {
        let stages = #"[{"use": "normalize", "with": {"passwordFile": "PW"}}, {"use": "validate-links"}]"#
        // Without the password: normalize says so and leaves the file; validate-links cannot open it.
        let none = try run("encrypted-user.pdf", stages.replacingOccurrences(of: "PW", with: out + "/missing"))
        XCTAssertEqual(none.findings.map(\.rule), ["pdf.encrypted", "pdf.password-required"])
        XCTAssertEqual(
            none.findings[0].message,
            "the document is encrypted and was not normalized: the password file '\(out)/missing' named by passwordFile cannot be read"
        )
        // With it: decrypted, and the link is audited.
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "user-secret\n".write(toFile: out + "/pw", atomically: true, encoding: .utf8)
        let good = try run("encrypted-user.pdf", stages.replacingOccurrences(of: "PW", with: out + "/pw"))
        XCTAssertEqual(good.status, .ok)
        XCTAssertEqual(good.findings, [])
        XCTAssertEqual(good.sections["links"]?.arrayValue?.first?["targetPage"], 2)
        XCTAssertFalse(JSONWriter.compact(good.json).contains("user-secret"), "the password never reaches a report")
        // A wrong password.
        try "nope\n".write(toFile: out + "/pw", atomically: true, encoding: .utf8)
        let wrong = try run("encrypted-user.pdf", stages.replacingOccurrences(of: "PW", with: out + "/pw"))
        XCTAssertEqual(
            wrong.findings.first?.message,
            "the document is encrypted and was not normalized: the password given does not open it")
        // An owner password only: qpdf opens and decrypts it without one.
        let owner = try run("encrypted-owner.pdf", #"[{"use": "normalize"}, {"use": "inspect"}]"#)
        XCTAssertEqual(owner.findings, [], "the copy is no longer encrypted")
        XCTAssertEqual(owner.sections["info"]?["encrypted"], false)
    }

    /// (#32, 6) A batch with several passwords: `passwords` maps file globs to the variable or file
    /// that holds each; a document no entry matches uses passwordEnv / passwordFile; a missing
    /// variable names the entry. The rule's hint names the normalize stage.
    func testPasswordsPerDocument() throws {
        let root = out + "/batch"
        for folder in ["a", "b", "c"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let sample = Samples.path("encrypted-user.pdf")
        try FileManager.default.copyItem(atPath: sample, toPath: root + "/a/x.pdf")
        try FileManager.default.copyItem(atPath: sample, toPath: root + "/c/z.pdf")
        // b/y.pdf: the same document under another user password (qpdf re-encrypts it).
        XCTAssertEqual(
            try ExternalTool.run(
                "/usr/bin/qpdf", ["--password=user-secret", "--decrypt", sample, out + "/plain.pdf"]
            ).status, 0)
        XCTAssertEqual(
            try ExternalTool.run(
                "/usr/bin/qpdf",
                ["--encrypt", "other-secret", "owner-b", "256", "--", out + "/plain.pdf", root + "/b/y.pdf"]
            ).status, 0)
        try "other-secret\n".write(toFile: out + "/pw-b", atomically: true, encoding: .utf8)
        setenv("PDFPIPE_TEST_PW_A", "user-secret", 1)
        setenv("PDFPIPE_TEST_PW_DEFAULT", "user-secret", 1)
        defer {
            unsetenv("PDFPIPE_TEST_PW_A")
            unsetenv("PDFPIPE_TEST_PW_DEFAULT")
        }
        let stages = """
            [{"use": "normalize", "with": {"passwordEnv": "PDFPIPE_TEST_PW_DEFAULT", "passwords": [
               {"path": "a/*.pdf", "env": "PDFPIPE_TEST_PW_A"}, {"path": "b/**", "file": "\(out)/pw-b"}]}},
             {"use": "validate-links"}]
            """
        for name in ["a/x.pdf", "b/y.pdf", "c/z.pdf"] {
            let r = try run(name, stages, in: root)
            XCTAssertEqual(r.status, .ok, name)
            XCTAssertEqual(r.findings, [], "\(name): decrypted with its own password")
            XCTAssertEqual(r.sections["links"]?.arrayValue?.first?["targetPage"], 2, name)
        }
        unsetenv("PDFPIPE_TEST_PW_A")
        let missing = try run("a/x.pdf", stages, in: root)
        XCTAssertEqual(
            missing.findings.first?.message,
            "the document is encrypted and was not normalized: the environment variable 'PDFPIPE_TEST_PW_A' named by passwords[0].env is not set"
        )
        XCTAssertTrue(
            missing.findings.last?.hint?.contains(#"{"use": "normalize", "with": {"passwordEnv": "#) ?? false,
            "\(missing.findings.last?.hint ?? "")")
        XCTAssertThrowsError(
            try Pipeline.parse(
                #"{"stages": [{"use": "normalize", "with": {"passwords": [{"env": "A"}]}}]}"#, file: "t.json",
                catalog: StageTable.all, formats: ["json"]))
    }

    func testUnreadableFilesSkipTheRestVisibly() throws {
        for (name, message) in [
            ("garbage.pdf", "not a PDF file: no '%PDF-' header in the first 1024 bytes"),
            ("empty.pdf", "the file is empty (0 bytes)"),
        ] {
            let r = try run(name, #"[{"use": "normalize"}, {"use": "check"}, {"use": "validate-links"}]"#)
            XCTAssertEqual(r.status, .failed, name)
            XCTAssertEqual(r.findings.map(\.rule), ["pdf.unreadable"], name)
            XCTAssertEqual(r.findings.first?.message, message)
            XCTAssertEqual(r.sections["skippedStages"], ["check", "validate-links"], name)
        }
    }

    /// qpdf in its helper process (QPDFJob.Helper) failing: a crash is the document's `pdf.crashed`,
    /// an error it reports is the usual `pdf.unreadable`; below the size limit no helper is started.
    func testHelperProcessFailures() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let crash = out + "/crash.sh"
        let fail = out + "/fail.sh"
        try "#!/bin/sh\nkill -SEGV $$\n".write(toFile: crash, atomically: true, encoding: .utf8)
        try "#!/bin/sh\ncat >/dev/null\necho 'E qpdf: the helper says no'\nexit 2\n".write(
            toFile: fail, atomically: true, encoding: .utf8)
        for f in [crash, fail] { chmod(f, 0o755) }
        defer { QPDFJob.helper = nil }
        let stages = #"[{"use": "normalize"}, {"use": "validate-links"}]"#

        QPDFJob.helper = QPDFJob.Helper(executable: crash, minimumObjects: 0)
        var r = try run("links-internal.pdf", stages)
        XCTAssertEqual(r.status, .failed)
        XCTAssertEqual(r.findings.map(\.rule), ["pdf.crashed"])
        XCTAssertEqual(r.findings.first?.message, "qpdf crashed on the document: its process was killed by signal 11")
        XCTAssertEqual(r.sections["skippedStages"], ["validate-links"])

        QPDFJob.helper = QPDFJob.Helper(executable: fail, minimumObjects: 0)
        r = try run("links-internal.pdf", stages)
        XCTAssertEqual(r.findings.map(\.rule), ["pdf.unreadable"])
        XCTAssertEqual(r.findings.first?.message, "qpdf cannot repair the file: the helper says no")

        QPDFJob.helper = QPDFJob.Helper(executable: crash, minimumObjects: 1_000_000)
        r = try run("links-internal.pdf", stages)
        XCTAssertEqual(r.status, .ok, "a small document is normalized in this process")
        XCTAssertEqual(r.findings, [])
    }

    func testDeterministicOutput() throws {
        _ = try run(
            "links-internal.pdf",
            #"[{"use": "normalize", "with": {"keep": true, "objectStreams": "generate", "linearize": true}}]"#)
        let first = FileManager.default.contents(atPath: out + "/normalized/links-internal.pdf")
        _ = try run(
            "links-internal.pdf",
            #"[{"use": "normalize", "with": {"keep": true, "objectStreams": "generate", "linearize": true}}]"#)
        XCTAssertEqual(first, FileManager.default.contents(atPath: out + "/normalized/links-internal.pdf"))
        XCTAssertTrue(try qpdfCheck(out + "/normalized/links-internal.pdf").output.contains("File is linearized"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out + "/normalized"), ["links-internal.pdf"],
            "no temporary file left")
    }

    func testCheckStage() throws {
        let good = try run("links-internal.pdf", #"[{"use": "check"}]"#)
        XCTAssertEqual(good.findings, [])
        XCTAssertEqual(good.sections["check"], ["ok": true, "warnings": 0])
        let bad = try run("damaged-xref.pdf", #"[{"use": "check"}]"#)
        XCTAssertEqual(bad.findings.map(\.rule), ["pdf.damaged"])
        XCTAssertEqual(bad.findings.first?.details["count"], 3)
        XCTAssertEqual(bad.sections["check"]?["ok"], false)
    }

    func testBadOptions() {
        func message(_ with: String) -> String {
            do {
                _ = try Pipeline.parse(
                    #"{"stages": [{"use": "normalize", "with": \#(with)}]}"#, file: "p.json", catalog: StageTable.all,
                    formats: ["json"])
                return "no error"
            } catch { return "\(error)" }
        }
        XCTAssertEqual(
            message(#"{"forceVersion": "1.x"}"#),
            "p.json:1:59: error: stages[0].with.forceVersion: expected a PDF version such as '1.5' or '2.0', got '1.x'")
        XCTAssertEqual(
            message(#"{"qdf": true, "linearize": true}"#),
            "p.json:1:50: error: stages[0].with.qdf: qdf and linearize cannot be combined (qpdf refuses it)")
        XCTAssertEqual(
            message(#"{"objectStreams": "on"}"#),
            "p.json:1:60: error: stages[0].with.objectStreams: expected one of 'preserve' | 'disable' | 'generate', got 'on'"
        )
        XCTAssertTrue(
            message(#"{"password": "x"}"#).hasPrefix(
                "p.json:1:55: error: stages[0].with.password: unknown option 'password'; did you mean 'passwords'? (known options: "
            ), "no option holds a password itself (passwords names variables or files)")
    }
}
