import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import PDFReader
import TestSupport
import XCTest

/// Every sample's findings under the link stages, asserted exactly: rule, page, message.
final class LinkFindingsTests: XCTestCase {
    struct F: Equatable, CustomStringConvertible {
        var rule: String
        var page: Int?
        var message: String
        init(_ rule: String, _ page: Int?, _ message: String) {
            self.rule = rule
            self.page = page
            self.message = message
        }
        var description: String { "\(rule) p\(page.map(String.init) ?? "-") \(message)" }
    }

    static let expected: [String: [F]] = [
        "actions.pdf": [
            F("action.launch", 1, "the link launches 'setup.exe'; viewers block or warn about Launch actions"),
            F("action.launch-target-missing", 1, "the Launch action's file 'setup.exe' does not exist"),
            F("action.javascript", 1, "the link runs JavaScript; many viewers block it and it cannot be checked"),
            F("action.unsupported", 1, "the action type 'Movie' is not checked"),
            F(
                "action.cycle", 1,
                "the /Next chain of actions loops back on itself (PDFium and poppler stop at the loop; MuPDF and pdf.js run the first action only)"
            ),
            F("action.launch", 1, "the link launches 'links-internal.pdf'; viewers block or warn about Launch actions"),
        ],
        "broken-links.pdf": [
            F("dest.name-not-found", 1, "named destination 'no.such.name' does not exist"),
            F("dest.name-not-found", 1, "named destination 'missing.too' does not exist"),
            F(
                "dest.page-not-in-document", 1,
                "the destination points at object 6 0 R, which is not a page of this document"),
            F(
                "dest.page-out-of-range", 1,
                "the destination gives page number 7, past the last page (the document has 3 pages, numbered from 0)"),
            F(
                "dest.integer-page", 1,
                "the destination gives page number 1 (page 2) instead of a page reference; PDFium, poppler and MuPDF go to that page (2 links, bookmarks or actions in all, on page 1)"
            ),
            F(
                "dest.viewer-dependent", 1,
                "the destination: '/XYZ' takes 3 parameters, found 1: pdf.js does not follow it (PDFium and MuPDF go to the page)"
            ),
            F(
                "dest.viewer-dependent", 1,
                "the destination: unknown fit type '/Bogus': poppler and pdf.js do not follow it (PDFium and MuPDF go to the page)"
            ),
            F("dest.malformed", 1, "named destination 'bad.value' is an integer, not a destination"),
            F(
                "dest.viewer-dependent", 1,
                "the destination: parameter 3 of '/FitR' is a string, expected a number: pdf.js does not follow it (PDFium and MuPDF go to the page)"
            ),
            F("action.malformed", 1, "the GoTo action has no /D destination"),
            F("link.no-target", 1, "the link has neither /Dest nor /A; clicking it does nothing"),
            F(
                "dest.position-off-page", 1,
                "the destination: /XYZ top -300 lies 300 pt below the bottom of page 3 (y from 0 to 792): viewers land apart: Chrome's PDF viewer (pages in one scroll) goes to the end of the document; MuPDF (one page at a time) stays at the bottom of page 3"
            ),
            F(
                "dest.missing-parameter", 1,
                "the destination: '/FitH' without its parameter (PDFium, MuPDF, poppler and pdf.js all follow it)"
            ),
            F("link.zero-area", 1, "the link area [400 100 400 130] has no width or no height; nobody can click it"),
            F("link.off-page", 1, "the link area [700 900 760 930] lies outside the visible page [0 0 612 792]"),
            F("dest.name-not-found", nil, "bookmark 'Broken item': named destination 'nowhere' does not exist"),
        ],
        "damaged-xref.pdf": [
            F("pdf.damaged", nil, "qpdf: file is damaged (and 2 more qpdf warnings: see qpdfMessages)")
        ],
        "dests-bad-limits.pdf": [
            F(
                "dest.tree-malformed", nil,
                "keys of node 6 0 R are not sorted ('charlie' after 'zulu'); readers that search by halves may miss names"
            ),
            F(
                "dest.tree-malformed", nil,
                "/Limits ['alpha', 'charlie'] of node 6 0 R do not cover 'zulu'; readers that trust /Limits will not find it"
            ),
            F(
                "dest.tree-malformed", nil,
                "keys of node 7 0 R are not sorted ('bravo' after 'echo'); readers that search by halves may miss names"
            ),
            F(
                "dest.tree-malformed", nil,
                "node 7 0 R has no valid /Limits; readers that trust /Limits may not find its names"),
            F(
                "dest.duplicate-name", nil,
                "named destination 'bravo' is defined more than once; readers may pick either definition"),
        ],
        "dests-catalog.pdf": [],
        "dests-nametree.pdf": [],
        "empty.pdf": [F("pdf.unreadable", nil, "the file is empty (0 bytes)")],
        "encrypted-owner.pdf": [],
        "encrypted-user.pdf": [
            F("pdf.password-required", nil, "the document needs a user password to open (qpdf: invalid password)")
        ],
        "garbage.pdf": [
            F(
                "pdf.unreadable", nil,
                "not a PDF file: no '%PDF-' header in the first 1024 bytes (qpdf cannot open the file: unable to find trailer dictionary while recovering damaged file)"
            )
        ],
        "gotor.pdf": [
            F("gotor.file-missing", 1, "the file 'missing.pdf' does not exist"),
            F("gotor.dest-missing", 1, "named destination 'no.such.dest' does not exist in 'links-internal.pdf'"),
            F(
                "gotor.page-out-of-range", 1,
                "page number 99 is past the last page of 'links-internal.pdf' (4 pages, numbered from 0)"),
            F(
                "gotor.outside-root", 1,
                "the file '../outside.pdf' lies outside the input root; it cannot be checked (set allowOutsideRoot to follow it)"
            ),
        ],
        "inventory.pdf": [],
        "links-internal.pdf": [],
        "links-objstm.pdf": [],
        "outline-cycle.pdf": [
            F("outline.cycle", nil, "the outline loops: after 'Three, loops back to One' comes 'One' (6 0 R) again")
        ],
        "outlines.pdf": [
            F(
                "dest.name-not-found", nil,
                "bookmark 'Partie 2 — Übersicht / Broken child': named destination 'part.9' does not exist"),
            F(
                "outline.no-target", nil,
                "bookmark 'A heading without a target': no target (no /Dest, no /A) and no children: clicking it does nothing"
            ),
        ],
        "page-labels.pdf": [],
        "rotated-cropped.pdf": [],
        "text-search.pdf": [],
        "uri-targets.pdf": [
            // One note for the document's five relative links (one cause: no /URI /Base).
            F(
                "uri.relative", 1,
                "'links-internal.pdf#page=2' is relative and the document has no /URI /Base; viewers resolve it against the document's own location (5 links, bookmarks or actions in all, on page 1)"
            ),
            F("uri.mailto-not-an-address", 1, hiddenAddress),
        ],
        "uri-links.pdf": [
            F("uri.insecure-scheme", 1, "'http://example.com/plain' uses http; use https where the site supports it"),
            F("uri.malformed", 1, "'http://exa mple.com/': space at position 11 (write %20)"),
            F("uri.malformed", 1, "'ht!tp://example.com/': invalid scheme 'ht!tp'"),
            F("uri.malformed", 1, "'': the URI is empty"),
            F("uri.malformed", 1, "the URI action has no /URI"),
            F(
                "uri.malformed", 1,
                "'https//cran.r-project.org/' lacks the ':' after 'https': every viewer reads it as a path relative to the document"
            ),
            F(
                "uri.browser-repaired", 1,
                "'https://example.com/a^b c': '^' at position 22; browsers read it as 'https://example.com/a%5Eb%20c', other tools and strict viewers may not"
            ),
            F(
                "uri.absolute-file", 1,
                "'file:///home/author/notes.pdf' names a file by its absolute path on the machine the PDF was made on; it works for no other reader"
            ),
        ],
    ]

