import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

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
