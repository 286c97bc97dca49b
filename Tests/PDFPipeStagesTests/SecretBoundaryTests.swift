import Foundation
import PDFPipeCore
import SystemIO
import TestSupport
import XCTest

@testable import PDFPipeStages
@testable import PDFPipeWeb

/// The trust issue (#60), class 1: a secret goes only over TLS, only to the hosts its owner named,
/// and a pipeline file (which a pull request edits) cannot reach the process's secrets; every value
/// known to be secret is scrubbed from what is written (docs/security.md).
final class SecretBoundaryTests: XCTestCase {
    override func tearDown() {
        for v in ["PDFPIPE_SECRETS", "PDFPIPE_GITHUB_TOKEN", "DOCS_TOKEN", "ACTIONS_RUNTIME_TOKEN"] { unsetenv(v) }
    }

    private func options(_ headers: [(name: String, value: String, hosts: String)]) throws(PipelineError)
        -> ExternalOptions
    {
        var section = ExternalSection()
        section.enabled = true
        section.headers = headers.map { h in
            var item = ExternalSection.Header()
            item.name = h.name
            item.value = h.value
            item.hosts = h.hosts
            return item
        }
        return try ExternalOptions(section, path: "external", version: "test")
    }

    private func refusal(_ headers: [(name: String, value: String, hosts: String)]) -> PipelineError? {
        do {
            _ = try options(headers)
            return nil
        } catch {
            return error
        }
    }

    func testAPipelineFileCannotNameTheActionsTokens() {
        setenv("PDFPIPE_GITHUB_TOKEN", "ghs_actiontoken123456", 1)
        setenv("ACTIONS_RUNTIME_TOKEN", "runtime-token-123456", 1)
        // Even handed over by name, these are never expanded.
        setenv("PDFPIPE_SECRETS", "PDFPIPE_GITHUB_TOKEN=attacker.example;GITHUB_TOKEN=attacker.example", 1)
        for name in ["PDFPIPE_GITHUB_TOKEN", "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"]
        {
            let e = refusal([("X-Leak", "${\(name)}", "attacker.example")])
            XCTAssertEqual(e?.path, "external.headers[0].value", name)
            XCTAssertTrue(
                e?.message.contains("never reaches the action's or the runner's tokens") == true, "\(e as Any)")
            XCTAssertFalse(e?.needsEnvironment ?? true, "refused for validate too")
        }
        XCTAssertEqual(
            SecretGrants.parse("PDFPIPE_GITHUB_TOKEN=a.example;ACTIONS_X=b.example;OK=c.example").grants.map(
                \.variable),
            ["OK"])
    }

    func testAVariableGoesOnlyWhereItsOwnerHandedItOver() throws {
        setenv("DOCS_TOKEN", "docs-secret-value-42", 1)
        // Not handed over: refused for run, a warning for validate (needsEnvironment).
        let notHanded = refusal([("Authorization", "Bearer ${DOCS_TOKEN}", "docs.example.com")])
        XCTAssertTrue(notHanded?.message.contains("'DOCS_TOKEN' is not handed to pipeline files") == true)
        XCTAssertTrue(notHanded?.needsEnvironment == true)
        // A header with a variable must name its hosts, and '*' is not a host list.
        setenv("PDFPIPE_SECRETS", "DOCS_TOKEN=docs.example.com", 1)
        for hosts in ["", "*"] {
            let e = refusal([("Authorization", "Bearer ${DOCS_TOKEN}", hosts)])
            XCTAssertEqual(e?.path, "external.headers[0].hosts")
            XCTAssertTrue(e?.message.contains("must name the hosts") == true, "\(e as Any)")
        }
        // The pipeline cannot widen what the owner named.
        let widened = refusal([("Authorization", "Bearer ${DOCS_TOKEN}", "docs.example.com,attacker.example")])
        XCTAssertTrue(widened?.message.contains("'attacker.example' is not one PDFPIPE_SECRETS lets") == true)

        let o = try options([
            ("Authorization", "Bearer ${DOCS_TOKEN}", "docs.example.com"), ("X-Plain", "visible", ""),
        ])
        XCTAssertEqual(
            o.headerLines(for: "https://docs.example.com/a"),
            ["Authorization: Bearer docs-secret-value-42", "X-Plain: visible"])
        XCTAssertEqual(
            o.headerLines(for: "https://DOCS.example.com:443/a"), o.headerLines(for: "https://docs.example.com/a"))
        for url in [
            "http://docs.example.com/a", "https://docs.example.com:8443/a", "https://attacker.example/a",
            "https://docs.example.com.attacker.example/", "https://attacker.example#@docs.example.com/",
            "https://docs.example.com@attacker.example/", "ftp://docs.example.com/",
        ] {
            XCTAssertEqual(o.headerLines(for: url), ["X-Plain: visible"], url)
        }
        // A port the owner named.
        setenv("PDFPIPE_SECRETS", " DOCS_TOKEN = docs.example.com:8443 ; ", 1)
        let ported = try options([("Authorization", "Bearer ${DOCS_TOKEN}", "docs.example.com")])
        XCTAssertEqual(ported.headerLines(for: "https://docs.example.com:8443/").count, 1)
        XCTAssertEqual(ported.headerLines(for: "https://docs.example.com/"), [])
    }

