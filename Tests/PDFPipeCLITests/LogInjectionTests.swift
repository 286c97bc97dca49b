import Foundation
import PDFPipeCLI
import PDFPipeCore
import TestSupport
import XCTest

/// Regression (trust issue, 6): text from PDFs and file names reached the console raw, so a URI
/// with CR/LF and `::warning file=…::` became a GitHub workflow command in the CI log, and ESC
/// sequences reached terminals; a header value could smuggle a second header in.
final class LogInjectionTests: XCTestCase {
    func testNothingFromADocumentOrAFileNameSteersTheLogOrTheTerminal() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let uri = #"http://x.example/\r\n::warning file=evil.pdf::injected\033[2J\033]0;title\007"#
        let annots = ["<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /A << /S /URI /URI (\(uri)) >> >>"]
        let name = "::error title=x::\u{1B}[31mred\u{202E}fdp.pdf"
        try Data(HostilePDFs.classic(HostilePDFs.onePage(annots: annots))).write(
            to: URL(fileURLWithPath: dir + "/in/" + name, isDirectory: false).creatingFolder())
        try #"{"version": 1, "stages": [{"use": "validate-links", "with": {"external": {"enabled": true}}}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        let code = cli.run(
            [
                "run", dir + "/p.json", dir + "/in", "--out", dir + "/out", "--offline", "--format", "json,github",
                "--fail-on", "never",
            ], in: dir)
        XCTAssertEqual(code, .clean)
        let printed = cli.stdout + cli.stderr
        XCTAssertTrue(printed.contains("uri.malformed"), printed)
        for line in printed.split(separator: "\n", omittingEmptySubsequences: false) {
            XCTAssertFalse(line.drop { $0 == " " }.hasPrefix("::"), "a workflow command in the log: \(line)")
            XCTAssertFalse(
                line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{7F}" || $0 == "\u{202E}" },
                "a control character printed: \(line.debugDescription)")
        }
        // Paths as the inputs were named (`in/…`); the name's controls escaped all the same.
        XCTAssertTrue(printed.contains(#"in/::error title=x::\x1b[31mred\u{202e}fdp.pdf"#), printed)
        // The github format: one workflow command per finding, its text escaped as GitHub reads it.
        let github = try String(contentsOfFile: dir + "/out/github.txt", encoding: .utf8)
        let lines = github.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertTrue(
                line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "), String(line))
            XCTAssertFalse(line.contains("\r"))
        }
        XCTAssertTrue(github.contains("file=in/%3A%3Aerror title=x%3A%3A"), github)
    }

    /// Regression (issue 29, 7-8): a destination name, a bookmark title and a URI with a lone CR,
    /// ESC/CSI/OSC sequences, a C1 CSI (U+009B) and bidirectional controls, in a file whose name
    /// carries them too, reached report.md raw (a CR made "# pdfpipe: all links OK" a heading, and
    /// an image rendered in GitHub's step summary) and github.txt raw (into the job log). Every
    /// people-facing format now carries them escaped; report.json's message is the same text.
    func testDocumentTextIsSafeInEveryReport() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let crafted =
            #"x\r# pdfpipe: all links OK, 0 errors\r![logo](https://evil.example/p.png)\033[31m\302\233\342\200\256"#
        let catalog = "/Outlines 6 0 R"
        let annots = [
            "<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /Dest (\(crafted)) >>",
            #"<< /Type /Annot /Subtype /Link /Rect [0 30 100 50] /A << /S /URI /URI (https://e.example/\033]0;t\007\r\n[x](y)) >> >>"#,
        ]
        var objects = HostilePDFs.onePage(catalog: catalog, annots: annots)
        objects += [
            "<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>",
            "<< /Title (\(crafted)) /Parent 6 0 R /Dest (\(crafted)) >>",
        ]
        let name = "bad\u{1B}[2J\u{2066}\rname.pdf"
        try Data(HostilePDFs.classic(objects)).write(
            to: URL(fileURLWithPath: dir + "/in/" + name, isDirectory: false).creatingFolder())
        try #"{"version": 1, "stages": [{"use": "validate-links"}]}"#.write(
            toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        let cli = CapturedCLI()
        _ = cli.run(
            [
                "run", dir + "/p.json", dir + "/in", "--out", dir + "/out", "--offline", "--format",
                "json,markdown,github,html,junit,sarif", "--fail-on", "never",
            ], in: dir)
        let forbidden: Set<UInt32> = [0x0D, 0x1B, 0x07, 0x9B, 0x202E, 0x2066]
        // report.json keeps paths exact (data, JSON-encoded); its messages are the safe text.
        let json = try JSONParser.parse(String(contentsOfFile: dir + "/out/report.json", encoding: .utf8))
        let messages = (json["documents"]?[0]?["findings"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
        XCTAssertTrue(messages.contains { $0.contains("all links OK") })
        for m in messages {
            XCTAssertFalse(m.unicodeScalars.contains { forbidden.contains($0.value) || $0.value == 0x0A }, m)
        }
        for file in ["report.md", "github.txt", "report.html", "junit.xml", "report.sarif"] {
            let text = try String(contentsOfFile: dir + "/out/" + file, encoding: .utf8)
            XCTAssertTrue(text.contains("all links OK"), "\(file) carries the name, escaped")
            let bad = text.unicodeScalars.filter { forbidden.contains($0.value) }
            XCTAssertTrue(bad.isEmpty, "\(file): \(bad.map { String($0.value, radix: 16) })")
        }
        let md = try String(contentsOfFile: dir + "/out/report.md", encoding: .utf8)
        for line in md.split(separator: "\n") {
            XCTAssertFalse(line.contains("# pdfpipe: all links OK") && line.hasPrefix("#"), String(line))
        }
        XCTAssertFalse(md.contains("![logo]"), "an image in the step summary")
        XCTAssertFalse(md.contains("[x](y)"), "a link in the step summary")
        XCTAssertTrue(md.contains(#"\r"#), "the CR is written as an escape")
    }

    func testHeaderValuesAndTheUserAgentCannotCarryLineBreaks() throws {
        setenv("PDFPIPE_TEST_TOKEN", "abc\r\nX-Injected: 1", 1)
        setenv("PDFPIPE_SECRETS", "PDFPIPE_TEST_TOKEN=a.example", 1)
        defer {
            unsetenv("PDFPIPE_TEST_TOKEN")
            unsetenv("PDFPIPE_SECRETS")
        }
        for external in [
            #"{"headers": [{"name": "Authorization", "value": "Bearer ${PDFPIPE_TEST_TOKEN}", "hosts": "a.example"}]}"#,
            #"{"headers": [{"name": "X-A", "value": "a\r\nb"}]}"#,
            #"{"userAgent": "ua\nX-Injected: 1"}"#,
        ] {
            let dir = Repo.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let text = #"{"version": 1, "stages": [{"use": "validate-links", "with": {"external": \#(external)}}]}"#
            try text.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
            for args in [["validate", dir + "/p.json"], ["run", dir + "/p.json", dir]] {
                let cli = CapturedCLI()
                XCTAssertEqual(cli.run(args, in: dir), .usage, "\(args[0]) \(external)")
                XCTAssertTrue(cli.stderr.contains("control characters"), cli.stderr)
                XCTAssertFalse(cli.stderr.contains("X-Injected: 1"), "the secret is not printed: \(cli.stderr)")
            }
        }
    }
}

extension URL {
    /// Creates the folder this file goes in; returns the URL.
    fileprivate func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}

/// The trust issue's closing check: every hostile file of the issue mixed with normal documents,
/// without isolation, through every stage with two jobs: the run ends (0 or 1), every report is
/// written and lists every document, and the normal documents' results are those of a run
/// without the hostile ones.
final class HostileBatchTests: XCTestCase {
    func testHostileFilesDoNotChangeTheOtherDocumentsResults() throws {
        let dir = Repo.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/normal", withIntermediateDirectories: true)
        for name in Samples.all {
            try FileManager.default.copyItem(atPath: Samples.path(name), toPath: dir + "/normal/" + name)
        }
        try FileManager.default.copyItem(atPath: dir + "/normal", toPath: dir + "/mixed")
        var hostile = try HostilePDFs.write(to: dir + "/mixed")
        // Link targets that would block (a FIFO, a device), and a page a backtracking search chews on.
        XCTAssertEqual(mkfifo(dir + "/mixed/pipe.pdf", 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/mixed/zero.pdf", withDestinationPath: "/dev/zero")
        let targets =
            ["pipe.pdf", "zero.pdf"].enumerated().map { k, f in
                "<< /Type /Annot /Subtype /Link /Rect [0 \(k * 20) 100 \(k * 20 + 10)] /A << /S /GoToR /F (\(f)) /D [0 /Fit] >> >>"
            } + ["<< /Type /Annot /Subtype /Link /Rect [0 60 100 70] /A << /S /URI /URI (pipe.pdf#page=2) >> >>"]
        try Data(HostilePDFs.classic(HostilePDFs.onePage(annots: targets))).write(
            to: URL(fileURLWithPath: dir + "/mixed/targets.pdf"))
        try Data(HostilePDFs.slowSearchPage).write(to: URL(fileURLWithPath: dir + "/mixed/slow-search.pdf"))
        hostile += ["targets.pdf", "slow-search.pdf"]
        try #"""
        {"version": 1, "stages": [
          {"use": "inspect", "with": {"crossCheck": true}}, {"use": "resolve-destinations"},
          {"use": "validate-links", "with": {"inventory": true, "gotor": true, "external": {"enabled": true}}},
          {"use": "thumbnails", "with": {"width": 32, "pages": "1-3", "overlay": "links", "incremental": false}},
          {"use": "extract-text", "with": {"search": [{"term": "\\b[a-z0-9.-]+\\.example\\.com\\b", "regex": true}]}}]}
        """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
        func run(_ folder: String) throws -> [String: JSONValue] {
            let cli = CapturedCLI()
            let code = cli.run(
                [
                    "run", "p.json", folder, "--out", "out-" + folder, "--offline", "--jobs", "2", "--format",
                    "json,junit,sarif,markdown,github,html",
                ], in: dir)
            XCTAssertTrue(code == .clean || code == .findings, "\(folder): \(code) \(cli.stderr)")
            for report in ["report.json", "junit.xml", "report.sarif", "report.md", "github.txt", "report.html"] {
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: "\(dir)/out-\(folder)/\(report)"), "\(folder): \(report)")
            }
            let documents = try Repo.stableReport("\(dir)/out-\(folder)/report.json")["documents"]?.arrayValue ?? []
            var byPath: [String: JSONValue] = [:]
            for d in documents {
                // The working-folder path names the folder the batch came from: the only difference allowed.
                XCTAssertEqual(d["workingPath"]?.stringValue, folder + "/" + (d["path"]?.stringValue ?? ""))
                guard case .object(var o) = d else { continue }
                o["workingPath"] = nil
                byPath[d["path"]?.stringValue ?? ""] = .object(o)
            }
            return byPath
        }
        let normal = try run("normal")
        let mixed = try run("mixed")
        XCTAssertEqual(Set(mixed.keys), Set(normal.keys).union(hostile), "every document is listed")
        let rules = { (path: String) in
            Set(mixed[path]?["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? [])
        }
        XCTAssertTrue(
            rules("targets.pdf").isSuperset(of: ["gotor.file-unreadable", "gotor.outside-root", "uri.fragment-missing"]
            ), "\(rules("targets.pdf"))")
        XCTAssertTrue(rules("slow-search.pdf").contains("text.search-incomplete"), "\(rules("slow-search.pdf"))")
        XCTAssertEqual(normal.count, Samples.all.count)
        XCTAssertGreaterThan(
            normal.values.filter { ($0["artifacts"]?.arrayValue?.count ?? 0) > 1 }.count, 10,
            "thumbnails and text were written")
        for (path, result) in normal {
            XCTAssertEqual(mixed[path], result, path)
        }
    }
}
