import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// The link-rot ledger: a record per run (`run --ledger DIR`), and `pdfpipe trend`.
extension CLI {
    /// Records kept in a ledger folder (the newest; older ones are removed as new ones come), and
    /// the size of a record read.
    static let maxLedgerRecords = 1_000
    static let maxLedgerRecordBytes = 64 << 20

    /// This run's id: `PDFPIPE_RUN_ID`, else GitHub's run id and attempt, else the time and process.
    static func runID(at time: String) -> String {
        let env = Environment.all
        if let id = env["PDFPIPE_RUN_ID"], !id.isEmpty { return id }
        if let id = env["GITHUB_RUN_ID"], !id.isEmpty { return "github-\(id)-\(env["GITHUB_RUN_ATTEMPT"] ?? "1")" }
        return "local-\(time)-\(getpid())"
    }

    /// A ledger before any work: a folder (`checkLedgerFolder`), or an `s3://` location with the
    /// store's settings.
    func checkLedger(_ ledger: String) throws(PipelineError) {
        if S3Location.isS3(ledger) { _ = try remoteLedger(ledger) } else { try checkLedgerFolder(ledger) }
    }

    /// The records of the ledger a run keeps, for its findings' `brokenSince`: none when the
    /// ledger folder does not exist yet (the first run); one that cannot be read is said, and the
    /// run goes on as if it were the first.
    func ledgerBeforeThisRun(_ ledger: String) -> [LedgerRecord] {
        if !S3Location.isS3(ledger), !FileSystem.isFolder(Paths.absolute(ledger, relativeTo: directory)) { return [] }
        do throws(PipelineError) {
            return try readLedger(ledger)
        } catch {
            console.error(
                "pdfpipe: warning: \(error); broken links are said broken since this run (brokenSince)")
            return []
        }
    }

    /// The ledger folder may be restored from a cache a pull request wrote: like the output
    /// folder, it is refused when it, a folder above it inside the working folder, or anything in
    /// it is a symbolic link (nothing is written or read through one).
    func checkLedgerFolder(_ folder: String) throws(PipelineError) {
        let working = Paths.standardize(directory)
        let dir = Paths.standardize(Paths.absolute(folder, relativeTo: directory))
        var links = Paths.symbolicLinks(onTheWayTo: dir, inside: working)
        links += FileStatus.symbolicLinks(under: dir).filter { !links.contains($0) }
        guard links.isEmpty else {
            let names = links.prefix(5).map { "'\(Paths.relative($0, to: working))'" }.joined(separator: ", ")
            throw PipelineError(
                file: folder,
                message:
                    "the ledger folder is or holds a symbolic link (\(names)): pdfpipe writes and reads nothing through one"
            )
        }
    }

