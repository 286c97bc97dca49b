import Foundation
import PDFBridge
import PDFPipeCore
import PDFPipeWeb
import SystemIO

/// The link stages' second reader. A file that neither pdfpipe's object reader nor qpdf's recovery
/// can read may still open in poppler (as in MuPDF and PDFium: fuzzed and truncated files). Before
/// the document fails, poppler's reading of its links is checked as far as poppler exposes them:
/// internal destinations (explicit and named) against poppler's pages, GoToR and Launch files
/// against the file system, URIs against their syntax. What poppler does not expose (bookmarks,
/// the open action, destination positions, the inventory) is not checked, and the document still
/// fails with `pdf.unreadable`, whose message says which reader managed and what was checked.
struct PopplerLinkCheck {
    let file: PopplerFile
    let sourcePath: String
    let inputRoot: String
    private(set) var findings: [Finding] = []
    private(set) var linkCount = 0

    init(file: PopplerFile, sourcePath: String, inputRoot: String) {
        self.file = file
        self.sourcePath = sourcePath
        self.inputRoot = inputRoot
    }

    mutating func run() {
        for index in 0..<file.pageCount { run(page: index) }
    }

    /// Checks the links of one page (0-based) as poppler reads them.
    mutating func run(page index: Int) {
        let n = file.pageCount
        guard index < n, let page = file.page(index) else { return }
        for link in page.links {
            linkCount += 1
            check(link, page: index + 1, pageCount: n)
        }
    }

    private mutating func report(_ rule: Rule, _ message: String, page: Int, target: String? = nil) {
        var f = Finding(rule: rule, page: page, message: message + " (read by poppler)")
        f.details["reader"] = .string("poppler")
        if let target { f.details["target"] = .string(target) }
        findings.append(f)
    }

    /// A GoTo: its named destination defined, its page in the document.
    private mutating func checkGoTo(_ link: PopplerLink, page: Int, pageCount n: Int) {
        var dest = link.destination
        if let name = link.name {
            dest = file.findDestination(bytes: name)
            let text = ConsoleText.escape(String(decoding: name, as: UTF8.self))
            guard dest != nil else {
                report(
                    .destNameNotFound, "named destination '\(text)' does not exist", page: page, target: text)
                return
            }
        }
        guard let dest else {
            report(.destMalformed, "poppler cannot read the link's destination", page: page)
            return
        }
        if dest.page < 1 || dest.page > n {
            report(
                .destPageNotInDocument,
                "the destination is not a page of this document (\(n) page\(n == 1 ? "" : "s"))", page: page)
        }
    }

    /// A GoToR's or Launch's file, when it is a file (not a URL) pdfpipe may look at.
    private mutating func checkFile(_ link: PopplerLink, page: Int) {
        guard var path = link.file, !path.isEmpty else {
            report(
                .actionMalformed, "the \(link.kind == .gotor ? "GoToR" : "Launch") action has no file (/F)",
                page: page)
            return
        }
        if URIReference.parse(path).scheme.map({ $0.count > 1 }) == true { return }  // a URL
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        guard !path.isEmpty else { return }
        let target = Paths.absolute(
            path.replacingOccurrences(of: "\\", with: "/"), relativeTo: Paths.parent(sourcePath))
        LocalCopies.ensure(target)
        guard Paths.isReachable(target, root: inputRoot, from: sourcePath),
            !FileSystem.exists(target)
        else { return }
        if link.kind == .gotor {
            report(.gotorFileMissing, "the file '\(path)' does not exist", page: page, target: path)
        } else {
            report(
                .actionLaunchTargetMissing, "the Launch action's file '\(path)' does not exist", page: page,
                target: path)
        }
    }

    private mutating func check(_ link: PopplerLink, page: Int, pageCount n: Int) {
        switch link.kind {
        case .goto: checkGoTo(link, page: page, pageCount: n)
        case .gotor, .launch: checkFile(link, page: page)
        case .uri:
            guard let uri = link.uri else { return }
            if let finding = URISchemes.judge(uri, custom: []).finding {
                report(finding.rule, finding.message, page: page, target: uri)
                return
            }
            if let problem = URIReference.problem(in: uri), URIReference.browserForm(uri) == nil {
                report(.uriMalformed, "'\(ConsoleText.escape(uri))': \(problem)", page: page, target: uri)
            }
        default:
            break
        }
    }
}