    func testTheGitHubTokenGoesOverHTTPSToGitHubsHostsOnly() throws {
        setenv("PDFPIPE_GITHUB_TOKEN", "ghs_0123456789abcdef", 1)
        let o = try options([])
        for url in ["https://github.com/o/r", "https://api.github.com/x", "https://raw.githubusercontent.com/o/r/f"] {
            XCTAssertEqual(o.headerLines(for: url), ["Authorization: Bearer ghs_0123456789abcdef"], url)
        }
        for url in [
            "http://github.com/o/r", "http://api.github.com/x", "https://github.com:8443/o", "https://gist.github.com/",
            "https://github.com.attacker.example/", "https://attacker.example/?github.com",
        ] {
            XCTAssertEqual(o.headerLines(for: url), [], url)
        }
    }

    func testEverySpellingOfASecretIsScrubbed() {
        let secret = "tok/en+with space&more"
        Secrets.add(secret)
        Secrets.add("short")  // below the minimum: not scrubbed
        let spellings = [
            secret, "tok%2Fen%2Bwith%20space%26more", "tok%2fen%2bwith%20space%26more", "tok%2Fen%2Bwith+space%26more",
            "tok\\/en+with space&more", "tok/en+with space&amp;more", "%74ok%2Fen%2Bwith%20space%26mor%65",
        ]
        for s in spellings {
            let text = "before \(s) after"
            XCTAssertEqual(Secrets.scrub(text), "before *** after", s)
        }
        XCTAssertEqual(Secrets.scrub("short words stay"), "short words stay")
        XCTAssertEqual(Secrets.scrub("nothing here"), "nothing here")
    }

    /// Files written through AtomicFile are scrubbed, a secret split between two buffered pieces
    /// past the writer's 1 MB buffer included.
    func testFilesWrittenAreScrubbedAcrossPieces() throws {
        let secret = "piecewise-secret-0123456789"
        Secrets.add(secret)
        let dir = NSTemporaryDirectory() + "pdfpipe-secrets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let w = try AtomicFile.Writer(path: dir + "/r.json")
        let filler = String(repeating: "x", count: (1 << 20) - 10)
        w.write(filler)
        w.write(String(secret.prefix(12)))
        w.write(String(secret.dropFirst(12)) + "\n")
        try w.commit()
        let text = try String(contentsOfFile: dir + "/r.json", encoding: .utf8)
        XCTAssertFalse(text.contains("piecewise"), "split at the buffer's end")
        XCTAssertTrue(text.hasSuffix("x***\n"))
        XCTAssertEqual(text.utf8.count, filler.utf8.count + 4)
        try AtomicFile.write("{\"u\": \"https://h/?t=piecewise-secret-0123456789\"}", to: dir + "/s.json")
        XCTAssertEqual(try String(contentsOfFile: dir + "/s.json", encoding: .utf8), "{\"u\": \"https://h/?t=***\"}")
        // Images are not text: written as they are.
        try AtomicFile.write(Array(secret.utf8), to: dir + "/i.png", binary: true)
        XCTAssertEqual(FileSystem.contents(dir + "/i.png"), Array(secret.utf8))
    }
}

