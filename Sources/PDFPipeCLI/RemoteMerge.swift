import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

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
