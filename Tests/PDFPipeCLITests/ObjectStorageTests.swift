import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

/// Batches in object storage against a real S3 implementation on loopback: moto's server
/// (scripts/s3-fixture.py) with signatures checked. The built program runs as a cluster task would:
/// inputs listed and fetched from the store, results written create-only, reruns and doubled
/// workers, merges of shards in the store. Nothing here reaches beyond 127.0.0.1.
final class ObjectStorageTests: XCTestCase {
    nonisolated(unsafe) static var server: Process?
    nonisolated(unsafe) static var serverInput: Pipe?
    nonisolated(unsafe) static var fixture: [String: String] = [:]
    nonisolated(unsafe) static var uploaded = false
    var dir = ""
    var bucket: String { Self.fixture["bucket"] ?? "" }

    /// The samples, under `in/samples/` (uploaded once for the class).
    static let samplesPrefix = "in/samples"

    override class func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
        server = nil
    }

    override func setUpWithError() throws {
        dir = Repo.temporaryFolder()
        if Self.server == nil { try Self.startServer() }
        if !Self.uploaded {
            let client = try S3Client(settings: settings())
            for name in try Self.samples() {
                try client.put(
                    bucket: bucket, key: "\(Self.samplesPrefix)/\(name)", file: Repo.root + "/samples/" + name)
            }
            Self.uploaded = true
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static func samples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/samples").filter { $0.hasSuffix(".pdf") }
            .sorted()
    }

    /// Starts scripts/s3-fixture.py and reads its endpoint, bucket and key.
    static func startServer() throws {
        guard ExternalToolCheck.pythonHasMoto() else {
            throw Prerequisite.missing(
                "moto[server] is not installed in .build/moto (scripts/setup.sh --test installs it)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ExternalToolCheck.python)
        p.arguments = [Repo.root + "/scripts/s3-fixture.py", "--minutes", "20"]
        p.environment = ProcessInfo.processInfo.environment.merging(["S3_FIXTURE_WATCH_STDIN": "1"]) { $1 }
        let out = Pipe()
        let input = Pipe()
        p.standardOutput = out
        p.standardInput = input
        p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        serverInput = input
        let line = ExternalTool.firstLine(of: out)
        let v = try JSONParser.parse(line)
        for k in ["endpoint", "bucket", "accessKey", "secretKey"] { fixture[k] = v[k]?.stringValue }
        XCTAssertNotNil(fixture["endpoint"], "the fixture printed \(line)")
    }

    /// The store's variables for the program (and the profile files pointed away from $HOME's).
    func environment(secret: String? = nil, extra: [String: String] = [:]) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": Self.fixture["accessKey"] ?? "",
            "AWS_SECRET_ACCESS_KEY": secret ?? Self.fixture["secretKey"] ?? "",
            "AWS_ENDPOINT_URL": Self.fixture["endpoint"] ?? "", "AWS_REGION": "us-east-1",
            "AWS_SHARED_CREDENTIALS_FILE": dir + "/none", "AWS_CONFIG_FILE": dir + "/none",
            // Seven keys a page: the 21 samples are listed in three pages.
            "PDFPIPE_S3_PAGE_SIZE": "7",
        ].merging(extra) { $1 }
    }

    func settings() throws -> S3Settings { try S3Settings.fromEnvironment(environment(), home: dir) }

    func pdfpipe(_ args: [String], _ env: [String: String]) throws -> (status: Int32, output: String) {
        try ExternalTool.run(try Repo.executable(), args, environment: env)
    }

    /// A link audit of the samples from the store into `out` (s3:// or local).
    func audit(_ out: String, _ extra: [String] = [], env: [String: String]? = nil) throws -> (
        status: Int32, output: String
    ) {
        try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", "s3://\(bucket)/\(Self.samplesPrefix)", "--offline",
                "--out", out,
            ]
                + extra, env ?? environment())
    }

    func object(_ key: String) throws -> JSONValue {
        let bytes = try XCTUnwrap(try S3Client(settings: settings()).get(bucket: bucket, key: key), "no \(key)")
        return try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
    }

    func keys(_ prefix: String) throws -> [String] {
        try S3Client(settings: settings()).list(bucket: bucket, prefix: prefix).map(\.key)
    }

    /// A report without what differs by where the inputs were (`workingPath`) and by time.
    func comparable(_ v: JSONValue) -> JSONValue {
        guard case .object(var top) = v else { return v }
        top["generatedAt"] = nil
        top["locations"] = nil
        if case .array(let docs)? = top["documents"] {
            top["documents"] = .array(
                docs.map { d in
                    guard case .object(var o) = d else { return d }
                    o["timings"] = nil
                    o["workingPath"] = nil
                    return .object(o)
                })
        }
        return .object(top)
    }

    func localReport() throws -> JSONValue {
        let out = dir + "/local"
        _ = try pdfpipe(
            ["run", Repo.root + "/pipelines/link-audit.json", Repo.root + "/samples", "--offline", "--out", out], [:])
        return comparable(try JSONParser.parse(String(contentsOfFile: out + "/report.json", encoding: .utf8)))
    }

    // MARK: -

    func testARunFromTheStoreIntoTheStoreIsTheLocalRunsReport() throws {
        let r = try audit("s3://\(bucket)/same")
        XCTAssertEqual(r.status, 1, r.output)  // the samples are broken on purpose
        XCTAssertTrue(r.output.contains("wrote s3://\(bucket)/same/report.json"), r.output)
        let report = try object("same/report.json")
        XCTAssertEqual(report["documents"]?.arrayValue?.count, try Self.samples().count)
        XCTAssertEqual(comparable(report), try localReport())
        // A document's place is its object.
        XCTAssertEqual(
            report["documents"]?[0]?["workingPath"]?.stringValue, "s3://\(bucket)/\(Self.samplesPrefix)/actions.pdf")
        // One result object a document, and the marker.
        XCTAssertEqual(try keys("same/results/").count, try Self.samples().count)
        XCTAssertEqual(try object("same/done.json")["documents"]?.intValue, try Self.samples().count)
        // Links to other objects of the store were followed: gotor.pdf's GoToR to links-internal.pdf
        // (fetched when the link was checked) reads that file's pages, as the local run does.
        XCTAssertTrue(r.output.contains("page number 99 is past the last page of 'links-internal.pdf'"), r.output)
    }

    /// With each document in its own process (`--isolate`), a link to another object of the store
    /// is fetched by the parent when a worker asks: the report is the local run's all the same.
    func testIsolatedWorkersFollowLinksToOtherObjects() throws {
        let r = try audit(dir + "/isolated", ["--isolate"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("page number 99 is past the last page of 'links-internal.pdf'"), r.output)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/isolated/report.json", encoding: .utf8))
        XCTAssertEqual(comparable(report), try localReport())
    }

    func testAWorkListInTheStoreNamesObjectsAndMissingOnesAreSaid() throws {
        let client = try S3Client(settings: settings())
        let list =
            "\(Self.samplesPrefix)/gotor.pdf\ns3://\(bucket)/\(Self.samplesPrefix)/links-internal.pdf\nin/none.pdf\n"
        try client.put(bucket: bucket, key: "lists/three.txt", bytes: Array(list.utf8))
        let r = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", "--inputs-from", "s3://\(bucket)/lists/three.txt",
                "--offline", "--out", dir + "/listed",
            ], environment())
        XCTAssertEqual(r.status, 1, r.output)
        let report = try JSONParser.parse(String(contentsOfFile: dir + "/listed/report.json", encoding: .utf8))
        let docs = report["documents"]?.arrayValue ?? []
        XCTAssertEqual(
            docs.compactMap { $0["path"]?.stringValue },
            ["none.pdf", "samples/gotor.pdf", "samples/links-internal.pdf"])
        XCTAssertEqual(docs.first?["findings"]?[0]?["message"], "the input does not exist")
        let none = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", "--inputs-from", "s3://\(bucket)/lists/none.txt",
                "--offline",
            ],
            environment())
        XCTAssertEqual(none.status, 2, none.output)
        XCTAssertTrue(none.output.contains("no such object"), none.output)
    }

    func testAWrongSecretIsRefusedNamingBucketAndPrefix() throws {
        let r = try audit(dir + "/out", env: environment(secret: "not-the-secret"))
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.contains("s3://\(bucket)/\(Self.samplesPrefix): 403 SignatureDoesNotMatch"), r.output)
        XCTAssertTrue(r.output.contains("check the credentials"), r.output)
        let missing = try pdfpipe(
            [
                "run", Repo.root + "/pipelines/link-audit.json", "s3://no-such-bucket/x", "--offline", "--out",
                dir + "/o",
            ],
            environment())
        XCTAssertEqual(missing.status, 2, missing.output)
        XCTAssertTrue(missing.output.contains("s3://no-such-bucket/x: 404 NoSuchBucket"), missing.output)
    }

    func testCredentialsComeFromTheProfileWhenTheEnvironmentHasNone() throws {
        let credentials = dir + "/credentials"
        try """
        [default]
        aws_access_key_id = wrong
        aws_secret_access_key = wrong
        [ci]
        aws_access_key_id = \(Self.fixture["accessKey"] ?? "")
        aws_secret_access_key = \(Self.fixture["secretKey"] ?? "")
        """.write(toFile: credentials, atomically: true, encoding: .utf8)
        var env = environment(extra: ["AWS_SHARED_CREDENTIALS_FILE": credentials, "AWS_PROFILE": "ci"])
        env["AWS_ACCESS_KEY_ID"] = ""
        env["AWS_SECRET_ACCESS_KEY"] = ""
        let r = try audit(dir + "/out", env: env)
        XCTAssertEqual(r.status, 1, r.output)
        env["AWS_PROFILE"] = "default"
        XCTAssertEqual(try audit(dir + "/out2", env: env).status, 2)
    }

    func testACreateOnlyWriteFindsTheKeyTaken() throws {
        let client = try S3Client(settings: settings())
        XCTAssertEqual(
            try client.put(bucket: bucket, key: "once/x", bytes: Array("a".utf8), createOnly: true), .written)
        XCTAssertEqual(
            try client.put(bucket: bucket, key: "once/x", bytes: Array("b".utf8), createOnly: true), .existed)
        XCTAssertEqual(try client.get(bucket: bucket, key: "once/x"), Array("a".utf8))
        XCTAssertNil(try client.get(bucket: bucket, key: "once/none"))
    }

    func testATaskKilledHalfwayIsFinishedByItsRerunWithoutDuplicates() throws {
        let out = "s3://\(bucket)/killed"
        let killed = try audit(out, ["--jobs", "1"], env: environment(extra: ["PDFPIPE_TEST_KILL_AFTER_RESULTS": "5"]))
        XCTAssertEqual(killed.status, SIGKILL, killed.output)  // killed by the signal
        let before = try keys("killed/results/")
        // At least the 5 results written before the kill; a PUT the store had received whole may
        // still land after the kill (an object exists only once its body is in).
        XCTAssertGreaterThanOrEqual(before.count, 5)
        XCTAssertTrue(try keys("killed/done.json").isEmpty)
        let rerun = try audit(out, ["--jobs", "1"])
        XCTAssertEqual(rerun.status, 1, rerun.output)
        let total = try Self.samples().count
        // Only the unfinished documents were redone: what it resumed and what it wrote add up.
        let resumed = try XCTUnwrap(
            rerun.output.firstMatch(of: /resume: (\d+) of \d+ documents already done/).flatMap { Int($0.1) },
            rerun.output)
        XCTAssertGreaterThanOrEqual(resumed, before.count)
        XCTAssertLessThan(resumed, total)
        let wrote = try XCTUnwrap(
            rerun.output.firstMatch(of: /wrote (\d+) results? to [^;,]*(, (\d+) already written by another attempt)?/),
            rerun.output)
        XCTAssertEqual((Int(wrote.1) ?? 0) + (wrote.3.flatMap { Int($0) } ?? 0), total - resumed, rerun.output)
        let after = try keys("killed/results/")
        XCTAssertEqual(after.count, total)
        XCTAssertEqual(Set(before).subtracting(after), [])
        XCTAssertEqual(comparable(try object("killed/report.json")), try localReport())
        // A third run has nothing left to do and writes nothing twice.
        let third = try audit(out, ["--jobs", "1"])
        XCTAssertTrue(third.output.contains("wrote 0 results"), third.output)
        XCTAssertEqual(try keys("killed/results/").count, total)
    }

    func testTwoWorkersOnOneShardWriteEachResultOnce() throws {
        let out = "s3://\(bucket)/doubled"
        let args = [
            "run", Repo.root + "/pipelines/link-audit.json", "s3://\(bucket)/\(Self.samplesPrefix)", "--offline",
            "--out", out, "--shard", "1/2", "--fail-on", "never",
        ]
        let exe = try Repo.executable()
        let env = environment()
        let results = Locked<[(Int32, String)]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let r = (try? ExternalTool.run(exe, args, environment: env)) ?? (-1, "")
            results.withLock { $0.append(r) }
        }
        for (status, output) in results.withLock({ $0 }) { XCTAssertEqual(status, 0, output) }
        let inShard = try keys("doubled/results/").count
        let shardReport = try object("doubled/shards/1-of-2/report.json")
        XCTAssertEqual(inShard, shardReport["documents"]?.arrayValue?.count)
        XCTAssertGreaterThan(inShard, 0)
        XCTAssertEqual(try keys("doubled/shards/1-of-2/done.json").count, 1)
    }

    func testShardsInTheStoreMergeIntoTheLocalRunsReport() throws {
        for k in 1...3 {
            let r = try audit("s3://\(bucket)/sharded", ["--shard", "\(k)/3", "--fail-on", "never"])
            XCTAssertEqual(r.status, 0, r.output)
        }
        let merged = try pdfpipe(["merge", "s3://\(bucket)/sharded", "--out", "s3://\(bucket)/merged"], environment())
        XCTAssertEqual(merged.status, 1, merged.output)
        XCTAssertEqual(comparable(try object("merged/report.json")), try localReport())
        // A merge missing a shard says which.
        let client = try S3Client(settings: settings())
        try client.delete(bucket: bucket, key: "sharded/shards/2-of-3/report.json")
        let partial = try pdfpipe(["merge", "s3://\(bucket)/sharded", "--out", dir + "/m"], environment())
        XCTAssertEqual(partial.status, 2, partial.output)
        XCTAssertTrue(partial.output.contains("missing shard 2/3"), partial.output)
    }
}