    static func audit(
        _ name: String,
        pipeline text: String = #"{"stages": [{"use": "resolve-destinations"}, {"use": "validate-links"}]}"#
    ) -> DocumentResult {
        let pipeline = try! Pipeline.parse(text, file: "t.json", catalog: StageTable.all, formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: "/tmp", inputRoot: Samples.folder, jobs: 1).process(
            InputDocument(path: Samples.path(name), relativePath: name))
    }

    /// The external check, offline, on the sample made for it: files, fragments, mailto, schemes.
    func testExternalCheckOfflineOnUriTargets() throws {
        let r = Self.audit(
            "uri-targets.pdf",
            pipeline:
                #"{"stages": [{"use": "validate-links", "with": {"external": {"enabled": true, "offline": true}}}], "rules": {"uri.relative": "off"}}"#
        )
        XCTAssertEqual(
            r.findings.map { F($0.rule, $0.page, $0.message) },
            [
                F("uri.mailto-not-an-address", 1, Self.hiddenAddress),
                F("uri.fragment-missing", 1, "the link asks for page 9 of 'links-internal.pdf', which has 4 pages"),
                F("uri.fragment-missing", 1, "'links-internal.pdf' has no named destination 'no.such.dest'"),
                F("uri.file-missing", 1, "the file 'handbook/missing.pdf' does not exist"),
                F(
                    "uri.file-missing", 1,
                    "the file 'www.example.org/docs' does not exist; 'www.example.org/docs' looks like a web address without 'https://'"
                ),
                F("uri.unchecked-scheme", 1, "'tel:' links are not checked"),
            ])
        XCTAssertEqual(
            r.findings.map { $0.details["uri"]?.stringValue ?? "" }.dropFirst().first, "links-internal.pdf#page=9")
        let outcomes = try XCTUnwrap(r.sections["links"]?.arrayValue).map {
            $0["check"]?["outcome"]?.stringValue ?? "-"
        }
        XCTAssertEqual(
            outcomes,
            [
                "ok", "fragment-missing", "ok", "fragment-missing", "file-missing", "file-missing", "malformed",
                "skipped", "skipped",
            ])
    }

