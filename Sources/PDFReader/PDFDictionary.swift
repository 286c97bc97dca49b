/// A PDF dictionary: its entries in file order. Most PDF dictionaries hold a handful of keys, for
/// which a linear scan beats hashing; large ones (a catalog /Dests with thousands of names) also
/// get an index.
package struct PDFDictionary: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: PDFValue
    }

    package private(set) var entries: [Entry] = []
    private var index: [String: Int]?

    static let indexThreshold = 16

    package init() {}

    package init(dictionaryLiteral elements: (String, PDFValue)...) {
        for (k, v) in elements { self[k] = v }
    }

    package init(_ d: [String: PDFValue]) {
        for (k, v) in d { self[k] = v }
    }

    package var count: Int { entries.count }
    package var keys: [String] { entries.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        for i in entries.indices where entries[i].key == key { return i }
        return nil
    }

    /// Setting a key that is there already replaces its value (the last of duplicates wins).
    package subscript(key: String) -> PDFValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let i = position(of: key) {
                if let newValue {
                    entries[i].value = newValue
                } else {
                    entries.remove(at: i)
                    rebuildIndex()
                }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
                if index != nil {
                    index![key] = entries.count - 1
                } else if entries.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.indexThreshold else {
            index = nil
            return
        }
        var ix: [String: Int] = [:]
        ix.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { ix[e.key] = i }
        index = ix
    }

    package func mapValues(_ transform: (PDFValue) -> PDFValue) -> PDFDictionary {
        var d = self
        for i in d.entries.indices { d.entries[i].value = transform(d.entries[i].value) }
        return d
    }

    /// Equal when they hold the same keys with equal values, in any order.
    package static func == (a: PDFDictionary, b: PDFDictionary) -> Bool {
        guard a.count == b.count else { return false }
        for e in a.entries where b[e.key] != e.value { return false }
        return true
    }
}