extension ObjectStorageTests {
    /// For the engines' object-storage tests: the fixture's store (started if need be) as the
    /// variables a task gets, and `bucket` made and emptied with the samples under `pdf/`.
    static func freshBucket(_ bucket: String, home: String) throws -> (client: S3Client, store: [String: String]) {
        if server == nil { try startServer() }
        let store: [String: String] = [
            "AWS_ACCESS_KEY_ID": fixture["accessKey"] ?? "", "AWS_SECRET_ACCESS_KEY": fixture["secretKey"] ?? "",
            "AWS_ENDPOINT_URL": fixture["endpoint"] ?? "", "AWS_REGION": "us-east-1",
            "AWS_SHARED_CREDENTIALS_FILE": home + "/none", "AWS_CONFIG_FILE": home + "/none",
        ]
        let client = try S3Client(settings: try S3Settings.fromEnvironment(store, home: home))
        try client.createBucket(bucket)
        for o in try client.list(bucket: bucket, prefix: "") { try client.delete(bucket: bucket, key: o.key) }
        for name in try samples() {
            try client.put(bucket: bucket, key: "pdf/" + name, file: Repo.root + "/samples/" + name)
        }
        return (client, store)
    }
}

enum ExternalToolCheck {
    /// The Python that has moto: scripts/setup.sh --test makes it, in its own virtual environment.
    static let python = Repo.root + "/.build/moto/bin/python3"

