import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// (#32, 11) A broken link's hint says what the author probably meant, when the document or the
/// disk has it: the closest named destinations, a file whose name differs only in case (made on a
/// case-insensitive file system, broken on a Linux web server), the same name with another
/// extension, the same file in a sibling folder. Nothing close: the rule's own hint.
final class SuggestionTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "pdfpipe-suggest-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A one-page document with destinations `names` and links: named destinations (`#x`), GoToR
    /// files (`gotor:x`), Launch files (`launch:x`) and file URIs (`uri:x`).
    func write(_ path: String, names: [String], links: [String]) throws {
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R /Names << /Dests 4 0 R >> >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [\((0..<links.count).map { "\($0 + 5) 0 R" }.joined(separator: " "))] >>",
            "<< /Names [\(names.sorted().map { "(\($0)) [3 0 R /Fit]" }.joined(separator: " "))] >>",
        ]
        for (i, l) in links.enumerated() {
            let rect = "/Rect [0 \(i * 10) 50 \(i * 10 + 8)]"
            if l.hasPrefix("#") {
                objects.append("<< /Type /Annot /Subtype /Link \(rect) /Dest (\(l.dropFirst())) >>")
            } else if l.hasPrefix("gotor:") {
                objects.append(
                    "<< /Type /Annot /Subtype /Link \(rect) /A << /S /GoToR /F (\(l.dropFirst(6))) /D [0 /Fit] >> >>")
            } else if l.hasPrefix("launch:") {
                objects.append("<< /Type /Annot /Subtype /Link \(rect) /A << /S /Launch /F (\(l.dropFirst(7))) >> >>")
            } else {
                objects.append("<< /Type /Annot /Subtype /Link \(rect) /A << /S /URI /URI (\(l.dropFirst(4))) >> >>")
            }
        }
        try TestPDF.write(path, objects: objects)
    }

    func hints(_ name: String, external: Bool = false) throws -> [String: String] {
        let with = external ? #"{"external": {"enabled": true}}"# : "{}"
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links", "with": \#(with)}]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir, jobs: 1).process(
            InputDocument(path: dir + "/" + name, relativePath: name))
        var out: [String: String] = [:]
        for f in r.findings where f.rule.hasSuffix("missing") || f.rule.hasSuffix("not-found") {
            out[f.details["target"]?.stringValue ?? f.message] = f.hint ?? ""
        }
        return out
    }

    /// validate-links then fix-links over `name` (under the test folder).
    func fixLinks(_ name: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}, {"use": "fix-links"}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir, jobs: 1).process(
            InputDocument(path: dir + "/" + name, relativePath: name))
    }

    /// validate-links over the repaired copy of `name` that `fixLinks` wrote.
    func checkFixedCopy(_ name: String) throws -> DocumentResult {
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}]}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: dir + "/out2", inputRoot: dir + "/out", jobs: 1).process(
            InputDocument(path: dir + "/out/fixed/" + name, relativePath: "fixed/" + name))
    }

    /// (#65, 1) A name that matches exactly one of the document's names but for case is fixed by
    /// fix-links (PDFium, MuPDF and poppler compare names byte for byte); two such names are no
    /// fix, and are listed as not fixed. The repaired copy's links resolve.
    func testFixLinksRewritesANameInAnotherCase() throws {
        try write(dir + "/a/names.pdf", names: ["Intro", "SEC", "Sec"], links: ["#intro", "#sec"])
        let r = try fixLinks("a/names.pdf")
        let fixes = try XCTUnwrap(r.sections["fixes"])
        XCTAssertEqual(fixes["changed"]?.arrayValue?.map { $0["to"] }, ["Intro"])
        XCTAssertEqual(fixes["changed"]?.arrayValue?.first?["field"], "dest")
        XCTAssertEqual(fixes["unfixed"]?.arrayValue?.map { $0["rule"] }, ["dest.name-not-found"])
        XCTAssertEqual(fixes["file"], "fixed/a/names.pdf")
        let again = try checkFixedCopy("a/names.pdf")
        XCTAssertEqual(
            again.findings.filter { $0.rule == "dest.name-not-found" }.map { $0.details["target"] }, [.string("#sec")])
    }

    /// (#65, 1) A GoToR to a file that exists under another case is fixed to the name on disk; one
    /// with no such file is listed as not fixed.
    func testFixLinksRewritesAFileNameInAnotherCase() throws {
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: dir + "/b/Chapter-2.pdf"))
        try write(dir + "/a/files.pdf", names: ["x"], links: ["gotor:../b/chapter-2.pdf", "gotor:../b/none.pdf"])
        let r = try fixLinks("a/files.pdf")
        let fixes = try XCTUnwrap(r.sections["fixes"])
        XCTAssertEqual(fixes["changed"]?.arrayValue?.map { $0["to"] }, ["../b/Chapter-2.pdf"])
        XCTAssertEqual(fixes["unfixed"]?.arrayValue?.map { $0["rule"] }, ["gotor.file-missing"])
    }

    /// (#65, 1) A misspelt scheme is fixed to the URI its finding names: `htps:`, `http;//`,
    /// `mialto:`.
    func testFixLinksRewritesAMisspeltScheme() throws {
        try write(
            dir + "/a/schemes.pdf", names: ["x"],
            links: ["uri:htps://example.org/a", "uri:http;//example.org/b", "uri:mialto:someone@example.org"])
        let r = try fixLinks("a/schemes.pdf")
        let changed = try XCTUnwrap(r.sections["fixes"]?["changed"]?.arrayValue)
        XCTAssertEqual(
            changed.map { $0["to"] }, ["https://example.org/a", "http://example.org/b", "mailto:someone@example.org"])
        let again = try checkFixedCopy("a/schemes.pdf")
        XCTAssertEqual(again.findings.filter { $0.rule == "uri.scheme-misspelt" }.count, 0, "\(again.findings)")
    }

    /// (#65) The review copy's note over a link with a fix says the replacement.
    func testTheReviewCopyNotesTheFix() throws {
        try write(dir + "/a/scheme.pdf", names: ["x"], links: ["uri:htps://example.org/a"])
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}, {"use": "review-copy"}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir, jobs: 1).process(
            InputDocument(path: dir + "/a/scheme.pdf", relativePath: "a/scheme.pdf"))
        let file = try XCTUnwrap(r.sections["reviewCopy"]?["file"]?.stringValue, "\(r.findings)")
        let copy = try PopplerFile(path: dir + "/out/" + file)
        let first = r.sections["reviewCopy"]?["summaryPages"]?.intValue ?? 0
        let notes = try XCTUnwrap(copy.page(first)).annotations.filter { $0.type == "square" }.compactMap(\.contents)
        XCTAssertTrue(
            notes.contains { $0.hasSuffix("\nReplace with: https://example.org/a (the scheme misspelt)") }, "\(notes)")
    }

    func testTheHintNamesWhatTheAuthorProbablyMeant() throws {
        try write(dir + "/b/Guide.pdf", names: ["start"], links: [])
        try write(dir + "/b/notes.html", names: [], links: [])
        try write(dir + "/b/moved.pdf", names: [], links: [])
        try write(
            dir + "/a/doc.pdf", names: ["sec:introduction", "Chapter-2", "appendix"],
            links: [
                "#sec:intro", "#chapter-2", "#appendx", "#zzz-nothing-like-it", "gotor:../b/guide.pdf",
                "launch:../b/notes.pdf", "gotor:moved.pdf", "gotor:../b/nowhere-at-all.pdf",
                "gotor:../B/missing-too.pdf",
            ])
        let h = try hints("a/doc.pdf")
        XCTAssertEqual(h["#sec:intro"], "did you mean 'sec:introduction'? (the document has that name)")
        XCTAssertEqual(h["#chapter-2"], "did you mean 'Chapter-2'? (the document has that name)")
        XCTAssertEqual(h["#appendx"], "did you mean 'appendix'? (the document has that name)")
        XCTAssertEqual(
            h["#zzz-nothing-like-it"], Rule.destNameNotFound.hint, "nothing close: the rule's hint")
        XCTAssertEqual(
            h["../b/guide.pdf"],
            "'../b/Guide.pdf' exists: the names differ only in case, which Windows and macOS ignore and Linux web servers do not; write it as it is on disk"
        )
        XCTAssertEqual(h["../b/notes.pdf"], "'../b/notes.html' exists: the same name with another extension")
        XCTAssertEqual(h["moved.pdf"], "'../b/moved.pdf' exists: the same file in a sibling folder")
        XCTAssertEqual(h["../b/nowhere-at-all.pdf"], Rule.gotorFileMissing.hint)
        // Regression: a folder that differs in case, holding no such file, was named as the file.
        XCTAssertEqual(h["../B/missing-too.pdf"], Rule.gotorFileMissing.hint)

        // A GoToR destination missing in the other file names that file's close names.
        try write(dir + "/a/other.pdf", names: ["results-2024"], links: [])
        try TestPDF.write(
            dir + "/a/remote.pdf",
            objects: [
                "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>",
                "<< /Type /Annot /Subtype /Link /Rect [0 0 50 8] /A << /S /GoToR /F (other.pdf) /D (results-2042) >> >>",
            ])
        XCTAssertEqual(
            try hints("a/remote.pdf")["other.pdf#results-2042"],
            "did you mean 'results-2024'? ('other.pdf' has that name)")

        // A file: URI (the external check) gets the same file suggestions.
        try write(dir + "/a/uri.pdf", names: [], links: ["uri:../b/GUIDE.pdf"])
        XCTAssertEqual(
            try hints("a/uri.pdf", external: true).values.first,
            "'../b/Guide.pdf' exists: the names differ only in case, which Windows and macOS ignore and Linux web servers do not; write it as it is on disk"
        )
    }

    /// Outside the input root nothing is named (it was not asked about).
    func testNothingOutsideTheInputRootIsSuggested() throws {
        try write(dir + "/b/Outside.pdf", names: [], links: [])
        try write(dir + "/a/doc.pdf", names: [], links: ["launch:../b/outside.pdf"])
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}]}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let r = Runner(pipeline: pipeline, outputDirectory: dir + "/out", inputRoot: dir + "/a", jobs: 1).process(
            InputDocument(path: dir + "/a/doc.pdf", relativePath: "doc.pdf"))
        XCTAssertFalse(r.findings.contains { $0.hint?.contains("Outside.pdf") ?? false }, "\(r.findings)")
    }
}
