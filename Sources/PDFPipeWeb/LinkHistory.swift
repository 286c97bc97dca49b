import Foundation
import PDFPipeCore
import SystemIO

/// How many runs in a row each web link has failed (`external.confirmRuns`): the file beside the
/// link cache (`links.json` → `links.history.json`), keyed by URL, with the dates. A run reads it
/// once (a link that failed in K-1 runs before and fails now is an error; before that
/// `uri.flaky`), and at its end adds its own verdicts under a lock, merging with what other shards
/// of the same run wrote meanwhile: a failure counts once per run (the run's id: `PDFPIPE_RUN_ID`,
/// else `GITHUB_RUN_ID`, else the start of this process), a link that worked drops out.
struct LinkHistory: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        /// Consecutive runs the link failed in, this one included if it failed.
        var failures: Int
        /// ISO 8601 dates of the first and last of them.
        var firstFailed: String
        var lastFailed: String
        /// The run that counted last (a second shard of it does not count again).
        var run: String
    }

    var entries: [String: Entry] = [:]
    static let version = 1
    /// Bounds (docs/security.md): a count past `maxFailures` reads as it (confirmRuns is at most
    /// 100); the file keeps at most `maxEntries` links (the most recently failed), none whose last
    /// failure is older than `maxAgeDays`; a file larger than `StateSeal.maxHistoryBytes` is not read.
    static let maxFailures = 1000
    static let maxEntries = 20000
    static let maxAgeDays = 180.0

    /// What the MAC of an entry covers.
    static func sealed(_ url: String, _ e: Entry) -> String {
        "\(e.failures)\n\(e.firstFailed)\n\(e.lastFailed)\n\(e.run)"
    }

    /// `links.json` → `links.history.json` (beside it).
    static func path(besideCache cache: String) -> String {
        let stem = cache.hasSuffix(".json") ? String(cache.dropLast(5)) : cache
        return stem + ".history.json"
    }

    /// This run's id (see the type's comment).
    static let runID: String = {
        let env = Environment.all
        if let id = env["PDFPIPE_RUN_ID"], !id.isEmpty { return id }
        if let id = env["GITHUB_RUN_ID"], !id.isEmpty { return "github-\(id)-\(env["GITHUB_RUN_ATTEMPT"] ?? "1")" }
        return "local-\(Int(SystemClock.now.timeIntervalSince1970))-\(getpid())"
    }()

    /// The file's entries; none when it is missing, too large, a symbolic link or not a history
    /// file (a broken file must not turn links red: it only makes them wait K runs again). An entry
    /// whose MAC does not verify (`StateSeal`: committed or planted) is not read; counts are
    /// clamped to 1…`maxFailures`.
    static func load(_ path: String) -> LinkHistory {
        guard let data = FileStatus.readRegular(path, maxBytes: StateSeal.maxHistoryBytes),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
            json["version"]?.intValue == version, let object = json["entries"]?.objectValue
        else { return LinkHistory() }
        var out = LinkHistory()
        for (url, v) in object {
            guard var e = try? v.decode(Entry.self), e.failures >= 1,
                StateSeal.verify(v["mac"]?.stringValue, "history", url, sealed(url, e))
            else { continue }
            e.failures = min(e.failures, maxFailures)
            out.entries[url] = e
        }
        return out
    }

    /// Drops entries last failed more than `maxAgeDays` before `date`, then all but the
    /// `maxEntries` most recently failed.
    mutating func prune(now date: String) {
        let formatter = ISO8601DateFormatter()
        if let now = formatter.date(from: date) {
            let oldest = now.addingTimeInterval(-Self.maxAgeDays * 86400)
            entries = entries.filter { formatter.date(from: $0.value.lastFailed).map { $0 >= oldest } ?? false }
        }
        if entries.count > Self.maxEntries {
            let kept = entries.sorted { ($0.value.lastFailed, $0.key) > ($1.value.lastFailed, $1.key) }.prefix(
                Self.maxEntries)
            entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }

    /// Runs in a row `url` failed before this one (not counting this run).
    func failuresBefore(_ url: String, run: String) -> Int {
        guard let e = entries[url] else { return 0 }
        return e.run == run ? e.failures - 1 : e.failures
    }

    /// This run's verdicts (true: failed) added.
    mutating func record(_ verdicts: [String: Bool], run: String, date: String) {
        for (url, failed) in verdicts {
            guard failed else {
                entries[url] = nil
                continue
            }
            if var e = entries[url] {
                if e.run != run {
                    e.failures = min(e.failures, Self.maxFailures - 1) + 1
                    e.run = run
                }
                e.lastFailed = date
                entries[url] = e
            } else {
                entries[url] = Entry(failures: 1, firstFailed: date, lastFailed: date, run: run)
            }
        }
    }

    /// Adds `verdicts` to the file at `path` under an exclusive lock (`path.lock`), re-reading it
    /// first: shards finishing together each add theirs. Written atomically.
    static func update(_ path: String, with verdicts: [String: Bool], run: String, date: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do throws(Errno) {
            if !folder.isEmpty { try FileSystem.createFolder(folder) }
        } catch {
            throw PDFPipeIOError("cannot create the folder '\(folder)': \(error)")
        }
        do {
            try FileLock.withLock(path + ".lock") { try write(path, adding: verdicts, run: run, date: date) }
        } catch let error as Errno {
            throw PDFPipeIOError("cannot lock \(path).lock: \(error)")
        }
    }

    /// Adds `verdicts` to the file (its lock held).
    private static func write(_ path: String, adding verdicts: [String: Bool], run: String, date: String) throws {
        var history = load(path)
        history.record(verdicts, run: run, date: date)
        history.prune(now: date)
        var entries: [String: JSONValue] = [:]
        for (url, e) in history.entries {
            guard case .object(var o) = JSONValue(encoding: e) else { continue }
            o["mac"] = .string(StateSeal.mac("history", url, sealed(url, e)))
            entries[url] = .object(o)
        }
        let json: JSONValue = [
            "version": .int(version), "tool": .string("pdfpipe \(PDFPipeVersion.string)"), "entries": .object(entries),
        ]
        try AtomicFile.write(JSONWriter.compact(json) + "\n", to: path)
    }
}

/// An I/O failure with its message.
struct PDFPipeIOError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
