import PDFBridge
import PDFReader

/// Page labels (`/PageLabels`, PDF 32000-1 §12.4.2): what viewers show instead of page numbers.
package enum PageLabels {
    /// One labelling range: from `start` (0-based page index) on.
    package struct Range: Sendable, Equatable {
        package var start: Int
        /// `D`, `R`, `r`, `A`, `a`, or nil for prefix only.
        package var style: String?
        package var prefix: String
        package var first: Int
    }

    /// Reads the catalog's number tree; nil when the document has no labels.
    /// - Parameter root: the document catalog.
    package static func read(root: PDFObject) -> [Range]? {
        guard let tree = root["PageLabels"] else { return nil }
        var ranges: [Range] = []
        var visited = Set<Int>()
        collect(tree, into: &ranges, visited: &visited, depth: 0)
        guard !ranges.isEmpty else { return nil }
        // Sorted by start; the last definition of a start wins.
        var byStart: [Int: Range] = [:]
        for r in ranges { byStart[r.start] = r }
        return byStart.values.sorted { $0.start < $1.start }
    }

    private static func collect(_ node: PDFObject, into out: inout [Range], visited: inout Set<Int>, depth: Int) {
        guard depth < 64, node.isDictionary else { return }
        if let id = node.objectID?.number, !visited.insert(id).inserted { return }
        if let nums = node["Nums"], nums.isArray {
            let n = nums.count
            var i = 0
            while i + 1 < n {
                defer { i += 2 }
                guard let start = nums[i].int, start >= 0 else { continue }
                let d = nums[i + 1]
                guard d.isDictionary else { continue }
                out.append(
                    Range(
                        start: start, style: d["S"]?.name, prefix: d["P"]?.text ?? "",
                        first: Self.start(d["St"]?.int)))
            }
        }
        if let kids = node["Kids"], kids.isArray {
            for kid in kids.items { collect(kid, into: &out, visited: &visited, depth: depth + 1) }
        }
    }

    /// `/St`: at least 1; the PDF spec's integer limit (2^31 - 1, ISO 32000-1 Annex C) at most, past
    /// which viewers' 32-bit counters (poppler's among them) no longer agree: such a value is read
    /// as absent (1), as poppler shows it.
    static func start(_ st: Int?) -> Int {
        guard let st, st >= 1, st <= Int(Int32.max) else { return 1 }
        return st
    }

    /// Labels longer than this (roman numerals and letters grow with the number: /St 2^31 in
    /// letters is 82 million characters) are written in digits.
    static let maxNumberLength = 64

    /// The label of every page of a document with `count` pages. Pages before the first range
    /// (a malformed tree) get their 1-based number, as viewers show them.
    package static func labels(_ ranges: [Range], count: Int) -> [String] {
        (0..<count).map { i in
            guard let r = ranges.last(where: { $0.start <= i }) else { return String(i + 1) }
            return label(r, index: i)
        }
    }

    static func label(_ r: Range, index: Int) -> String {
        // first <= 2^31 - 1 and 0 <= index - start < page count: no overflow.
        let n = r.first + (index - r.start)
        var number: String
        switch r.style {
        case "D"?: number = String(n)
        case "R"?: number = roman(n).uppercased()
        case "r"?: number = roman(n)
        case "A"?: number = letters(n).uppercased()
        case "a"?: number = letters(n)
        default: number = ""
        }
        if number.utf8.count > maxNumberLength { number = String(n) }
        return r.prefix + number
    }

    /// Lowercase roman numerals (thousands as repeated `m`).
    static func roman(_ n: Int) -> String {
        guard n > 0 else { return "" }
        guard n / 1000 <= maxNumberLength else { return String(repeating: "m", count: maxNumberLength + 1) }
        let table: [(Int, String)] = [
            (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"),
            (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
        ]
        var v = n
        var out = ""
        for (value, s) in table {
            while v >= value {
                out += s
                v -= value
            }
        }
        return out
    }

    /// a…z, then aa…zz, aaa…: the letter repeated.
    static func letters(_ n: Int) -> String {
        guard n > 0 else { return "" }
        guard (n - 1) / 26 < maxNumberLength else { return String(repeating: "a", count: maxNumberLength + 1) }
        let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8((n - 1) % 26)))
        return String(repeating: letter, count: (n - 1) / 26 + 1)
    }
}
