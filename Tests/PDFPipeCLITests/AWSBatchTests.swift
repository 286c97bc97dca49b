import Foundation
import PDFBridge
import PDFPipeCore
import TestSupport
import XCTest

/// (#31, 4) AWS Batch without an account: contrib/aws-batch/submit.sh is run with Debian's AWS CLI
/// against a loopback stand-in for the Batch API, so the job definitions go through the CLI's own
/// validation against AWS's service model (unknown keys, wrong types and missing members are
/// refused before anything is sent) and the requests are the ones AWS would get: two definitions,
/// an array of N tasks carrying N in PDFPIPE_SHARDS, and a merge that depends on the array. Then
/// the array's command runs here as Batch runs it (the image's entrypoint, no shell, each task
/// with AWS_BATCH_JOB_ARRAY_INDEX, one task retried), and the merge job's: the merged report is
/// the one-machine run's, and the merge exits as that run does.
final class AWSBatchTests: XCTestCase {
    var dir = ""

    override func setUp() { dir = Repo.temporaryFolder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The Batch API's two calls the script makes, answered as AWS answers them; every request is
    /// logged as a line of JSON.
    static let stub = #"""
        import json, sys, uuid
        from http.server import BaseHTTPRequestHandler, HTTPServer
        log = open(sys.argv[1], "a")
        class Batch(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                log.write(json.dumps({"path": self.path, "body": body}) + "\n"); log.flush()
                if self.path == "/v1/registerjobdefinition":
                    name = body["jobDefinitionName"]
                    out = {"jobDefinitionName": name, "revision": 1,
                           "jobDefinitionArn": "arn:aws:batch:us-east-1:000000000000:job-definition/%s:1" % name}
                elif self.path == "/v1/submitjob":
                    i = str(uuid.uuid4())
                    out = {"jobName": body["jobName"], "jobId": i,
                           "jobArn": "arn:aws:batch:us-east-1:000000000000:job/" + i}
                else:
                    self.send_response(404); self.end_headers(); return
                data = json.dumps(out).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def log_message(self, *args): pass
        server = HTTPServer(("127.0.0.1", 0), Batch)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Runs submit.sh with `shards` against the stand-in; its status, output and the requests.
    func submit(_ shards: String, store: String = "efs") throws -> (
        status: Int32, output: String, requests: [JSONValue]
    ) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/aws") else {
            throw Prerequisite.missing("Debian's awscli (scripts/setup.sh --test installs it)")
        }
        try Self.stub.write(toFile: dir + "/batch.py", atomically: true, encoding: .utf8)
        let log = dir + "/requests-\(shards).jsonl"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [dir + "/batch.py", log]
        let pipe = Pipe()
        server.standardOutput = pipe
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try XCTUnwrap(
            String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self).split(separator: "\n").first)
        // `aws` as the script calls it, pointed at the stand-in (the AWS CLI of Debian 12 has
        // --endpoint-url but not AWS_ENDPOINT_URL).
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\nexec /usr/bin/aws --endpoint-url http://127.0.0.1:\(port) \"$@\"\n".write(
            toFile: dir + "/bin/aws", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/bin/aws")
        let r = try ExternalTool.run(
            "/bin/bash", [Repo.root + "/contrib/aws-batch/submit.sh", shards],
            environment: [
                "PATH": dir + "/bin:/usr/bin:/bin", "JOB_QUEUE": "pdfpipe-queue", "AWS_ACCESS_KEY_ID": "test",
                "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null",
                "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "HOME": dir, "STORE": store,
            ])
        let lines = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (r.status, r.output, try lines.split(separator: "\n").map { try JSONParser.parse(String($0)) })
    }

    func definition(_ name: String) throws -> JSONValue {
        try JSONParser.parse(String(contentsOfFile: Repo.root + "/contrib/aws-batch/\(name).json", encoding: .utf8))
    }

    func testTheArrayJobAndTheMergeRunAsBatchWouldRunThem() throws {
        let (status, output, requests) = try submit("4")
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(
            requests.map { $0["path"]?.stringValue ?? "" },
            ["/v1/registerjobdefinition", "/v1/registerjobdefinition", "/v1/submitjob", "/v1/submitjob"])
        guard requests.count == 4 else { return }
        let shards = try definition("pdfpipe-shards")
        let merge = try definition("pdfpipe-merge")
        XCTAssertEqual(requests[0]["body"], shards, "the definition as the file has it")
        XCTAssertEqual(requests[1]["body"], merge)
        for d in [shards, merge] {
            XCTAssertEqual(d["type"], "container")
            XCTAssertEqual(
                d["containerProperties"]?["image"]?.stringValue, "ghcr.io/pdfpipe/pdfpipe:\(PDFPipeVersion.string)")
        }
        // A task stopped by SIGTERM (Spot reclaim, scale-in) is retried: it exits 143.
        let retries = shards["retryStrategy"]?["evaluateOnExit"]?.arrayValue ?? []
        XCTAssertTrue(retries.contains { $0["onExitCode"] == "143" && $0["action"] == "RETRY" }, "\(retries)")
        XCTAssertGreaterThan(shards["retryStrategy"]?["attempts"]?.intValue ?? 0, 1)

        let array = requests[2]["body"] ?? .null
        XCTAssertEqual(array["arrayProperties"]?["size"]?.intValue, 4)
        XCTAssertEqual(
            array["containerOverrides"]?["environment"], .array([["name": "PDFPIPE_SHARDS", "value": "4"]]),
            "AWS Batch does not export the count: PDFPIPE_SHARDS carries it")
        let arrayID = try XCTUnwrap(
            output.split(separator: "\n").first { $0.hasPrefix("shards: ") }?.split(separator: " ")[1])
        XCTAssertEqual(
            requests[3]["body"]?["dependsOn"], .array([["jobId": .string(String(arrayID))]]),
            "the merge waits for the whole array (no N_TO_N)")

        // The tasks, as Batch runs them: the definition's environment with the submission's
        // overrides, the index, and the command as arguments of the entrypoint. Offline: no network here.
        let volumes = try JobEngine.volumes(in: dir)
        func environment(_ d: JSONValue, _ overrides: JSONValue?) -> [String: String] {
            var env: [String: String] = [:]
            for e in (d["containerProperties"]?["environment"]?.arrayValue ?? []) + (overrides?.arrayValue ?? []) {
                if let n = e["name"]?.stringValue, let v = e["value"]?.stringValue { env[n] = v }
            }
            return env
        }
        let command = (shards["containerProperties"]?["command"]?.arrayValue ?? []).compactMap(\.stringValue)
        XCTAssertFalse(command.contains { $0.contains("$") }, "no shell expands a variable in a Batch command")
        let variables = environment(shards, array["containerOverrides"]?["environment"])
        func task(_ index: Int) throws -> Int32 {
            var env = variables
            env["AWS_BATCH_JOB_ARRAY_INDEX"] = String(index)
            env["AWS_BATCH_JOB_ATTEMPT"] = "1"
            return try JobEngine.run(
                command + ["--offline"], workingDir: "/github/workspace", environment: env, volumes: volumes)
        }
        for index in 0..<4 { XCTAssertEqual(try task(index), 0, "task \(index)") }
        // A retried attempt resumes its folder and leaves the same report.
        let before = try Repo.stableReport(dir + "/data/results/shard-2/report.json")
        XCTAssertEqual(try task(1), 0, "the retried task")
        XCTAssertEqual(try Repo.stableReport(dir + "/data/results/shard-2/report.json"), before)
        XCTAssertEqual(
            (try FileManager.default.contentsOfDirectory(atPath: dir + "/data/results")).sorted(),
            ["shard-1", "shard-2", "shard-3", "shard-4"], "each task's own folder, named by its shard")

        let gate = try JobEngine.run(
            (merge["containerProperties"]?["command"]?.arrayValue ?? []).compactMap(\.stringValue),
            workingDir: "/github/workspace", environment: [:], volumes: volumes)
        try JobEngine.assertOneMachineRun(
            merged: dir + "/data/results/merged/report.json", gate: gate, data: dir + "/data", scratch: dir)
        // A retried merge reads the shards again, not its own earlier report.
        XCTAssertEqual(
            try JobEngine.run(
                (merge["containerProperties"]?["command"]?.arrayValue ?? []).compactMap(\.stringValue),
                workingDir: "/github/workspace", environment: [:], volumes: volumes), gate)
    }

    /// (#46, 5) The object-storage variant: no EFS, the PDFs and the results in S3. Its definitions
    /// go through the CLI's validation; its tasks run against moto's S3 as Batch runs them (the
    /// index, the count in PDFPIPE_SHARDS, the store's keys as the `secrets` would set them), one
    /// retried, then the merge: the one-machine run's report.
    func testTheObjectStorageVariantNeedsNoSharedFileSystem() throws {
        let (status, output, requests) = try submit("3", store: "s3")
        XCTAssertEqual(status, 0, output)
        guard requests.count == 4 else { return XCTFail("\(requests)") }
        let shards = try definition("pdfpipe-shards-s3")
        let merge = try definition("pdfpipe-merge-s3")
        XCTAssertEqual(requests[0]["body"], shards)
        XCTAssertEqual(requests[1]["body"], merge)
        XCTAssertEqual(requests[2]["body"]?["jobDefinition"], "pdfpipe-shards-s3")
        for d in [shards, merge] {
            XCTAssertNil(d["containerProperties"]?["volumes"], "no shared file system")
            XCTAssertNil(d["containerProperties"]?["mountPoints"])
            let secrets = (d["containerProperties"]?["secrets"]?.arrayValue ?? []).compactMap {
                $0["name"]?.stringValue
            }
            XCTAssertEqual(secrets, ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"])
        }
        // Its own bucket: the definitions' bucket name, in a store another engine's test may share.
        let (client, store) = try ObjectStorageTests.freshBucket("pdfpipe-data", home: dir)
        var env = store
        for e in (shards["containerProperties"]?["environment"]?.arrayValue ?? [])
            + (requests[2]["body"]?["containerOverrides"]?["environment"]?.arrayValue ?? [])
        {
            if let n = e["name"]?.stringValue, let v = e["value"]?.stringValue { env[n] = v }
        }
        let command = (shards["containerProperties"]?["command"]?.arrayValue ?? []).compactMap(\.stringValue)
        func task(_ index: Int) throws -> (status: Int32, output: String) {
            var e = env
            e["AWS_BATCH_JOB_ARRAY_INDEX"] = String(index)
            return try ExternalTool.run(try Repo.executable(), command + ["--offline"], environment: e)
        }
        for index in 0..<3 { XCTAssertEqual(try task(index).status, 0, "task \(index)") }
        let retried = try task(1)
        XCTAssertEqual(retried.status, 0, retried.output)
        try JobEngine.assertStoreMerge(
            (merge["containerProperties"]?["command"]?.arrayValue ?? []).compactMap(\.stringValue), client: client,
            store: store)
    }

    func testAnArrayAWSBatchCannotRunIsRefusedBeforeAnythingIsSent() throws {
        for bad in ["1", "10001", "eight"] {
            let (status, output, requests) = try submit(bad)
            XCTAssertEqual(status, 2, "\(bad): \(output)")
            XCTAssertTrue(output.hasPrefix("submit: "), output)
            XCTAssertEqual(requests.count, 0, "nothing is registered or submitted for \(bad)")
        }
    }
}
