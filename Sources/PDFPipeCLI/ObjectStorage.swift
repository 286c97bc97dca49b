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

/// A run's outputs in object storage: each document's result as one object, written create-only
/// (`If-None-Match: *`) once its outputs are up, so that a retried or doubled task writes each
/// result exactly once; the reports and a completion marker at the end.
///
/// Layout under `s3://bucket/prefix/`: `results/HASH/ID.jsonl` (HASH: the configuration hash
/// `--resume` uses; ID: a hash of the document's path and its input's size and modification
/// time), the documents' outputs at their paths (`thumbnails/…`, `text/…`), and the reports in
/// the prefix itself, or in `shards/K-of-N/` for a shard, beside its marker `done.json`.
final class RemoteOutputs: @unchecked Sendable {
    let settings: S3Settings
    let location: S3Location
    let staging: String
    let hash: String
    /// Where the reports go (the prefix's folder, or its `shards/K-of-N/`).
    let reportFolder: String

    private let condition = NSCondition()
    private var queue: [(artifacts: [String], line: [UInt8], key: String)] = []
    private var busy = 0
    private var closed = false
    private var threads = 0
    private(set) var written = 0
    private(set) var existed = 0
    private(set) var failures: [String] = []
    private let killAfter = Environment["PDFPIPE_TEST_KILL_AFTER_RESULTS"].flatMap(Int.init)

    init(settings: S3Settings, location: S3Location, staging: String, hash: String, shard: String?) {
        self.settings = settings
        self.location = location
        self.staging = staging
        self.hash = hash
        reportFolder =
            location.folder + (shard.map { "shards/" + $0.replacingOccurrences(of: "/", with: "-of-") + "/" } ?? "")
    }

    /// The result object of a document read from `stamp`.
    func resultKey(_ stamp: ResultStore.InputStamp) -> String {
        location.folder + "results/\(hash)/"
            + ResultStore.configurationHash([stamp.path, String(stamp.size), String(stamp.mtime)]) + ".jsonl"
    }

    /// Writes the results this configuration already has in the store for these inputs into the
    /// staging folder's results file, for `--resume` to take as its own; returns how many.
    func restore(stamps: [ResultStore.InputStamp?]) throws(S3Error) -> Int {
        let client = try S3Client(settings: settings)
        let wanted = Set(stamps.compactMap { $0.map(resultKey) })
        let there = try client.list(bucket: location.bucket, prefix: location.folder + "results/\(hash)/")
        var lines: [UInt8] = []
        var n = 0
        for o in there where wanted.contains(o.key) {
            guard let bytes = try client.get(bucket: location.bucket, key: o.key), bytes.last == 0x0A else { continue }
            lines += bytes
            n += 1
        }
        try? FileSystem.createFolder(staging)
        FileSystem.write(lines, to: staging + "/" + ResultStore.fileName)
        return n
    }

    func start(threads count: Int = 2) {
        condition.lock()
        threads = count
        condition.unlock()
        for _ in 0..<count {
            let t = Thread { [self] in uploadLoop() }
            t.stackSize = 1 << 20
            t.start()
        }
    }

    /// Hands a finished document on: its outputs, then its result.
    func add(artifacts: [String], line: [UInt8], key: String) {
        condition.lock()
        queue.append((artifacts, line, key))
        condition.broadcast()
        condition.unlock()
    }

