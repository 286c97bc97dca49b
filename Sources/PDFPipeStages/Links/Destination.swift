import PDFBridge

/// An explicit destination (`[page /XYZ left top zoom]` and the other fit types), parsed.
public struct Destination: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// A page of this document, by object identity (0-based index).
        case page(Int)
        /// An integer where a page reference belongs (0-based, as written); conforming only in GoToR.
        case pageNumber(Int)
        /// An object that is not a page of this document (its reference, if indirect).
        case notAPage(String?)
        /// No first element, or one of the wrong type.
        case invalid(String)
    }

    public var target: Target
    /// `XYZ`, `Fit`, `FitH`, `FitV`, `FitR`, `FitB`, `FitBH`, `FitBV` (as written, when malformed).
    public var fit: String
    /// The fit type's parameters; nil for `null`.
    public var parameters: [Double?]
    /// What is wrong with the fit type or its parameters.
    public var problem: String?
    /// What is off but read the same way by every mainstream viewer (`[page /FitH]` without its
    /// operand: Acrobat, pdf.js, PDFium, MuPDF and poppler read the missing operand as null).
    public var tolerated: String?

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

    /// Parses an explicit destination array. `pages` maps page object numbers to indexes.
    public init(array: PDFObject, pages: PageIndex) {
        let n = array.count
        target = .invalid("the destination array is empty")
        fit = ""
        parameters = []
        problem = nil
        guard n > 0 else { return }
        let first = array[0]
        if let i = first.int {
            target = .pageNumber(i)
        } else if first.isDictionary, let id = first.objectID {
            if let index = pages.index(of: id) {
                target = .page(index)
            } else {
                target = .notAPage("\(id.number) \(id.generation) R")
            }
        } else if first.isDictionary {
            target = .notAPage(nil)
        } else if first.isIndirect || first.isNull {
            // A reference to a missing object reads as null.
            target = .notAPage(first.reference)
        } else {
            target = .invalid("the first element is \(Self.typeName(first)), not a page")
        }
        guard n > 1 else {
            problem = "no fit type"
            return
        }
        guard let name = array[1].name else {
            problem = "the fit type is \(Self.typeName(array[1])), not a name"
            return
        }
        fit = name
        guard let (count, nullable) = Self.arity(name) else {
            problem = "unknown fit type '/\(name)'"
            return
        }
        let args = (2..<n).map { array[$0] }
        if args.isEmpty && count == 1 && nullable {
            tolerated =
                "'/\(name)' without its parameter (every mainstream viewer reads it as null: the view keeps its position)"
            parameters = [nil]
            return
        }
        if args.count != count {
            problem = "'/\(name)' takes \(count) parameter\(count == 1 ? "" : "s"), found \(args.count)"
        }
        for (i, a) in args.prefix(count).enumerated() {
            if let v = a.number {
                parameters.append(v)
            } else if a.isNull && nullable {
                parameters.append(nil)
            } else {
                parameters.append(nil)
                if problem == nil {
                    problem =
                        "parameter \(i + 1) of '/\(name)' is \(Self.typeName(a)), expected a number\(nullable ? " or null" : "")"
                }
            }
        }
    }

    /// The object's type with its article: `an integer`, `a string`, `null`.
    static func typeName(_ o: PDFObject) -> String {
        switch o.value {
        case .null, .ref: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .real: "a number"
        case .string: "a string"
        case .name: "a name"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .stream: "a stream"
        }
    }

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
public struct PageIndex: Sendable {
    private var byObject: [Int64: Int] = [:]
    public private(set) var count = 0

    /// - Parameter pages: the document's pages in order (`PageTree.pages`).
    public init(_ pages: [PDFObject]) {
        count = pages.count
        for (i, page) in pages.enumerated() {
            if let id = page.objectID { byObject[Self.key(id)] = byObject[Self.key(id)] ?? i }
        }
    }

    static func key(_ id: (number: Int, generation: Int)) -> Int64 {
        Int64(id.number) << 16 | Int64(id.generation & 0xFFFF)
    }

    public func index(of id: (number: Int, generation: Int)) -> Int? { byObject[Self.key(id)] }
}
