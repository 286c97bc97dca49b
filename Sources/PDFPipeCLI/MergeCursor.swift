import Foundation
import PDFPipeCore
import PDFPipeStages
import SystemIO

/// One report being merged: where its documents lie, and the next ones, read ahead.
struct MergeCursor {
    let file: String
    let mapped: MappedFile
    let elements: [Range<Int>]
    /// Whether documents are copied as counted (no baseline to apply afresh).
    let counting: Bool
    /// How much report text a batch reads ahead (at least one document): the budget shared by
    /// all the reports, so that memory does not grow with their number.
    let aheadBytes: Int
    static let aheadBudget = 8 << 20
    var next = 0
    var headPath: String? { ahead.first?.path }

    /// A document read ahead: made compact, its path, and what the summary counts of it — one
    /// pass over the report's text serves all three.
    /// A batch of one document (bigger than the share of the read-ahead budget) is read when it
    /// is copied: only its path is read ahead (`lazy`), so that a merge of 100 reports of big
    /// documents does not hold 100 of them.
    struct Entry: Sendable {
        var compact: [UInt8] = []
        var path: String?
        var counted: DocumentResult?
        var lazy: Range<Int>?
        /// Why the document cannot be merged (a key given twice: which value counts would depend
        /// on the reader).
        var problem: String?
    }
    /// The next documents, in order (the head first): read in batches of at most `aheadBytes` of
    /// report text, the batch's documents on all cores at once.
    private var ahead: ArraySlice<Entry> = []

    init(file: String, mapped: MappedFile, elements: [Range<Int>], counting: Bool, aheadBytes: Int) {
        self.aheadBytes = aheadBytes
        self.file = file
        self.mapped = mapped
        self.elements = elements
        self.counting = counting
    }

    /// Reads the next batch when none is left; throws when the head has no path.
    mutating func readHead() throws(PipelineError) {
        if ahead.isEmpty, next < elements.count {
            var end = next
            var bytes = 0
            // Whole documents up to the budget (one at least, which is then read when copied).
            while end < elements.count, end - next < 256, end == next || bytes + elements[end].count <= aheadBytes {
                bytes += elements[end].count
                end += 1
            }
            if end - next == 1 {
                let range = elements[next]
                let path = mapped.withBytes { JSONScanner.stringMember("path", in: $0, from: range.lowerBound) }
                ahead = [Entry(path: path, lazy: range)]
            } else {
                ahead = ArraySlice(Self.read(elements[next..<end], of: mapped, counting: counting))
                // Read: its pages can go (they are read again from the file if touched).
                mapped.drop(elements[next].lowerBound..<elements[end - 1].upperBound)
            }
        }
        if let problem = ahead.first?.problem {
            throw PipelineError(file: file, message: "documents[\(next)]: \(problem)")
        }
        if !ahead.isEmpty, ahead.first?.path == nil {
            throw PipelineError(file: file, message: "documents[\(next)]: no path")
        }
    }

    /// `ranges`' documents read, each on its own (their order kept).
    private static func read(_ ranges: ArraySlice<Range<Int>>, of mapped: MappedFile, counting: Bool) -> [Entry] {
        let ranges = Array(ranges)
        let out = Locked([Entry?](repeating: nil, count: ranges.count))
        mapped.withBytes { raw in
            let text = ReadOnlyBytes(raw: raw)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { k in
                let e = entry(UnsafeRawBufferPointer(rebasing: text.raw[ranges[k]]), counting: counting)
                out.withLock { $0[k] = e }
            }
        }
        return out.withLock { $0.map { $0! } }
    }

    /// The mapped report's bytes, read by the batch's threads: no thread writes them, and
    /// `concurrentPerform` returns before `withBytes` ends.
    private struct ReadOnlyBytes: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
    }

    private static func entry(_ text: UnsafeRawBufferPointer, counting: Bool) -> Entry {
        let (compact, members) = JSONScanner.compactObject(text)
        return compact.withUnsafeBytes { raw in
            guard let members else { return Entry(compact: compact) }
            var keys = Set<String>()
            for m in members where !keys.insert(m.key).inserted {
                return Entry(compact: compact, problem: "the key '\(m.key)' is given twice")
            }
            var path: String?
            if let m = members.first(where: { $0.key == "path" }) {
                var parser = JSONParser(
                    bytes: Array(UnsafeRawBufferPointer(rebasing: raw[m.value])), tracksLocations: false)
                path = (try? parser.parseDocument())?.stringValue
            }
            return Entry(
                compact: compact, path: path,
                counted: counting ? ResultStore.countedDocument(raw, members: members) : nil)
        }
    }

    /// Where the pages before have been dropped again (this pass's).
    var dropped = 0

    mutating func advance() throws(PipelineError) {
        let end = elements[next].upperBound
        if end - dropped >= 64 << 10 {
            mapped.drop(dropped..<end)
            dropped = end
        }
        next += 1
        ahead = ahead.dropFirst()
        try readHead()
    }

    /// The head document into the merged store at `index`: copied as counted, or — with a
    /// baseline to apply afresh — decoded whole.
    func copy(to store: ResultStore, at index: Int, policy: ResultPolicy?) throws(PipelineError) {
        guard var head = ahead.first else { return }
        if let range = head.lazy {
            head = mapped.withBytes { raw in
                Self.entry(UnsafeRawBufferPointer(rebasing: raw[range]), counting: counting)
            }
            if let problem = head.problem {
                throw PipelineError(file: file, message: "documents[\(next)]: \(problem)")
            }
            // Read ahead by its first "path" only: the one copied must be that document.
            if head.path != ahead.first?.path {
                throw PipelineError(file: file, message: "documents[\(next)]: its path changed while it was read")
            }
        }
        if let policy {
            var parser = JSONParser(bytes: head.compact, tracksLocations: false)
            do {
                var d = try DocumentResult(json: try parser.parseDocument())
                d.fixedSinceBaseline = []
                policy.apply(&d)
                store.append(d, at: index, input: nil)
                return
            } catch {
                throw PipelineError(file: file, message: "documents[\(next)]: \(error)")
            }
        }
        guard let counted = head.counted else {
            var parser = JSONParser(bytes: head.compact, tracksLocations: false)
            do {
                _ = try DocumentResult(json: try parser.parseDocument())
            } catch {
                throw PipelineError(file: file, message: "documents[\(next)]: \(error)")
            }
            throw PipelineError(file: file, message: "documents[\(next)]: cannot be read")
        }
        store.append(documentJSON: head.compact, counted: counted, at: index)
    }
}
