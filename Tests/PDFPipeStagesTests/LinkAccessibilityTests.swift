import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeStages
import TestSupport
import XCTest

/// (#47) The link-accessibility rules on tagged PDFs written here, one requirement broken at a
/// time: each rule fires where its requirement fails and nowhere else, with the severity the
/// document's claim gives it.
final class LinkAccessibilityTests: XCTestCase {
    /// One link annotation of the test page and how it is tagged.
    struct Link {
        var contents: String? = "the 2024 annual report"
        /// The structure type of the element holding the link's OBJR (nil: no OBJR anywhere).
        var element: String? = "Link"
        var elementAlt: String?
        /// The /StructParent key: `.own` (its element's entry), `.none`, `.other` (another element's).
        var structParent: Back = .own
        /// Where it goes: a page of the document, written as /Dest, or a GoTo with /SD.
        var page = 0
        var structureDestination = false
        /// Held by the previous link's element (one element for both).
        var sharesElement = false
        var hidden = false
        /// Text drawn under the link (Helvetica), what a reader sees.
        var text: String?

        enum Back { case own, none, other, missing }
    }

    /// Objects: 1 catalog, 2 pages, 3–4 pages, 5 struct tree root, 6 metadata, 7 Document element,
    /// 8 parent tree, then per link its annotation (9 + 2i) and element (10 + 2i).
    static func document(claim: Int?, xmp given: String? = nil, tagged: Bool = true, tabs: String? = "S", links: [Link])
        -> [String]
    {
        let annot = { (i: Int) in 9 + 2 * i }
        let element = { (i: Int) in 10 + 2 * i }
        let xmp =
            given ?? claim.map {
                #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" pdfuaid:part="\#($0)"/></rdf:RDF></x:xmpmeta>"#
            } ?? #"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R"
                + (tagged ? " /MarkInfo << /Marked true >> /StructTreeRoot 5 0 R" : "") + " >>",
            "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /StructParents 100"
                + (tabs.map { " /Tabs " + ($0.hasPrefix("(") ? $0 : "/" + $0) } ?? "")
                + " /Contents \(9 + 2 * links.count) 0 R"
                + " /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
                + " /Annots [\(links.indices.map { "\(annot($0)) 0 R" }.joined(separator: " "))] >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
            "<< /Type /StructTreeRoot /K 7 0 R /ParentTree 8 0 R /RoleMap << /Lnk /Link >> >>",
            "<< /Type /Metadata /Subtype /XML /Length \(xmp.utf8.count) >>\nstream\n\(xmp)\nendstream",
        ]
        // Elements: each link's own, unless it shares the previous one's.
        let owners = links.indices.map { i in
            var k = i
            while k > 0 && links[k].sharesElement { k -= 1 }
            return k
        }
        let kids = links.indices.filter { !links[$0].sharesElement && links[$0].element != nil }
        objects.append(
            "<< /Type /StructElem /S /Document /P 5 0 R /K [\(kids.map { "\(element($0)) 0 R" }.joined(separator: " "))] >>"
        )
        var nums: [String] = []
        for (i, l) in links.enumerated() {
            switch l.structParent {
            case .own: nums.append("\(i) \(element(owners[i])) 0 R")
            case .other: nums.append("\(i) 7 0 R")
            case .none, .missing: break
            }
        }
        objects.append("<< /Nums [\(nums.joined(separator: " "))] >>")
        for (i, l) in links.enumerated() {
            let target =
                l.structureDestination
                ? "/A << /S /GoTo /D [\(3 + l.page) 0 R /Fit] /SD [\(element(i)) 0 R] >>"
                : "/Dest [\(3 + l.page) 0 R /Fit]"
            objects.append(
                "<< /Type /Annot /Subtype /Link /Rect [72 \(700 - 30 * i) 300 \(715 - 30 * i)] \(target)"
                    + (l.contents.map { " /Contents (\($0))" } ?? "")
                    + (l.structParent == .none ? "" : " /StructParent \(l.structParent == .missing ? 99 : i)")
                    + (l.hidden ? " /F 2" : "") + " >>")
            let held = links.indices.filter { owners[$0] == i && links[$0].element != nil }
            objects.append(
                "<< /Type /StructElem /S /\(l.element ?? "P") /P 7 0 R"
                    + (l.elementAlt.map { " /Alt (\($0))" } ?? "")
                    + " /K [\(held.map { "<< /Type /OBJR /Obj \(annot($0)) 0 R >>" }.joined(separator: " "))] >>")
        }
        let content = links.enumerated().compactMap { i, l in
            l.text.map { "BT /F1 12 Tf 74 \(703 - 30 * i) Td (\($0)) Tj ET" }
        }.joined(separator: "\n")
        objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        return objects
    }

    func audit(_ objects: [String], mode: String? = nil, review: String? = nil) throws -> DocumentResult {
        let dir = NSTemporaryDirectory() + "pdfpipe-access-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestPDF.write(dir + "/t.pdf", objects: objects)
        let with = mode.map { #", "with": {"accessibility": "\#($0)"}"# } ?? ""
        let copy = review.map { _ in #", {"use": "review-copy"}"# } ?? ""
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"\#(with)}\#(copy)]}"#, file: "t.json", catalog: StageTable.all,
            formats: ["json"])
        return Runner(pipeline: pipeline, outputDirectory: review ?? dir + "/out", inputRoot: dir, jobs: 1).process(
            InputDocument(path: dir + "/t.pdf", relativePath: "t.pdf"))
    }

    func access(_ r: DocumentResult) -> [Finding] { r.findings.filter { $0.rule.hasPrefix("access.") } }

    func said(_ r: DocumentResult) -> String? { r.sections["linkSummary"]?["accessibility"]?.stringValue }

    // MARK: -

    func testAConformingTaggedLinkHasNoFinding() throws {
        for claim in [1, 2] {
            let r = try audit(Self.document(claim: claim, links: [Link(structureDestination: claim == 2)]))
            XCTAssertEqual(access(r).map(\.message), [], "PDF/UA-\(claim)")
            XCTAssertEqual(said(r), "PDF/UA-\(claim) (claimed)")
            XCTAssertEqual(r.findings.map(\.rule), [], "PDF/UA-\(claim)")
        }
        // A role-mapped element type is its standard type; a hidden link is not presented.
        let r = try audit(Self.document(claim: 1, links: [Link(element: "Lnk"), Link(element: "P", hidden: true)]))
        XCTAssertEqual(access(r).map(\.message), [])
    }

    /// The trust issue (#60), 6: the claim was read by a text pattern, so a valid claim under
    /// another prefix or with an `rdf:datatype` was missed and the document's errors dropped to
    /// warnings. Read as XML with namespaces, every spelling gives the same findings; a prefix
    /// bound to another namespace claims nothing.
    func testEverySpellingOfTheClaimGivesTheSameFindings() throws {
        let rdf = #"xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#""#
        let ua = "http://www.aiim.org/pdfua/ns/id/"
        let spellings = [
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \#(rdf)><rdf:Description rdf:about="" xmlns:ua="\#(ua)" ua:part="1"/></rdf:RDF></x:xmpmeta>"#,
            #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \#(rdf)><rdf:Description rdf:about=""><ua:part xmlns:ua="\#(ua)" rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1</ua:part></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#,
            #"<rdf:RDF \#(rdf)><rdf:Description xmlns="\#(ua)"><part> 1 </part></rdf:Description></rdf:RDF>"#,
            #"<rdf:RDF \#(rdf)><!-- pdfuaid:part="2" --><rdf:Description xmlns:p='\#(ua)' p:part='&#49;'/></rdf:RDF>"#,
            #"<rdf:RDF \#(rdf)><rdf:Description xmlns:pdfuaid="\#(ua)"><pdfuaid:part><![CDATA[1]]></pdfuaid:part></rdf:Description></rdf:RDF>"#,
        ]
        let links = [Link(element: "P"), Link(contents: nil)]
        let reference = try audit(Self.document(claim: 1, links: links))
        let expected = access(reference).map { "\($0.rule) \($0.severity.rawValue)" }
        XCTAssertTrue(expected.contains("access.link-not-tagged error"), "\(expected)")
        for xmp in spellings {
            let r = try audit(Self.document(claim: nil, xmp: xmp, links: links))
            XCTAssertEqual(access(r).map { "\($0.rule) \($0.severity.rawValue)" }, expected, xmp)
        }
        // The pdfuaid prefix bound to another namespace, or the claim only in a comment: no claim.
        for xmp in [
            #"<rdf:RDF \#(rdf)><rdf:Description xmlns:pdfuaid="http://example.com/other/" pdfuaid:part="1"/></rdf:RDF>"#,
            #"<rdf:RDF \#(rdf)><!-- <pdfuaid:part>1</pdfuaid:part> --></rdf:RDF>"#,
        ] {
            let r = try audit(Self.document(claim: nil, xmp: xmp, links: links))
            XCTAssertFalse(access(r).contains { $0.severity == .error }, xmp)
        }
    }

    func testEachBrokenRequirementGivesItsRuleOnItsLink() throws {
        let links = [
            Link(),  // fine
            Link(element: "P"),
            Link(element: nil),
            Link(structParent: .none),
            Link(structParent: .other),
            Link(structParent: .missing),
            Link(contents: nil),
            Link(contents: nil, elementAlt: "the price list"),
            Link(contents: "https://example.org/report.pdf"),
        ]
        let r = try audit(Self.document(claim: 1, tabs: nil, links: links))
        let got = access(r).map { f in "\(f.rule) \(f.object ?? "-") \(f.severity.rawValue)" }
        XCTAssertEqual(
            got,
            [
                "access.link-not-tagged 11 0 R error", "access.link-not-tagged 13 0 R error",
                "access.link-parent-tree 15 0 R error", "access.link-parent-tree 17 0 R error",
                "access.link-parent-tree 19 0 R error", "access.link-no-alt 21 0 R error",
                "access.link-no-alt 23 0 R error", "access.link-purpose 25 0 R warning",
                "access.link-purpose 21 0 R warning", "access.tab-order - error",
            ], access(r).map(\.message).joined(separator: "\n"))
        let messages = access(r).map(\.message)
        XCTAssertTrue(messages[0].contains("in a 'P' element, not in a Link element"), messages[0])
        XCTAssertTrue(messages[0].hasSuffix("the document claims PDF/UA-1 (pdfuaid:part 1)"), messages[0])
        XCTAssertTrue(messages[1].contains("no OBJR names it"), messages[1])
        XCTAssertTrue(messages[2].contains("has no /StructParent"), messages[2])
        XCTAssertTrue(messages[3].contains("leads to 7 0 R in the /ParentTree, but its OBJR is in 18 0 R"), messages[3])
        XCTAssertTrue(messages[4].contains("/StructParent 99 is not in the /ParentTree"), messages[4])
        XCTAssertTrue(messages[5].contains("(/Contents absent)"), messages[5])
        // Alt text on the element instead: said, not decided.
        XCTAssertTrue(messages[6].contains("which PAC 2024 accepts and veraPDF does not"), messages[6])
        XCTAssertEqual(access(r)[6].details["elementAlt"], "the price list")
        XCTAssertTrue(messages[7].contains("is a bare address ('https://example.org/report.pdf', its alternate text)"))
        // No alternate text and no text under it (the test page has none): nothing to announce.
        XCTAssertTrue(messages[8].contains("purpose is empty (no /Contents, no /Alt, no text under it)"), messages[8])
        XCTAssertTrue(messages[9].hasPrefix("1 page with annotations lacks /Tabs /S (on page 1)"), messages[9])
        // Each link finding is located: page, rectangle, place in /Annots.
        XCTAssertEqual(access(r)[0].page, 1)
        XCTAssertEqual(access(r)[0].rect, [72, 670, 300, 685])
        XCTAssertEqual(access(r)[0].details["annotationIndex"], 1)
    }

    func testSeverityFollowsWhatTheDocumentClaims() throws {
        let broken = [Link(element: "P"), Link(contents: nil)]
        // Tagged, claims nothing: warnings, held to PDF/UA-1.
        let tagged = try audit(Self.document(claim: nil, links: broken))
        XCTAssertEqual(access(tagged).map(\.severity), [.warning, .warning, .warning])
        XCTAssertTrue(access(tagged)[0].message.hasSuffix("the document is tagged and claims no PDF/UA part"))
        XCTAssertEqual(said(tagged), "PDF/UA-1 (tagged, no claim)")
        // Untagged, claims nothing: skipped, and said so.
        let untagged = try audit(Self.document(claim: nil, tagged: false, tabs: nil, links: broken))
        XCTAssertEqual(access(untagged), [])
        XCTAssertEqual(said(untagged), "not tagged: not checked")
        // The run demands PDF/UA-1: errors; an untagged document's links are one finding.
        let demanded = try audit(Self.document(claim: nil, tagged: false, links: broken), mode: "pdf-ua-1")
        XCTAssertEqual(access(demanded).map(\.rule), ["access.link-no-alt", "access.link-not-tagged"])
        XCTAssertEqual(access(demanded).map(\.severity), [.error, .error])
        XCTAssertTrue(access(demanded)[1].message.hasPrefix("the document has no structure tree: none of its 2 links"))
        XCTAssertEqual(said(demanded), "PDF/UA-1 (required)")
        // Off: nothing, and nothing said.
        let off = try audit(Self.document(claim: 1, links: broken), mode: "off")
        XCTAssertEqual(access(off), [])
        XCTAssertNil(said(off))
    }

    func testPDFUA2LinksTargetsAndStructureDestinations() throws {
        let links = [
            Link(structureDestination: true),
            // Shares the first link's element and goes elsewhere: one element, two targets.
            Link(page: 1, structureDestination: true, sharesElement: true),
            // A plain /Dest: no structure destination.
            Link(),
            // A Reference element is a place for a link in PDF/UA-2; /Alt stands for /Contents.
            Link(contents: nil, element: "Reference", elementAlt: "the glossary", structureDestination: true),
        ]
        let r = try audit(Self.document(claim: 2, tabs: "W", links: links))
        XCTAssertEqual(
            access(r).map { "\($0.rule) \($0.object ?? "-")" },
            ["access.link-targets-mixed 9 0 R", "access.dest-not-structure 13 0 R"],
            access(r).map(\.message).joined(separator: "\n"))
        XCTAssertTrue(access(r)[0].message.contains("encloses 2 links with 2 different targets"))
        // /Tabs written as a string (LibreOffice 7.4's PDF/UA export): not the name /S, and said so.
        let string = try audit(Self.document(claim: 1, tabs: "(S)", links: [Link()]))
        XCTAssertEqual(access(string).map(\.rule), ["access.tab-order"])
        XCTAssertTrue(access(string)[0].message.contains("(all written as a string, (S), which is not the name"))
        // The same document held to PDF/UA-1: /Tabs /W and Reference elements fail there.
        let ua1 = try audit(Self.document(claim: 2, tabs: "W", links: links), mode: "pdf-ua-1")
        XCTAssertEqual(
            access(ua1).map(\.rule), ["access.link-no-alt", "access.link-not-tagged", "access.tab-order"],
            access(ua1).map(\.message).joined(separator: "\n"))
    }

    /// #63 (5): links without alternate text were judged by the text under them for the first 500
    /// of a document only (the labels' budget), so a large Chromium file's later bare-URL links
    /// went unsaid. 30 pages of 20 such links: the 600th, a bare URL, is said.
    func testEveryLinkWithoutAlternateTextIsJudgedInALargeDocument() throws {
        let (pages, perPage) = (30, 20)
        let firstPage = 6
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 3 0 R >>",
            "<< /Type /Pages /Kids [\((0..<pages).map { "\(firstPage + $0 * (2 + 2 * perPage)) 0 R" }.joined(separator: " "))] /Count \(pages) >>",
            "", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
        var elements: [Int] = []
        for p in 0..<pages {
            let pageObject = firstPage + p * (2 + 2 * perPage)
            let annots = (0..<perPage).map { pageObject + 2 + 2 * $0 }
            var content = ""
            for i in 0..<perPage {
                let last = p == pages - 1 && i == perPage - 1
                content +=
                    "BT /F1 12 Tf 74 \(703 - 30 * i) Td (\(last ? "https://example.org/late" : "chapter \(p * perPage + i)")) Tj ET\n"
            }
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Tabs /S /Resources << /Font << /F1 5 0 R >> >> /Contents \(pageObject + 1) 0 R /Annots [\(annots.map { "\($0) 0 R" }.joined(separator: " "))] >>"
            )
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream")
            for i in 0..<perPage {
                let n = p * perPage + i
                objects.append(
                    "<< /Type /Annot /Subtype /Link /Rect [72 \(700 - 30 * i) 300 \(715 - 30 * i)] /Border [0 0 0] /StructParent \(n) /A << /S /URI /URI (https://example.org/\(n)) >> >>"
                )
                objects.append(
                    "<< /Type /StructElem /S /Link /P 3 0 R /Pg \(pageObject) 0 R /K << /Type /OBJR /Obj \(annots[i]) 0 R >> >>"
                )
                elements.append(annots[i] + 1)
            }
        }
        objects[2] =
            "<< /Type /StructTreeRoot /K [\(elements.map { "\($0) 0 R" }.joined(separator: " "))] /ParentTree 4 0 R >>"
        objects[3] =
            "<< /Nums [\(elements.enumerated().map { "\($0.offset) \($0.element) 0 R" }.joined(separator: " "))] >>"
        let r = try audit(objects)
        let purpose = access(r).filter { $0.rule == "access.link-purpose" }
        XCTAssertEqual(purpose.map(\.page), [pages], purpose.map(\.message).joined(separator: "\n"))
        XCTAssertTrue(purpose.first?.message.contains("https://example.org/late") ?? false)
        XCTAssertEqual(access(r).first { $0.rule == "access.link-no-alt" }?.details["count"], .int(pages * perPage))
        XCTAssertFalse(r.findings.contains { $0.rule == "pdf.limit-exceeded" }, "\(r.findings.map(\.message))")
    }

    /// WCAG 2.4.4/2.4.9: without alternate text, a link's purpose is the text under it (read with
    /// poppler): a bare address there is said; words are not; the findings carry that text.
    func testWithoutAlternateTextThePurposeIsTheTextUnderTheLink() throws {
        let links = [
            Link(contents: nil, text: "https://example.org/x"), Link(contents: nil, text: "the annual report"),
            Link(contents: "www.example.org"), Link(contents: "mailto:someone@example.org"),
            Link(contents: "see https://example.org"),
        ]
        let r = try audit(Self.document(claim: nil, links: links))
        XCTAssertEqual(
            access(r).map { "\($0.rule) \($0.details["annotationIndex"]?.intValue ?? -1)" },
            ["access.link-no-alt 0", "access.link-purpose 2", "access.link-purpose 3", "access.link-purpose 0"],
            access(r).map(\.message).joined(separator: "\n"))
        XCTAssertTrue(access(r)[3].message.contains("('https://example.org/x', the text under it)"))
        XCTAssertEqual(access(r)[0].details["linkText"], "https://example.org/x")
        // #63 (6): one finding per document for the links without alternate text, every link in
        // its locations with the text under it.
        XCTAssertEqual(access(r)[0].details["count"], .int(2))
        XCTAssertTrue(access(r)[0].message.contains("(2 links in all, on page 1)"), access(r)[0].message)
        let locations = try XCTUnwrap(access(r)[0].details["locations"]?.arrayValue)
        XCTAssertEqual(locations.map { $0["annotationIndex"]?.intValue }, [0, 1])
        XCTAssertEqual(locations.map { $0["linkText"]?.stringValue }, ["https://example.org/x", "the annual report"])
        XCTAssertEqual(locations.map { $0["page"]?.intValue }, [1, 1])
    }

    /// The review copy puts the text under a link without alternate text in as its /Contents (a
    /// suggestion, said in the mark's note); a link that has /Contents keeps it.
    func testTheReviewCopySuggestsContentsFromTheLinkText() throws {
        let out = NSTemporaryDirectory() + "pdfpipe-access-review-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let links = [Link(contents: nil, text: "the annual report"), Link(contents: "the price list")]
        let r = try audit(Self.document(claim: 1, links: links), review: out)
        XCTAssertEqual(r.sections["reviewCopy"]?["suggestedContents"], 1)
        let copy = try QPDFFile(path: out + "/review/t.review.pdf")
        // After the summary pages in front.
        let first = r.sections["reviewCopy"]?["summaryPages"]?.intValue ?? 0
        let annots = copy.page(first)["Annots"]?.items ?? []
        let contents = annots.filter { $0["Subtype"]?.name == "Link" }.map { $0["Contents"]?.text }
        XCTAssertEqual(contents, ["the annual report", "the price list"])
        let notes = annots.filter { $0["Subtype"]?.name == "Square" }.compactMap { $0["Contents"]?.text }
        XCTAssertTrue(
            notes.contains { $0.contains("Suggested in this copy: /Contents (the annual report)") }, "\(notes)")
    }

    /// The veraPDF corpus's files for these clauses (Tests/Fixtures/verapdf, CC BY 4.0): every
    /// `fail` file gets the rule of its clause, every `pass` file does not.
    func testTheVeraPDFCorpusFilesGiveTheRuleOfTheirClause() throws {
        let folder =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/Fixtures/verapdf"
        let rules: [(prefix: String, rule: Rule)] = [
            ("7.18.3-", .accessTabOrder), ("7-18.3-", .accessTabOrder), ("7.18.5-t01-", .accessLinkNotTagged),
            ("7.18.5-t02-", .accessLinkNoAlt), ("8.2.5.20-t02-", .accessLinkTargetsMixed),
            ("8.8-", .accessDestNotStructure),
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.sorted()
        XCTAssertEqual(files.count, 15)
        let pipeline = try Pipeline.parse(
            #"{"stages": [{"use": "validate-links"}]}"#, file: "t.json", catalog: StageTable.all, formats: ["json"])
        let out = NSTemporaryDirectory() + "pdfpipe-verapdf-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        for name in files {
            let rule = try XCTUnwrap(rules.first { name.hasPrefix($0.prefix) }?.rule, name)
            let r = Runner(pipeline: pipeline, outputDirectory: out, inputRoot: folder, jobs: 1).process(
                InputDocument(path: folder + "/" + name, relativePath: name))
            let fired = r.findings.filter { $0.rule == rule.id }
            if name.contains("-fail-") {
                XCTAssertFalse(fired.isEmpty, "\(name): no \(rule.id) in \(r.findings.map(\.rule))")
                // Each claims the part of its clause: an error.
                XCTAssertEqual(fired.map(\.severity), fired.map { _ in .error }, name)
            } else {
                XCTAssertEqual(fired.map(\.message), [], name)
            }
        }
    }
}