    /// The sample's mail link, an address hidden from spam: a note of the link audit, external or not.
    static let hiddenAddress =
        "'docs-at-example.com' in 'mailto:docs-at-example.com' is an address hidden from spam ('-at-'): the reader must decode it before sending"

    func testEverySamplesFindingsExactly() {
        XCTAssertEqual(Set(Self.expected.keys), Set(Samples.all))
        for name in Samples.all {
            let r = Self.audit(name)
            XCTAssertEqual(r.findings.map { F($0.rule, $0.page, $0.message) }, Self.expected[name], name)
        }
    }

    func testTheOwnReaderReadsConformingFilesAndQPDFTheRest() {
        let reader = { (name: String) in Self.audit(name).sections["linkSummary"]?["reader"]?.stringValue }
        XCTAssertEqual(reader("links-objstm.pdf"), "pdfpipe")
        XCTAssertEqual(reader("links-internal.pdf"), "pdfpipe")
        XCTAssertEqual(reader("damaged-xref.pdf"), "qpdf", "damaged: qpdf repairs it")
        XCTAssertEqual(reader("encrypted-owner.pdf"), "qpdf", "encrypted: qpdf decrypts it")
        // Object numbers differ between the two files; everything else is the same.
        func withoutObjects(_ name: String) -> [JSONValue] {
            (Self.audit(name).sections["links"]?.arrayValue ?? []).map { l in
                guard case .object(var o) = l else { return l }
                o["object"] = nil
                return .object(o)
            }
        }
        XCTAssertEqual(withoutObjects("links-objstm.pdf"), withoutObjects("links-internal.pdf"))
        XCTAssertEqual(withoutObjects("links-objstm.pdf").count, 9)
    }