    private func uploadLoop() {
        let client: S3Client
        do throws(S3Error) { client = try S3Client(settings: settings) } catch {
            condition.lock()
            failures.append(error.description)
            threads -= 1
            condition.broadcast()
            condition.unlock()
            return
        }
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            guard !queue.isEmpty else {
                threads -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let item = queue.removeFirst()
            busy += 1
            condition.unlock()
            var outcome: S3Client.PutOutcome?
            var failure: String?
            do throws(S3Error) {
                for a in item.artifacts {
                    try client.put(bucket: location.bucket, key: location.folder + a, file: staging + "/" + a)
                }
                outcome = try client.put(bucket: location.bucket, key: item.key, bytes: item.line, createOnly: true)
            } catch {
                failure = error.description
            }
            condition.lock()
            busy -= 1
            switch outcome {
            case .written?:
                written += 1
                // For the tests of a task killed halfway: SIGKILL once this many results are up
                // (a kill at a point the test chooses, not at a time it guesses).
                if written == killAfter { ProcessControl.killSelf() }
            case .existed?: existed += 1
            case nil: failures.append(failure ?? "")
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits for every result handed on to be written.
    func drain() { condition.end({ closed = true }, running: { threads }) }

    /// The reports (every file at the staging folder's top) into the report folder, then the
    /// completion marker, create-only: `false` when another attempt had finished first.
    func finish(reports: [String], marker: [UInt8]) throws(S3Error) -> Bool {
        let client = try S3Client(settings: settings)
        for name in reports {
            try client.put(bucket: location.bucket, key: reportFolder + name, file: staging + "/" + name)
        }
        return try client.put(bucket: location.bucket, key: reportFolder + "done.json", bytes: marker, createOnly: true)
            == .written
    }
}

/// The settings of the store, or the error as a pipeline error.
func objectStoreSettings() throws(PipelineError) -> S3Settings {
    do throws(S3Error) {
        let settings = try S3Settings.fromEnvironment()
        // A secret read from a profile file is as secret as one in the environment.
        Secrets.add(settings.secretKey)
        if let token = settings.sessionToken { Secrets.add(token) }
        return settings
    } catch {
        throw PipelineError(file: nil, message: error.description)
    }
}

/// A new staging folder under TMPDIR, removed at the end of the run.
func makeStagingFolder() throws(PipelineError) -> String {
    let path = FileSystem.temporaryDirectory + "/pdfpipe-s3-\(ProcessControl.id)-\(UUID().uuidString.prefix(8))"
    do throws(Errno) { try FileSystem.createFolder(path) } catch {
        throw PipelineError(file: path, message: "cannot make the staging folder: \(error)")
    }
    return path
}

/// What a run in object storage holds: the staging folder, the inputs fetched, the outputs uploaded.
final class RemoteRun: @unchecked Sendable {
    let staging: String
    let settings: S3Settings
    var inputs: RemoteInputs?
    var set: InputSet?
    /// The output prefix, when outputs go to the store.
    var outputLocation: S3Location?
    var outputs: RemoteOutputs?
    private var store: ResultStore?

    init(staging: String, settings: S3Settings) {
        self.staging = staging
        self.settings = settings
    }

    /// The local output folder the run writes to: a staging folder when the outputs go to the store.
    var outDir: String? { outputLocation == nil ? nil : staging + "/out" }

    /// Where the results and the reports are in the store, for messages (nil before `begin`).
    var resultsURL: String? { outputs.map { $0.location.url($0.location.folder + "results/") } }
    var reportsURL: String? { outputs.map { $0.location.url($0.reportFolder) } }

    /// The result stamp of each document as the store gives it (size, `LastModified`), without
    /// fetching it; local inputs are stat'ed.
    func stamps(_ set: InputSet) -> [ResultStore.InputStamp?] {
        guard let inputs else {
            return set.documents.map { ResultStore.InputStamp.of(file: $0.path, relativePath: $0.relativePath) }
        }
        return zip(set.documents, inputs.sources).map { d, s in
            ResultStore.InputStamp(path: d.relativePath, size: s.object.size, mtime: s.object.lastModified)
        }
    }

    /// Before the results file is opened: what the store already has for this configuration is
    /// written into it (resumed), and the runner hands each finished document on.
    func begin(_ runner: inout Runner, set: InputSet, hash: String, shard: String?, console: Console)
        throws(PipelineError)
    {
        if let location = outputLocation, let outDir {
            let outputs = RemoteOutputs(
                settings: settings, location: location, staging: outDir, hash: hash, shard: shard)
            do throws(S3Error) { _ = try outputs.restore(stamps: stamps(set)) } catch {
                throw PipelineError(file: nil, message: error.description)
            }
            outputs.start()
            self.outputs = outputs
        }
        let inputs = inputs
        if let inputs {
            inputs.warn = { console.error($0) }
            LocalCopies.install { inputs.ensure($0) }
            runner.prepare = { i, d in
                if let error = inputs.wait(for: i) {
                    console.error("pdfpipe: error: \(d.workingPath ?? d.relativePath): cannot be fetched: \(error)")
                }
            }
        }
        let outputs = outputs
        runner.delivered = { [self] i, d, _, stamp in
            if let outputs, let stamp, let line = store?.lineBytes(i) {
                outputs.add(
                    artifacts: store?.document(i)?.artifacts.map(\.path) ?? [], line: line,
                    key: outputs.resultKey(stamp))
            }
            inputs?.release(d)
        }
    }

    /// Starts fetching the documents the store does not have yet.
    func startFetching(_ set: InputSet, store: ResultStore, jobs: Int) {
        self.store = store
        inputs?.start(
            set.documents.indices.filter { !store.has($0) && !set.documents[$0].missing }, documents: set.documents)
    }

    /// Uploads the reports and the marker once every result is up; false (said) when anything failed.
    func upload(report: RunReport, quiet: Bool, console: Console) -> Bool {
        guard let outputs, let outDir, let location = outputLocation else { return true }
        outputs.drain()
        for f in outputs.failures.prefix(10) { console.error("pdfpipe: error: \(f)") }
        if !outputs.failures.isEmpty {
            console.error(
                "pdfpipe: error: \(outputs.failures.count) result\(outputs.failures.count == 1 ? "" : "s") could not be written to \(location); run again to finish them (the results written are kept)"
            )
            return false
        }
        let names = (FileSystem.list(outDir) ?? []).filter { name in
            !name.hasPrefix(".") && FileStatus.of(outDir + "/" + name)?.kind == .regular
        }
        let summary = report.store?.summary
        let marker = JSONWriter.pretty(
            .object([
                "documents": .int(summary?.documents ?? 0),
                "results": .int(outputs.written + outputs.existed),
                "shard": report.shard.map { .string($0) } ?? .null,
                "pipeline": .string(outputs.hash),
            ]))
        do throws(S3Error) {
            let first = try outputs.finish(reports: names, marker: Array((marker + "\n").utf8))
            if !quiet {
                console.error(
                    "pdfpipe: wrote \(outputs.written) result\(outputs.written == 1 ? "" : "s") to \(location.url(location.folder + "results/"))\(outputs.existed > 0 ? ", \(outputs.existed) already written by another attempt" : ""); reports in \(location.url(outputs.reportFolder))\(first ? "" : " (another attempt had finished it first)")"
                )
            }
        } catch {
            console.error("pdfpipe: error: \(error)")
            return false
        }
        return true
    }

    /// Stops the fetchers and removes the staging folder; also when the run is dropped.
    func cleanUp() {
        inputs?.stop()
        if inputs != nil { LocalCopies.install(nil) }
        FileSystem.removeTree(staging)
    }

    deinit { cleanUp() }
}

extension CLI {
    /// `--inputs-from s3://bucket/list.txt`: the work list's entries, each an `s3://` URL or a key of
    /// the list's bucket.
    static func remoteWorkList(_ url: String, nullSeparated: Bool) throws(PipelineError) -> [String] {
        let settings = try objectStoreSettings()
        let fetched: (S3Location, [UInt8]?)
        do throws(S3Error) {
            guard let loc = try S3Location.parse(url) else { return [] }
            fetched = (
                loc,
                loc.prefix.isEmpty ? nil : try S3Client(settings: settings).get(bucket: loc.bucket, key: loc.prefix)
            )
        } catch {
            throw PipelineError(file: nil, message: "--inputs-from: \(error.description)")
        }
        let (loc, found) = fetched
        guard let bytes = found else {
            throw PipelineError(
                file: url, message: "--inputs-from: no such object (an s3:// work list names an object)")
        }
        let tmp = FileSystem.temporaryDirectory + "/pdfpipe-list-\(ProcessControl.id)-\(UUID().uuidString.prefix(8))"
        FileSystem.write(bytes, to: tmp)
        defer { FileSystem.unlink(tmp) }
        return try workList(tmp, nullSeparated: nullSeparated) { [] }.map { entry in
            S3Location.isS3(entry) ? entry : "s3://\(loc.bucket)/" + String(entry.drop { $0 == "/" })
        }
    }

    /// A run with `s3://` inputs or output, set up; nil when it has neither.
    func remoteRun(_ a: RunFlags, pipeline: Pipeline, shard: Shard?) throws(PipelineError) -> RemoteRun? {
        var named = a.operands.count > 1 ? Array(a.operands.dropFirst()) : pipeline.inputs
        let listFrom = a.inputsFrom.flatMap { S3Location.isS3($0) ? $0 : nil }
        if let listFrom { named = try Self.remoteWorkList(listFrom, nullSeparated: a.null) }
        let remoteInputs = named.filter(S3Location.isS3)
        let outLocation: S3Location?
        do throws(S3Error) { outLocation = try S3Location.parse(pipeline.output) } catch {
            throw PipelineError(file: nil, message: "--out: \(error.description)")
        }
        guard !remoteInputs.isEmpty || outLocation != nil else { return nil }
        if !remoteInputs.isEmpty
            && (remoteInputs.count != named.count || (a.inputsFrom != nil && listFrom == nil))
        {
            throw PipelineError(
                file: nil,
                message:
                    "inputs in object storage (s3://…) cannot be mixed with local ones in one run: run them apart and merge the reports"
            )
        }
        let settings = try objectStoreSettings()
        let run = RemoteRun(staging: try makeStagingFolder(), settings: settings)
        run.outputLocation = outLocation
        guard !remoteInputs.isEmpty else { return run }
        let jobs = pipeline.jobs == 0 ? ProcessInfo.processInfo.activeProcessorCount : pipeline.jobs
        let inputs = RemoteInputs(settings: settings, stage: run.staging + "/in", ahead: max(8, 4 * jobs))
        do throws(PipelineError) {
            var set = try inputs.list(remoteInputs, listed: listFrom != nil)
            for key in inputs.unsafeKeys.prefix(20) {
                console.error(
                    "pdfpipe: warning: '\(ConsoleText.escape(key))' is not a path (an empty, '.' or '..' part): left out of the batch"
                )
            }
            if set.documents.isEmpty && !a.allowEmpty {
                throw PipelineError(
                    file: nil,
                    message:
                        "no PDF object in the inputs (listed \(remoteInputs.map { "'\($0)'" }.joined(separator: ", ")) for *.pdf); nothing was checked (--allow-empty accepts an empty batch)"
                )
            }
            if let shard { inputs.filter(&set) { shard.contains($0.relativePath) } }
            run.inputs = inputs
            run.set = set
        } catch {
            run.cleanUp()
            throw error
        }
        return run
    }
}

/// `pdfpipe merge s3://bucket/prefix … [--out s3://…]`: the reports under each prefix (its own
/// `report.json`, and each `shards/*/report.json`) fetched with their results files into a staging
/// folder, merged there, and the merged reports uploaded when `--out` is in the store.
final class RemoteMerge {
    let staging: String
    let settings: S3Settings
    /// The operands with every `s3://` one replaced by the local folders of its reports.
    var operands: [String] = []
    let output: S3Location?

    var outDir: String? { output == nil ? nil : staging + "/out" }

    /// Nil when neither the operands nor `--out` are in object storage.
    init?(operands given: [String], out: String?) throws(PipelineError) {
        do throws(S3Error) {
            output = try out.flatMap { o throws(S3Error) in try S3Location.parse(o) }
        } catch {
            throw PipelineError(file: nil, message: "--out: \(error.description)")
        }
        guard output != nil || given.contains(where: S3Location.isS3) else { return nil }
        settings = try objectStoreSettings()
        staging = try makeStagingFolder()
        do throws(S3Error) {
            var client: S3Client?
            for operand in given {
                guard let loc = try S3Location.parse(operand) else {
                    operands.append(operand)
                    continue
                }
                if client == nil { client = try S3Client(settings: settings) }
                let objects = try client!.list(bucket: loc.bucket, prefix: loc.folder)
                let folders = objects.map(\.key).filter { key in
                    let rest = key.dropFirst(loc.folder.count)
                    return rest == "report.json"
                        || (rest.hasPrefix("shards/") && rest.hasSuffix("/report.json")
                            && rest.dropFirst(7).dropLast(12).allSatisfy { $0 != "/" })
                }.map { String($0.dropLast("report.json".count)) }
                guard !folders.isEmpty else {
                    throw S3Error(
                        location: loc.url(loc.folder), status: nil, code: "NoReports",
                        message: "no report.json under it, nor under its shards/*/")
                }
                for folder in folders {
                    let local = staging + "/in/\(operands.count)"
                    try? FileSystem.createFolder(local)
                    try client!.download(bucket: loc.bucket, key: folder + "report.json", to: local + "/report.json")
                    operands.append(local)
                }
            }
        } catch {
            cleanUp()
            throw PipelineError(file: nil, message: error.description)
        }
    }

    /// Uploads what the merge wrote (the files at the top of its output folder).
    func upload(console: Console) -> Bool {
        guard let output, let outDir else { return true }
        do throws(S3Error) {
            let client = try S3Client(settings: settings)
            let names = (FileSystem.list(outDir) ?? []).filter { name in
                !name.hasPrefix(".") && FileStatus.of(outDir + "/" + name)?.kind == .regular
            }
            for name in names {
                try client.put(bucket: output.bucket, key: output.folder + name, file: outDir + "/" + name)
            }
        } catch {
            console.error("pdfpipe: error: \(error)")
            return false
        }
        return true
    }

    func cleanUp() { FileSystem.removeTree(staging) }
}

extension NSCondition {
    /// Ends a set of threads that wait on this condition: `mark` (under the lock) says they are to
    /// stop, they are woken, and this returns once `running` (read under the lock) is 0.
    func end(_ mark: () -> Void, running: () -> Int) {
        lock()
        mark()
        broadcast()
        while running() > 0 { wait() }
        unlock()
    }
}
