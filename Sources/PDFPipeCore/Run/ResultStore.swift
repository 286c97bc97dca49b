import Foundation
import SystemIO

/// Where a run's document results go as documents finish, so that memory does not grow with the
/// batch: `results.jsonl` in the output folder, one line per document, each line written whole with
/// one `write` (no user-space buffer: a crash loses at most the documents still running). Only the
/// counters of the summary and, per document, where its line is (16 bytes) stay in memory; reports
/// read the documents back one at a time, in input order.
///
/// A line (keys sorted, as everywhere in pdfpipe's JSON):
///
///     {"document":{…report.json's entry…},"input":{"mtime":…,"path":"a.pdf","size":…},"pipeline":"…","results":1}
///
/// `results` is the line format's version; `pipeline` a hash of the run's effective configuration;
/// `input` the file as it was read. `--resume` keeps the lines whose pipeline and input still match
/// and drops the rest, and a torn last line (a crash mid-write) is cut off.
package final class ResultStore: Sendable {
    package static let fileName = "results.jsonl"
    /// The line format's version (`results`).
    package static let version = 1

    package let path: String
    /// The configuration hash written on every line (see `ResultStore.configurationHash`).
    package let pipelineHash: String
    private let fd: FileDescriptor

    struct Slot: Sendable {
        var offset: Int
        var length: Int
        /// The document's bytes, right after `{"document":` (12 bytes in), when this store wrote
        /// the line: the JSON report then copies it without scanning the line (0: unknown, scan).
        var documentLength = 0
    }

    /// The line's start before the document: `{"document":`.
    static let documentPrefix = Array(#"{"document":"#.utf8)

    fileprivate struct State {
        var slots: [Slot?]
        var end: Int
        var summary = Summary()
        /// Findings that are not `unchanged` against a baseline, per severity (what `failing` counts).
        var gating: [Severity: Int] = [:]
        var failure: String?
        var order: [Int]?
    }
    private let state: Locked<State>

    /// A line of the file, declared once for writing and reading.
    struct Line: Codable {
        /// The line format's version.
        var results: Int
        var pipeline: String
        var document: DocumentResult
        var input: InputStamp?

        /// `document`'s key, where the reporters find the entry without decoding the line.
        static let documentKey = CodingKeys.document.stringValue
    }

    /// The identity of an input file, as `--resume` compares it.
    package struct InputStamp: Codable, Sendable, Equatable {
        package var path: String
        package var size: Int
        /// Nanoseconds since 1970.
        package var mtime: Int

        package init(path: String, size: Int, mtime: Int) {
            self.path = path
            self.size = size
            self.mtime = mtime
        }

        /// The file's size and modification time now; nil when it cannot be read.
        package static func of(file: String, relativePath: String) -> InputStamp? {
            guard let st = FileStatus.following(file) else { return nil }
            let (s, overflow) = st.modifiedSeconds.multipliedReportingOverflow(by: 1_000_000_000)
            return InputStamp(
                path: relativePath, size: Int(st.size), mtime: overflow ? Int.max : s &+ st.modifiedNanoseconds)
        }

    }

    package struct OpenError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Starts the results file for a batch of `count` documents. Written first under a temporary
    /// name and renamed over `results.jsonl`, so that an earlier run's file stays whole until this
    /// one replaces it. With `resuming` (each input's stamp, in batch order), the lines of the
    /// earlier file whose pipeline hash and input stamp match are carried over first (read a line
    /// at a time); a torn or unreadable line is dropped.
    package init(directory: String, count: Int, pipelineHash: String, resuming stamps: [InputStamp?]? = nil)
        throws(OpenError)
    {
        path = directory + "/" + Self.fileName
        self.pipelineHash = pipelineHash
        do throws(AtomicFile.WriteError) { try AtomicFile.makeDirectory(directory) } catch {
            throw OpenError(path: directory, reason: error.reason)
        }
        // Not inherited by the isolation workers this process starts (close-on-exec).
        let (fd, tmp): (FileDescriptor, String)
        do throws(Errno) {
            (fd, tmp) = try FileDescriptor.makeTemporary(prefix: "\(directory)/.\(Self.fileName).tmp-")
        } catch {
            throw OpenError(path: path, reason: error.description)
        }
        self.fd = fd
        fd.setPermissions(0o644)
        var initial = State(slots: Array(repeating: nil, count: count), end: 0)
        if let stamps {
            var byPath: [String: Int] = [:]
            for (i, s) in stamps.enumerated() { if let s { byPath[s.path] = i } }
            Self.eachLine(of: directory + "/" + Self.fileName) { line in
                var parser = JSONParser(bytes: line, tracksLocations: false)
                guard let v = try? parser.parseDocument(), let l = try? v.decode(Line.self), l.results == Self.version,
                    l.pipeline == pipelineHash, let input = l.input, let i = byPath[input.path], i < count,
                    stamps[i] == input, initial.slots[i] == nil
                else { return }
                initial.record(line, at: i, of: l.document, fd: fd)
            }
        }
        if let failure = initial.failure {
            try? fd.close()
            FileSystem.unlink(tmp)
            throw OpenError(path: path, reason: "cannot write: \(failure)")
        }
        guard FileSystem.rename(tmp, path) == 0 else {
            let reason = Errno.current.description
            try? fd.close()
            FileSystem.unlink(tmp)
            throw OpenError(path: path, reason: reason)
        }
        state = Locked(initial)
    }

    /// Calls `body` with each complete line (with its newline) of a file, reading it in pieces.
    /// A last line without a newline (cut off by a crash) is not passed on.
    static func eachLine(of file: String, _ body: ([UInt8]) -> Void) {
        guard let fd = try? FileDescriptor.open(file, O_RDONLY) else { return }
        defer { try? fd.close() }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 22)
        while true {
            // A read error ends the file as its end does: what was read whole is passed on.
            guard let n = chunk.withUnsafeMutableBytes({ try? fd.read(into: $0) }), n > 0 else { return }
            var start = 0
            for k in 0..<n where chunk[k] == 0x0A {
                pending.append(contentsOf: chunk[start...k])
                body(pending)
                pending.removeAll(keepingCapacity: true)
                start = k + 1
            }
            pending.append(contentsOf: chunk[start..<n])
        }
    }

    deinit { try? fd.close() }

    // MARK: - Writing

    /// Appends a finished document's result as position `index` of the batch. A write that fails
    /// (disk full) is remembered and reported by `finish`; the document's result is then missing.
    package func append(_ result: DocumentResult, at index: Int, input: InputStamp?) {
        // The line as `Line` encodes it (keys sorted: document, input, pipeline, results), written
        // in parts so that where the document lies is known.
        let document = Array(JSONWriter.compact(JSONValue(encoding: result)).utf8)
        var bytes = Self.documentPrefix + document
        if let input { bytes += Array((#","input":"# + JSONWriter.compact(JSONValue(encoding: input))).utf8) }
        bytes += Array(#","pipeline":\#(JSONWriter.compact(.string(pipelineHash))),"results":\#(Self.version)}"#.utf8)
        bytes.append(0x0A)
        state.withLock { s in
            guard index >= 0 else { return }
            // A batch of unknown size (merge) grows as it goes.
            if index >= s.slots.count { s.slots += Array(repeating: nil, count: index + 1 - s.slots.count) }
            s.record(bytes, at: index, of: result, fd: fd, documentLength: document.count)
        }
    }

    /// Appends a document given as its report.json entry in compact JSON, counted from `counted`
    /// (the same entry read without its big sections, `countedDocument`): what `merge` does, so
    /// that a document of 4,000 links is copied, not decoded and encoded again.
    package func append(documentJSON bytes: [UInt8], counted d: DocumentResult, at index: Int) {
        var line = Self.documentPrefix
        line += bytes
        line += Array(#","pipeline":"\#(pipelineHash)","results":\#(Self.version)}"#.utf8)
        line.append(0x0A)
        state.withLock { s in
            guard index >= 0 else { return }
            if index >= s.slots.count { s.slots += Array(repeating: nil, count: index + 1 - s.slots.count) }
            s.record(line, at: index, of: d, fd: fd, documentLength: bytes.count)
        }
    }

    /// The report.json entry that starts at `start` of `raw`, decoded without the stages' big
    /// sections (what reporters and the summary read); nil when it is not such an entry.
    package static func countedDocument(_ raw: UnsafeRawBufferPointer, from start: Int) -> DocumentResult? {
        guard let members = JSONScanner.members(in: raw, from: start) else { return nil }
        return countedDocument(raw, members: members)
    }

    /// The same, from the entry's members (`JSONScanner.members`) when the caller has them.
    package static func countedDocument(_ raw: UnsafeRawBufferPointer, members: [(key: String, value: Range<Int>)])
        -> DocumentResult?
    {
        var o: [String: JSONValue] = [:]
        for m in members where reporterKeys.contains(m.key) || m.key == "linkSummary" {
            var parser = JSONParser(
                bytes: Array(UnsafeRawBufferPointer(rebasing: raw[m.value])), tracksLocations: false)
            guard let v = try? parser.parseDocument() else { return nil }
            o[m.key] = v
        }
        return try? DocumentResult(json: .object(o))
    }

    /// Flushes the file to disk; throws when an append failed.
    package func finish() throws(OpenError) {
        let failure = state.withLock { $0.failure }
        if let failure { throw OpenError(path: path, reason: "cannot write: \(failure)") }
        try? fd.sync()
    }

    // MARK: - Reading

    /// Documents recorded, in input order.
    package var count: Int { state.withLock { s in s.slots.count { $0 != nil } } }
    package var summary: Summary { state.withLock { $0.summary } }

    /// The findings that make a run fail at `failOn` (not counting baseline `unchanged` ones).
    package func failing(_ failOn: FailOn) -> Int {
        state.withLock { s in s.gating.reduce(0) { n, e in n + (failOn.fails(e.key) ? e.value : 0) } }
    }

    /// Whether position `index` has a result.
    package func has(_ index: Int) -> Bool {
        state.withLock { s in index >= 0 && index < s.slots.count && s.slots[index] != nil }
    }

    /// The line of position `index` as written (with its newline), or nil: what a copy of the
    /// results elsewhere (object storage) holds, read back by `--resume` as its own.
    package func lineBytes(_ index: Int) -> [UInt8]? {
        guard let slot = state.withLock({ s in index >= 0 && index < s.slots.count ? s.slots[index] : nil }) else {
            return nil
        }
        return (try? fd.read(count: slot.length, at: slot.offset)) ?? nil
    }

    /// The line of position `index` parsed, or nil.
    func line(_ index: Int) -> JSONValue? {
        guard let slot = state.withLock({ s in index >= 0 && index < s.slots.count ? s.slots[index] : nil }) else {
            return nil
        }
        guard let bytes = (try? fd.read(count: slot.length, at: slot.offset)) ?? nil else { return nil }
        var parser = JSONParser(bytes: bytes, tracksLocations: false)
        return try? parser.parseDocument()
    }

    /// The report.json entry of position `index`, pretty-printed `indent` levels deep, straight
    /// from the line's text (`JSONWriter.reindent`: no value is built — a document with 4,000
    /// links is a few milliseconds), or by parsing it when the text is not as expected.
    package func documentText(_ index: Int, indent: Int) -> [UInt8]? {
        guard let slot = state.withLock({ s in index >= 0 && index < s.slots.count ? s.slots[index] : nil }),
            let bytes = (try? fd.read(count: slot.length, at: slot.offset)) ?? nil
        else { return nil }
        let fast: [UInt8]? = bytes.withUnsafeBytes { raw in
            let known = Self.documentPrefix.count..<(Self.documentPrefix.count + slot.documentLength)
            if slot.documentLength > 0, known.upperBound <= raw.count {
                return JSONWriter.reindent(UnsafeRawBufferPointer(rebasing: raw[known]), indent: indent)
            }
            guard let doc = JSONScanner.members(in: raw)?.first(where: { $0.key == Line.documentKey }) else {
                return nil
            }
            return JSONWriter.reindent(UnsafeRawBufferPointer(rebasing: raw[doc.value]), indent: indent)
        }
        if let fast { return fast }
        return documentJSON(index).map { Array(JSONWriter.pretty($0, indent: indent).utf8) }
    }

    /// The report.json entry of position `index` (as JSON: what the JSON report writes).
    package func documentJSON(_ index: Int) -> JSONValue? { line(index)?[Line.documentKey] }

    package func document(_ index: Int) -> DocumentResult? {
        guard let d = documentJSON(index) else { return nil }
        return try? DocumentResult(json: d)
    }

    /// What reporters other than JSON read of a document: everything but the stages' big sections
    /// (the link inventory, destination lists, text), which are scanned over, not parsed — a
    /// document of 4,000 links is read in a fraction of the time. The thumbnails' section (where the
    /// links with findings lie on each image) and the review copy's are small and the HTML report
    /// uses them.
    static let reporterKeys: Set<String> = DocumentResult.knownKeys.union(DocumentResult.sectionKeys)

    package func reporterDocument(_ index: Int) -> DocumentResult? {
        guard let slot = state.withLock({ s in index >= 0 && index < s.slots.count ? s.slots[index] : nil }),
            let bytes = (try? fd.read(count: slot.length, at: slot.offset)) ?? nil
        else { return nil }
        let value: JSONValue? = bytes.withUnsafeBytes { raw in
            guard let top = JSONScanner.members(in: raw), let doc = top.first(where: { $0.key == Line.documentKey }),
                let members = JSONScanner.members(in: raw, from: doc.value.lowerBound)
            else { return nil }
            var o: [String: JSONValue] = [:]
            for m in members where Self.reporterKeys.contains(m.key) {
                var parser = JSONParser(
                    bytes: Array(UnsafeRawBufferPointer(rebasing: raw[m.value])), tracksLocations: false)
                guard let v = try? parser.parseDocument() else { return nil }
                o[m.key] = v
            }
            return .object(o)
        }
        guard let value else { return document(index) }
        return try? DocumentResult(json: value)
    }

    /// Positions in the order reports list them: the batch's order, or the one `setOrder` gave.
    package var positions: [Int] {
        state.withLock { s in (s.order ?? Array(s.slots.indices)).filter { $0 < s.slots.count && s.slots[$0] != nil } }
    }

    /// Lists the documents in this order of positions (merge: sorted by path) instead of the batch's.
    package func setOrder(_ order: [Int]) { state.withLock { $0.order = order } }

    /// The documents, read back one at a time in input order.
    package var documents: Documents { Documents(store: self) }

    package struct Documents: Sequence, Sendable {
        let store: ResultStore
        package func makeIterator() -> AnyIterator<DocumentResult> {
            var positions = store.positions.makeIterator()
            return AnyIterator {
                while let i = positions.next() {
                    if let d = store.reporterDocument(i) { return d }
                }
                return nil
            }
        }
    }

    // MARK: - Resuming

    /// A hash of what decides a document's result: the tool's version, the pipeline file's bytes,
    /// and the options given on the command line (`parts`). 16 hex digits of FNV-1a 64.
    package static func configurationHash(_ parts: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in part.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = (h ^ 0x1F) &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension ResultStore: Equatable {
    /// The same file: stores compare by identity.
    package static func == (a: ResultStore, b: ResultStore) -> Bool { a === b }
}

extension ResultStore.State {
    /// Writes a line at the end of the file as position `index`, and counts its document. A
    /// failed write is remembered (`finish` reports it) and stops further writes.
    mutating func record(
        _ line: [UInt8], at index: Int, of result: DocumentResult, fd: FileDescriptor, documentLength: Int = 0
    ) {
        guard failure == nil else { return }
        let line = Secrets.scrub(line)
        do throws(Errno) {
            try fd.writeAll(line, at: end)
        } catch {
            failure = error.description
            return
        }
        slots[index] = ResultStore.Slot(offset: end, length: line.count, documentLength: documentLength)
        end += line.count
        count(result)
    }

    mutating func count(_ d: DocumentResult) {
        summary.add(d)
        for f in d.findings where f.baseline != .unchanged { gating[f.severity, default: 0] += 1 }
    }
}
