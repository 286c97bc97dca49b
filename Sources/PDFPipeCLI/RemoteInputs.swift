import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// A batch whose inputs are in object storage (`s3://bucket/prefix`): the objects listed, and a
/// local copy of each fetched ahead of the workers into a staging folder, freed once its document
/// is done.
///
/// The staging folder mirrors the store (`STAGE/bucket/key`), so that a document's relative links
/// (GoToR, file links) lead where they lead in the store; the batch's root is the listed prefix.
/// Local disk: at most `ahead` documents fetched before a worker asks for them, plus the documents
/// being worked on (`--jobs`, and up to `Runner.parkedDocuments` waiting for web answers).
final class RemoteInputs: @unchecked Sendable {
    struct Source {
        var bucket: String
        var object: S3Object
    }

    let settings: S3Settings
    let stage: String
    /// Per document of the batch (same index): where it comes from.
    private(set) var sources: [Source] = []
    /// Keys left out of the batch because they cannot be a path (`..`, empty components).
    private(set) var unsafeKeys: [String] = []

    private let condition = NSCondition()
    private var order: [Int] = []
    private var positionOf: [Int: Int] = [:]
    private var nextPosition = 0
    private var wantedPosition = 0
    private var fetched: [Int: String?] = [:]  // index → nil (there) or the error
    private var stopped = false
    private var threads = 0
    /// Files fetched for links (kept to the end), and paths the store does not have.
    private var pinned = Set<String>()
    private var absent = Set<String>()
    private let onDemand = NSLock()
    /// Each listed object's `LastModified`, by its staging path.
    private var listedTimes: [String: Int] = [:]
    /// Where warnings go (the console).
    var warn: (@Sendable (String) -> Void)?
    let ahead: Int
    let fetchers: Int

    init(settings: S3Settings, stage: String, ahead: Int, fetchers: Int = 4) {
        self.settings = settings
        self.stage = stage
        self.ahead = max(1, ahead)
        self.fetchers = max(1, fetchers)
    }