    /// A run id's characters kept in a record's name (the others become `_`).
    static func isRunIDCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "-_.".contains(c))
    }

    /// Writes the run's record into the ledger (a folder, or `s3://` in object storage), once: a
    /// record of the same run already there is kept (a retried job does not count twice).
    func writeLedger(_ report: RunReport, to ledger: String, quiet: Bool) -> Bool {
        let id = Self.runID(at: report.generatedAt)
        var record = LedgerRecord(run: id, time: report.generatedAt, pipeline: report.pipeline, results: report.results)
        record.counts = LedgerRecord.counts(of: report.summary)
        let safe = String(id.map { Self.isRunIDCharacter($0) ? $0 : "_" }.prefix(100))
        let name = "\(report.generatedAt.filter { $0.isASCII && $0.isNumber })-\(safe).json"
        let bytes = Array(JSONWriter.compact(record.json).utf8)
        let outcome =
            S3Location.isS3(ledger)
            ? writeRemoteLedger(bytes, name: name, id: safe, to: ledger)
            : writeLedgerFolder(bytes, name: name, id: safe, to: ledger)
        switch outcome {
        case .written:
            if !quiet {
                let slash = ledger.hasSuffix("/") ? "" : "/"
                console.print(
                    "pdfpipe: recorded the run in \(ledger)\(slash)\(name) (\(record.links.count) link findings)")
            }
        case .kept(let there):
            console.error("pdfpipe: \(ledger): run '\(id)' is recorded already (\(there)); its record is kept")
        case .failed: return false
        }
        return true
    }

    enum LedgerWrite {
        case written
        /// The run's record was there already: its name.
        case kept(String)
        case failed
    }

    /// The record in object storage (`RemoteLedger`), then the oldest past `maxLedgerRecords` removed.
    private func writeRemoteLedger(_ bytes: [UInt8], name: String, id: String, to ledger: String) -> LedgerWrite {
        do throws(PipelineError) {
            let remote = try remoteLedger(ledger)
            do throws(S3Error) {
                if case .existed(let there) = try remote.write(bytes, name: name, id: id) { return .kept(there) }
                try remote.prune()
                return .written
            } catch {
                console.error("pdfpipe: error: \(error)")
                return .failed
            }
        } catch {
            console.error("pdfpipe: error: \(error)")
            return .failed
        }
    }

    /// The ledger at an `s3://` location, with the store's settings.
    func remoteLedger(_ ledger: String) throws(PipelineError) -> RemoteLedger {
        let location: S3Location?
        do throws(S3Error) { location = try S3Location.parse(ledger) } catch {
            throw PipelineError(file: ledger, message: error.description)
        }
        guard let location else { throw PipelineError(file: ledger, message: "not an s3:// location") }
        do throws(PipelineError) {
            return RemoteLedger(location: location, settings: try objectStoreSettings())
        } catch {
            throw PipelineError(file: ledger, message: error.message)
        }
    }

    /// Written whole or not at all (a temporary file renamed into place), then the oldest records
    /// past `maxLedgerRecords` removed.
    private func writeLedgerFolder(_ bytes: [UInt8], name: String, id safe: String, to folder: String) -> LedgerWrite {
        let dir = Paths.absolute(folder, relativeTo: directory)
        do {
            try FileSystem.createFolder(dir)
        } catch {
            console.error("pdfpipe: error: \(folder): cannot create the ledger folder: \(error)")
            return .failed
        }
        let existing = (FileSystem.list(dir) ?? []).filter { RemoteLedger.runID(ofRecord: $0) == safe }
        if let there = existing.first { return .kept(there) }
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(bytes, to: dir + "/" + name)
        } catch {
            console.error("pdfpipe: error: \(folder)/\(name): \(error)")
            return .failed
        }
        let names = FileSystem.list(dir) ?? []
        // Only files named like records count (and go): a file planted beside them stays put.
        let records = names.filter(RemoteLedger.isRecordName).sorted()
        for old in records.dropLast(Self.maxLedgerRecords) { FileSystem.unlink(dir + "/" + old) }
        // What a run killed while writing left: its temporary file, removed once it is an hour old
        // (a younger one may be another run's, writing now).
        let hourAgo = Int(SystemClock.now.timeIntervalSince1970) - 3600
        for t in names where t.hasPrefix(".") && t.contains(".tmp-") {
            if let st = FileStatus.of(dir + "/" + t), st.kind == .regular, st.modifiedSeconds < hourAgo {
                FileSystem.unlink(dir + "/" + t)
            }
        }
        return .written
    }

    /// The records of a ledger folder, the newest `maxLedgerRecords`; files that are not records
    /// are named on the console and passed over.
    func readLedger(_ folder: String) throws(PipelineError) -> [LedgerRecord] {
        if S3Location.isS3(folder) {
            let remote = try remoteLedger(folder)
            do throws(S3Error) {
                return try remote.records { place, why in
                    console.error("pdfpipe: \(place): \(why); passed over")
                }
            } catch {
                throw PipelineError(file: folder, message: error.description)
            }
        }
        try checkLedgerFolder(folder)
        let dir = Paths.absolute(folder, relativeTo: directory)
        guard FileSystem.isFolder(dir), let names = FileSystem.list(dir) else {
            throw PipelineError(file: folder, message: "not a ledger folder (run --ledger \(folder) keeps one)")
        }
        var records: [LedgerRecord] = []
        // As in object storage, only files named like records are read (the newest by name).
        for name in names.filter(RemoteLedger.isRecordName).sorted().suffix(Self.maxLedgerRecords) {
            guard let bytes = FileStatus.readRegular(dir + "/" + name, maxBytes: Self.maxLedgerRecordBytes),
                let value = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)),
                let record = LedgerRecord(json: value)
            else {
                console.error("pdfpipe: \(folder)/\(name): not a ledger record; passed over")
                continue
            }
            records.append(record)
        }
        return records
    }

    /// `pdfpipe trend LEDGER [--out DIR] [--since DATE] [--pipeline NAME] [--host HOST]`.
    func trendCommand(_ args: [String]) throws(PipelineError) -> ExitCode {
        let a = try TrendFlags.parse(args)
        guard a.operands.count == 1 else {
            throw PipelineError(
                file: nil,
                message: "trend takes one ledger (a folder, or s3://bucket/prefix/): pdfpipe trend LEDGER [--out DIR]")
        }
        if let since = a.since, !Suppression.isDate(since) {
            throw PipelineError(file: nil, message: "--since: expected a date YYYY-MM-DD, got '\(since)'")
        }
        let records = try readLedger(a.operands[0])
        let trend = Trend(records: records, since: a.since, pipeline: a.pipeline, host: a.host)
        let out = Paths.absolute(a.out ?? "out/trend", relativeTo: directory)
        try checkOutputFolder(out)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array(JSONWriter.pretty(trend.json).utf8), to: out + "/trend.json")
            try AtomicFile.write(Array(trend.markdown.utf8), to: out + "/trend.md")
            try AtomicFile.write(Array(trend.html.utf8), to: out + "/trend.html")
        } catch {
            throw PipelineError(file: a.out ?? "out/trend", message: error.description)
        }
        console.print(
            "pdfpipe: \(trend.runs.count) run\(trend.runs.count == 1 ? "" : "s"), \(trend.current.count) link\(trend.current.count == 1 ? "" : "s") broken now; wrote \(a.out ?? "out/trend")/trend.json, trend.md, trend.html"
        )
        return .clean
    }
}