    static func pythonHasMoto() -> Bool {
        (try? ExternalTool.run(python, ["-c", "import moto.server, boto3"]))?.status == 0
    }
}

/// The trust issue (#60), 4: nothing bounded what an object store sends. A listing that never
/// ends (a new continuation token on every page) listed for ever with memory growing; a listed
/// 20 GB object was downloaded into TMPDIR although the listing gave its size first. Against a
/// hostile stand-in on loopback (scripts/hostile-s3.py): listings stop at their caps (exit 2,
/// naming the cap), an object past the size cap is not fetched, and one that lies about its size
/// is stopped while it downloads — its document fails, the others are reported.
final class HostileStoreTests: XCTestCase {
    var server: Process?
    var port = 0
    var dir = ""

    override func setUpWithError() throws {
        dir = Repo.temporaryFolder()
        (server, port) = try ExternalTool.startServer(Repo.root + "/scripts/hostile-s3.py")
    }

    override func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func run(_ prefix: String) throws -> (status: Int32, output: String) {
        let env = ProcessInfo.processInfo.environment.merging([
            "AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)", "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "key",
            "AWS_SECRET_ACCESS_KEY": "hostile-store-secret", "PDFPIPE_S3_MAX_KEYS": "5000",
            "PDFPIPE_S3_MAX_OBJECT_MB": "1", "TMPDIR": dir, "no_proxy": "127.0.0.1",
        ]) { $1 }
        return try ExternalTool.run(
            try Repo.executable(),
            ["run", "link-audit", "s3://b/\(prefix)/", "--offline", "--out", dir + "/out-" + prefix, "--quiet"],
            environment: env)
    }