/// The trust issue (#60), class 2: workspace state is evidence, not authority (`StateSeal`).
final class StateSealTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pdfpipe-seal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/work", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testTheKeyLivesOutsideTheWorkspaceAndIsMadeOnce() throws {
        let env = ["HOME": dir + "/home"]
        let first = StateSeal.load(environment: env, working: dir + "/work")
        XCTAssertEqual(first.source, .file(dir + "/home/.cache/pdfpipe/state.key"))
        XCTAssertEqual(first.bytes.count, 64, "32 random bytes, in hex")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/home/.cache/pdfpipe/state.key")
        XCTAssertEqual((attributes[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o600)
        XCTAssertEqual(StateSeal.load(environment: env, working: dir + "/work").bytes, first.bytes, "read back")
        XCTAssertEqual(
            StateSeal.load(
                environment: ["XDG_CACHE_HOME": dir + "/xdg", "HOME": dir + "/home"], working: dir + "/work"
            )
            .source, .file(dir + "/xdg/pdfpipe/state.key"))
        // A key the workflow gives wins, and is a secret.
        let given = StateSeal.load(
            environment: ["PDFPIPE_STATE_KEY": "from-a-ci-secret-1234", "HOME": dir], working: dir)
        XCTAssertEqual(given.source, .environment)
        XCTAssertEqual(Secrets.scrub("x from-a-ci-secret-1234 y"), "x *** y")
    }

    func testAKeyAPullRequestCouldPlantIsNotUsed() throws {
        // HOME inside the working folder: a pull request could commit .cache/pdfpipe/state.key.
        let inside = StateSeal.load(environment: ["HOME": dir + "/work"], working: dir + "/work")
        guard case .thisRunOnly(let why) = inside.source else { return XCTFail("\(inside.source)") }
        XCTAssertTrue(why.contains("inside the working folder"), why)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/work/.cache"), "nothing written there")
        // A key file that is a symbolic link (to a file anyone can read) is not followed.
        try FileManager.default.createDirectory(atPath: dir + "/home/.cache/pdfpipe", withIntermediateDirectories: true)
        try String(repeating: "k", count: 64).write(toFile: dir + "/known", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/home/.cache/pdfpipe/state.key", withDestinationPath: dir + "/known")
        let linked = StateSeal.load(environment: ["HOME": dir + "/home"], working: dir + "/work")
        XCTAssertNotEqual(linked.bytes, Array(String(repeating: "k", count: 64).utf8))
        guard case .thisRunOnly = linked.source else { return XCTFail("\(linked.source)") }
    }

    func testAnEntryVerifiesOnlyUnderItsKeyKindAndContent() {
        let key = Array("0123456789abcdef0123456789abcdef".utf8)
        let mac = StateSeal.mac("cache", "https://a.example/", "{\"status\":200}", key: key)
        XCTAssertEqual(mac.count, 64)
        XCTAssertTrue(StateSeal.verify(mac, "cache", "https://a.example/", "{\"status\":200}", key: key))
        XCTAssertFalse(StateSeal.verify(mac, "cache", "https://a.example/", "{\"status\":404}", key: key))
        XCTAssertFalse(StateSeal.verify(mac, "cache", "https://b.example/", "{\"status\":200}", key: key))
        XCTAssertFalse(StateSeal.verify(mac, "shared", "https://a.example/", "{\"status\":200}", key: key))
        XCTAssertFalse(
            StateSeal.verify(mac, "cache", "https://a.example/", "{\"status\":200}", key: Array(key.reversed())))
        XCTAssertFalse(StateSeal.verify(nil, "cache", "https://a.example/", "{\"status\":200}", key: key))
        XCTAssertFalse(StateSeal.verify("", "cache", "https://a.example/", "{\"status\":200}", key: key))
    }

    func testTheHistoryIsClampedPrunedAndBounded() throws {
        let path = dir + "/work/links.history.json"
        func entry(_ failures: String, last: String, sealed: Bool = true, url: String) -> String {
            let e = LinkHistory.Entry(
                failures: Int(failures) ?? 1, firstFailed: "2026-01-01T00:00:00Z", lastFailed: last, run: "r")
            let mac = sealed ? StateSeal.mac("history", url, LinkHistory.sealed(url, e)) : "0"
            return
                #""\#(url)": {"failures": \#(failures), "firstFailed": "2026-01-01T00:00:00Z", "lastFailed": "\#(last)", "run": "r", "mac": "\#(mac)"}"#
        }
        let text =
            "{\"version\": 1, \"entries\": {"
            + [
                entry("2", last: "2026-12-01T00:00:00Z", url: "https://sealed.example/"),
                entry("5", last: "2026-12-01T00:00:00Z", sealed: false, url: "https://planted.example/"),
                entry("9223372036854775807", last: "2026-12-01T00:00:00Z", sealed: false, url: "https://huge.example/"),
                entry("3", last: "2025-01-01T00:00:00Z", url: "https://old.example/"),
            ].joined(separator: ", ") + "}}"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = LinkHistory.load(path)
        XCTAssertEqual(
            loaded.entries.keys.sorted(), ["https://old.example/", "https://sealed.example/"],
            "unsealed entries not read")
        var h = loaded
        h.record(["https://sealed.example/": true], run: "next", date: "2026-12-05T00:00:00Z")
        h.prune(now: "2026-12-05T00:00:00Z")
        XCTAssertEqual(h.entries.keys.sorted(), ["https://sealed.example/"], "older than 180 days: dropped")
        XCTAssertEqual(h.entries["https://sealed.example/"]?.failures, 3)
        // A count at the limit stays there (no overflow, however many runs).
        var top = LinkHistory(entries: [
            "u": .init(failures: LinkHistory.maxFailures, firstFailed: "", lastFailed: "", run: "a")
        ])
        top.record(["u": true], run: "b", date: "2026-12-05T00:00:00Z")
        XCTAssertEqual(top.entries["u"]?.failures, LinkHistory.maxFailures)
        // At most maxEntries, the most recently failed kept.
        var many = LinkHistory()
        for i in 0..<(LinkHistory.maxEntries + 5) {
            let day = i < 5 ? "2026-10-01T00:00:00Z" : String(format: "2026-11-%02dT00:00:00Z", 1 + i % 28)
            many.entries["u\(i)"] = .init(failures: 1, firstFailed: day, lastFailed: day, run: "r")
        }
        many.prune(now: "2026-12-05T00:00:00Z")
        XCTAssertEqual(many.entries.count, LinkHistory.maxEntries)
        XCTAssertFalse(many.entries.values.contains { $0.lastFailed == "2026-10-01T00:00:00Z" })
    }
}
