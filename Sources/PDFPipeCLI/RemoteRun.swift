import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

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
