import PDFPipeCore
import PDFReader

/// A named destination's value: a destination, or why it is not one.
package struct NamedDestination: Sendable, Equatable {
    package var destination: Destination?
    /// Why the value is not a destination (`a number`, `a dictionary without /D`).
    package var problem: String?
}

/// Every named destination of a document: the catalog `/Dests` dictionary (PDF 1.1, keys are names)
/// and the `/Names /Dests` name tree (keys are byte strings). Read whole, so wrong `/Limits` or
/// unsorted keys cannot hide a name; what is wrong with the tree is kept as findings.
package struct DestinationTable: Sendable {
    /// Name-tree entries by their key bytes (the first definition wins).
    package var tree: [[UInt8]: NamedDestination] = [:]
    /// Catalog `/Dests` entries by name.
    package var catalog: [String: NamedDestination] = [:]
    /// Duplicate keys, wrong `/Limits`, unsorted keys, loops (at most `findingLimit`).
    package var findings: [Finding] = []
    package var pageCount: Int
    /// Why some names were not read (a size or depth limit), nil when the table is whole: a name
    /// not found in an incomplete table could not be checked, which is not the same as missing.
    package var incomplete: String?

    static let findingLimit = 50
    static let maxDepth = 64

    package var count: Int { tree.count + catalog.count }

    /// Entries read at most (name tree and catalog together); past it, one `pdf.limit-exceeded`.
    let maxEntries: Int
    private var limitReported = false

    /// - Parameters:
    ///   - root: the document catalog.
    ///   - maxEntries: named destinations read at most (0: all). The largest of 935 real manuals
    ///     has 49,345; a hostile file can hold millions.
    package init(root: PDFObject, pages: PageIndex, maxEntries: Int = 1_000_000) {
        pageCount = pages.count
        self.maxEntries = maxEntries
        if let dests = root["Dests"], dests.isDictionary {
            for key in dests.keys {
                guard !full() else { break }
                if let v = dests[key] { catalog[key] = Self.value(v, pages: pages) }
            }
        }
        if let tree = root["Names"]?["Dests"] {
            var visited = Set<Int>()
            walk(tree, pages: pages, depth: 0, visited: &visited)
        }
        byText = NameText.index(tree: tree, catalog: catalog)
    }

    /// An empty table (for a document without destinations).
    package init(pageCount: Int) {
        self.pageCount = pageCount
        maxEntries = 0
    }

    /// True once `maxEntries` entries are read (reported once).
    private mutating func full() -> Bool {
        guard maxEntries > 0, count >= maxEntries else { return false }
        if !limitReported {
            limitReported = true
            incomplete =
                "the document has more than \(maxEntries) named destinations and the rest were not read (maxDestinations)"
            findings.append(
                Finding(
                    rule: .pdfLimitExceeded,
                    message:
                        "more than \(maxEntries) named destinations; the rest were not read, and links to names not read are reported as unverified (maxDestinations)"
                ))
        }
        return true
    }

    /// Keys whose text is not their bytes, by that text (`NameText.index`).
    private var byText: [String: DestinationKey] = [:]

    /// Looks a destination up as viewers do: by its bytes (strings in the name tree first, names in
    /// the catalog first, each then in the other store), else by its text.
    package func lookup(_ key: DestinationKey) -> NamedDestination? { find(key)?.value }

    /// The destination a key names, and the key it matched when only their text is the same
    /// (`NameText.find`).
    package func find(_ key: DestinationKey) -> (value: NamedDestination, asText: DestinationKey?)? {
        NameText.find(key, tree: tree, catalog: catalog, byText: byText)
    }

    static func value(_ v: PDFObject, pages: PageIndex) -> NamedDestination {
        if v.isArray { return NamedDestination(destination: Destination(array: v, pages: pages)) }
        if v.isDictionary {
            if let d = v["D"], d.isArray { return NamedDestination(destination: Destination(array: d, pages: pages)) }
            return NamedDestination(problem: "a dictionary without a /D array")
        }
        return NamedDestination(problem: "\(Destination.typeName(v)), not a destination")
    }

    private mutating func note(_ message: String, object: String?) {
        guard findings.count < Self.findingLimit else { return }
        findings.append(Finding(rule: .destTreeMalformed, object: object, message: message))
    }

    /// Walks a name-tree node; returns the keys found below it (for the /Limits check).
    @discardableResult
    private mutating func walk(_ node: PDFObject, pages: PageIndex, depth: Int, visited: inout Set<Int>) -> (
        min: [UInt8], max: [UInt8]
    )? {
        let ref = node.reference
        guard node.isDictionary else {
            note("a name tree node is \(Destination.typeName(node)), not a dictionary", object: ref)
            return nil
        }
        if let id = node.objectID?.number, !visited.insert(id).inserted {
            note("the name tree loops: node \(ref ?? "?") is reached twice", object: ref)
            return nil
        }
        guard depth < Self.maxDepth else {
            // A limit, not a defect: said where it stopped, and names below it are unverified.
            if incomplete == nil {
                incomplete = "the name tree is deeper than \(Self.maxDepth) levels and was not read below that"
                findings.append(
                    Finding(
                        rule: .pdfWalkLimit, object: ref,
                        message:
                            "the /Names /Dests tree is deeper than \(Self.maxDepth) levels; the walk stopped at node \(ref ?? "(direct)") and the names below it were not read"
                    ))
            }
            return nil
        }
        var lo: [UInt8]?
        var hi: [UInt8]?
        func extend(_ k: [UInt8]) {
            if lo == nil || k.lexicographicallyPrecedes(lo!) { lo = k }
            if hi == nil || hi!.lexicographicallyPrecedes(k) { hi = k }
        }
        if let names = node["Names"], let r = readNames(names, of: ref, pages: pages) {
            extend(r.min)
            extend(r.max)
        }
        if let kids = node["Kids"] {
            for kid in kids.items {
                if let r = walk(kid, pages: pages, depth: depth + 1, visited: &visited) {
                    extend(r.min)
                    extend(r.max)
                }
            }
        }
        if depth > 0, let lo, let hi { checkLimits(of: node, ref, covering: lo, hi) }
        return lo.map { ($0, hi!) }
    }

    /// Reads a leaf's /Names array into the table (a name defined twice: the first definition);
    /// returns the least and greatest keys read.
    private mutating func readNames(_ names: PDFObject, of ref: String?, pages: PageIndex) -> (
        min: [UInt8], max: [UInt8]
    )? {
        var lo: [UInt8]?
        var hi: [UInt8]?
        let n = names.count
        if n % 2 != 0 {
            note("the /Names array of node \(ref ?? "(direct)") has an odd number of elements", object: ref)
        }
        var previous: [UInt8]?
        var unsortedReported = false
        var i = 0
        while i + 1 < n {
            defer { i += 2 }
            guard let key = names[i].bytes else {
                note(
                    "a key in node \(ref ?? "(direct)") is \(Destination.typeName(names[i])), not a string",
                    object: ref)
                continue
            }
            if let p = previous, !p.lexicographicallyPrecedes(key), p != key, !unsortedReported {
                note(
                    "keys of node \(ref ?? "(direct)") are not sorted ('\(PDFTextDecoding.decode(key))' after '\(PDFTextDecoding.decode(p))'); readers that search by halves may miss names",
                    object: ref)
                unsortedReported = true
            }
            previous = key
            if lo == nil || key.lexicographicallyPrecedes(lo!) { lo = key }
            if hi == nil || hi!.lexicographicallyPrecedes(key) { hi = key }
            if tree[key] != nil {
                if findings.count < Self.findingLimit {
                    findings.append(
                        Finding(
                            rule: .destDuplicateName, object: ref,
                            message:
                                "named destination '\(PDFTextDecoding.decode(key))' is defined more than once; readers may pick either definition"
                        ))
                }
                continue
            }
            guard !full() else { break }
            tree[key] = Self.value(names[i + 1], pages: pages)
        }
        return lo.map { ($0, hi!) }
    }

    /// A node below the root must say in /Limits the least and greatest keys under it: readers
    /// that search by /Limits miss names outside them.
    private mutating func checkLimits(of node: PDFObject, _ ref: String?, covering lo: [UInt8], _ hi: [UInt8]) {
        if let limits = node["Limits"], limits.count == 2, let a = limits[0].bytes, let b = limits[1].bytes {
            if lo.lexicographicallyPrecedes(a) || b.lexicographicallyPrecedes(hi) {
                let outside = lo.lexicographicallyPrecedes(a) ? lo : hi
                note(
                    "/Limits ['\(PDFTextDecoding.decode(a))', '\(PDFTextDecoding.decode(b))'] of node \(ref ?? "(direct)") do not cover '\(PDFTextDecoding.decode(outside))'; readers that trust /Limits will not find it",
                    object: ref)
            }
        } else {
            note(
                "node \(ref ?? "(direct)") has no valid /Limits; readers that trust /Limits may not find its names",
                object: ref)
        }
    }
}