    func testValidateLinksBuildsTheTableItselfWhenResolveDestinationsIsMissing() {
        let alone = Self.audit("broken-links.pdf", pipeline: #"{"stages": [{"use": "validate-links"}]}"#)
        XCTAssertEqual(alone.findings.map { F($0.rule, $0.page, $0.message) }, Self.expected["broken-links.pdf"])
    }

    func testFindingsCarryTheirPlaceAndLabel() throws {
        let r = Self.audit("broken-links.pdf")
        let f = try XCTUnwrap(r.findings.first { $0.rule == "link.zero-area" })
        XCTAssertEqual(f.rect, [400, 100, 400, 130])
        XCTAssertNotNil(f.object)
        XCTAssertEqual(f.stage, "validate-links")
        XCTAssertEqual(f.hint, Rule.linkZeroArea.hint)
        let labelled = Self.audit("page-labels.pdf", pipeline: #"{"stages": [{"use": "validate-links"}]}"#)
        XCTAssertEqual(labelled.sections["links"]?.arrayValue?.first?["targetPage"], 3)
    }

    func testRuleLevelsApplyToLinkFindings() {
        let r = Self.audit(
            "broken-links.pdf",
            pipeline:
                #"{"stages": [{"use": "validate-links"}], "rules": {"dest.integer-page": "error", "link.zero-area": "off"}}"#
        )
        XCTAssertEqual(r.findings.first { $0.rule == "dest.integer-page" }?.severity, .error)
        XCTAssertNil(r.findings.first { $0.rule == "link.zero-area" })
    }

    func testInventory() throws {
        let r = Self.audit("links-internal.pdf")
        let links = try XCTUnwrap(r.sections["links"]?.arrayValue)
        XCTAssertEqual(links.count, 9)
        XCTAssertEqual(
            links[0],
            [
                "page": 1, "rect": [72, 660, 372, 676], "kind": "goto", "targetPage": 3, "object": links[0]["object"]!,
                "annotationIndex": 0,
            ])
        // Page and place in /Annots: each link's identity.
        XCTAssertEqual(
            links.map { "\($0["page"]?.intValue ?? 0)#\($0["annotationIndex"]?.intValue ?? -1)" },
            ["1#0", "1#1", "1#2", "1#3", "1#4", "2#0", "2#1", "2#2", "2#3"])
        XCTAssertEqual(links[1]["destination"], "chapter.2")
        XCTAssertEqual(links[1]["targetPage"], 2)
        XCTAssertEqual(links[2]["destination"], "section.2.1")
        XCTAssertEqual(links[2]["targetPage"], 3)
        XCTAssertEqual(links.map { $0["targetPage"]?.intValue }, [3, 2, 3, 4, 4, 1, 3, 4, 1])
        let outline = try XCTUnwrap(r.sections["outline"]?.arrayValue)
        XCTAssertEqual(
            outline.map { $0["title"]?.stringValue }, ["Introduction", "Chapter 2", "Section 2.1", "Table 1"])
        XCTAssertEqual(outline.map { $0["level"]?.intValue }, [1, 1, 2, 1])
        XCTAssertEqual(outline.map { $0["targetPage"]?.intValue }, [1, 2, 3, 4])
        XCTAssertEqual(r.sections["destinations"], ["nameTree": 3, "catalog": 0, "unresolved": 0])

        let uris = try XCTUnwrap(Self.audit("uri-links.pdf").sections["links"]?.arrayValue).map {
            $0["uri"]?.stringValue
        }
        XCTAssertEqual(
            uris[0...4],
            [
                "https://example.com/", "https://docs.example.org/manual/guide/intro.html",
                "https://docs.example.org/index.html#top",
                "mailto:docs@example.com", "http://example.com/plain",
            ])
        let gotor = try XCTUnwrap(Self.audit("gotor.pdf").sections["links"]?.arrayValue)
        XCTAssertEqual(gotor.map { $0["targetPage"]?.intValue }, [2, 2, 2, nil, nil, nil, nil, 1])
        XCTAssertEqual(gotor[2]["file"], "dests-catalog.pdf")
        XCTAssertEqual(gotor[2]["destination"], "usage")
        let actions = try XCTUnwrap(Self.audit("actions.pdf").sections)
        XCTAssertEqual(
            actions["links"]?.arrayValue?.map { $0["kind"]?.stringValue },
            [
                "launch", "javascript", "named", "named", "named", "named", "other", "other", "other", "other", "goto",
                "goto", "goto", "launch",
            ])
        XCTAssertEqual(actions["openAction"], ["kind": "goto", "targetPage": 2])
        let nametree = try XCTUnwrap(Self.audit("dests-nametree.pdf").sections["links"]?.arrayValue)
        XCTAssertEqual(
            nametree.map { $0["destination"]?.stringValue },
            ["a.first", "b.second", "c.third", "café", "d.fourth", "e.fifth", "f.sixth", "übersicht"])
        XCTAssertEqual(nametree.map { $0["targetPage"]?.intValue }, [1, 2, 3, 3, 4, 5, 6, 6])
        let limits = try XCTUnwrap(Self.audit("dests-bad-limits.pdf").sections["links"]?.arrayValue)
        XCTAssertEqual(
            limits.map { $0["targetPage"]?.intValue }, [3, 3, 2, 2], "names hidden by wrong /Limits are found")
    }
}

/// Inputs the fuzzers found (Tests/Fuzz/reader) go through the link code too, as in
/// scripts/fuzz-links.sh, and each gives the findings written down here (a new input without its
/// expected findings fails, so that what it should give is decided when it is added).
final class LinkFuzzRegressionTests: XCTestCase {
    /// Per input: the document's status and its findings' rules, in report order.
    static let expected: [String: (status: DocumentStatus, rules: [String])] = [
        // An object stream whose /First is negative: the reader declines it, qpdf repairs what it
        // can and finds no catalog; the damage is said once, and the document fails.
        "objstm-negative-first.pdf": (.failed, ["pdf.damaged", "pdf.unreadable"])
    ]

    func testFuzzRegressionCorpusThroughTheLinkCode() throws {
        let folder =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/Fuzz/reader"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.sorted()
        XCTAssertEqual(Set(files), Set(Self.expected.keys), "every regression input has its expected findings")
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "resolve-destinations"}, {"use": "validate-links"}]}"#, file: "t.json",
            catalog: StageTable.all, formats: ["json"])
        let out = NSTemporaryDirectory() + "pdfpipe-fuzz-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        for name in files {
            let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: folder, jobs: 1).process(
                InputDocument(path: folder + "/" + name, relativePath: name))
            let want = try XCTUnwrap(Self.expected[name])
            XCTAssertEqual(r.status, want.status, name)
            XCTAssertEqual(
                r.findings.map(\.rule).sorted(), want.rules.sorted(), "\(name): \(r.findings.map(\.message))")
            // Whatever a finding holds, it is written (no NaN, no invalid text).
            for f in r.findings { XCTAssertNotNil(try? JSONParser.parse(JSONWriter.compact(f.json)), name) }
        }
    }

    /// The GoToR targets held for a run are bounded (they grew with the batch): the least recently
    /// used goes first, and a target asked for again is read again.
    func testRemoteDocumentsKeepAtMostTheirCapacity() {
        let remote = RemoteDocuments(capacity: 2)
        let names = ["links-internal.pdf", "dests-nametree.pdf", "outlines.pdf"]
        for name in names { XCTAssertNil(remote.document(at: Samples.path(name)).error, name) }
        XCTAssertEqual(remote.count, 2)
        XCTAssertEqual(remote.document(at: Samples.path(names[0])).pageCount, 4, "read again after it went")
        XCTAssertEqual(remote.count, 2)
    }
}

