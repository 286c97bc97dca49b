import Foundation

/// A set of pages written as `1-3,7,10-`: `all` (or `-`) is every page; `N-` is N to the end;
/// `last` may stand for the last page (`last`, `5-last`), `last-N` for the page N before it.
public struct PageRanges: Sendable, Equatable {
    struct Parse: Error { var message: String }

    enum Bound: Sendable, Equatable {
        case page(Int)
        case last
        /// `last-N`: N pages before the last.
        case beforeLast(Int)
    }

    var ranges: [(ClosedRangeBounds)]
    /// As written (`all` for `PageRanges.all`): what the option's default and messages show.
    public private(set) var text = "all"

    struct ClosedRangeBounds: Sendable, Equatable {
        var lower: Bound
        var upper: Bound
    }

    public static let all = PageRanges(ranges: [ClosedRangeBounds(lower: .page(1), upper: .last)])
    /// The first page.
    public static let one = PageRanges(ranges: [ClosedRangeBounds(lower: .page(1), upper: .page(1))], text: "1")

    /// The grammar, written once as a regular expression for the JSON Schema; the parser below reads
    /// exactly this language (`PipelineTests.testPageRangesParserAndSchemaAgree` compares the two on
    /// 20,000 generated strings): items separated by commas, spaces allowed around items but not inside
    /// them, page numbers without a leading zero or sign, `all` only alone.
    static let pattern: String = {
        let page = "([1-9][0-9]*|last)"
        let item = "(last-[0-9]+|\(page)(-\(page)?)?|-)"
        return "^ *(all|\(item)( *, *\(item))*) *$"
    }()

    private init(ranges: [ClosedRangeBounds], text: String = "all") {
        self.ranges = ranges
        self.text = text
    }

    /// Whether the set names one page at most in any document (`1`, `last`, `3-3`): one file per
    /// document, so a file name template needs no `{page}`.
    public var isSinglePage: Bool {
        ranges.count == 1 && ranges[0].lower == ranges[0].upper
    }

    init(_ text: String) throws(Parse) {
        self.text = text
        func trimmed(_ s: Substring) -> Substring {
            var t = s.drop(while: { $0 == " " })
            while t.last == " " { t = t.dropLast() }
            return t
        }
        /// ASCII digits only: `Int` alone would take "+3" and "٣".
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(s)
        }
        let whole = trimmed(text[...])
        if whole == "all" || whole == "-" {
            self = .all
            return
        }
        guard !whole.isEmpty else { throw Parse(message: "empty page range") }
        func bound(_ s: Substring) throws(Parse) -> Bound {
            if s == "last" { return .last }
            guard let n = number(s), n >= 1, s.first != "0" else { throw Parse(message: "invalid page '\(s)'") }
            return .page(n)
        }
        var out: [ClosedRangeBounds] = []
        for raw in whole.split(separator: ",", omittingEmptySubsequences: false) {
            let part = trimmed(raw)
            if part == "-" {
                out.append(ClosedRangeBounds(lower: .page(1), upper: .last))
                continue
            }
            if part.hasPrefix("last-"), let n = number(part.dropFirst(5)) {
                out.append(ClosedRangeBounds(lower: .beforeLast(n), upper: .beforeLast(n)))
                continue
            }
            let ends = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard !ends[0].isEmpty else { throw Parse(message: "invalid range '\(part)'") }
            let lo = try bound(ends[0])
            let hi: Bound = ends.count == 1 ? lo : (ends[1].isEmpty ? .last : try bound(ends[1]))
            if case .page(let a) = lo, case .page(let b) = hi, b < a {
                throw Parse(message: "range '\(part)' runs backwards")
            }
            out.append(ClosedRangeBounds(lower: lo, upper: hi))
        }
        ranges = out
    }

    /// The selected 1-based pages of a document with `count` pages, ascending, without repeats.
    public func pages(count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var selected = Set<Int>()
        for r in ranges {
            let lo: Int
            let hi: Int
            switch r.lower {
            case .page(let n): lo = n
            case .last: lo = count
            case .beforeLast(let n): lo = count - n
            }
            switch r.upper {
            case .page(let n): hi = min(n, count)
            case .last: hi = count
            case .beforeLast(let n): hi = count - n
            }
            if lo < 1 { continue }
            if lo <= hi { selected.formUnion(lo...hi) }
        }
        return selected.sorted()
    }

    public static func == (a: PageRanges, b: PageRanges) -> Bool { a.ranges == b.ranges }
}