    /// Lists every `s3://` input (a prefix: its `*.pdf` objects, any case; a key: that object) into
    /// the batch, sorted by relative path. The root is the one prefix's folder (or the key's), else
    /// the staging folder with relative paths `bucket/key`.
    /// `listed`: the inputs come from a work list (`--inputs-from`): each names one object, and
    /// one the store does not have is still a document, whose result says it does not exist.
    func list(_ urls: [String], listed: Bool = false) throws(PipelineError) -> InputSet {
        var found: [(bucket: String, object: S3Object)] = []
        var locations: [S3Location] = []
        var missing = Set<String>()
        do throws(S3Error) {
            let client = try S3Client(settings: settings)
            for url in urls {
                guard let loc = try S3Location.parse(url) else { continue }
                locations.append(loc)
                let objects = try client.list(bucket: loc.bucket, prefix: loc.prefix)
                if let exact = objects.first(where: { $0.key == loc.prefix }), !loc.prefix.isEmpty {
                    found.append((loc.bucket, exact))
                    continue
                }
                if listed {
                    found.append((loc.bucket, S3Object(key: loc.prefix, size: 0, etag: "", lastModified: 0)))
                    missing.insert("\(loc.bucket)/\(loc.prefix)")
                    continue
                }
                for o in objects where o.key.hasPrefix(loc.folder) && o.key.lowercased().hasSuffix(".pdf") {
                    found.append((loc.bucket, o))
                }
            }
        } catch {
            throw PipelineError(file: nil, message: error.description)
        }
        // One bucket: paths relative to the common folder of the inputs; several: bucket/key.
        let buckets = Set(found.map(\.bucket))
        let single = buckets.count <= 1
        let rootPrefix: String
        if single {
            let folders: [String] = locations.map { loc in
                let isKey =
                    !loc.prefix.isEmpty && found.contains { $0.object.key == loc.prefix && $0.bucket == loc.bucket }
                guard isKey else { return loc.folder }
                return loc.prefix.range(of: "/", options: .backwards).map { String(loc.prefix[..<$0.upperBound]) } ?? ""
            }
            rootPrefix = Self.commonFolder(folders)
        } else {
            rootPrefix = ""
        }
        var seen = Set<String>()
        var documents: [(InputDocument, Source)] = []
        for (bucket, o) in found {
            let parts = o.key.split(separator: "/", omittingEmptySubsequences: false)
            guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                unsafeKeys.append("s3://\(bucket)/\(o.key)")
                continue
            }
            let relative = single ? String(o.key.dropFirst(rootPrefix.count)) : bucket + "/" + o.key
            guard seen.insert(relative).inserted else { continue }
            var d = InputDocument(path: stage + "/" + bucket + "/" + o.key, relativePath: relative)
            d.workingPath = "s3://\(bucket)/\(o.key)"
            d.missing = missing.contains("\(bucket)/\(o.key)")
            documents.append((d, Source(bucket: bucket, object: o)))
        }
        documents.sort { $0.0.relativePath.utf8.lexicographicallyPrecedes($1.0.relativePath.utf8) }
        sources = documents.map(\.1)
        for (d, s) in documents { listedTimes[d.path] = s.object.lastModified }
        let root =
            single ? stage + "/" + (buckets.first ?? locations.first?.bucket ?? "") + "/" + rootPrefix : stage
        var set = InputSet(root: root.hasSuffix("/") ? String(root.dropLast()) : root, documents: documents.map(\.0))
        OutputStems.assign(&set.documents)
        return set
    }

    static func commonFolder(_ folders: [String]) -> String {
        guard var common = folders.first else { return "" }
        for f in folders.dropFirst() {
            while !f.hasPrefix(common) {
                common = String(common.dropLast())
                if let slash = common.range(of: "/", options: .backwards) {
                    common = String(common[..<slash.upperBound])
                } else {
                    common = ""
                }
            }
        }
        return common
    }

    /// Keeps only the documents `keep` says (a shard), in order.
    func filter(_ set: inout InputSet, _ keep: (InputDocument) -> Bool) {
        var kept: [InputDocument] = []
        var keptSources: [Source] = []
        for (d, s) in zip(set.documents, sources) where keep(d) {
            kept.append(d)
            keptSources.append(s)
        }
        set.documents = kept
        sources = keptSources
    }

    // MARK: - Fetching ahead

    /// Starts fetching the documents at `indices`, in that order.
    func start(_ indices: [Int], documents: [InputDocument]) {
        condition.lock()
        order = indices
        for (p, i) in indices.enumerated() { positionOf[i] = p }
        threads = min(fetchers, indices.count)
        condition.unlock()
        for _ in 0..<threads {
            let t = Thread { [self] in fetchLoop(documents) }
            t.stackSize = 1 << 20
            t.start()
        }
    }

    private func fetchLoop(_ documents: [InputDocument]) {
        let client: S3Client
        do throws(S3Error) { client = try S3Client(settings: settings) } catch {
            condition.lock()
            stopped = true
            threads -= 1
            for i in order where fetched[i] == nil { fetched[i] = .some(error.description) }
            condition.broadcast()
            condition.unlock()
            return
        }
        while true {
            condition.lock()
            while !stopped && nextPosition < order.count && nextPosition >= wantedPosition + ahead { condition.wait() }
            guard !stopped, nextPosition < order.count else {
                threads -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = order[nextPosition]
            nextPosition += 1
            condition.unlock()
            let error = fetch(documents[index], sources[index], client: client)
            condition.lock()
            fetched[index] = .some(error)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Downloads one object to its staging path, its modification time set to the object's
    /// `LastModified` (the input stamp `--resume` compares); the error's text, or nil.
    private func fetch(_ d: InputDocument, _ s: Source, client: S3Client) -> String? {
        do throws(S3Error) {
            // The listing's size first: an object past the cap is not fetched at all.
            if s.object.size > client.maxObjectBytes {
                return
                    "s3://\(s.bucket)/\(s.object.key): \(s.object.size >> 20) MB, larger than \(client.maxObjectBytes >> 20) MB (PDFPIPE_S3_MAX_OBJECT_MB): not downloaded"
            }
            try? FileSystem.createFolder(Paths.parent(d.path))
            try client.download(bucket: s.bucket, key: s.object.key, to: d.path)
            Self.stamp(d.path, s.object.lastModified)
            return nil
        } catch {
            return error.description
        }
    }

    /// Sets a fetched file's modification time to its object's `LastModified`: the input stamp
    /// (size, time) is then the object's, the same in every attempt and on every machine, which
    /// `--resume` and the result's object name rely on.
    static func stamp(_ path: String, _ ns: Int) {
        FileSystem.setModificationTime(path, nanoseconds: ns)
    }

    /// Waits until document `index` is fetched (a worker calls it before starting the document);
    /// its error, or nil. A document that could not be fetched is then missing locally, and its
    /// result says it cannot be read; the message is printed here, naming bucket and key.
    @discardableResult
    func wait(for index: Int) -> String? {
        condition.lock()
        defer { condition.unlock() }
        guard let p = positionOf[index] else { return nil }
        wantedPosition = max(wantedPosition, p + 1)
        condition.broadcast()
        while fetched[index] == nil { condition.wait() }
        return fetched[index] ?? nil
    }

    /// Frees a finished document's local copy.
    func release(_ document: InputDocument) {
        condition.lock()
        let keep = pinned.contains(document.path)
        condition.unlock()
        if !keep { FileSystem.unlink(document.path) }
    }

    /// A file a link names under the staging folder (another object of the store): fetched the
    /// first time a check asks for it and kept (pinned) for the rest of the run; a key the store
    /// does not have stays missing. Installed as `LocalCopies`' fetcher.
    func ensure(_ path: String) {
        guard path.hasPrefix(stage + "/") else { return }
        let rest = path.dropFirst(stage.count + 1)
        let bucket = String(rest.prefix { $0 != "/" })
        let key = String(rest.dropFirst(bucket.count + 1))
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard !bucket.isEmpty, !key.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return
        }
        onDemand.lock()
        defer { onDemand.unlock() }
        condition.lock()
        pinned.insert(path)
        let known = absent.contains(path)
        condition.unlock()
        if known || FileSystem.exists(path) { return }
        do throws(S3Error) {
            let client = try S3Client(settings: settings)
            guard try client.get(bucket: bucket, key: key, headOnly: true) != nil else {
                condition.lock()
                absent.insert(path)
                condition.unlock()
                return
            }
            try? FileSystem.createFolder(Paths.parent(path))
            try client.download(bucket: bucket, key: key, to: path)
            if let ns = listedTimes[path] { Self.stamp(path, ns) }
        } catch {
            warn?("pdfpipe: warning: s3://\(bucket)/\(key), which a link names, could not be fetched: \(error)")
        }
    }

    func stop() { condition.end({ stopped = true }, running: { threads }) }
}
