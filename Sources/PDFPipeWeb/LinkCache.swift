import Foundation
import PDFBridge
import PDFPipeCore
import SystemIO

/// What the web check remembers of URLs beyond the run: the cache file (`cache.path`), the folder
/// shards on one machine share as they go (`<cache>.shared/`), and the history of the runs each
/// link failed in (`confirmRuns`). One value, kept by `URLChecker` under its lock. Every entry read
/// back carries a MAC by this machine's key (`StateSeal`): an entry committed to a repository,
/// planted in a CI cache or brought from elsewhere is not read, so it cannot make a dead link `ok`.
package struct LinkCache {
    let options: ExternalOptions
    /// The folder shards share, under `--shard K/N` with a cache (nil otherwise).
    let shared: SharedCacheFolder?
    /// The run's cache, by URL (nil until read, and without `cache.path`).
    private var entries: [String: URLFetch]?
    /// Entries were added since the file was written.
    private(set) var dirty = false
    /// Runs in a row each link failed before this one (`confirmRuns` > 1), read once.
    private var history: LinkHistory?

    init(options: ExternalOptions) {
        self.options = options
        shared =
            options.shards > 1
            ? options.cachePath.map { SharedCacheFolder(path: SharedCacheFolder.path(besideCache: $0)) } : nil
    }

    /// A fresh answer for `url` from the run's cache or, failing that, the shards' folder (reads
    /// the cache file on first use; one small sealed file for a shared entry).
    mutating func answer(for url: String) -> URLFetch? {
        load()
        guard let f = entries?[url] ?? shared?.entry(url), isFresh(f) else { return nil }
        return f
    }

    /// Keeps a URL's answer when it is worth keeping; returns whether the shards should see it too
    /// (`SharedCacheFolder.write`, outside the checker's lock).
    mutating func keep(_ f: URLFetch, as url: String) -> Bool {
        guard cacheable(f) else { return false }
        let share = options.shards > 1 && entries != nil
        entries?[url] = f
        dirty = true
        return share
    }

    /// Runs in a row `url` failed before this run (`confirmRuns`; 0 without a history).
    mutating func failuresBefore(_ url: String) -> Int {
        if history == nil {
            history =
                options.confirmRuns > 1
                ? options.cachePath.map { LinkHistory.load(LinkHistory.path(besideCache: $0)) } : nil
            if history == nil { history = LinkHistory() }
        }
        return history?.failuresBefore(url, run: LinkHistory.runID) ?? 0
    }

    /// Writes the history (this run's verdicts, `confirmRuns` > 1) and the cache file (atomically,
    /// expired entries dropped). Called once, at the end of the run.
    mutating func save(results: [URLChecker.Key: URLFetch]) throws {
        try saveHistory(results)
        guard let path = options.cachePath, let entries, dirty else { return }
        var kept: [String: JSONValue] = [:]
        for (url, f) in entries where isFresh(f) { kept[url] = Self.sealed(f, kind: "cache") }
        let folder = (path as NSString).deletingLastPathComponent
        do throws(Errno) {
            if !folder.isEmpty { try FileSystem.createFolder(folder) }
        } catch {
            throw PDFPipeIOError("cannot create the folder '\(folder)': \(error)")
        }
        let json: JSONValue = [
            "version": 1, "tool": .string("pdfpipe \(PDFPipeVersion.string)"), "entries": .object(kept),
        ]
        try AtomicFile.write(JSONWriter.compact(json) + "\n", to: path)
        dirty = false
    }

    private func saveHistory(_ results: [URLChecker.Key: URLFetch]) throws {
        guard options.confirmRuns > 1, let cachePath = options.cachePath else { return }
        var verdicts: [String: Bool] = [:]
        for (key, f) in results where key.isStatus {
            if let failed = isWebFailure(f) { verdicts[key.url] = failed }
        }
        guard !verdicts.isEmpty else { return }
        let date = ISO8601DateFormatter().string(from: SystemClock.now)
        try LinkHistory.update(
            LinkHistory.path(besideCache: cachePath), with: verdicts, run: LinkHistory.runID, date: date)
    }

    /// Reads the cache file, once (the first question of the run).
    mutating func load() {
        guard entries == nil, let path = options.cachePath else { return }
        entries = [:]
        // A regular file (not a link) of at most 8 MB; entries without a valid MAC are not read.
        guard let data = FileStatus.readRegular(path, maxBytes: StateSeal.maxCacheBytes),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)), json["version"]?.intValue == 1
        else { return }
        for (url, v) in json["entries"]?.objectValue ?? [:] {
            if let f = Self.unsealed(v, kind: "cache", url: url) { entries?[url] = f }
        }
    }

    // MARK: - What may be kept, and for how long

    private func isFresh(_ f: URLFetch) -> Bool {
        Self.isFresh(checkedAt: f.checkedAt, now: SystemClock.now.timeIntervalSince1970, maxAge: options.cacheMaxAge)
            && cacheable(f)
    }

    /// Clocks of runners sharing a cache may differ by this much.
    package static let clockSkew = 300.0

    /// A cache entry is fresh when it was checked at most `maxAge` seconds ago — and not after now
    /// beyond the clock skew: an entry dated in the future (a runner whose clock was ahead, or a
    /// poisoned CI cache) would otherwise never expire, and a dead URL would stay `ok` for ever.
    package static func isFresh(checkedAt: Double, now: Double, maxAge: Double) -> Bool {
        let age = now - checkedAt
        return age >= -clockSkew && age <= maxAge
    }

    private func cacheable(_ f: URLFetch) -> Bool {
        guard let status = f.status, !options.neverCache.contains(status) else { return false }
        // With confirmRuns, a failure is asked again in every run: each failing run must be seen.
        if options.confirmRuns > 1 && isWebFailure(f) == true { return false }
        // Timeouts, connection errors and the address policy say nothing lasting about the URL.
        return f.failure == nil || f.failure == .redirectLoop || f.failure == .tooManyRedirects
    }

    /// Whether a URL's answer is a failure that makes its link broken (true), a success (false), or
    /// neither (nil: not requested, rate-limited, a bot wall, a malformed URL).
    func isWebFailure(_ f: URLFetch) -> Bool? {
        switch f.failure {
        case .timeout?, .unreachable?, .redirectLoop?, .tooManyRedirects?: return true
        case .malformed?, .privateAddress?, .rateLimited?, .overBudget?: return nil
        case nil:
            let status = f.status ?? 0
            if options.accept(for: URLParts.host(of: f.finalURL) ?? "").contains(status) { return false }
            return f.blocked == nil && status != 429 ? true : nil
        }
    }

    // MARK: - Sealed entries

    /// A fetch as a state file keeps it: its JSON and the MAC over it (`StateSeal`).
    static func sealed(_ f: URLFetch, kind: String) -> JSONValue {
        let json = f.json
        guard case .object(var o) = json else { return json }
        o["mac"] = .string(StateSeal.mac(kind, f.url, JSONWriter.compact(json)))
        return .object(o)
    }

    /// The fetch of a state file's entry for `url`, when it is one and its MAC verifies; nil
    /// otherwise (an entry this machine's key did not seal: committed, planted, or from elsewhere).
    static func unsealed(_ json: JSONValue, kind: String, url: String) -> URLFetch? {
        guard let f = URLFetch(json: json), f.url == url,
            StateSeal.verify(json["mac"]?.stringValue, kind, url, JSONWriter.compact(f.json))
        else { return nil }
        return f
    }
}

/// Under `--shard K/N`, shards on one machine share their answers as they come: each cacheable
/// result is also written as a file of its own in `<cache>.shared/` (named by a hash of the URL,
/// written atomically: a reader sees a whole entry or none), and a URL the run's cache lacks is
/// looked up there before it is requested — another shard may have answered it minutes ago.
/// The entry names its URL, so a hash collision is a miss; freshness is the cache's.
struct SharedCacheFolder: Sendable {
    let path: String

    /// `links.json` → `links.shared`.
    static func path(besideCache path: String) -> String {
        (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".shared"
    }

    private func file(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return path + "/" + String(hash, radix: 16) + ".json"
    }

    /// The entry for `url` (one small file: a regular one, not a link, sealed), or nil.
    func entry(_ url: String) -> URLFetch? {
        guard let data = FileStatus.readRegular(file(url), maxBytes: StateSeal.maxSharedEntryBytes),
            let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self))
        else { return nil }
        return LinkCache.unsealed(json, kind: "shared", url: url)
    }

    func write(_ f: URLFetch) {
        try? FileSystem.createFolder(path)
        try? AtomicFile.write(JSONWriter.compact(LinkCache.sealed(f, kind: "shared")) + "\n", to: file(f.url))
    }
}