/// (#21, 5) The text under a link's rectangle, as a finding row shows it, on pages turned every
/// way (`/Rotate` 0, 90 inherited, 180, 270, -90, 450) and with a crop box off the origin: the
/// caption drawn in each link, and not the page's heading above it.
final class LinkTextTests: XCTestCase {
    func testTheTextUnderALinkOnPagesTurnedEveryWay() throws {
        let path = Samples.path("rotated-cropped.pdf")
        let r = LinkFindingsTests.audit("rotated-cropped.pdf")
        let links = try XCTUnwrap(r.sections["links"]?.arrayValue)
        XCTAssertEqual(links.count, 6)
        var findings = links.map { l in
            var f = Finding(
                rule: .destNameNotFound, page: l["page"]?.intValue,
                rect: l["rect"]?.arrayValue?.compactMap(\.doubleValue), message: "m")
            f.details["annotationIndex"] = l["annotationIndex"]
            return f
        }
        findings.append(Finding(rule: .outlineNoTarget, message: "a bookmark: no rectangle, no text"))
        let reader = try PDFReader(path: path)
        let geometries = PageTree.pages(reader).map { PageGeometry(page: $0) }
        LinkText.annotate(&findings, path: path, geometries: geometries)
        XCTAssertEqual(
            findings.map { $0.details["linkText"]?.stringValue }, Array(repeating: "to page 1", count: 6) + [nil])
    }

    func testTheValidateLinksStageGivesItsFindingsTheirText() throws {
        let r = LinkFindingsTests.audit("broken-links.pdf")
        let texts = r.findings.filter { $0.details["annotationIndex"] != nil }.map {
            "\($0.rule): \($0.details["linkText"]?.stringValue ?? "-")"
        }
        XCTAssertEqual(texts.first, "dest.name-not-found: undefined name")
        XCTAssertTrue(texts.contains("dest.page-out-of-range: integer page 7 of 3"), "\(texts)")
        XCTAssertTrue(texts.contains("link.zero-area: -"), "a link of no area covers no text")
        let off = LinkFindingsTests.audit(
            "broken-links.pdf", pipeline: #"{"stages": [{"use": "validate-links", "with": {"linkText": false}}]}"#)
        XCTAssertTrue(off.findings.allSatisfy { $0.details["linkText"] == nil })
    }
}
