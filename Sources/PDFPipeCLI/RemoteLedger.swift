import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// A ledger in object storage (`--ledger s3://bucket/prefix/`): one object a run directly under
/// the prefix, `STAMP-RUNID.json` as in a ledger folder, written create-only (`If-None-Match: *`)
/// after a claim, `claims/RUNID`, also create-only, that names it. A retried run (the same run
/// id) finds the claim and writes under the key it names, create-only: however many attempts
/// run, one after the other or at once, the run has one record, and an attempt killed between
/// claim and record leaves the record to the next attempt. An object is whole or absent (the store
/// has no partial writes). What the store lists and holds is data: keys that are not record
/// names are passed over, a record is read only up to `CLI.maxLedgerRecordBytes`, and a claim
/// that names anything but a record of its own run is refused (docs/security.md).
struct RemoteLedger {
    let location: S3Location
    let settings: S3Settings

    /// A record's name: the run's time (digits), `-`, the run id (letters, digits, `-_.`), `.json`.
    static func isRecordName<S: StringProtocol>(_ name: S) -> Bool { runID(ofRecord: name) != nil }

    /// The run id a record's name gives (after the time's digits and the first `-`), or nil when
    /// it is not a record's name. An id may hold `-`: `20261101030000-github-5-1.json` is run
    /// `github-5-1`, never run `1`.
    static func runID<S: StringProtocol>(ofRecord name: S) -> String? {
        guard name.hasSuffix(".json"), let dash = name.firstIndex(of: "-") else { return nil }
        let stamp = name[..<dash]
        let id = name[name.index(after: dash)...].dropLast(5)
        guard (8...24).contains(stamp.count), stamp.allSatisfy({ $0.isASCII && $0.isNumber }),
            (1...100).contains(id.count), id.allSatisfy(CLI.isRunIDCharacter)
        else { return nil }
        return String(id)
    }

    enum Written: Equatable {
        case written(String)
        /// The run's record was there already (another attempt wrote it): its name.
        case existed(String)
    }

    /// Writes the record `bytes` named `name` for the run `id` (its safe form), once.
    func write(_ bytes: [UInt8], name: String, id: String) throws(S3Error) -> Written {
        let client = try S3Client(settings: settings)
        let claim = location.folder + "claims/" + id
        var chosen = name
        if try client.put(bucket: location.bucket, key: claim, bytes: Array(name.utf8), createOnly: true) == .existed {
            let said = try client.get(bucket: location.bucket, key: claim).map {
                String(decoding: $0.prefix(200), as: UTF8.self)
            }
            guard let said, Self.runID(ofRecord: said) == id else {
                throw S3Error(
                    location: location.url(claim), status: nil, code: "BadClaim",
                    message:
                        "the claim of run '\(id)' names '\(ConsoleText.escape(String((said ?? "nothing").prefix(120))))', not a record of this run: the run is not recorded (remove the claim)"
                )
            }
            chosen = said
        }
        let outcome = try client.put(
            bucket: location.bucket, key: location.folder + chosen, bytes: bytes, createOnly: true)
        return outcome == .written ? .written(chosen) : .existed(chosen)
    }

    /// The record names among the objects listed under the prefix, oldest first.
    func names(_ listed: [S3Object]) -> [String] {
        listed.compactMap { o in
            let name = o.key.dropFirst(location.folder.count)
            return Self.isRecordName(name) && !name.contains("/") ? String(name) : nil
        }.sorted()
    }

    /// Removes the oldest records past `CLI.maxLedgerRecords`, with their claims.
    func prune() throws(S3Error) {
        let client = try S3Client(settings: settings)
        for old in names(try client.list(bucket: location.bucket, prefix: location.folder)).dropLast(
            CLI.maxLedgerRecords)
        {
            try client.delete(bucket: location.bucket, key: location.folder + old)
            if let id = Self.runID(ofRecord: old) {
                try client.delete(bucket: location.bucket, key: location.folder + "claims/" + id)
            }
        }
    }

    /// The newest `CLI.maxLedgerRecords` records; objects that are not records are named through
    /// `passedOver` and left out.
    func records(passedOver: (String, String) -> Void) throws(S3Error) -> [LedgerRecord] {
        let client = try S3Client(settings: settings)
        // A store that sends more than it listed is stopped at the bound.
        client.maxObjectBytes = CLI.maxLedgerRecordBytes
        let listed = try client.list(bucket: location.bucket, prefix: location.folder)
        let sizes = Dictionary(listed.map { ($0.key, $0.size) }, uniquingKeysWith: { a, _ in a })
        let staging =
            FileSystem.temporaryDirectory + "/pdfpipe-ledger-\(ProcessControl.id)-\(UUID().uuidString.prefix(8))"
        do throws(Errno) { try FileSystem.createFolder(staging) } catch {
            throw S3Error(
                location: staging, status: nil, code: "Staging", message: "cannot make a staging folder: \(error)")
        }
        defer { FileSystem.removeTree(staging) }
        var out: [LedgerRecord] = []
        for name in names(listed).suffix(CLI.maxLedgerRecords) {
            let key = location.folder + name
            guard (sizes[key] ?? 0) <= CLI.maxLedgerRecordBytes else {
                passedOver(location.url(key), "larger than \(CLI.maxLedgerRecordBytes >> 20) MiB")
                continue
            }
            try client.download(bucket: location.bucket, key: key, to: staging + "/record.json")
            guard let bytes = FileStatus.readRegular(staging + "/record.json", maxBytes: CLI.maxLedgerRecordBytes),
                let value = try? JSONParser.parse(String(decoding: bytes, as: UTF8.self)),
                let record = LedgerRecord(json: value)
            else {
                passedOver(location.url(key), "not a ledger record")
                continue
            }
            out.append(record)
        }
        return out
    }
}