extension Job {
    /// For a document the link stages cannot read: poppler's check of its links, reported here,
    /// and the clause for the `pdf.unreadable` message that says what it covered. Nil when poppler
    /// cannot read the document or finds no page. Runs once per document (both link stages ask).
    mutating func checkLinksWithPoppler() -> String? {
        if let done = resources.existing(PopplerFallbackDone.self) { return done.clause }
        var clause: String?
        if let file = try? PopplerFile(path: workingFile), file.pageCount > 0 {
            var check = PopplerLinkCheck(file: file, sourcePath: source, inputRoot: inputRoot)
            check.run()
            for f in check.findings { report(f) }
            let n = file.pageCount
            let links = check.linkCount
            clause =
                "; poppler reads it (\(n) page\(n == 1 ? "" : "s")), so viewers may show it: its \(links) link\(links == 1 ? "" : "s")"
                + " were checked as poppler reads them (destinations, files, URI syntax; \(check.findings.count) finding\(check.findings.count == 1 ? "" : "s")),"
                + " bookmarks, the open action and the link inventory were not"
        }
        resources.store(PopplerFallbackDone(clause: clause))
        return clause
    }

    /// `failure` (the document cannot be read for the link stages), with poppler's check run and
    /// said in its message instead of "could not check it".
    ///
    /// A document poppler reads (as MuPDF and PDFium often read what qpdf cannot) is not
    /// unreadable: the failure becomes `pdf.damaged` (a warning), whose message says what was
    /// checked and what was not; the link stages report it and end without failing the document
    /// (`linkTablesOrPoppler`).
    mutating func afterPopplerCheck(_ failure: DocumentFailure) -> DocumentFailure {
        guard failure.rule == .pdfUnreadable, let clause = checkLinksWithPoppler() else { return failure }
        var f = failure
        let opinion = popplerSecondOpinion()
        if !opinion.isEmpty, f.message.hasSuffix(opinion) { f.message.removeLast(opinion.count) }
        f.message += clause
        f.rule = .pdfDamaged
        return f
    }

    /// The link stages' tables, or nil when only poppler could read the document: its links were
    /// checked as poppler reads them and a `pdf.damaged` warning (once per document) says so.
    mutating func linkTablesOrPoppler(maxDestinations: Int = 1_000_000) throws -> LinkTables? {
        do {
            return try linkTables(maxDestinations: maxDestinations)
        } catch let failure as DocumentFailure where failure.rule == .pdfDamaged {
            if !findings.contains(where: { $0.rule == failure.rule.id && $0.message == failure.message }) {
                report(Finding(rule: failure.rule, object: failure.object, message: failure.message))
            }
            return nil
        }
    }
}

/// Marks that `checkLinksWithPoppler` ran for a document.
final class PopplerFallbackDone {
    let clause: String?
    init(clause: String?) { self.clause = clause }
}

extension Job {
    /// When qpdf read some or all of the objects (a damaged file), qpdf may have read a page or a
    /// link annotation as null (it does so with any object holding an integer past 64 bits), and
    /// every link in it vanishes. poppler, like MuPDF and PDFium, still shows and follows those
    /// links. So the link count of each page is compared with poppler's: a page where they differ is
    /// said in a `pdf.link-count-mismatch` finding, and when poppler reads more links there, those
    /// are checked as poppler reads them (destinations, files, URI syntax).
    mutating func crossCheckLinkCounts(_ links: [LinkRecord], pageCount: Int) {
        guard let file = try? PopplerFile(path: workingFile), file.pageCount == pageCount else { return }
        var ours = [Int](repeating: 0, count: pageCount)
        for l in links { if let p = l.page, p >= 1, p <= pageCount { ours[p - 1] += 1 } }
        var check = PopplerLinkCheck(file: file, sourcePath: source, inputRoot: inputRoot)
        for index in 0..<pageCount {
            guard let page = file.page(index) else { continue }
            let theirs = page.links.count
            guard theirs != ours[index] else { continue }
            var f = Finding(
                rule: .pdfLinkCountMismatch, page: index + 1,
                message:
                    "qpdf's reading of the damaged file gives this page \(ours[index]) link\(ours[index] == 1 ? "" : "s"), poppler's \(theirs)"
                    + (theirs > ours[index]
                        ? "; the page's links were also checked as poppler reads them"
                        : "; viewers built on poppler show fewer links than were checked"))
            f.details["qpdfLinks"] = .int(ours[index])
            f.details["popplerLinks"] = .int(theirs)
            report(f)
            if theirs > ours[index] { check.run(page: index) }
        }
        for f in check.findings { report(f) }
    }
}
