import PDFReader

/// An explicit destination (`[page /XYZ left top zoom]` and the other fit types), parsed.
package struct Destination: Sendable, Equatable {
    package enum Target: Sendable, Equatable {
        /// A page of this document, by object identity (0-based index).
        case page(Int)
        /// An integer where a page reference belongs (0-based, as written); conforming only in GoToR.
        case pageNumber(Int)
        /// An object that is not a page of this document (its reference, if indirect).
        case notAPage(String?)
        /// No first element, or one of the wrong type.
        case invalid(String)
    }

    package var target: Target
    /// `XYZ`, `Fit`, `FitH`, `FitV`, `FitR`, `FitB`, `FitBH`, `FitBV` (as written, when malformed).
    package var fit: String
    /// The fit type's parameters; nil for `null`.
    package var parameters: [Double?]
    /// What is wrong with the destination such that PDFium or MuPDF cannot follow it (an error).
    /// Given a page, both go there whatever the view (see `viewersFailing`), so an array with a
    /// page never has one; kept for the GoToR path and callers that read it.
    package var problem: String?
    /// What is off but followed by PDFium, MuPDF, poppler and pdf.js alike (a note): `[page /XYZ
    /// 68 628]` without its zoom, `[page /FitH]` without its operand.
    package var tolerated: String?
    /// What is off such that some of the mainstream viewers do not follow the link (a warning),
    /// with the viewers named: PDFium and MuPDF go to the page whatever the view, poppler and
    /// pdf.js refuse some views (see docs/destinations.md, whose table the tests hold).
    package var viewerDependent: String?
    /// The viewers that do not follow it (of poppler and pdf.js), empty when all do.
    package var viewersFailing: [String] = []
    /// The structure element a PDF 2.0 structure destination names in place of a page (its
    /// reference); `target` is then the element's page.
    package var structureElement: String?

    /// What a destination's first element names: a page, a page number, a PDF 2.0 structure
    /// element (its page, and its reference), or nothing that is a page.
    static func target(_ first: PDFObject, pages: PageIndex) -> (Target, String?) {
        if let i = first.int { return (.pageNumber(i), nil) }
        if first.isDictionary, let id = first.objectID {
            if let index = pages.index(of: id) { return (.page(index), nil) }
            // PDF 2.0: a structure destination names the element; the page is the element's.
            if let element = Self.structurePage(first, pages: pages) {
                return (.page(element), "\(id.number) \(id.generation) R")
            }
            return (.notAPage("\(id.number) \(id.generation) R"), nil)
        }
        if first.isDictionary { return (.notAPage(nil), nil) }
        // A reference to a missing object reads as null.
        if first.isIndirect || first.isNull { return (.notAPage(first.reference), nil) }
        return (.invalid("the first element is \(Self.typeName(first)), not a page"), nil)
    }

    /// The 0-based page of a structure element (PDF 2.0 §12.3.2.2, structure destinations): its
    /// `/Pg`, else that of its content (marked-content references and object references with
    /// `/Pg`, then its kids, depth first, at most `maxStructureVisits` objects); nil when the
    /// object is no structure element or no page is found.
    static func structurePage(_ element: PDFObject, pages: PageIndex) -> Int? {
        guard element["Type"]?.name == "StructElem" || (element["S"]?.name != nil && element["P"] != nil) else {
            return nil
        }
        var stack = [element]
        var visits = 0
        while let e = stack.popLast(), visits < maxStructureVisits {
            visits += 1
            if let id = e["Pg"]?.objectID, let index = pages.index(of: id) { return index }
            guard let k = e["K"] else { continue }
            let kids = k.isArray ? (0..<k.count).map { k[$0] } : [k]
            stack += kids.reversed().filter(\.isDictionary)
        }
        return nil
    }

    /// Objects visited at most to find a structure element's page (hostile trees).
    static let maxStructureVisits = 1_000

    /// Parameters of each fit type, and whether `null` is allowed for them. (A switch, not a global
    /// dictionary: every worker reads it for every destination, and a shared dictionary's reference
    /// count would be contended between them.)
    static func arity(_ fit: String) -> (count: Int, nullable: Bool)? {
        switch fit {
        case "XYZ": (3, true)
        case "Fit", "FitB": (0, false)
        case "FitH", "FitBH", "FitV", "FitBV": (1, true)
        case "FitR": (4, false)
        default: nil
        }
    }

    /// An operand as viewers classify it.
    enum Operand { case number, null, other }

    /// Whether poppler (`LinkDest`) follows a destination with this view: it refuses an unknown or
    /// missing view type, a `/FitV`, `/FitBH` or `/FitBV` without its operand, a `/FitR` with fewer
    /// than four, and an `/XYZ` operand that is neither a number nor null; it reads a bad operand
    /// of the other views as `/Fit`, and ignores extra operands.
    static func popplerFollows(_ fit: String?, _ args: [Operand]) -> Bool {
        switch fit {
        case "XYZ"?: return args.prefix(3).allSatisfy { $0 != .other }
        case "Fit"?, "FitB"?, "FitH"?: return true
        case "FitV"?, "FitBH"?, "FitBV"?: return !args.isEmpty
        case "FitR"?: return args.count >= 4
        default: return false
        }
    }

    /// Whether pdf.js (`isValidExplicitDest`) follows it: a known view type with 2 or 3 operands for
    /// `/XYZ`, none for `/Fit` and `/FitB`, at most one for `/FitH`, `/FitBH`, `/FitV`, `/FitBV`,
    /// exactly four numbers for `/FitR`; every operand a number or null.
    static func pdfjsFollows(_ fit: String?, _ args: [Operand]) -> Bool {
        let n = args.count
        var allowNull = true
        switch fit {
        case "XYZ"?: guard n >= 2 && n <= 3 else { return false }
        case "Fit"?, "FitB"?: return n == 0
        case "FitH"?, "FitBH"?, "FitV"?, "FitBV"?: guard n <= 1 else { return false }
        case "FitR"?:
            guard n == 4 else { return false }
            allowNull = false
        default: return false
        }
        return args.allSatisfy { $0 == .number || (allowNull && $0 == .null) }
    }

    /// Parses an explicit destination array. `pages` maps page object numbers to indexes.
    package init(array: PDFObject, pages: PageIndex) {
        let n = array.count
        target = .invalid("the destination array is empty")
        fit = ""
        parameters = []
        problem = nil
        guard n > 0 else { return }
        let first = array[0]
        (target, structureElement) = Self.target(first, pages: pages)
        let name = n > 1 ? array[1].name : nil
        fit = name ?? ""
        let args = n > 2 ? (2..<n).map { array[$0] } : []
        let operands = args.map { a -> Operand in a.number != nil ? .number : a.isNull ? .null : .other }
        var irregular: String?
        if n < 2 {
            irregular = "no fit type"
        } else if name == nil {
            irregular = "the fit type is \(Self.typeName(array[1])), not a name"
        } else if let name, let (count, nullable) = Self.arity(name) {
            if args.count != count {
                irregular =
                    args.isEmpty && count == 1
                    ? "'/\(name)' without its parameter"
                    : "'/\(name)' takes \(count) parameter\(count == 1 ? "" : "s"), found \(args.count)"
            }
            for (i, a) in args.prefix(count).enumerated() {
                parameters.append(a.number)
                if irregular == nil, operands[i] == .other || (operands[i] == .null && !nullable) {
                    irregular =
                        "parameter \(i + 1) of '/\(name)' is \(Self.typeName(a)), expected a number\(nullable ? " or null" : "")"
                }
            }
            while parameters.count < count { parameters.append(nil) }
        } else if let name {
            irregular = "unknown fit type '/\(name)'"
        }
        guard let irregular else { return }
        switch target {
        case .page, .pageNumber:
            break
        case .invalid(let why):
            // One construct, one finding: with no page there is nothing a viewer could go to, so
            // the view's irregularity is part of the error, not a warning that a viewer "goes to
            // the page". `[/Fit 3 0 R]` (the page and the view swapped) says how to write it.
            if let view = first.name, let (count, _) = Self.arity(view), n > 1, array[1].isDictionary {
                target = .invalid(
                    "\(why): the view comes before the page (write [page /\(view)\(count > 0 ? " …" : "")])")
            }
            return
        case .notAPage:
            return
        }
        if !Self.popplerFollows(name, operands) { viewersFailing.append("poppler") }
        if !Self.pdfjsFollows(name, operands) { viewersFailing.append("pdf.js") }
        if viewersFailing.isEmpty {
            tolerated = "\(irregular) (PDFium, MuPDF, poppler and pdf.js all follow it)"
        } else {
            viewerDependent =
                "\(irregular): \(viewersFailing.joined(separator: " and ")) do\(viewersFailing.count == 1 ? "es" : "") not follow it (PDFium and MuPDF go to the page)"
        }
    }

    /// The object's type with its article: `an integer`, `a string`, `null`.
    static func typeName(_ o: PDFObject) -> String { o.value.typeName }

    /// A coordinate of the destination that must lie on the target page.
    struct Position {
        /// `left`, `top`, `right` or `bottom`.
        var label: String
        /// An x coordinate (else y).
        var isX: Bool
        var value: Double
    }

    /// The coordinates that must lie on the target page.
    var positions: [Position] {
        var out: [Position] = []
        func add(_ label: String, _ isX: Bool, _ i: Int) {
            if i < parameters.count, let v = parameters[i] { out.append(Position(label: label, isX: isX, value: v)) }
        }
        switch fit {
        case "XYZ":
            add("left", true, 0)
            add("top", false, 1)
        case "FitH", "FitBH": add("top", false, 0)
        case "FitV", "FitBV": add("left", true, 0)
        case "FitR":
            add("left", true, 0)
            add("bottom", false, 1)
            add("right", true, 2)
            add("top", false, 3)
        default: break
        }
        return out
    }
}

/// Page object numbers to 0-based page indexes: destinations point at pages by object identity.
package struct PageIndex: Sendable {
    private var byObject: [Int64: Int] = [:]
    package private(set) var count = 0

    /// - Parameter pages: the document's pages in order (`PageTree.pages`).
    package init(_ pages: [PDFObject]) {
        count = pages.count
        for (i, page) in pages.enumerated() {
            if let id = page.objectID { byObject[Self.key(id)] = byObject[Self.key(id)] ?? i }
        }
    }

    static func key(_ id: (number: Int, generation: Int)) -> Int64 {
        Int64(id.number) << 16 | Int64(id.generation & 0xFFFF)
    }

    package func index(of id: (number: Int, generation: Int)) -> Int? { byObject[Self.key(id)] }
}
