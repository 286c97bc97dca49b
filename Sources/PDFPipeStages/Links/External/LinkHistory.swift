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

    /// `links.json` → `links.history.json` (beside it).
    static func path(besideCache cache: String) -> String {
        let stem = cache.hasSuffix(".json") ? String(cache.dropLast(5)) : cache
        return stem + ".history.json"
    }

    /// This run's id (see the type's comment).
    static let runID: String = {
        let env = ProcessInfo.processInfo.environment
        if let id = env["PDFPIPE_RUN_ID"], !id.isEmpty { return id }
        if let id = env["GITHUB_RUN_ID"], !id.isEmpty { return "github-\(id)-\(env["GITHUB_RUN_ATTEMPT"] ?? "1")" }
        return "local-\(Int(Date().timeIntervalSince1970))-\(getpid())"
    }()

    /// The file's entries; none when it is missing or not a history file (a broken file must not
    /// turn links red: it only makes them wait K runs again).
    static func load(_ path: String) -> LinkHistory {
        guard let data = FileSystem.contents(path),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
            json["version"]?.intValue == version,
            let entries = try? json["entries"]?.decode([String: Entry].self)
        else { return LinkHistory() }
        return LinkHistory(entries: entries.filter { $0.value.failures >= 1 })
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
                    e.failures += 1
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
        let json: JSONValue = [
            "version": .int(version), "tool": .string("pdfpipe \(PDFPipeVersion.string)"),
            "entries": JSONValue(encoding: history.entries),
        ]
        try AtomicFile.write(JSONWriter.pretty(json) + "\n", to: path)
    }
}

/// An I/O failure with its message.
struct PDFPipeIOError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