    func log() throws -> [[String]] {
        let r = try ExternalTool.run(
            "/usr/bin/python3",
            [
                "-c",
                "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:\(port)/__log').read().decode())",
            ])
        return (try JSONParser.parse(r.output).arrayValue ?? []).map {
            ($0.arrayValue ?? []).map { $0.stringValue ?? "" }
        }
    }

    func testListingsStopAtTheirCaps() throws {
        for (prefix, message) in [
            ("endless", "more than 5000 keys (PDFPIPE_S3_MAX_KEYS)"),
            ("repeat", "the store sent the continuation token of an earlier page again"),
            ("notoken", "the store says the listing goes on but gives no continuation token"),
        ] {
            let (status, output) = try run(prefix)
            XCTAssertEqual(status, 2, "\(prefix): \(output)")
            XCTAssertTrue(output.contains("s3://b/\(prefix)/: ListingLimit: " + message), output)
        }
        XCTAssertLessThanOrEqual(try log().count, 6 + 2 + 1, "endless: 6 pages of 1,000 keys, then the cap")
    }

    func testObjectsPastTheSizeCapAreNotFetched() throws {
        let (big, bigOutput) = try run("big")
        XCTAssertEqual(big, 1, bigOutput)
        XCTAssertTrue(
            bigOutput.contains("20480 MB, larger than 1 MB (PDFPIPE_S3_MAX_OBJECT_MB): not downloaded"), bigOutput)
        XCTAssertFalse(try log().contains { $0[1].contains("huge.pdf") }, "never requested")
        let (liar, liarOutput) = try run("liar")
        XCTAssertEqual(liar, 1, liarOutput)
        XCTAssertTrue(liarOutput.contains("ObjectTooLarge: larger than 1 MB"), liarOutput)
        XCTAssertEqual(try log().filter { $0[1].contains("small.pdf") }.count, 1, "stopped once, not retried")
        for name in ["big", "liar"] {
            let report = try JSONParser.parse(String(contentsOfFile: "\(dir)/out-\(name)/report.json", encoding: .utf8))
            let docs = report["documents"]?.arrayValue ?? []
            XCTAssertEqual(docs.count, 2, "the other document is reported")
            XCTAssertEqual(docs.filter { $0["status"] == "ok" }.count, 1, name)
        }
        let left = (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).filter {
            $0.contains(".part-")
        }
        XCTAssertEqual(left, [], "no partial download left behind")
    }
}
